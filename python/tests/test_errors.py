"""Bad input raises as docs/PYTHON.md states: ValueError naming the row (DataFrame), the
index (list) or FILE:LINE (path); TypeError for a wrong type; ValueError listing the valid
methods or parameters. Random DataFrames never raise anything else (the conversion layer's
fuzz test, bounded)."""
import math
import os
import random

import numpy as np
import pandas as pd
import pytest

import ratingd
from conftest import DATA, run_ratingctl

BATTLES = os.path.join(DATA, "battles", "small.jsonl")


def battles(**columns):
    base = {"model_a": ["a", "b", "c"], "model_b": ["b", "c", "a"],
            "winner": ["model_a", "tie", "model_b"]}
    base.update(columns)
    return pd.DataFrame(base, index=["x", "y", "z"])


def test_unknown_methods_and_parameters_list_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown method 'glicko'; known: elo, sco, ml, "):
        ratingd.rate(BATTLES, "glicko", format="battles")
    with pytest.raises(ValueError, match=r"unknown parameter 'q' for method elo; known: k, initial"):
        ratingd.rate(battles(), "elo", params={"q": 1})
    with pytest.raises(ValueError, match=r"k"):
        ratingd.rate(battles(), "elo", params={"k": -1})


def test_wrong_types_are_type_errors():
    for call in (lambda: ratingd.rate(42), lambda: ratingd.rate("x", 3),
                 lambda: ratingd.rate(battles(), params=[("k", 1)]),
                 lambda: ratingd.rate(battles(), params={"k": [1]}),
                 lambda: ratingd.rate(battles(), seed=1.5),
                 lambda: ratingd.rate([["a", 3]]), lambda: ratingd.rate(["ab"]),
                 lambda: ratingd.rate(battles(), format="battles"),
                 lambda: ratingd.read(3)):
        with pytest.raises(TypeError):
            call()


def test_a_bad_battle_names_its_row_label():
    with pytest.raises(ValueError, match=r"^row 'y': unknown winner 'alice'; expected model_a, "):
        ratingd.rate(battles(winner=["model_a", "alice", "tie"]))
    with pytest.raises(ValueError, match=r"^row 'z': model_a or model_b: 5 is not a string"):
        ratingd.rate(battles(model_a=["a", "b", 5]))
    with pytest.raises(ValueError, match=r"^row 'x': model_a and model_b are both 'b'"):
        ratingd.rate(battles(model_a=["b", "b", "c"]))
    with pytest.raises(ValueError, match=r"^row 'y': missing winner"):
        ratingd.rate(battles(winner=["model_a", None, "tie"]))
    with pytest.raises(ValueError, match=r"^row 'x': score 0.5 contradicts winner 'model_b'"):
        ratingd.rate(battles(winner=["model_b", "tie", "tie"], score=[0.5, 0, None]))
    with pytest.raises(ValueError, match=r"^row 'y': score: 'high' is not a number"):
        ratingd.rate(battles(score=[0.5, "high", None]))
    with pytest.raises(ValueError, match=r"^row 'x': question_id or task: 1.5 is not a string "):
        ratingd.rate(battles(question_id=[1.5, 2, None]))


def test_a_bad_result_names_its_row_or_index():
    frame = pd.DataFrame({"game_id": ["g1", "g1", "g2", "g2"], "agent": ["a", "b", "a", "a"],
                          "rank": [1, 2, 1, 2]}, index=[10, 11, 12, 13])
    with pytest.raises(ValueError, match=r"^row 12: .*'a'"):
        ratingd.rate(frame)
    frame = pd.DataFrame({"game_id": ["g1", "g1"], "agent": ["a", "b"], "rank": [1, 2],
                          "weight": [1.0, 2.0]}, index=["p", "q"])
    with pytest.raises(ValueError, match=r"^row 'q': weight differs from the first row of "):
        ratingd.rate(frame)
    frame = pd.DataFrame({"game_id": ["g1", "g1"], "agent": ["a", "b"], "rank": [1, 2.5]})
    with pytest.raises(ValueError, match=r"^row 1: rank 2.5 is not an integer"):
        ratingd.rate(frame)
    with pytest.raises(ValueError, match=r"^results\[1\]: "):
        ratingd.rate([["a", "b"], ["a"]])
    with pytest.raises(ValueError, match=r"of battles needs the columns .* it has agent$"):
        ratingd.rate(pd.DataFrame({"agent": ["a"]}))


def test_a_bad_file_names_its_line_as_ratingctl_does(ratingctl):
    bad = os.path.join(DATA, "battles", "bad.jsonl")
    with pytest.raises(ValueError) as got:
        ratingd.rate(bad, "elo", format="battles")
    with pytest.raises(ValueError) as want:
        run_ratingctl(ratingctl, "rate", "--method", "elo", "--input", bad, "--format", "battles")
    assert str(got.value) == str(want.value).removeprefix("ratingctl: ")
    assert ":" in str(got.value) and "bad.jsonl:" in str(got.value)
    with pytest.raises(ValueError, match=r"bad.jsonl:"):
        ratingd.read(bad, "battles")


def random_value(rng):
    return rng.choice([None, math.nan, "", "a", "b", "c", "model_a", "model_b", "tie", 0, 1, -1,
                       2 ** 70, 1e308, -0.0, 0.5, True, "x" * 300, "\u00e9", b"a", [1], {"k": 1},
                       np.int64(3), np.float32(0.25), "tie (bothbad)", "q1"])


@pytest.mark.parametrize("seed", range(4))
def test_random_dataframes_raise_only_value_or_type_errors(seed):
    rng = random.Random(seed)
    columns = ["model_a", "model_b", "winner", "question_id", "task", "score", "game_id",
               "agent", "rank", "weight", "pool", "judge"]
    for _ in range(150):
        n = rng.randrange(0, 6)
        chosen = rng.sample(columns, rng.randrange(1, len(columns)))
        frame = pd.DataFrame({c: [random_value(rng) for _ in range(n)] for c in chosen})
        try:
            ratingd.rate(frame, rng.choice(["elo", "sco", "borda", "elo-bt"]))
        except (ValueError, TypeError):
            pass
