#!/usr/bin/env bash
# The command-line contract of `ratingctl suggest` (docs/CONTRACTS.md §2.3, docs/ACTIVE.md
# §6) through the real binary. Expected values: a hand calculation (the ucb pairs of a
# 4-agent cycle), `ratingctl rate --method ml`'s lottery put through σ'(a)σ'(b)/(1-σ'(a)) in
# Python (ml), and 1/(m(m-1)) (uniform).
set -euo pipefail
ratingctl=$1
data=$2
source "$(dirname "$0")/../cli_checks.sh"

# A > B twice, B > C, C > A, and D below everyone (7 results).
in="$tmp/rps.jsonl"
n=0
for pair in A:B A:B B:C C:A A:D B:D C:D; do
  n=$((n + 1))
  echo "{\"pool\":\"rps\",\"gameId\":\"g$n\",\"standings\":[{\"agent\":\"${pair%%:*}\",\"rank\":1},{\"agent\":\"${pair##*:}\",\"rank\":2}]}"
done >"$in"

# 1. ucb by hand: games (points) A 4 (3), B 4 (2), C 3 (2), D 3 (0), T_total 14;
# UCB = mean + √2·sqrt(ln 14 / T_a): A 1.8987, B 1.6487, C 1.9931, D 1.3264.
want='{"pool":"rps","sequence":7,"strategy":"ucb","suggestions":[{"agents":["C","A"],"probability":1},{"agents":["C","B"],"probability":1},{"agents":["A","B"],"probability":1}]}'
got=$("$ratingctl" suggest --input "$in" --strategy ucb --n 3)
[ "$got" = "$want" ] || fail "ucb: got $got"

# 2. uniform: seeded, distinct agents, 1/(m(m-1)) = 1/12; n above 1000 is clamped.
"$ratingctl" suggest --input "$in" --strategy uniform --n 5 --seed 11 >"$tmp/u11.json"
"$ratingctl" suggest --input "$in" --strategy uniform --n 5 --seed 11 >"$tmp/u11b.json"
"$ratingctl" suggest --input "$in" --strategy uniform --n 5 --seed 12 >"$tmp/u12.json"
cmp -s "$tmp/u11.json" "$tmp/u11b.json" || fail "uniform: the same seed gave other pairs"
cmp -s "$tmp/u11.json" "$tmp/u12.json" && fail "uniform: seeds 11 and 12 gave the same pairs"
python3 - "$tmp/u11.json" <<'PY' || fail "uniform document"
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["pool", "sequence", "strategy", "suggestions"], list(d)
assert (d["pool"], d["sequence"], d["strategy"]) == ("rps", 7, "uniform"), d
assert len(d["suggestions"]) == 5, d
for s in d["suggestions"]:
    assert list(s) == ["agents", "probability"], s
    a, b = s["agents"]
    assert a != b and {a, b} <= set("ABCD"), s
    assert abs(s["probability"] - 1 / 12) < 1e-15, s
PY
"$ratingctl" suggest --input "$in" --strategy uniform --n 5000 >"$tmp/many.json"
python3 -c "import json,sys; assert len(json.load(open(sys.argv[1]))['suggestions']) == 1000" \
  "$tmp/many.json" || fail "n=5000 is not clamped to 1000"

# 3. ml: each probability is σ'(a)σ'(b)/(1-σ'(a)) of rate's lottery with ε = 0.25.
"$ratingctl" rate --method ml --input "$in" >"$tmp/rate.json"
"$ratingctl" suggest --input "$in" --strategy ml --n 50 --exploration 0.25 --seed 4 >"$tmp/ml.json"
python3 - "$tmp/rate.json" "$tmp/ml.json" <<'PY' || fail "ml probabilities"
import json, sys
lottery = json.load(open(sys.argv[1]))["extra"]["lottery"]
d = json.load(open(sys.argv[2]))
assert (d["pool"], d["sequence"], d["strategy"]) == ("rps", 7, "ml"), d
assert len(d["suggestions"]) == 50
mixed = {a: 0.25 / 4 + 0.75 * p / sum(lottery.values()) for a, p in lottery.items()}
for s in d["suggestions"]:
    a, b = s["agents"]
    assert a != b, s
    want = mixed[a] * mixed[b] / (1 - mixed[a])
    assert abs(s["probability"] - want) < 1e-9, (s, want)
PY

# 4. Pools: --pool picks one of several; a file of several needs it.
sed 's/"rps"/"other"/' "$in" >>"$tmp/two.jsonl"
cat "$in" >>"$tmp/two.jsonl"
got=$("$ratingctl" suggest --input "$tmp/two.jsonl" --pool rps --strategy ucb --n 3)
[ "$got" = "$want" ] || fail "--pool rps: got $got"
expect_error "choose one with --pool" suggest --input "$tmp/two.jsonl" --strategy ucb

# 5. Errors name the problem.
expect_error "--strategy must be uniform, ucb or ml (got '')" suggest --input "$in"
expect_error "--strategy must be uniform, ucb or ml (got 'elo')" suggest --input "$in" --strategy elo
expect_error "--n must be >= 1" suggest --input "$in" --strategy ucb --n 0
expect_error "exploration must be a number in [0, 1]" suggest --input "$in" --strategy ml --exploration 1.5
expect_error "--input FILE is required" suggest --strategy ucb
expect_error "unknown parameter 'q'" suggest --input "$in" --strategy ml --param q=1
echo '{"pool":"rps","gameId":"x","standings":[{"agent":"A","rank":0},{"agent":"B","rank":1}]}' >"$tmp/bad.jsonl"
expect_error "bad.jsonl:1:" suggest --input "$tmp/bad.jsonl" --strategy ucb

finish suggest_cli
