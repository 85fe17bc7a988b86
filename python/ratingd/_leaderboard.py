"""Leaderboard: the document `ratingctl rate` prints, with a DataFrame view of its ranking."""
import copy

# to_pandas' columns, in order: the three every method gives, then those that some do.
_ALWAYS = ("rank", "agent", "rating")
_OPTIONAL = ("ci_low", "ci_high", "rank_low", "rank_high", "games", "provisional", "mass", "sem",
             "rd", "volatility", "last_played")


class Leaderboard:
    """A ranking with its method's extras: the `ratingctl rate` document (docs/CONTRACTS.md
    §2.2) of one method on one input. Ratings and intervals as the method gives them."""

    def __init__(self, document):
        self._document = document

    @property
    def method(self):
        return self._document.get("method")

    @property
    def ranking(self):
        """The ranked agents, best first: a list of dicts (rank, agent, rating, ...)."""
        return self._document.get("ranking", [])

    @property
    def extra(self):
        """The method's `extra` dict: its parameters, seed and method-specific figures."""
        return self._document.get("extra", {})

    def to_dict(self):
        """The document `ratingctl rate` prints for the same input, method, parameters and
        seed (a deep copy)."""
        return copy.deepcopy(self._document)

    def to_pandas(self):
        """One row per ranked agent: rank, agent, rating and, where the method gives them,
        ci_low, ci_high, rank_low, rank_high, games, provisional, mass, sem, and glicko2's
        rd, volatility, last_played (an RFC 3339 string)."""
        import pandas as pd

        rows = self.ranking
        columns = list(_ALWAYS) + [c for c in _OPTIONAL if any(c in r for r in rows)]
        return pd.DataFrame({c: [r.get(c) for r in rows] for c in columns}, columns=columns)

    def __len__(self):
        return len(self.ranking)

    def __repr__(self):
        top = ", ".join("%s %.4g" % (r["agent"], r["rating"]) for r in self.ranking[:3])
        more = ", ..." if len(self.ranking) > 3 else ""
        return "Leaderboard(%s: %d agents, %s results; %s%s)" % (
            self.method, self._document.get("agents", 0), self._document.get("results", 0),
            top, more)
