"""evaluate(), simulate() and game(): `ratingctl eval`, `simulate` and `game`, their flags as
keywords, their documents as Python values."""
import io
import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence

from . import _core
from ._rate import _is_dataframe, _param_list, _records, _seed

_EVAL = {"format": None, "pool": "", "ranking": "", "method": "", "truth": "", "params": None,
         "methods": (), "splits": 10, "test_fraction": 0.1, "k": 3, "agre_steps": 0,
         "seed": 0}
_SIMULATE = {"algorithms": (), "params": None, "rounds": 10000, "seeds": 100, "k": (3, 8),
             "window": 250, "seed": 0, "threads": 0}


def evaluate(data, **flags):
    """`ratingctl eval` on `data` (a path; or a DataFrame or list of results as rate() takes
    them, written to a temporary file first) as a dict. Keywords are eval's flags: ranking
    or method, truth (a path, or a list of agents best first), params, methods (a list),
    splits, test_fraction, k, agre_steps, seed, format, pool. A list's `source` (and a
    DataFrame's `input`) in the document is "list" ("DataFrame", "results")."""
    options = _options("evaluate", flags, _EVAL)
    with tempfile.TemporaryDirectory(prefix="ratingd-") as work:
        path, fmt = _as_file(data, work, options["format"])
        ranking = _ranking_file(options["ranking"], "ranking", work)
        truth = _ranking_file(options["truth"], "truth", work)
        document = _core.eval(path, fmt, options["pool"], ranking, options["method"], truth,
                              _param_list(options["params"]), _strings(options["methods"],
                                                                       "methods"),
                              int(options["splits"]), float(options["test_fraction"]),
                              int(options["k"]), int(options["agre_steps"]),
                              _seed(options["seed"]))
    document = json.loads(document)
    # Sources that were Python values, not files: named as such, not by their temporary file.
    if not isinstance(data, (str, os.PathLike)):
        document["input"] = "DataFrame" if _is_dataframe(data) else "results"
    for key in ("ranking", "truth"):
        if not isinstance(options[key], (str, os.PathLike)) and key in document:
            document[key]["source"] = "list"
    return document


def simulate(generator, **flags):
    """`ratingctl simulate --generator GENERATOR`: returns (agre, curves), two DataFrames:
    one row per algorithm and k with agre, agre_ci95, final_gre, final_gre_zero_fraction
    (and the document's other fields in agre.attrs["document"]); the windowed GRE curves
    (algorithm, k, round, gre_mean, gre_ci95). Keywords are simulate's flags: algorithms (a
    list), params, rounds, seeds, k (a list), window, seed, threads."""
    import pandas as pd

    options = _options("simulate", flags, _SIMULATE)
    k = options["k"]
    if isinstance(k, int):
        k = [k]
    document, curves = _core.simulate(
        generator, _strings(options["algorithms"], "algorithms"), _param_list(options["params"]),
        int(options["rounds"]), int(options["seeds"]), [int(v) for v in k],
        int(options["window"]), _seed(options["seed"]), int(options["threads"]))
    document = json.loads(document)
    agre = pd.DataFrame(document.get("results", []))
    agre.attrs["document"] = document
    return agre, pd.read_csv(io.StringIO(curves))


def game(game, solver="ne", *, params=None):
    """`ratingctl game --solver SOLVER` on `game` (a dict as the game JSON file holds it:
    players and payoffs; or its path) as a dict."""
    with tempfile.TemporaryDirectory(prefix="ratingd-") as work:
        if isinstance(game, Mapping):
            path = os.path.join(work, "game.json")
            with open(path, "w") as f:
                json.dump(game, f)
        elif isinstance(game, (str, os.PathLike)):
            path = os.fspath(game)
        else:
            raise TypeError("game: a dict or a path, not %s" % type(game).__name__)
        if not isinstance(solver, str):
            raise TypeError("solver: a string, not %s" % type(solver).__name__)
        return json.loads(_core.game(path, solver, _param_list(params)))


def _options(command, flags, defaults):
    unknown = sorted(set(flags) - set(defaults))
    if unknown:
        raise TypeError("%s: unknown keyword %s; known: %s"
                        % (command, ", ".join(unknown), ", ".join(sorted(defaults))))
    return {**defaults, **flags}


def _strings(values, name):
    if isinstance(values, str) or not isinstance(values, Sequence) or \
            not all(isinstance(v, str) for v in values):
        raise TypeError("%s: a list of strings" % name)
    return list(values)


def _ranking_file(ranking, name, work):
    """A ranking given as a path, or as a list of agents best first (written to a file)."""
    if isinstance(ranking, (str, os.PathLike)):
        return os.fspath(ranking)
    agents = _strings(ranking, name)
    path = os.path.join(work, name + ".txt")
    with open(path, "w") as f:
        f.write("".join(a + "\n" for a in agents))
    return path


def _as_file(data, work, fmt):
    """(path, format) of data: a path as it is; a battles DataFrame as battles JSON lines; a
    results DataFrame or list of results as GameResult JSON lines."""
    if isinstance(data, (str, os.PathLike)):
        return os.fspath(data), fmt
    if fmt is not None:
        raise TypeError("format= applies to a path only")
    path = os.path.join(work, "data.jsonl")
    if _is_dataframe(data) and {"model_a", "model_b", "winner"} <= set(map(str, data.columns)):
        columns = [c for c in ("model_a", "model_b", "winner", "question_id", "task", "score")
                   if c in data.columns]
        data[columns].to_json(path, orient="records", lines=True)
        return path, "battles"
    records, _ = _records(data, "")
    with open(path, "w") as f:
        for i, result in enumerate(_results_of(records.columns())):
            f.write(json.dumps({"pool": "data", "game_id": "r%d" % (i + 1), **result}) + "\n")
    return path, "jsonl"


def _results_of(columns):
    """GameResult dicts (standings, weight, task) of Records.columns(), in order."""
    current, out = -1, None
    for r, agent, rank, score, weight, task in zip(columns["result"], columns["agent"],
                                                   columns["rank"], columns["score"],
                                                   columns["weight"], columns["task"]):
        if r != current:
            if out is not None:
                yield out
            current, out = r, {"standings": [], "weight": weight}
            if task:
                out["task"] = task
        standing = {"agent": agent, "rank": rank}
        if not math.isnan(score):
            standing["score"] = score
        out["standings"].append(standing)
    if out is not None:
        yield out
