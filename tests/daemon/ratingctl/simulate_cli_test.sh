#!/usr/bin/env bash
# The command-line contract of `ratingctl simulate` (docs/CONTRACTS.md §2.3, docs/ACTIVE.md
# §4) through the real binary: the JSON document's fields, byte-identical output for any
# thread count, the curves file, the built-in Agent57 table, and errors that name the
# problem. Small runs (seconds); the paper's numbers are the repro tests'.
set -euo pipefail
ratingctl=$1
data=$2
source "$(dirname "$0")/../cli_checks.sh"

# 1. The document: every field of the contract, one result per (algorithm, k).
"$ratingctl" simulate --generator mallows --algorithms uniform-averaging,batch-elo \
  --rounds 300 --seeds 6 --k 1,3 --param phi=0.6 --param batch-elo:prior=1 \
  --curves "$tmp/curves.csv" --threads 1 >"$tmp/one.json"
python3 - "$tmp/one.json" <<'PY' || fail "simulate document"
import json, sys
d = json.load(open(sys.argv[1]))
for key, value in {"generator": "mallows", "rounds": 300, "seeds": 6, "k": [1, 3],
                   "window": 250, "seed": 0, "phi": 0.6, "agents": 8, "tasks": 50,
                   "sigma": 20, "low": 0, "high": 100}.items():
    assert d[key] == value, (key, d[key])
assert sorted(d["truth"]) == ["a%d" % i for i in range(8)], d["truth"]
rows = [(r["algorithm"], r["k"]) for r in d["results"]]
assert rows == [("uniform-averaging", 1), ("uniform-averaging", 3), ("batch-elo", 1),
                ("batch-elo", 3)], rows
for r in d["results"]:
    assert 0 <= r["agre"] <= 1 and r["agre_ci95"] >= 0, r
    assert 0 <= r["final_gre_zero_fraction"] <= 1, r
assert d["results"][2]["params"]["prior"] == 1, d["results"][2]
PY
lines=$(wc -l <"$tmp/curves.csv")
[ "$lines" -eq $((1 + 4 * 300)) ] || fail "curves: $lines lines, expected 1201"
head -1 "$tmp/curves.csv" | grep -qx "algorithm,k,round,gre_mean,gre_ci95" || fail "curves header"

# 2. Byte-identical whatever the thread count (and curves too).
"$ratingctl" simulate --generator mallows --algorithms uniform-averaging,batch-elo \
  --rounds 300 --seeds 6 --k 1,3 --param phi=0.6 --param batch-elo:prior=1 \
  --curves "$tmp/curves3.csv" --threads 3 >"$tmp/three.json"
cmp -s "$tmp/one.json" "$tmp/three.json" || fail "output differs between 1 and 3 threads"
cmp -s "$tmp/curves.csv" "$tmp/curves3.csv" || fail "curves differ between 1 and 3 threads"

# 3. The built-in Agent57 table equals the vendored file given as table:FILE.
"$ratingctl" simulate --generator atari-agent57 --algorithms online-sco --rounds 200 \
  --seeds 2 >"$tmp/builtin.json"
"$ratingctl" simulate --generator "table:$data/atari/atari_agent57_table.txt" \
  --algorithms online-sco --rounds 200 --seeds 2 >"$tmp/file.json"
python3 - "$tmp/builtin.json" "$tmp/file.json" <<'PY' || fail "atari-agent57 vs table:FILE"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["results"] == b["results"], (a["results"], b["results"])
assert a["truth"] == ["r2d2(bandit)", "muzero", "r2d2", "agent57", "r2d2(retrace)", "ngu",
                      "human", "random"], a["truth"]
PY

# 4. Errors name what is wrong.
expect_error "unknown algorithm 'elo'; known: uniform-averaging" simulate --generator mallows --algorithms elo
expect_error "--generator: unknown generator 'gauss'" simulate --generator gauss --algorithms online-elo
expect_error "unknown parameter 'phi' for method plackett-luce" simulate --generator plackett-luce --algorithms online-elo --param phi=0.2
expect_error "'batch-sco' is not one of --algorithms" simulate --generator mallows --algorithms online-elo --param batch-sco:steps=2
expect_error "k = 9 is outside [1, 8]" simulate --generator mallows --algorithms online-elo --k 9 --rounds 5 --seeds 1
expect_error "--k '3,x': 'x' is not an integer >= 1" simulate --generator mallows --algorithms online-elo --k 3,x
expect_error "--algorithms is required" simulate --generator mallows
expect_error "eval: --k '3,8' is not an integer" eval --input "$data/atari/atari_agent57_table.txt" --k 3,8
expect_error "missing.txt" simulate --generator table:"$tmp/missing.txt" --algorithms online-elo

finish simulate_cli
