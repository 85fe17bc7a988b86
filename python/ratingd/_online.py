"""OnlinePool: one pool of ratingd's online models, fed result by result in a notebook."""
import datetime
import json
import math
import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from . import _core
from ._leaderboard import Leaderboard
from ._rate import (_BATTLE_COLUMNS, _at_rows, _battle_codes, _battle_records, _param_text,
                    _standings, _tstamps)


class OnlinePool:
    """One pool as ratingd keeps it: elo, sco and ml (and glicko2 when `models` names it)
    updated result by result, with the bootstrap replicas seeded by the pool's name
    (docs/MODELS.md §5.6), so that the same results in the same order give the numbers of
    `ratingctl rate --bootstrap-replicas` and of ratingd's leaderboards. glicko2 reads each
    result's event time (docs/MODELS.md §10).

    params: ratingd's --param as a dict, {"elo.k": 24, "ml.max_agents": 1000,
    "glicko2.period": "12h"}.
    """

    def __init__(self, pool="", models=("elo", "sco", "ml"), params=None,
                 bootstrap_replicas=16, provisional_games=20, provisional_rd=110.0):
        if not isinstance(pool, str):
            raise TypeError("pool: a string, not %s" % type(pool).__name__)
        if isinstance(models, str) or not isinstance(models, Sequence) or \
                not all(isinstance(m, str) for m in models):
            raise TypeError("models: a sequence of model names (elo, sco, ml, glicko2)")
        if params is not None and not isinstance(params, Mapping):
            raise TypeError("params: a dict of MODEL.KEY to value, not %s" % type(params).__name__)
        for name, value in (("bootstrap_replicas", bootstrap_replicas),
                            ("provisional_games", provisional_games)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError("%s: an integer, not %s" % (name, type(value).__name__))
            if value < 0:
                raise ValueError("%s: %d is not >= 0" % (name, value))
        if isinstance(provisional_rd, bool) or not isinstance(provisional_rd, numbers.Real):
            raise TypeError("provisional_rd: a number, not %s" % type(provisional_rd).__name__)
        if not 0 <= provisional_rd < math.inf:
            raise ValueError("provisional_rd: %r is not a finite number >= 0" % provisional_rd)
        if bootstrap_replicas == 1 or bootstrap_replicas > 256:
            raise ValueError("bootstrap_replicas: %d; 0 (none) or 2..256" % bootstrap_replicas)
        assignments = ["%s=%s" % (k, _param_text(k, v)) for k, v in (params or {}).items()]
        self._pool = _core.OnlinePool(pool, list(models), assignments, int(bootstrap_replicas),
                                      int(provisional_games), float(provisional_rd))
        self.pool = pool
        self.models = tuple(models)

    def add(self, standings, game_id=None, weight=1.0, event_time=None):
        """Applies one result: standings best first, each an agent name or a list of tied
        names. A game_id seen before is skipped, as ratingd skips it; returns whether the
        result was applied. event_time: when the game was played, a datetime (naive ones
        are taken as UTC) or seconds since the Unix epoch; glicko2 reads it (None: the
        pool's latest so far). ValueError for a bad result (nothing applied)."""
        if game_id is not None and not isinstance(game_id, str):
            raise TypeError("game_id: a string, not %s" % type(game_id).__name__)
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise TypeError("weight: a number, not %s" % type(weight).__name__)
        return self._pool.add(_standings(standings, "standings"), game_id, float(weight),
                              _seconds(event_time))

    def add_battles(self, df):
        """Applies a DataFrame of battles in row order, each `model_a` first as the battles
        reader takes a line; returns the count applied. A bad row raises ValueError naming
        its label; the rows before it are applied."""
        codes = _battle_codes(df) if all(c in df.columns for c in _BATTLE_COLUMNS) else None
        if codes is not None:  # every row valid: by code, without a record per battle
            # Only glicko2 reads times: none are converted for the other models.
            tstamp = (_tstamps(df["tstamp"]) if "glicko2" in self.models and
                      "tstamp" in df.columns else np.empty(0))
            return _at_rows(lambda: self._pool.add_battle_codes(*codes, tstamp), df.index)
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


def _seconds(event_time):
    """An event time as seconds since the Unix epoch, or None."""
    if event_time is None:
        return None
    if isinstance(event_time, datetime.datetime):  # pandas.Timestamp is one too
        if event_time.tzinfo is None:
            event_time = event_time.replace(tzinfo=datetime.timezone.utc)
        return event_time.timestamp()
    if isinstance(event_time, bool) or not isinstance(event_time, numbers.Real):
        raise TypeError("event_time: a datetime or seconds since the Unix epoch, not %s" %
                        type(event_time).__name__)
    return float(event_time)
