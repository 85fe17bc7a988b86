#!/usr/bin/env bash
# `rate --method elo-bt|sco-batch --param ci=...` and `--param ties=...` through the real
# binary (docs/MODELS.md §5.5). Expected values: closed forms for two agents (the MLE
# p = (wins + ties/2) / games and the sandwich variance J / (4 H^2), H = N p (1 - p),
# J = w (1-p)^2 + l p^2 + t (1/2 - p)^2, computed below in Python), and the definition of
# the rank interval applied to the printed intervals.
set -euo pipefail
ratingctl=$1
source "$(dirname "$0")/../cli_checks.sh"

# rate_to FILE ARGS...: `rate` into FILE, or a failure.
rate_to() {
  local out=$1
  shift
  "$ratingctl" rate "$@" >"$out" 2>"$tmp/err" || fail "rate $*: $(cat "$tmp/err")"
}

# 1. Two agents: A beats B 30 times, loses 10, ties 8 (JSONL battles).
python3 - "$tmp/two.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for winner, n in (("model_a", 30), ("model_b", 10), ("tie", 8)):
        for _ in range(n):
            f.write(json.dumps({"model_a": "A", "model_b": "B", "winner": winner}) + "\n")
PY
for ties in drop half; do
  rate_to "$tmp/$ties.json" --method elo-bt --input "$tmp/two.jsonl" --format battles \
    --param prior=0 --param tolerance=1e-9 --param ci=sandwich --param ties=$ties
  python3 - "$tmp/$ties.json" $ties <<'PY' || fail "two agents, ties=$ties"
import json, math, sys
d = json.load(open(sys.argv[1]))
w, l, t = (30, 10, 0) if sys.argv[2] == "drop" else (30, 10, 8)
n = w + l + t; p = (w + t / 2) / n; s = 400 / math.log(10)
j = w * (1 - p) ** 2 + l * p ** 2 + t * (0.5 - p) ** 2
half = 1.959963984540054 * s * math.sqrt(j / (4 * (n * p * (1 - p)) ** 2))
gap = s * math.log(p / (1 - p)) / 2
r = {e["agent"]: e for e in d["ranking"]}
for agent, sign in (("A", 1), ("B", -1)):
    e = r[agent]
    assert abs(e["rating"] - (1500 + sign * gap)) < 1e-3, (e, gap)
    assert abs(e["ci_low"] - (e["rating"] - half)) < 1e-3, (e, half)
    assert abs(e["ci_high"] - (e["rating"] + half)) < 1e-3, (e, half)
assert d["extra"]["params"]["ties"] == sys.argv[2] and d["extra"]["fit_seconds"] >= 0, d["extra"]
PY
done

# 2. Ten agents of known order: intervals hold their rating, rank intervals follow the
# definition from the printed intervals; the bootstrap is seeded; sco-batch has it too.
"$ratingctl" generate --model tournament --param agents=10 --param players=2 \
  --param contests=400 --seed 4 --out "$tmp/t.jsonl"
check_ranks='
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranking"]
for e in r:
    assert e["ci_low"] <= e["rating"] <= e["ci_high"], e
    above = sum(1 for x in r if x["ci_low"] > e["ci_high"])
    below = sum(1 for x in r if x["ci_high"] < e["ci_low"])
    assert (e["rank_low"], e["rank_high"]) == (1 + above, len(r) - below), e
    assert e["rank_low"] <= e["rank"] <= e["rank_high"], e
'
rate_to "$tmp/s.json" --method elo-bt --input "$tmp/t.jsonl" --param ci=sandwich
python3 -c "$check_ranks" "$tmp/s.json" || fail "elo-bt sandwich rank intervals"
rate_to "$tmp/b1.json" --method elo-bt --input "$tmp/t.jsonl" --param ci=bootstrap \
  --param rounds=50 --seed 3
python3 -c "$check_ranks" "$tmp/b1.json" || fail "elo-bt bootstrap rank intervals"
rate_to "$tmp/b2.json" --method elo-bt --input "$tmp/t.jsonl" --param ci=bootstrap \
  --param rounds=50 --seed 3
rate_to "$tmp/b3.json" --method elo-bt --input "$tmp/t.jsonl" --param ci=bootstrap \
  --param rounds=50 --seed 4
python3 - "$tmp/b1.json" "$tmp/b2.json" "$tmp/b3.json" <<'PY' || fail "bootstrap seeding"
import json, sys
bounds = lambda f: [(e["ci_low"], e["ci_high"]) for e in json.load(open(f))["ranking"]]
assert bounds(sys.argv[1]) == bounds(sys.argv[2]), "same seed, other intervals"
assert bounds(sys.argv[1]) != bounds(sys.argv[3]), "another seed, same intervals"
PY
rate_to "$tmp/sco.json" --method sco-batch --input "$tmp/t.jsonl" --param ci=bootstrap \
  --param rounds=20 --param iterations=2000
python3 -c "$check_ranks" "$tmp/sco.json" || fail "sco-batch bootstrap rank intervals"
rate_json elo-bt "$tmp/t.jsonl" \
  'all("ci_low" not in e and "rank_low" not in e for e in d["ranking"]) and "fit_seconds" not in d["extra"]'

# 3. Online models with --bootstrap-replicas (docs/MODELS.md §5.6): games counted from the
# file, provisional below --provisional-games, intervals holding the rating, rank intervals
# by their definition, the same output twice, and none of it without the flag.
for model in elo sco; do
  rate_to "$tmp/o-$model.json" --method $model --input "$tmp/t.jsonl" --bootstrap-replicas 16 \
    --provisional-games 80
  python3 -c "$check_ranks" "$tmp/o-$model.json" || fail "$model replicas: rank intervals"
  rate_to "$tmp/o2-$model.json" --method $model --input "$tmp/t.jsonl" --bootstrap-replicas 16 \
    --provisional-games 80
  cmp -s "$tmp/o-$model.json" "$tmp/o2-$model.json" || fail "$model replicas: not reproducible"
done
rate_to "$tmp/o-ml.json" --method ml --input "$tmp/t.jsonl" --bootstrap-replicas 16 \
  --provisional-games 80
python3 - "$tmp/t.jsonl" "$tmp/o-elo.json" "$tmp/o-sco.json" "$tmp/o-ml.json" <<'PY' ||
import collections, json, sys
games = collections.Counter()
for line in open(sys.argv[1]):
    for s in json.loads(line)["standings"]:
        games[s["agent"]] += 1
for path in sys.argv[2:]:
    for e in json.load(open(path))["ranking"]:
        assert e["games"] == games[e["agent"]], (path, e, games[e["agent"]])
        assert e["provisional"] == (games[e["agent"]] < 80), (path, e)
        assert ("ci_low" in e) == (not path.endswith("ml.json")), (path, e)
        if "ci_low" in e:
            assert e["ci_low"] < e["rating"] < e["ci_high"], e
assert min(games.values()) < 80 <= max(games.values()), games  # both kinds occur
PY
  fail "online models with replicas: games, provisional, intervals"
rate_json elo "$tmp/t.jsonl" 'all("games" not in e and "ci_low" not in e for e in d["ranking"])'
# The table shows the JSON's intervals (4 decimals), rank intervals, games and a '?' for
# provisional agents.
rate_to "$tmp/o-elo.txt" --method elo --input "$tmp/t.jsonl" --bootstrap-replicas 16 \
  --provisional-games 80 --output table
python3 - "$tmp/o-elo.json" "$tmp/o-elo.txt" <<'PY' || fail "table with intervals and games"
import json, re, sys
d = {e["agent"]: e for e in json.load(open(sys.argv[1]))["ranking"]}
lines = open(sys.argv[2]).read().splitlines()
assert "95% interval" in lines[1] and "ranks" in lines[1] and "games" in lines[1], lines[1]
rows = [l for l in lines[2:] if re.match(r"\s+\d+\s", l)]
assert len(rows) == len(d), rows
for row in rows:
    m = re.match(r"\s+(\d+)\s+(\S+)\s+(\S+)\s+\[\s*(\S+),\s*(\S+)\]\s+(\d+)-(\d+)\s+(\d+)( \?)?$", row)
    assert m, row
    e = d[m.group(2)]
    assert m.group(4) == "%.4f" % e["ci_low"] and m.group(5) == "%.4f" % e["ci_high"], (row, e)
    assert (int(m.group(6)), int(m.group(7))) == (e["rank_low"], e["rank_high"]), (row, e)
    assert int(m.group(8)) == e["games"] and (m.group(9) is not None) == e["provisional"], (row, e)
assert lines[-1].startswith("? provisional"), lines[-1]
PY
# glicko2's table adds its rating deviation, and says what makes an agent provisional.
rate_to "$tmp/o-g2.txt" --method glicko2 --input "$tmp/t.jsonl" --provisional-games 80 \
  --output table
rate_to "$tmp/o-g2.json" --method glicko2 --input "$tmp/t.jsonl" --provisional-games 80
python3 - "$tmp/o-g2.json" "$tmp/o-g2.txt" <<'PY' || fail "glicko2's table"
import json, re, sys
d = {e["agent"]: e for e in json.load(open(sys.argv[1]))["ranking"]}
lines = open(sys.argv[2]).read().splitlines()
assert lines[1].split()[:4] == ["rank", "agent", "rating", "rd"], lines[1]
rows = [l for l in lines[2:] if re.match(r"\s+\d+\s", l)]
assert len(rows) == len(d), rows
for row in rows:
    m = re.match(r"\s+\d+\s+(\S+)\s+(\S+)\s+(\S+)\s+\[", row)
    assert m and m.group(3) == "%.4f" % d[m.group(1)]["rd"], (row, d[m.group(1)])
assert lines[-1] == ("? provisional: rd above --provisional-rd or fewer results than "
                     "--provisional-games"), lines[-1]
PY

# 4. Errors.
expect_error "--bootstrap-replicas must be 0 or 2..256, got 1" rate --method elo \
  --input "$tmp/t.jsonl" --bootstrap-replicas 1
expect_error "--bootstrap-replicas: only the online models elo, sco and ml take it" rate \
  --method elo-bt --input "$tmp/t.jsonl" --bootstrap-replicas 16
expect_error "--param ci (elo-bt): 'x' is not none, sandwich or bootstrap" rate \
  --method elo-bt --input "$tmp/t.jsonl" --param ci=x
expect_error "--param rounds (elo-bt): '1' is not an integer >= 2" rate --method elo-bt \
  --input "$tmp/t.jsonl" --param ci=bootstrap --param rounds=1
expect_error "--param ties (elo-bt): 'x' is not drop or half" rate --method elo-bt \
  --input "$tmp/t.jsonl" --param ties=x
expect_error "sco-batch has bootstrap only" rate --method sco-batch --input "$tmp/t.jsonl" \
  --param ci=sandwich
expect_error "ci and ties apply to the MM fit" rate --method elo-bt --input "$tmp/t.jsonl" \
  --param permutations=10 --param ci=sandwich

finish intervals_cli
