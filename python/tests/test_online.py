"""OnlinePool against ratingctl: fed a file's results in order, its leaderboards are the
documents of `ratingctl rate --bootstrap-replicas 16` and its suggestions those of
`ratingctl suggest` on that file (expected values: ratingctl's output); duplicates are
skipped; bad results raise and change nothing."""
import datetime
import json
import os
import subprocess

import pandas as pd
import pytest

import ratingd
from conftest import DATA, run_ratingctl, without_clocks

BATTLES = os.path.join(DATA, "battles", "small.jsonl")


def standings_of(frame):
    """(game_id, [[names of rank 1], [names of rank 2], ...]) per result of read()'s frame."""
    out = []
    for game_id, rows in frame.groupby("game_id", sort=False):
        ranks = sorted(set(rows["rank"]))
        out.append((game_id, [list(rows[rows["rank"] == r]["agent"]) for r in ranks]))
    return out


def test_leaderboards_and_suggestions_are_ratingctls(ratingctl, generated):
    path = generated["results"]
    frame = ratingd.read(path)
    pool = ratingd.OnlinePool(pool=frame["pool"].iloc[0])
    for game_id, standings in standings_of(frame):
        assert pool.add(standings, game_id=game_id)
    assert pool.results == frame["game_id"].nunique()
    for model in ("elo", "sco", "ml"):
        want = run_ratingctl(ratingctl, "rate", "--method", model, "--input", path,
                             "--bootstrap-replicas", "16")
        assert without_clocks(pool.leaderboard(model).to_dict()) == without_clocks(want), model
    for strategy in ("uniform", "ucb", "ml"):
        want = run_ratingctl(ratingctl, "suggest", "--input", path, "--strategy", strategy,
                             "--n", "5", "--seed", "3")
        assert pool.suggest(strategy, n=5, seed=3) == want, strategy
    # The ml leaderboard is solved on a copy: asking twice changes nothing.
    assert without_clocks(pool.leaderboard("ml").to_dict()) == \
        without_clocks(pool.leaderboard("ml").to_dict())


def test_battles_are_added_as_the_battles_reader_takes_them(ratingctl):
    pool = ratingd.OnlinePool(models=("elo", "sco"), params={"elo.k": 24})
    assert pool.add_battles(pd.read_json(BATTLES, lines=True)) == 6
    want = run_ratingctl(ratingctl, "rate", "--method", "elo", "--input", BATTLES, "--format",
                         "battles", "--bootstrap-replicas", "16", "--param", "k=24")
    assert pool.leaderboard("elo").to_dict() == want
    with pytest.raises(ValueError, match="'ml' is not one of this pool's models"):
        pool.leaderboard("ml")


def test_glicko2_reads_event_times_as_ratingctl_does(ratingctl, tmp_path):
    """A drifting stream (every result timed, `generate --model drift`) added with its
    event times, and battles with their tstamp: glicko2's leaderboard is `ratingctl rate
    --method glicko2`'s on the same file."""
    generated = str(tmp_path / "drift-ns.jsonl")
    subprocess.run([ratingctl, "generate", "--model", "drift", "--out", generated, "--seed", "5",
                    "--param", "agents=12", "--param", "results=400"], check=True,
                   capture_output=True)
    # The generator's times have nanoseconds; a datetime holds microseconds: cut them there.
    path = str(tmp_path / "drift.jsonl")
    pool = ratingd.OnlinePool(models=("elo", "glicko2"), params={"glicko2.period": "12h"})
    with open(generated) as f, open(path, "w") as out:
        for line in f:
            record = json.loads(line)
            record["eventTime"] = record["eventTime"][:26] + "Z"
            out.write(json.dumps(record) + "\n")
            order = [s["agent"] for s in sorted(record["standings"], key=lambda s: s["rank"])]
            when = datetime.datetime.fromisoformat(record["eventTime"].replace("Z", "+00:00"))
            assert pool.add(order, game_id=record["gameId"], event_time=when)
    want = run_ratingctl(ratingctl, "rate", "--method", "glicko2", "--input", path,
                         "--param", "period=12h")
    got = pool.leaderboard("glicko2").to_dict()
    assert got == want
    assert got["ranking"][0]["rd"] > 0 and "last_played" in got["ranking"][0]

    battles = ratingd.OnlinePool(models=("glicko2",), bootstrap_replicas=0)
    assert battles.add_battles(pd.read_json(BATTLES, lines=True)) == 6
    want = run_ratingctl(ratingctl, "rate", "--method", "glicko2", "--input", BATTLES,
                         "--format", "battles")
    assert battles.leaderboard("glicko2").to_dict() == want
    assert want["extra"]["latest_event_time"].startswith("2023-04-24")
    with pytest.raises(ValueError, match="event_time"):
        battles.add(["a", "b"], event_time=1e15)


def test_duplicates_are_skipped_and_bad_results_change_nothing():
    pool = ratingd.OnlinePool(models=("elo",), bootstrap_replicas=0)
    assert pool.add(["a", "b"], game_id="g1")
    assert not pool.add(["b", "a"], game_id="g1")
    assert pool.add([["a", "b"]], game_id="g2")  # a tie of two
    before = pool.leaderboard("elo").to_dict()
    with pytest.raises(ValueError, match="appears twice"):
        pool.add(["a", "a"], game_id="g3")
    with pytest.raises(ValueError):
        pool.add(["a"], game_id="g4")
    assert pool.leaderboard("elo").to_dict() == before
    assert pool.add(["c", "a"], game_id="g3")  # a rejected id is not taken
    with pytest.raises(ValueError, match=r"^row 'y': unknown winner"):
        pool.add_battles(pd.DataFrame({"model_a": ["a", "b"], "model_b": ["b", "a"],
                                       "winner": ["tie", "nobody"]}, index=["x", "y"]))


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown model 'glicko'"):
        ratingd.OnlinePool(models=("glicko",))
    with pytest.raises(ValueError, match="expected MODEL.KEY=VALUE"):
        ratingd.OnlinePool(params={"k": 3})
    with pytest.raises(ValueError, match="bootstrap_replicas"):
        ratingd.OnlinePool(bootstrap_replicas=1)
    with pytest.raises(TypeError):
        ratingd.OnlinePool(models="elo")
    pool = ratingd.OnlinePool()
    with pytest.raises(TypeError):
        pool.add("ab")
    with pytest.raises(ValueError, match="unknown strategy"):
        pool.suggest("best")
