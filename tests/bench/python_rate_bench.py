#!/usr/bin/env python3
"""The Python package against its peers on one DataFrame, in one run (docs/BENCHMARKS.md
§16): 1.7M LMArena-style battles of 130 models with string names (arena_battles.py) read
into pandas, then RUNS timings of each call on that DataFrame, each tool in a fresh
interpreter of its own (one after the other: the peers' imports do not share a process
with ours):

- ratingd.rate(df, "elo-bt", params={"ci": "sandwich"}): the whole call;
- arena-rank: PairDataset.from_pandas(df) + BradleyTerry.compute_ratings_and_cis(sandwich);
- evalica.bradley_terry on the same columns (no intervals; evalica has none), its winners
  mapped to evalica's values once beforehand;
- ratingd.OnlinePool(models=("elo",), bootstrap_replicas=0).add_battles(df): results/s;

ours twice: on the DataFrame as pandas reads it (strings in Arrow arrays when pyarrow is
installed, as the peers install it) and with its string columns as Python objects (pandas
without pyarrow), "-objects"; add_battles once more on objects with the 130 models renamed
to long names alike in their first and last bytes ("gpt-4o-007-claude-3-5-sonnet"),
"-objects-renamed";

and `import ratingd` in a fresh interpreter. Prints each timing and the medians.

    python3 tests/bench/python_rate_bench.py [--runs 5] [--battles FILE] [--venv DIR]

The virtual environment (default /tmp/ratingd-peers-venv) is created with arena-rank,
evalica, pandas and this repository's package (pip install ./python, about 6 minutes the
first time).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

TIMINGS = textwrap.dedent("""
    import json, sys, time
    import pandas as pd

    df = pd.read_json(sys.argv[1], lines=True)
    tool, runs = sys.argv[2], int(sys.argv[3])
    if tool.endswith("-renamed"):  # long names alike at both ends, different inside
        stems = ["gpt-4o", "claude-3-5-sonnet", "gemini-1.5-pro", "qwen2.5-72b-instruct"]
        names = sorted(set(df["model_a"]) | set(df["model_b"]))
        renamed = {m: "%s-%03d-%s" % (stems[i % 4], i, stems[i // 4 % 4])
                   for i, m in enumerate(names)}
        df = df.assign(model_a=df["model_a"].map(renamed), model_b=df["model_b"].map(renamed))
        tool = tool.removesuffix("-renamed")
    if tool.endswith("-objects"):  # the strings as Python objects, not Arrow's
        df = df.astype({c: object for c in ("question_id", "model_a", "model_b", "winner")})
        tool = tool.removesuffix("-objects")
    if tool in ("rate", "add_battles"):
        import ratingd

        def rate():
            ratingd.rate(df, "elo-bt", params={"ci": "sandwich"})

        def add_battles():
            ratingd.OnlinePool(models=("elo",), bootstrap_replicas=0).add_battles(df)

        call = rate if tool == "rate" else add_battles
    elif tool == "arena-rank":
        from arena_rank.models.bradley_terry import BradleyTerry
        from arena_rank.utils.data_utils import PairDataset

        def call():
            data = PairDataset.from_pandas(df)
            BradleyTerry(n_competitors=len(data.competitors)).compute_ratings_and_cis(
                data, ci_method="sandwich")
    else:
        import evalica
        # evalica takes its own Winner values: mapped once, outside the timings.
        winners = df["winner"].map({"model_a": evalica.Winner.X, "model_b": evalica.Winner.Y,
                                    "tie": evalica.Winner.Draw,
                                    "tie (bothbad)": evalica.Winner.Draw})

        def call():
            evalica.bradley_terry(df["model_a"], df["model_b"], winners)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    print(json.dumps({"battles": len(df), "times": times}))
""")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--battles", default="/tmp/arena-1.7m.jsonl")
    ap.add_argument("--venv", default="/tmp/ratingd-peers-venv")
    a = ap.parse_args()
    python = os.path.join(a.venv, "bin", "python")
    if not os.access(python, os.X_OK):
        subprocess.run([sys.executable, "-m", "venv", a.venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "arena-rank", "evalica", "pandas",
                        os.path.join(REPO, "python")], check=True)
    if not os.path.exists(a.battles):
        subprocess.run([sys.executable, os.path.join(REPO, "tests", "bench", "arena_battles.py"),
                        "--out", a.battles], check=True)
    imports = []
    for _ in range(a.runs):
        out = subprocess.run([python, "-X", "importtime", "-c", "import ratingd"],
                             capture_output=True, text=True, check=True).stderr
        # The last line is the package itself: "import time: self | cumulative | ratingd".
        imports.append(int(out.strip().splitlines()[-1].split("|")[1]) / 1e6)
    print("import ratingd: " + ", ".join("%.3f s" % t for t in imports))
    times, n = {}, 0
    for tool in ("rate", "rate-objects", "arena-rank", "evalica", "add_battles",
                 "add_battles-objects", "add_battles-objects-renamed"):
        out = subprocess.run([python, "-c", TIMINGS, a.battles, tool, str(a.runs)], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        result = json.loads(out.strip().splitlines()[-1])
        times[tool], n = result["times"], result["battles"]
        print("%s: %s" % (tool, ", ".join("%.3f s" % t for t in times[tool])), flush=True)
    medians = {k: statistics.median(v) for k, v in times.items()}
    print("medians over %d runs: " % a.runs + ", ".join(
        "%s %.3f s" % (k, v) for k, v in medians.items()) +
        "; add_battles %.2f M results/s; import %.3f s" % (
            n / medians["add_battles"] / 1e6, statistics.median(imports)))
    print("ratios to rate: arena-rank %.1fx, evalica %.1fx" % (
        medians["arena-rank"] / medians["rate"], medians["evalica"] / medians["rate"]))


if __name__ == "__main__":
    main()
