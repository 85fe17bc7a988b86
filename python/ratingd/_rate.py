"""rate(), read() and methods(): data into records, records into a Leaderboard."""
import json
import math
import numbers
import os
import re
from collections.abc import Mapping, Sequence

import numpy as np

from . import _core
from ._leaderboard import Leaderboard

_AT_ROW = re.compile(r"^#(\d+): (.*)$", re.S)
_BATTLE_COLUMNS = ("model_a", "model_b", "winner")
_RESULT_COLUMNS = ("game_id", "agent", "rank")


def methods():
    """Every method of `ratingctl rate` as the method table gives it (`ratingctl methods`):
    a list of {name, family, input, params: [{name, type, default, min, max, min_exclusive,
    max_exclusive, help}]}."""
    return json.loads(_core.methods_json())


def rate(data, method="elo", *, format=None, params=None, seed=None, pool=None):
    """Rates `data` with `method` and returns a Leaderboard.

    data: a path (its format from the extension, or format=, as `ratingctl rate --input`);
    a pandas DataFrame of battles (model_a, model_b, winner; optional question_id or task,
    score) or of results, one row per agent and result (game_id, agent, rank; optional
    weight, equal on a result's rows, score, task); or a sequence of results, each a list of
    standings best first, where an inner list is a tie: [["a"], ["b", "c"]].
    params: the method's parameters as a dict of numbers, booleans or strings
    ({"ci": "sandwich"}); seed: the batch methods' sampling seed (default 0); pool: the pool
    of a JSONL file (or of a DataFrame's `pool` column) to rate.

    Raises ValueError for bad data (naming the row, or FILE:LINE), an unknown method or
    parameter (listing the valid ones); TypeError for data or parameters of the wrong type.
    """
    if not isinstance(method, str):
        raise TypeError("method: a string, not %s" % type(method).__name__)
    settings = (method, _param_list(params), _seed(seed), _pool(pool))
    if isinstance(data, (str, os.PathLike)):
        if format is not None and not isinstance(format, str):
            raise TypeError("format: a string, not %s" % type(format).__name__)
        document = _core.rate_file(os.fspath(data), format, *settings, 0, 20)
    else:
        if format is not None:
            raise TypeError("format= applies to a path only")
        votes = _battle_votes(data, method, settings[3])
        if votes is not None:
            document = _core.rate_battle_votes(*votes, *settings[:3])
        else:
            records, where = _records(data, settings[3])
            document = _core.rate_records(records, *settings, 0, 20, where)
    return Leaderboard(json.loads(document))


def read(path, format=None):
    """The results of a file as the readers parse them (the same errors): a DataFrame with
    one row per agent and result: pool, game_id, agent, rank, weight, score (NaN: none),
    task (None: none). Records without a game id of their own (PrefLib, score tables) get
    "<file name>#<n>", n counting results from 1."""
    import pandas as pd

    if not isinstance(path, (str, os.PathLike)):
        raise TypeError("path: a str or os.PathLike, not %s" % type(path).__name__)
    records = _core.read_file(os.fspath(path), format)
    c = records.columns()
    name = os.path.basename(os.fspath(path))
    result = np.asarray(c["result"], dtype=np.int64)
    game_id = [g if g else "%s#%d" % (name, r + 1) for g, r in zip(c["game_id"], result)]
    none = lambda values: [v if v else None for v in values]  # noqa: E731
    return pd.DataFrame({
        "pool": none(c["pool"]), "game_id": game_id, "agent": c["agent"],
        "rank": np.asarray(c["rank"], dtype=np.int64),
        "weight": np.asarray(c["weight"], dtype=np.float64),
        "score": np.asarray(c["score"], dtype=np.float64), "task": none(c["task"])})


# --- parameters ---

def _param_list(params):
    if params is None:
        return []
    if not isinstance(params, Mapping):
        raise TypeError("params: a dict of parameter name to value, not %s"
                        % type(params).__name__)
    out = []
    for name, value in params.items():
        if not isinstance(name, str):
            raise TypeError("params: parameter names are strings, not %s" % type(name).__name__)
        out.append("%s=%s" % (name, _param_text(name, value)))
    return out


def _param_text(name, value):
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return value
    raise TypeError("params['%s']: a number, boolean or string, not %s"
                    % (name, type(value).__name__))


def _seed(seed):
    if seed is None:
        return 0
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError("seed: an integer, not %s" % type(seed).__name__)
    if not 0 <= int(seed) < 2 ** 64:
        raise ValueError("seed: %d is outside [0, 2**64)" % int(seed))
    return int(seed)


def _pool(pool):
    if pool is None:
        return ""
    if not isinstance(pool, str):
        raise TypeError("pool: a string, not %s" % type(pool).__name__)
    return pool


# --- data into records ---

def _of_pool(data, pool):
    """The rows of a DataFrame to rate: those of `pool`, or all when it holds one pool."""
    columns = set(map(str, data.columns))
    if pool:
        if "pool" not in columns:
            raise ValueError("pool=%r: the DataFrame has no pool column" % pool)
        return data[data["pool"] == pool]
    if "pool" in columns and data["pool"].nunique(dropna=True) > 1:
        names = sorted(map(str, data["pool"].dropna().unique()))
        raise ValueError("the DataFrame holds %d pools (%s); ratings never mix pools: "
                         "choose one with pool=" % (len(names), ", ".join(names[:5])))
    return data


def _records(data, pool):
    """(Records, where) of in-memory data; where names the data in messages."""
    if _is_dataframe(data):
        data = _of_pool(data, pool)
        columns = set(map(str, data.columns))
        if all(c in columns for c in _BATTLE_COLUMNS):
            return _at_rows(lambda: _battle_records(data), data.index), "DataFrame"
        if all(c in columns for c in _RESULT_COLUMNS):
            return _result_records(data), "DataFrame"
        raise ValueError("a DataFrame of battles needs the columns %s, one of results the "
                         "columns %s; it has %s" % (", ".join(_BATTLE_COLUMNS),
                                                    ", ".join(_RESULT_COLUMNS),
                                                    ", ".join(sorted(columns)) or "none"))
    if isinstance(data, (str, bytes)) or not isinstance(data, Sequence):
        raise TypeError("data: a path, a pandas DataFrame or a sequence of results, not %s"
                        % type(data).__name__)
    if pool:
        raise ValueError("pool=%r: a sequence of results has no pools" % pool)
    return _sequence_records(data), "results"


def _is_dataframe(data):
    return type(data).__module__.startswith("pandas") and hasattr(data, "columns")


def _label(labels, i):
    """The label of row i as a plain Python value (numpy scalars repr as np.int64(...))."""
    value = labels[int(i)]
    return value.item() if isinstance(value, np.generic) else value


def _at_rows(build, labels):
    """build(), with a row's error ("#<position>: problem") named by the row's label."""
    return _located(build, lambda i: "row %r" % (_label(labels, i),))


def _located(build, where):
    """build(), with an error at a position ("#<position>: problem") named where(position)."""
    try:
        return build()
    except ValueError as e:
        found = _AT_ROW.match(str(e))
        if not found:
            raise
        raise ValueError("%s: %s" % (where(int(found.group(1))), found.group(2))) from None


def _codes(column, name, kind, labels):
    """(codes, values) of a column, -1 where it is None or NaN. kind "string": every value a
    str; "id": a str, or an integer (written in decimal), as the battles reader reads
    question_id and task."""
    import pandas as pd

    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    values = []
    for k, v in enumerate(uniques):
        if isinstance(v, str):
            values.append(v)
        elif kind == "id" and isinstance(v, numbers.Integral) and not isinstance(v, bool):
            values.append(str(int(v)))
        elif (kind == "id" and isinstance(v, numbers.Real) and not isinstance(v, bool)
              and math.isfinite(v) and float(v).is_integer() and abs(v) <= 2 ** 53):
            values.append(str(int(v)))
        else:
            row = _label(labels, np.flatnonzero(codes == k)[0])
            what = "a string" if kind == "string" else "a string or an integer"
            raise ValueError("row %r: %s: %r is not %s" % (row, name, v, what))
    return np.ascontiguousarray(codes, dtype=np.int64), values


def _numbers(column, name, labels):
    """A float column, NaN where None or NaN; a value that is not a number is an error."""
    values = column.to_numpy()
    if values.dtype.kind in "iuf":
        return np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty(len(values), dtype=np.float64)
    for i, v in enumerate(values):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            out[i] = math.nan
        elif isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)):
            out[i] = float(v)
        else:
            raise ValueError("row %r: %s: %r is not a number" % (_label(labels, i), name, v))
    return out


def _battle_records(df):
    labels = df.index
    import pandas as pd

    # One name table for both models, so that a model has one code.
    both = pd.concat([df["model_a"], df["model_b"]], ignore_index=True)
    codes, names = _codes(both, "model_a or model_b", "string", labels.append(labels))
    n = len(df)
    winner, winners = _codes(df["winner"], "winner", "string", labels)
    task_column = None
    if "question_id" in df.columns and "task" in df.columns:
        task_column = df["question_id"].where(df["question_id"].notna(), df["task"])
    elif "question_id" in df.columns:
        task_column = df["question_id"]
    elif "task" in df.columns:
        task_column = df["task"]
    if task_column is None:
        task, tasks = np.full(n, -1, dtype=np.int64), []
    else:
        task, tasks = _codes(task_column, "question_id or task", "id", labels)
    score = (_numbers(df["score"], "score", labels) if "score" in df.columns
             else np.full(n, math.nan))
    tstamp = _tstamps(df["tstamp"]) if "tstamp" in df.columns else np.full(n, math.nan)
    return _core.records_from_battles(names, codes[:n].copy(), codes[n:].copy(), winners,
                                      winner, tasks, task, score, tstamp)


def _tstamps(column):
    """tstamp as the battles reader takes it: seconds since the Unix epoch where it is a
    number (or a pandas datetime), NaN where it is anything else (not read)."""
    values = column.to_numpy()
    if values.dtype.kind in "iuf":
        return np.ascontiguousarray(values, dtype=np.float64)
    if values.dtype.kind == "M":  # datetime64: NaT becomes NaN
        seconds = values.astype("datetime64[ns]").astype(np.int64) / 1e9
        return np.where(np.isnat(values), math.nan, seconds)
    return np.array([float(v) if isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
                     else math.nan for v in values], dtype=np.float64)


_VOTE_METHODS = None  # the methods that rate votes, from the table
_OUTCOMES = {"model_a": 0, "model_b": 1, "tie": 2, "tie (bothbad)": 2}
_MAX_NAME_BYTES = 256  # ResultLimits().max_agent_id_bytes
_TSTAMP_RANGE = (-62135596800, 253402300799)  # years 1 to 9999, as the battles reader takes


def _battle_votes(data, method, pool):
    """(names, a, b, outcome) of a battles DataFrame for a method that rates votes, when
    every row is one the battles reader accepts; else None (the records path then rates
    it, or names the row at fault). names are the models in order of first appearance,
    model_a before model_b, as the records would intern them."""
    global _VOTE_METHODS
    if not _is_dataframe(data) or not all(c in set(map(str, data.columns))
                                          for c in _BATTLE_COLUMNS):
        return None
    if _VOTE_METHODS is None:
        _VOTE_METHODS = {m["name"] for m in methods() if m["input"] == "votes"}
    if method not in _VOTE_METHODS:
        return None
    return _battle_codes(_of_pool(data, pool))


def _battle_codes(df):
    """(names, a, b, outcome) of a battles DataFrame when every row is one the battles
    reader accepts, else None: names the models in order of first appearance, model_a
    before model_b, as the reader would intern them; a and b their codes per row; outcome
    0 (model_a won), 1 (model_b won) or 2 (a tie)."""
    codes, names = _core.factorize_rows([_strings(df["model_a"]), _strings(df["model_b"])])
    if (codes < 0).any() or not all(_plain_name(v) for v in names):
        return None
    a, b = codes[0::2], codes[1::2]
    if (a == b).any():
        return None
    winner_codes, winners = _core.factorize_rows([_strings(df["winner"])])
    if (winner_codes < 0).any() or not all(w in _OUTCOMES for w in winners):
        return None
    outcome = np.array([_OUTCOMES[w] for w in winners], dtype=np.int8)[winner_codes]
    if not _checks_pass(df, outcome):
        return None
    return (list(names), np.ascontiguousarray(a, dtype=np.int64),
            np.ascontiguousarray(b, dtype=np.int64), np.ascontiguousarray(outcome))


def _strings(column):
    """A column as factorize_rows reads it: the chunks (offsets, data) of pyarrow's string
    array, in place, when pandas keeps the strings in Arrow and none is missing; else a
    numpy array of objects, a view where pandas has one (a copy touches every string)."""
    import pandas as pd

    if getattr(column.dtype, "storage", None) == "pyarrow" or isinstance(column.dtype,
                                                                        pd.ArrowDtype):
        import pyarrow as pa

        chunked = column.array.__arrow_array__()  # pandas' own arrays, no copy
        if isinstance(chunked, pa.Array):
            chunked = pa.chunked_array([chunked])
        if chunked.null_count == 0 and (pa.types.is_string(chunked.type) or
                                        pa.types.is_large_string(chunked.type)):
            width = np.int64 if pa.types.is_large_string(chunked.type) else np.int32
            chunks = []
            for chunk in chunked.chunks:
                _, offsets, data = chunk.buffers()
                first = chunk.offset  # a sliced chunk starts inside its buffers
                ends = np.frombuffer(offsets, dtype=width)[first:first + len(chunk) + 1]
                text = (np.frombuffer(data, dtype=np.uint8) if data is not None
                        else np.zeros(0, dtype=np.uint8))
                chunks.append((np.ascontiguousarray(ends, dtype=np.int64), text))
            return chunks
    return column.to_numpy(dtype=object, copy=False)


def _plain_name(value):
    """A model name the battles reader takes as it is: a non-empty str of at most 256 bytes."""
    try:
        return isinstance(value, str) and 0 < len(value.encode()) <= _MAX_NAME_BYTES
    except UnicodeEncodeError:
        return False


def _checks_pass(df, outcome):
    """The battles reader's checks of the columns votes do not read: a score in [-1, 1]
    agreeing with the winner, a task that is a string or an integer, a tstamp in range.
    False when any row might fail them (the records path then says which)."""
    import pandas as pd

    if "score" in df.columns:
        score = df["score"].to_numpy()
        if score.dtype.kind not in "iuf":
            return False
        score = score.astype(np.float64)
        given = ~np.isnan(score)
        agrees = np.where(outcome == 0, score > 0, np.where(outcome == 1, score < 0, score == 0))
        if (given & ~((np.abs(score) <= 1) & agrees)).any():
            return False
    for column in ("question_id", "task"):
        if column in df.columns and pd.api.types.infer_dtype(df[column], skipna=True) not in (
                "string", "integer", "empty"):
            return False
    if "tstamp" in df.columns:
        t = _tstamps(df["tstamp"])
        if ((t < _TSTAMP_RANGE[0]) | (t > _TSTAMP_RANGE[1])).any():
            return False
    return True


def _result_records(df):
    labels = df.index
    game, games = _codes(df["game_id"], "game_id", "id", labels)
    if (game < 0).any():
        raise ValueError("row %r: game_id is missing" % _label(labels, np.flatnonzero(game < 0)[0]))
    agent, agents = _codes(df["agent"], "agent", "string", labels)
    if (agent < 0).any():
        raise ValueError("row %r: agent is missing" % _label(labels, np.flatnonzero(agent < 0)[0]))
    rank = _numbers(df["rank"], "rank", labels)
    bad = np.flatnonzero(~np.isfinite(rank) | (rank != np.floor(rank)))
    if len(bad):
        raise ValueError("row %r: rank %r is not an integer" % (_label(labels, bad[0]), float(rank[bad[0]])))
    n = len(df)
    weight = _numbers(df["weight"], "weight", labels) if "weight" in df.columns else np.ones(n)
    weight = np.where(np.isnan(weight), 1.0, weight)
    score = _numbers(df["score"], "score", labels) if "score" in df.columns else np.full(n, math.nan)
    if "task" in df.columns:
        task, tasks = _codes(df["task"], "task", "id", labels)
    else:
        task, tasks = np.full(n, -1, dtype=np.int64), []
    # Results in the order of their first row; a result's standings in row order.
    first = np.full(len(games), n, dtype=np.int64)
    np.minimum.at(first, game, np.arange(n))
    result_order = np.argsort(first, kind="stable")
    position = np.empty(len(games), dtype=np.int64)
    position[result_order] = np.arange(len(games))
    order = np.lexsort((np.arange(n), position[game]))
    counts = np.bincount(position[game], minlength=len(games))
    starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    head = order[starts[:-1]]  # each result's first row
    for name, column in (("weight", weight), ("task", task)):
        differs = np.flatnonzero(column[order] != np.repeat(column[head], counts))
        if len(differs):
            row = order[differs[0]]
            raise ValueError("row %r: %s differs from the first row of game_id %r"
                             % (_label(labels, row), name, games[game[row]]))
    records = _at_rows(lambda: _core.records_from_results(
        agents, starts, np.ascontiguousarray(agent[order]),
        np.ascontiguousarray(rank[order].astype(np.int64)),
        np.ascontiguousarray(score[order]), np.ascontiguousarray(weight[head]), tasks,
        np.ascontiguousarray(task[head]), [games[g] for g in game[head]]),
        labels[head])
    return records


def _standings(result, where):
    """[(agent, rank)] of one result given best first: each standing an agent name or a
    list of tied names (rank = its place, from 1)."""
    if isinstance(result, (str, bytes)) or not isinstance(result, Sequence):
        raise TypeError("%s: a list of standings best first, not %s"
                        % (where, type(result).__name__))
    out = []
    for place, group in enumerate(result):
        members = [group] if isinstance(group, str) else group
        if isinstance(members, bytes) or not isinstance(members, Sequence):
            raise TypeError("%s[%d]: an agent name or a list of tied names, not %s"
                            % (where, place, type(group).__name__))
        for name in members:
            if not isinstance(name, str):
                raise TypeError("%s[%d]: agent names are strings, not %s"
                                % (where, place, type(name).__name__))
            out.append((name, place + 1))
    return out


def _sequence_records(results):
    agents, index = [], {}
    starts, agent, rank = [0], [], []
    for r, result in enumerate(results):
        for name, place in _standings(result, "results[%d]" % r):
            if name not in index:
                index[name] = len(agents)
                agents.append(name)
            agent.append(index[name])
            rank.append(place)
        starts.append(len(agent))
    n = len(starts) - 1
    as_int = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
    return _located(lambda: _core.records_from_results(
        agents, as_int(starts), as_int(agent), as_int(rank), np.full(len(agent), math.nan),
        np.ones(n), [], np.full(n, -1, dtype=np.int64), []), lambda i: "results[%d]" % i)

rate.__doc__ += "\n    Methods and their parameters (defaults), from the method table:\n\n" + "".join(
    "    " + line + "\n" for line in _core.methods_help().splitlines())
