"""OnlinePool: one pool of ratingd's online models, fed result by result in a notebook."""
import json
import numbers
from collections.abc import Mapping, Sequence

from . import _core
from ._leaderboard import Leaderboard
from ._rate import (_BATTLE_COLUMNS, _at_rows, _battle_codes, _battle_records, _param_text,
                    _standings)


class OnlinePool:
    """One pool as ratingd keeps it: elo, sco and ml updated result by result, with the
    bootstrap replicas seeded by the pool's name (docs/MODELS.md §5.6), so that the same
    results in the same order give the numbers of `ratingctl rate --bootstrap-replicas` and
    of ratingd's leaderboards.

    params: ratingd's --param as a dict, {"elo.k": 24, "ml.max_agents": 1000}.
    """

    def __init__(self, pool="", models=("elo", "sco", "ml"), params=None,
                 bootstrap_replicas=16, provisional_games=20):
        if not isinstance(pool, str):
            raise TypeError("pool: a string, not %s" % type(pool).__name__)
        if isinstance(models, str) or not isinstance(models, Sequence) or \
                not all(isinstance(m, str) for m in models):
            raise TypeError("models: a sequence of model names (elo, sco, ml)")
        if params is not None and not isinstance(params, Mapping):
            raise TypeError("params: a dict of MODEL.KEY to value, not %s" % type(params).__name__)
        for name, value in (("bootstrap_replicas", bootstrap_replicas),
                            ("provisional_games", provisional_games)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError("%s: an integer, not %s" % (name, type(value).__name__))
            if value < 0:
                raise ValueError("%s: %d is not >= 0" % (name, value))
        if bootstrap_replicas == 1 or bootstrap_replicas > 256:
            raise ValueError("bootstrap_replicas: %d; 0 (none) or 2..256" % bootstrap_replicas)
        assignments = ["%s=%s" % (k, _param_text(k, v)) for k, v in (params or {}).items()]
        self._pool = _core.OnlinePool(pool, list(models), assignments, int(bootstrap_replicas),
                                      int(provisional_games))
        self.pool = pool
        self.models = tuple(models)

    def add(self, standings, game_id=None, weight=1.0):
        """Applies one result: standings best first, each an agent name or a list of tied
        names. A game_id seen before is skipped, as ratingd skips it; returns whether the
        result was applied. ValueError for a bad result (nothing applied)."""
        if game_id is not None and not isinstance(game_id, str):
            raise TypeError("game_id: a string, not %s" % type(game_id).__name__)
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise TypeError("weight: a number, not %s" % type(weight).__name__)
        return self._pool.add(_standings(standings, "standings"), game_id, float(weight))

    def add_battles(self, df):
        """Applies a DataFrame of battles in row order, each `model_a` first as the battles
        reader takes a line; returns the count applied. A bad row raises ValueError naming
        its label; the rows before it are applied."""
        codes = _battle_codes(df) if all(c in df.columns for c in _BATTLE_COLUMNS) else None
        if codes is not None:  # every row valid: by code, without a record per battle
            return self._pool.add_battle_codes(*codes)
        records = _at_rows(lambda: _battle_records(df), df.index)
        return _at_rows(lambda: self._pool.add_records(records), df.index)

    def leaderboard(self, model):
        """The model's Leaderboard now (ml: solved at the call, on a copy of the pool)."""
        return Leaderboard(json.loads(self._pool.leaderboard(model)))

    def suggest(self, strategy="ucb", n=10, exploration=0.1, seed=0):
        """The `ratingctl suggest` document for this pool, as a dict."""
        if not isinstance(strategy, str):
            raise TypeError("strategy: a string, not %s" % type(strategy).__name__)
        for name, value in (("n", n), ("seed", seed)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
                raise TypeError("%s: a non-negative integer" % name)
        return json.loads(self._pool.suggest(strategy, int(n), float(exploration), int(seed)))

    @property
    def results(self):
        return self._pool.results

    @property
    def agents(self):
        return self._pool.agents

    def __repr__(self):
        return "OnlinePool(%r: %s; %d agents, %d results)" % (
            self.pool, ", ".join(self.models), self.agents, self.results)
