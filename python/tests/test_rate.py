"""rate() against `ratingctl rate`: every method of the method table through a path gives
the document ratingctl prints (expected values: ratingctl's output on the same file); a
DataFrame, a results DataFrame, read()'s frame and a list of results give what the
equivalent file gives; determinism under seed; two threads at once."""
import json
import os
import threading

import pandas as pd
import pytest

import ratingd
from conftest import DATA, run_ratingctl, without_clocks

BATTLES = os.path.join(DATA, "battles", "small.jsonl")
PREFLIB = os.path.join(DATA, "preflib", "00004-00000102.soc")
SCORES = os.path.join(DATA, "atari", "atari_agent57_table.txt")


def inputs_of(method, generated):
    """The files each method is checked on, by the input it needs."""
    kind = method["input"]
    if kind == "scores":
        return [(SCORES, None)]
    if kind == "battles":
        return [(generated["koth"], "battles")]
    files = [(BATTLES, "battles"), (generated["results"], None)]
    if kind == "votes":
        files.append((PREFLIB, None))
    return files


FAST = {"gt-ne": {"max_steps": 300}, "gt-cce": {"max_steps": 300}}


@pytest.mark.parametrize("name", [m["name"] for m in ratingd.methods()])
def test_every_method_matches_ratingctl(name, ratingctl, generated):
    method = next(m for m in ratingd.methods() if m["name"] == name)
    params = FAST.get(name, {})
    for path, fmt in inputs_of(method, generated):
        args = ["rate", "--method", name, "--input", path, "--seed", "5"]
        if fmt:
            args += ["--format", fmt]
        for k, v in params.items():
            args += ["--param", "%s=%s" % (k, v)]
        try:
            expected = run_ratingctl(ratingctl, *args)
        except ValueError as e:  # refused by the method (say, an agent limit): the same text
            with pytest.raises(ValueError) as got:
                ratingd.rate(path, name, format=fmt, params=params, seed=5)
            assert str(got.value) == str(e).removeprefix("ratingctl: ")
            continue
        board = ratingd.rate(path, name, format=fmt, params=params, seed=5)
        assert without_clocks(json.loads(json.dumps(board.to_dict()))) == without_clocks(expected)


def test_methods_is_the_method_table(ratingctl):
    assert ratingd.methods() == run_ratingctl(ratingctl, "methods")
    assert "elo-bt" in ratingd.rate.__doc__ and "sandwich" in ratingd.rate.__doc__


def test_a_battles_dataframe_gives_what_its_file_gives():
    df = pd.read_json(BATTLES, lines=True)
    for method, params in (("elo", None), ("elo-bt", {"ci": "sandwich"}), ("borda", None),
                           ("glicko2", None)):
        assert without_clocks(ratingd.rate(df, method, params=params).to_dict()) == \
            without_clocks(ratingd.rate(BATTLES, method, format="battles", params=params).to_dict())
    # glicko2 reads tstamp: as seconds, or as pandas datetimes; a string is not read.
    board = ratingd.rate(df, "glicko2")
    assert board.extra["latest_event_time"] == "2023-04-24T15:54:26Z"
    assert list(board.to_pandas().columns)[-3:] == ["rd", "volatility", "last_played"]
    dated = df.assign(tstamp=pd.to_datetime(df["tstamp"], unit="s"))
    assert ratingd.rate(dated, "glicko2").to_dict() == board.to_dict()
    undated = ratingd.rate(df.assign(tstamp="yesterday"), "glicko2")
    assert "latest_event_time" not in undated.extra


def test_a_battles_csv_frame_and_labels_do_not_matter():
    df = pd.read_csv(os.path.join(DATA, "battles", "small.csv"))
    df.index = ["r%d" % i for i in range(len(df))]
    assert ratingd.rate(df, "elo").to_dict() == \
        ratingd.rate(os.path.join(DATA, "battles", "small.csv"), "elo").to_dict()


def test_read_gives_a_results_frame_that_rates_as_its_file(generated):
    frame = ratingd.read(generated["results"])
    assert list(frame.columns) == ["pool", "game_id", "agent", "rank", "weight", "score", "task"]
    for method in ("elo", "sco", "ml", "elo-bt", "schulze"):
        want = without_clocks(ratingd.rate(generated["results"], method).to_dict())
        got = without_clocks(ratingd.rate(frame.drop(columns=["pool"]), method).to_dict())
        assert got == want, method
    # A result's rows in another order, and another result's rows between them: the
    # results keep the order of their first rows, so the ratings do not move.
    k = int((frame["game_id"] == frame["game_id"].iloc[0]).sum())  # rows of the first result
    moved = frame.iloc[[1, 0, k] + list(range(2, k)) + list(range(k + 1, len(frame)))]
    assert moved.iloc[2]["game_id"] != moved.iloc[0]["game_id"] == moved.iloc[3]["game_id"]
    assert ratingd.rate(moved, "elo").to_dict() == \
        ratingd.rate(generated["results"], "elo").to_dict()


def test_read_numbers_results_without_game_ids():
    frame = ratingd.read(PREFLIB)
    assert frame["game_id"].iloc[0] == "00004-00000102.soc#1"
    assert ratingd.rate(frame, "borda").to_dict()["ranking"] == \
        ratingd.rate(PREFLIB, "borda").to_dict()["ranking"]


def test_a_list_of_results_is_a_jsonl_file_of_them(tmp_path):
    results = [[["a"], ["b", "c"]], ["c", "a"], [["b"], ["a"]], ["a", ["b", "c"], "d"]]
    path = tmp_path / "r.jsonl"
    with open(path, "w") as f:
        for i, result in enumerate(results):
            standings = []
            for place, group in enumerate(result):
                for name in ([group] if isinstance(group, str) else group):
                    standings.append({"agent": name, "rank": place + 1})
            f.write(json.dumps({"pool": "p", "game_id": "g%d" % i, "standings": standings}) + "\n")
    for method in ("elo", "sco", "ml", "elo-bt", "kemeny"):
        assert ratingd.rate(results, method).to_dict() == ratingd.rate(str(path), method).to_dict()


def test_to_pandas_has_the_columns_the_method_gives():
    board = ratingd.rate(BATTLES, "elo-bt", format="battles", params={"ci": "sandwich"})
    df = board.to_pandas()
    assert list(df.columns)[:3] == ["rank", "agent", "rating"]
    assert {"ci_low", "ci_high", "rank_low", "rank_high"} <= set(df.columns)
    assert list(df["agent"]) == [r["agent"] for r in board.to_dict()["ranking"]]
    assert board.extra["params"]["ci"] == "sandwich"
    assert list(ratingd.rate(BATTLES, "borda", format="battles").to_pandas().columns) == \
        ["rank", "agent", "rating"]


def test_same_seed_same_document_and_seed_is_echoed(generated):
    a = ratingd.rate(generated["results"], "sco-fy", seed=7).to_dict()
    b = ratingd.rate(generated["results"], "sco-fy", seed=7).to_dict()
    assert without_clocks(a) == without_clocks(b)
    assert a["extra"]["seed"] == 7


def test_two_threads_rate_at_once(generated):
    want = {m: without_clocks(ratingd.rate(generated["results"], m).to_dict())
            for m in ("elo-bt", "sco-batch", "ml-exact")}
    got, errors = {}, []

    def work(method):
        try:
            for _ in range(3):
                got[method] = without_clocks(ratingd.rate(generated["results"], method).to_dict())
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(m,)) for m in want]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and got == want


def _random_battles(n, seed):
    """Battles with every outcome, a prompt and a tstamp; some models seen first as model_b."""
    import random

    rng = random.Random(seed)
    models = ["m%d" % i for i in range(9)]
    rows = []
    for i in range(n):
        a, b = rng.sample(models, 2)
        winner = rng.choice(["model_a", "model_b", "tie", "tie (bothbad)"])
        rows.append({"model_a": a, "model_b": b, "winner": winner, "question_id": "q%d" % (i % 7),
                     "tstamp": 1.7e9 + i})
    return pd.DataFrame(rows)


def test_vote_methods_read_battles_straight_into_votes(monkeypatch, tmp_path):
    """A battles frame goes to the methods that rate votes without a record per battle, with
    the document of its file (the records path, expected values: ratingctl's runners on the
    file); frames the fast path does not take for certain still go through the records."""
    df = _random_battles(400, 5)
    path = tmp_path / "b.jsonl"
    df.to_json(path, orient="records", lines=True)
    vote_methods = [m["name"] for m in ratingd.methods() if m["input"] == "votes"]
    from ratingd import _core
    calls = []
    monkeypatch.setattr(_core, "rate_records", lambda *a: calls.append(a) or 1 / 0)
    for method in vote_methods:
        got = ratingd.rate(df, method, params={"ci": "sandwich"} if method == "elo-bt" else None)
        want = ratingd.rate(str(path), method, format="battles",
                            params={"ci": "sandwich"} if method == "elo-bt" else None)
        assert without_clocks(got.to_dict()) == without_clocks(want.to_dict()), method
    assert calls == []
    monkeypatch.undo()
    # Not taken: a score column (checked by the records' reader), a missing model, an
    # unknown winner; the records path rates the first and names the rows of the others.
    scored = df.assign(score=[0.5 if w == "model_a" else -0.5 if w == "model_b" else 0.0
                              for w in df["winner"]])
    assert ratingd.rate(scored, "borda").to_dict() == ratingd.rate(df, "borda").to_dict()
    with pytest.raises(ValueError, match=r"row 3: missing model_b"):
        ratingd.rate(df.assign(model_b=[None if i == 3 else m for i, m in
                                        enumerate(df["model_b"])]), "borda")
    with pytest.raises(ValueError, match=r"row 0: unknown winner 'x'"):
        ratingd.rate(df.assign(winner=["x"] + list(df["winner"][1:])), "schulze")


def test_arrow_strings_are_read_in_place(monkeypatch):
    """Strings pandas keeps in pyarrow arrays (pandas' str with pyarrow, ArrowDtype), in
    several chunks and sliced, give what the same strings as Python objects give, without
    the records path; a missing name in them goes to the records, which name the row."""
    pa = pytest.importorskip("pyarrow")
    df = _random_battles(300, 8)
    want = {m: ratingd.rate(df, m).to_dict() for m in ("elo-bt", "borda")}
    want_pool = ratingd.OnlinePool(models=("elo",), bootstrap_replicas=0)
    want_pool.add_battles(df)

    def chunked(values):  # three chunks, the middle one a slice of a larger array
        values = list(values)
        middle = pa.array(["pad"] + values[100:200] + ["pad"]).slice(1, 100)
        return pa.chunked_array([pa.array(values[:100]), middle, pa.array(values[200:])])

    frames = [
        df.astype({c: "string[pyarrow]" for c in ("model_a", "model_b", "winner")}),
        df.assign(**{c: pd.Series(pd.arrays.ArrowExtensionArray(chunked(df[c])))
                     for c in ("model_a", "model_b", "winner")}),
    ]
    from ratingd import _core
    for frame in frames:
        monkeypatch.setattr(_core, "rate_records", lambda *a: 1 / 0)
        for method, expected in want.items():
            assert ratingd.rate(frame, method).to_dict() == expected, (frame.dtypes, method)
        monkeypatch.undo()
        pool = ratingd.OnlinePool(models=("elo",), bootstrap_replicas=0)
        assert pool.add_battles(frame) == len(frame)
        assert pool.leaderboard("elo").to_dict() == want_pool.leaderboard("elo").to_dict()
    missing = frames[0].copy()
    missing.loc[7, "model_a"] = None
    with pytest.raises(ValueError, match=r"row 7: missing model_a"):
        ratingd.rate(missing, "borda")


def test_factorize_rows_is_pandas_factorize():
    """factorize_rows, which interns the battles' names in C++, against pandas' own
    factorize of the same values row by row (the expected codes): names that share their
    first and last 8 bytes and differ only inside (the hash must read them all), every length from 0 to
    40, non-ASCII text, a str subclass, a lone surrogate and values that are not str (code
    -1), blocks of rows past its block size, as objects and as Arrow chunks."""
    import numpy as np
    from ratingd import _core

    class Name(str):
        pass

    names = (["x" * n for n in range(41)] +
             ["model-%03d-chat" % i for i in range(300)] +
             ["aaaaaaaa%sbbbbbbbb" % c for c in "0123456789"] +
             ["é", "名前", "a\U0001F600b", Name("sub"), "\ud800", None, 7, 2.5])
    rng = np.random.default_rng(4)
    rows = [(names[i], names[j]) for i, j in rng.integers(0, len(names), size=(1500, 2))]
    cols = [np.array([r[c] for r in rows], dtype=object) for c in (0, 1)]
    codes, uniques = _core.factorize_rows(cols)
    flat = [v for r in rows for v in r]
    valid = [isinstance(v, str) and v != "\ud800" for v in flat]
    want_codes, want_uniques = pd.factorize(pd.Series([v for v, ok in zip(flat, valid) if ok],
                                                      dtype=object))
    assert list(uniques) == list(want_uniques)
    assert list(codes[np.array(valid)]) == list(want_codes)
    assert (codes[~np.array(valid)] == -1).all()
    pa = pytest.importorskip("pyarrow")
    from ratingd._rate import _strings
    text = [pd.Series([r[c] if isinstance(r[c], str) and r[c] != "\ud800" else "" for r in rows],
                      dtype="string[pyarrow]") for c in (0, 1)]
    arrow_codes, arrow_uniques = _core.factorize_rows([_strings(t) for t in text])
    want_codes, want_uniques = pd.factorize(pd.Series([v for r in zip(*text) for v in r],
                                                      dtype=object))
    assert list(arrow_uniques) == list(want_uniques)
    assert list(arrow_codes) == list(want_codes)
