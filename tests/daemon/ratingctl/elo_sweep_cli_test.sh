#!/usr/bin/env bash
# The command-line contract of `ratingctl generate --model bernoulli`, `ratingctl elo-sweep`
# and elo-bt's spread over permutations (docs/CONTRACTS.md §2.3, docs/MODELS.md §5.2).
# Expected values: an independent online Elo written below in Python (Eq. 1-2 of [EU]) for
# the file's order, head-to-head counts from the file itself, and hand calculation.
set -euo pipefail
ratingctl=$1
source "$(dirname "$0")/../cli_checks.sh"

# 1. The generator: games per pair, counts in the truth equal to the lines, draws with tie.
"$ratingctl" generate --model bernoulli --param pairs='A>B:0.75,B>C:0.51' --param games=300 \
  --param tie=0.2 --seed 3 --out "$tmp/eu.jsonl"
"$ratingctl" generate --model bernoulli --param pairs='A>B:0.75,B>C:0.51' --param games=300 \
  --param tie=0.2 --seed 3 --out "$tmp/again.jsonl"
cmp -s "$tmp/eu.jsonl" "$tmp/again.jsonl" || fail "bernoulli: the same seed gave another file"
python3 - "$tmp/eu.jsonl" "$tmp/eu.truth.json" <<'PY' || fail "bernoulli file"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 600, len(lines)
counts = {}
for d in lines:
    (a, ra), (b, rb) = [(s["agent"], s["rank"]) for s in d["standings"]]
    c = counts.setdefault((a, b), [0, 0, 0])
    c[0 if ra < rb else 1 if rb < ra else 2] += 1
truth = json.load(open(sys.argv[2]))
assert truth["generator"] == "bernoulli" and truth["results"] == 600, truth
for p in truth["pairs"]:
    c = counts[(p["first"], p["second"])]
    assert [p["first_wins"], p["second_wins"], p["draws"]] == c, (p, c)
    assert sum(c) == 300 and 20 < c[2] < 100, c  # draws ~ Bin(300, 0.2): 60 +- 7
first_pair = [(d["standings"][0]["agent"]) for d in lines[:300]]
assert 0 < first_pair.count("A") < 300, "pairs not shuffled together"
PY
expect_error "--param pairs (bernoulli): required" generate --model bernoulli --out "$tmp/x.jsonl"
expect_error "'A-B:0.5' is not FIRST>SECOND:P" generate --model bernoulli \
  --param pairs=A-B:0.5 --out "$tmp/x.jsonl"
expect_error "tie: 1 is outside [0, 1)" generate --model bernoulli --param pairs=A\>B:0.5 \
  --param tie=1 --out "$tmp/x.jsonl"

# 2. elo-sweep on a file built so that Elo contradicts a head-to-head result: A beats B two
# games to one but loses every game to C, whom B beats; D only ever plays A.
python3 - "$tmp/h2h.jsonl" <<'PY'
import json, sys
games = [("A", "B")] * 2 + [("B", "A")] + [("C", "A")] * 4 + [("B", "C")] * 3 + [("C", "B")] \
    + [("A", "D")] * 2 + [("D", "A")]
with open(sys.argv[1], "w") as f:
    for i, (w, l) in enumerate(games):
        f.write(json.dumps({"pool": "p", "gameId": f"g{i}", "standings": [{"agent": w, "rank": 1},
                                                             {"agent": l, "rank": 2}]}) + "\n")
PY
if ! "$ratingctl" elo-sweep --input "$tmp/h2h.jsonl" --k 1,16,64 --permutations 1,50 \
  --initial 1400 --seed 2 >"$tmp/sweep.json" 2>"$tmp/err"; then
  fail "elo-sweep exited non-zero: $(cat "$tmp/err")"
fi
python3 - "$tmp/h2h.jsonl" "$tmp/sweep.json" <<'PY' || fail "elo-sweep document"
import itertools, json, sys
games = [json.loads(l)["standings"] for l in open(sys.argv[1])]
doc = json.load(open(sys.argv[2]))
agents = sorted({s["agent"] for g in games for s in g})

def elo(k, initial=1400.0):  # [EU] Eq. 1-2 in the file's order
    r = {a: initial for a in agents}
    for g in games:
        w, l = g[0]["agent"], g[1]["agent"]
        e = 1 / (1 + 10 ** ((r[l] - r[w]) / 400))
        r[w] += k * (1 - e)
        r[l] -= k * (1 - e)
    return r

wins = {}
for g in games:
    wins[(g[0]["agent"], g[1]["agent"])] = wins.get((g[0]["agent"], g[1]["agent"]), 0) + 1
configs = doc["configurations"]
assert [(c["k"], c["permutations"]) for c in configs] == \
    [(1, 1), (1, 50), (16, 1), (16, 50), (64, 1), (64, 50)], configs
orders = []
for c in configs:
    ranking = c["ranking"]
    assert sorted(e["agent"] for e in ranking) == agents, ranking
    means = [e["mean"] for e in ranking]
    assert means == sorted(means, reverse=True), ranking
    assert abs(sum(means) - 1400 * len(agents)) < 1e-9, means  # zero-sum
    if c["permutations"] == 1:
        ref = elo(c["k"])
        for e in ranking:
            assert abs(e["mean"] - ref[e["agent"]]) < 1e-9 and e["sem"] == 0, (e, ref)
    else:
        assert all(e["sem"] > 0 for e in ranking), ranking
    place = {e["agent"]: i for i, e in enumerate(ranking)}
    orders.append(place)
    expected = sorted([a, b] for (a, b) in itertools.permutations(agents, 2)
                      if wins.get((a, b), 0) > wins.get((b, a), 0) and place[a] > place[b])
    assert c["contradictions"] == expected, (c["k"], c["permutations"], c["contradictions"], expected)
# A beat B 2-1 yet must rank below B (it lost 4-0 to C, whom B beat 3-1) in the file's order.
k16 = configs[2]
assert ["A", "B"] in k16["contradictions"], k16
met = {tuple(sorted((g[0]["agent"], g[1]["agent"]))) for g in games}
assert doc["never_compared"] == [["B", "D"], ["C", "D"]], doc["never_compared"]
stability = [(tuple(s["pair"]), s["stable"]) for s in doc["stability"]]
assert [p for p, _ in stability] == sorted(met), stability
for (a, b), stable in stability:
    assert stable == (len({o[a] < o[b] for o in orders}) == 1), (a, b)
assert doc["initial"] == 1400 and doc["seed"] == 2, doc
PY
"$ratingctl" elo-sweep --input "$tmp/h2h.jsonl" --k 1,16,64 --permutations 1,50 --initial 1400 \
  --seed 2 | cmp -s - "$tmp/sweep.json" || fail "elo-sweep is not deterministic"
expect_error "elo-sweep: --k '1,x': 'x' is not a number" elo-sweep --input "$tmp/h2h.jsonl" --k 1,x
expect_error "elo-sweep: --permutations: 0 is not >= 1" elo-sweep --input "$tmp/h2h.jsonl" \
  --permutations 0
# Elo's parameters other than K from the method table (`rate --method elo`'s): --param
# initial=1400 is --initial 1400, byte for byte; the default is elo's initial, 1500.
"$ratingctl" elo-sweep --input "$tmp/h2h.jsonl" --k 1,16,64 --permutations 1,50 \
  --param initial=1400 --seed 2 | cmp -s - "$tmp/sweep.json" ||
  fail "elo-sweep --param initial=1400 differs from --initial 1400"
"$ratingctl" elo-sweep --input "$tmp/h2h.jsonl" --k 16 --permutations 1 |
  grep -q '"initial":1500,' || fail "elo-sweep's default initial is not elo's 1500"
expect_error "elo-sweep: --param k: K is swept; give --k" elo-sweep --input "$tmp/h2h.jsonl" \
  --param k=1
expect_error "elo-sweep: --param: unknown parameter 'scale' for method elo; known: k, initial" \
  elo-sweep --input "$tmp/h2h.jsonl" --param scale=400
expect_error "elo-sweep: --input FILE is required" elo-sweep
expect_error "elo-sweep: K -1: elo: k must be finite and >= 0" elo-sweep --input "$tmp/h2h.jsonl" \
  --k=-1

# 3. elo-bt's spread. Every result the same: every order gives the same ratings, so SEM 0 and
# full agreement (by hand); the h2h file: one SEM per agent, one agreement per adjacent pair.
for i in 1 2 3 4 5; do
  echo '{"pool":"p","gameId":"g'"$i"'","standings":[{"agent":"x","rank":1},{"agent":"y","rank":2}]}'
done >"$tmp/same.jsonl"
rate_json elo-bt "$tmp/same.jsonl" \
  'd["extra"]["sem"] == {"x": 0, "y": 0} and d["extra"]["order_agreement"] == [{"pair": ["x", "y"], "agreement": 1}]' \
  --param permutations=20
rate_json elo-bt "$tmp/h2h.jsonl" \
  'sorted(d["extra"]["sem"]) == ["A", "B", "C", "D"] and all(v > 0 for v in d["extra"]["sem"].values()) and [p["pair"] for p in d["extra"]["order_agreement"]] == [[a["agent"], b["agent"]] for a, b in zip(d["ranking"], d["ranking"][1:])] and all(0.5 <= p["agreement"] <= 1 for p in d["extra"]["order_agreement"])' \
  --param permutations=200 --param k=16
rate_json elo-bt "$tmp/h2h.jsonl" '"sem" not in d["extra"] and "order_agreement" not in d["extra"]'

finish elo_sweep_cli
