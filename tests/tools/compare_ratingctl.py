#!/usr/bin/env python3
"""Runs two ratingctl binaries on the same commands and fails on any difference.

    python3 tests/tools/compare_ratingctl.py OLD_RATINGCTL NEW_RATINGCTL [--data tests/data]

Each case runs both binaries in fresh folders of their own and compares the exit status,
stdout, stderr and every file the command wrote, byte for byte. Clock readings (elo-bt's
and sco-batch's `fit_seconds`) are masked first, and lists of names in an error message
may come in any order. The cases: every method of `rate` on the test data it takes
(tests/data: PrefLib files, score tables, battles) and on files `generate` writes with
several seeds, with parameters and bad parameters; eval, elo-sweep, suggest, simulate,
game and generate; and the usage errors (whose usage text itself may differ: see
USAGE_CASES). A refactoring of ratingctl must leave all of them
byte-identical (docs/CONTRACTS.md §2).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ONLINE = ["elo", "sco", "ml"]
BATCH = ["elo-bt", "sco-batch", "sco-fy"]
VOTING = ["ml-exact", "iml", "approval", "plurality", "borda", "stv", "copeland", "kemeny",
          "ranked-pairs", "schulze"]
GAME = ["gt-ne", "gt-cce"]
ALL = ONLINE + BATCH + VOTING + ["nash-avg"] + GAME

CLOCK = re.compile(rb'"fit_seconds":[-+0-9.eE]+')


def normalise(data):
    data = CLOCK.sub(b'"fit_seconds":0', data)
    # "known: a, b, c" lists: any order.
    return re.sub(rb"known: ([^\n;]+)",
                  lambda m: b"known: " + b", ".join(sorted(m.group(1).split(b", "))), data)


def run(binary, args, workdir, data_dir):
    args = [a.replace("@DATA@", data_dir).replace("@WORK@", workdir) for a in args]
    proc = subprocess.run([binary] + args, cwd=workdir, capture_output=True, timeout=600)
    files = {}
    for name in sorted(os.listdir(workdir)):
        if name.startswith("in."):  # inputs the case placed there
            continue
        with open(os.path.join(workdir, name), "rb") as f:
            files[name] = normalise(f.read())
    return (proc.returncode, normalise(proc.stdout),
            normalise(proc.stderr.replace(binary.encode(), b"RATINGCTL")), files)


def generated_inputs(binary, root):
    """Files `generate` writes (one binary writes them; both then read the same bytes)."""
    out = {}
    specs = [
        ("mallows", ["agents=6", "tasks=40"]),
        ("plackett-luce", ["agents=7", "tasks=60"]),
        ("clones", ["agents=4", "tasks=30", "clones=3"]),
        ("cycle", []),
        ("tournament", ["agents=10", "contests=20"]),
        ("bernoulli", ["pairs=A>B:0.75,B>C:0.6,C>A:0.55", "games=40", "tie=0.1"]),
        ("king-of-the-hill", ["prompts=12", "models=5"]),
    ]
    for model, params in specs:
        for seed in (1, 7):
            path = os.path.join(root, f"in.{model}.{seed}.jsonl")
            cmd = [binary, "generate", "--model", model, "--out", path, "--seed", str(seed)]
            for p in params:
                cmd += ["--param", p]
            subprocess.run(cmd, check=True, capture_output=True)
            out[f"{model}.{seed}"] = path
    return out


def cases(data, gen):
    preflib = os.path.join(data, "preflib")
    pref = sorted(os.path.join(preflib, f) for f in os.listdir(preflib) if not f.endswith(".md"))
    small_pref = [p for p in pref if os.path.getsize(p) < 6000][:8]
    scores = [os.path.join(data, "atari", f) for f in
              ("atari_rainbow_table6.txt", "atari_muesli_table11.txt")]
    scores.append(os.path.join(data, "nash", "clones_run14_means.txt"))
    battles = [os.path.join(data, "battles", f) for f in ("small.jsonl", "small.csv")]
    bad = [os.path.join(data, "battles", f) for f in ("bad.jsonl", "bad.csv")]
    results = [v for k, v in gen.items() if not k.startswith("king")]
    kings = [v for k, v in gen.items() if k.startswith("king")]
    out = []
    for m in ONLINE + BATCH + VOTING:
        for f in small_pref[:4] + scores[:2] + battles + results:
            out.append(["rate", "--method", m, "--input", f, "--seed", "3"])
    for m in ONLINE:
        for f in results[:4] + battles:
            out.append(["rate", "--method", m, "--input", f, "--bootstrap-replicas", "8"])
            out.append(["rate", "--method", m, "--input", f, "--bootstrap-replicas", "4",
                        "--output", "table"])
    for m in BATCH + VOTING:
        for f in small_pref[4:] + scores[2:]:
            out.append(["rate", "--method", m, "--input", f])
        out.append(["rate", "--method", m, "--input", small_pref[0], "--output", "table"])
    for f in scores + results[:2]:
        out.append(["rate", "--method", "nash-avg", "--input", f])
    for m in GAME:
        for f in battles + kings:
            out.append(["rate", "--method", m, "--input", f])
        out.append(["rate", "--method", m, "--input", kings[0], "--param", "max_steps=50"])
        out.append(["rate", "--method", m, "--input", results[0]])
    params = {
        "elo": ["k=16", "initial=1000"], "sco": ["alpha=0.5", "tau=2"],
        "ml": ["target=0.01", "variant=rm"],
        "elo-bt": ["ci=sandwich", "ci=bootstrap", "ties=half", "permutations=20", "prior=0",
                   "max_iterations=2", "accelerate=0"],
        "sco-batch": ["ci=bootstrap", "iterations=200", "batch=4"],
        "sco-fy": ["samples=3", "epsilon=0.5"],
        "approval": ["k=1"], "stv": ["winners=2"], "kemeny": ["max_agents=5"],
        "ml-exact": ["tolerance=1e-6"], "iml": ["max_agents=3"], "nash-avg": ["tolerance=1e-5"],
        "gt-ne": ["selection=shannon", "tie_tolerance=0.1"], "gt-cce": ["slackness=1e-3"],
    }
    inputs = {"nash-avg": scores[0], "gt-ne": kings[0], "gt-cce": kings[0]}
    for m, ps in params.items():
        for p in ps:
            out.append(["rate", "--method", m, "--input", inputs.get(m, results[0]), "--param", p])
    bad_params = ["nope=1", "k=x", "k", "=1", "tau=0", "alpha=-1", "max_agents=1", "ci=maybe",
                  "rounds=1", "ties=x", "accelerate=2", "permutations=-1", "tolerance=1",
                  "variant=x", "selection=x", "p=2", "max_steps=0", "threads=0", "batch=0",
                  "samples=0", "tie_tolerance=-1", "winners=-1", "iterations=-1", "min=200"]
    for m in ALL:
        for p in bad_params:
            out.append(["rate", "--method", m, "--input", "/nonexistent.jsonl", "--param", p])
        out.append(["rate", "--method", m, "--input", "/nonexistent.jsonl"])
        out.append(["rate", "--method", m, "--input", results[0], "--pool", "nosuch"])
        out.append(["rate", "--method", m, "--input", small_pref[0], "--pool", "p"])
        for f in bad:
            out.append(["rate", "--method", m, "--input", f])
    out += [["rate", "--method", "glicko", "--input", results[0]],
            ["rate", "--input", results[0]], ["rate", "--method", "elo"],
            ["rate", "--method", "elo-bt", "--input", results[0], "--bootstrap-replicas", "8"],
            ["rate", "--method", "elo", "--input", results[0], "--bootstrap-replicas", "1"],
            ["rate", "--method", "elo", "--input", results[0], "--output", "xml"],
            ["rate", "--method", "elo", "--input", battles[0], "--format", "battles-csv"],
            ["rate", "--method", "elo", "--input", battles[1], "--format", "nope"]]
    for m in [None, "elo", "copeland", "sco-batch"]:
        for f in results[:3] + small_pref[:2]:
            base = ["eval", "--input", f, "--truth", f.replace(".jsonl", ".truth.json")
                    if f.endswith(".jsonl") else f]
            if not f.endswith(".jsonl"):
                base = ["eval", "--input", f]
            if m:
                base += ["--method", m]
            out.append(base)
    out.append(["eval", "--input", results[0], "--methods", "elo,copeland,sco-batch",
                "--splits", "3", "--param", "sco-batch:iterations=100", "--seed", "5"])
    out.append(["eval", "--input", results[0], "--method", "elo", "--agre_steps", "3",
                "--truth", results[0].replace(".jsonl", ".truth.json")])
    out.append(["eval", "--input", results[0], "--method", "elo", "--param", "nope=1"])
    out.append(["eval", "--input", results[0], "--methods", "elo,bogus"])
    for f in results[:3] + battles:
        out.append(["elo-sweep", "--input", f, "--permutations", "1,5", "--k", "8,32"])
        for s in ("uniform", "ucb", "ml"):
            out.append(["suggest", "--input", f, "--strategy", s, "--n", "4", "--seed", "2"])
    out.append(["suggest", "--input", results[0], "--strategy", "ml", "--param", "target=x"])
    out.append(["suggest", "--input", results[0], "--strategy", "ml", "--param", "k=1"])
    out.append(["suggest", "--input", results[0], "--strategy", "best"])
    games = os.path.join(data, "games")
    for g in sorted(os.listdir(games)):
        if g.endswith(".json"):
            for solver in ("ne", "cce"):
                out.append(["game", "--input", os.path.join(games, g), "--solver", solver])
    out.append(["game", "--input", os.path.join(games, "rps.json"), "--solver", "ne",
                "--param", "bogus=1"])
    out.append(["simulate", "--generator", "mallows", "--algorithms",
                "uniform-averaging,online-elo,batch-copeland", "--rounds", "200", "--seeds", "3",
                "--threads", "1", "--curves", "@WORK@/curves.csv"])
    out.append(["simulate", "--generator", "mallows", "--algorithms", "nope", "--rounds", "10"])
    for model, extra in (("mallows", []), ("king-of-the-hill", ["--param", "prompts=5"]),
                         ("bogus", []), ("mallows", ["--param", "agents=x"])):
        out.append(["generate", "--model", model, "--out", "@WORK@/g.jsonl", "--seed", "4"] + extra)
    out += [["rate", "extra-arg"]]
    return out


# Commands whose stderr prints the usage text, which lists the subcommands and, from the
# method table, every method's parameters: it changes when they do. Exit status and stdout
# must still agree.
USAGE_CASES = [["frobnicate"], []]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "data"))
    args = parser.parse_args()
    old, new = os.path.abspath(args.old), os.path.abspath(args.new)
    data = os.path.abspath(args.data)
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        gen = generated_inputs(new, root)
        all_cases = cases(data, gen) + USAGE_CASES
        for case in all_cases:
            results = []
            for binary in (old, new):
                work = tempfile.mkdtemp(dir=root)
                results.append(run(binary, case, work, data))
            if case in USAGE_CASES:
                results = [r[:2] for r in results]
            if results[0] != results[1]:
                failures += 1
                print(f"DIFFERENT: ratingctl {' '.join(case)}")
                for what, a, b in zip(("exit", "stdout", "stderr", "files"), *results):
                    if a != b:
                        print(f"  {what}:\n    old: {str(a)[:400]}\n    new: {str(b)[:400]}")
    print(f"{len(all_cases) - failures} of {len(all_cases)} commands identical")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
