"""ratingd's rating methods in Python, over the same C++ core as `ratingctl` (docs/PYTHON.md).

    import ratingd
    board = ratingd.rate("battles.jsonl", "elo-bt", params={"ci": "sandwich"})
    board.to_pandas()          # rank, agent, rating, ci_low, ci_high, ...
    ratingd.methods()          # every method and its parameters (`ratingctl methods`)
"""
from ._client import Client
from ._commands import evaluate, game, simulate
from ._leaderboard import Leaderboard
from ._online import OnlinePool
from ._rate import methods, rate, read

__all__ = ["Client", "Leaderboard", "OnlinePool", "evaluate", "game", "methods", "rate", "read",
           "simulate"]
