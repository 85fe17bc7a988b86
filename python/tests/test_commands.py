"""evaluate(), simulate() and game() against `ratingctl eval`, `simulate` and `game` with the
same flags (expected values: ratingctl's output on the same input); a DataFrame or list
given to evaluate() is the file it is written to; unknown keywords are TypeErrors."""
import io
import json
import os

import pandas as pd
import pytest

import ratingd
from conftest import DATA, run_ratingctl, without_clocks

GAMES = os.path.join(DATA, "games")


def test_evaluate_is_ratingctl_eval(ratingctl, generated, tmp_path):
    path = generated["results"]
    want = run_ratingctl(ratingctl, "eval", "--input", path, "--method", "sco", "--methods",
                         "elo,borda", "--splits", "3", "--k", "2", "--seed", "4")
    got = ratingd.evaluate(path, method="sco", methods=["elo", "borda"], splits=3, k=2, seed=4)
    assert without_clocks(got) == without_clocks(want)
    truth = ["a0", "a1", "a2", "a3", "a4", "a5"]
    (tmp_path / "truth.txt").write_text("".join(a + "\n" for a in truth))
    want = run_ratingctl(ratingctl, "eval", "--input", path, "--method", "elo", "--truth",
                         str(tmp_path / "truth.txt"))
    got = ratingd.evaluate(path, method="elo", truth=truth)
    assert got["truth"].pop("source") == "list"
    want["truth"].pop("source")
    assert got == want
    # The same results as a DataFrame (written to a file): the same figures.
    frame = ratingd.read(path).drop(columns=["pool"])
    from_frame = ratingd.evaluate(frame, method="elo", truth=truth)
    assert from_frame.pop("input") == "DataFrame" and want.pop("input") == path
    from_frame["truth"].pop("source")
    assert from_frame == {k: v for k, v in got.items() if k != "input"}


def test_simulate_is_ratingctl_simulate(ratingctl, tmp_path):
    curves = tmp_path / "curves.csv"
    want = run_ratingctl(ratingctl, "simulate", "--generator", "mallows", "--algorithms",
                         "uniform-averaging,basic-ucb", "--rounds", "200", "--seeds", "3", "--k", "2,3",
                         "--window", "20", "--seed", "9", "--threads", "2", "--curves",
                         str(curves))
    agre, got_curves = ratingd.simulate("mallows", algorithms=["uniform-averaging", "basic-ucb"], rounds=200,
                                        seeds=3, k=[2, 3], window=20, seed=9, threads=2)
    assert agre.attrs["document"] == want
    assert list(agre["algorithm"]) == [r["algorithm"] for r in want["results"]]
    pd.testing.assert_frame_equal(got_curves, pd.read_csv(curves))
    with pytest.raises(ValueError, match="k: 0 is not an integer >= 1"):
        ratingd.simulate("mallows", algorithms=["basic-ucb"], k=[0])


def test_game_is_ratingctl_game(ratingctl):
    for name in ("rps.json", "chicken.json", "volunteers_dilemma.json"):
        path = os.path.join(GAMES, name)
        for solver in ("ne", "cce"):
            want = run_ratingctl(ratingctl, "game", "--input", path, "--solver", solver)
            with open(path) as f:
                as_dict = json.load(f)
            assert without_clocks(ratingd.game(as_dict, solver)) == without_clocks(want), name
            assert without_clocks(ratingd.game(path, solver)) == without_clocks(want), name


def test_unknown_keywords_and_bad_values():
    with pytest.raises(TypeError, match="evaluate: unknown keyword splitz; known: "):
        ratingd.evaluate(os.path.join(DATA, "battles", "small.jsonl"), splitz=3)
    with pytest.raises(TypeError, match="simulate: unknown keyword"):
        ratingd.simulate("mallows", round=3)
    with pytest.raises(ValueError, match="give ranking or method, not both"):
        ratingd.evaluate(os.path.join(DATA, "battles", "small.jsonl"), format="battles",
                         method="elo", ranking=["a"])
    with pytest.raises(ValueError):
        ratingd.game({"players": []}, "ne")
    with pytest.raises(TypeError):
        ratingd.game(3)
