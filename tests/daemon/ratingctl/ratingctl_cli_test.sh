#!/usr/bin/env bash
# The command-line contract of `ratingctl rate` (docs/CONTRACTS.md §2), through the real binary:
# JSON on stdout and exit 0 on success; on invalid input exit != 0, a message naming
# file and line on stderr and nothing on stdout; byte-identical output across processes;
# and Elo/SCO equal to an independent Python implementation on generated data.
set -euo pipefail
ratingctl=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)
reference="$here/../../reference/online_models.py"
source "$(dirname "$0")/../cli_checks.sh"

# 1. Every online method on every shipped format, with valid JSON out.
for input in "$data/atari/atari_rainbow_table6.txt" "$data/preflib/00004-00000102.soc" \
             "$data/preflib/00016-00000002.toi"; do
  for method in elo sco ml; do
    rate_json "$method" "$input" 'd["method"]==m and d["ranking"]' || true
  done
done

# 2. ml's printed lottery meets the default exploitability bound.
"$ratingctl" rate --method ml --input "$data/atari/atari_agent57_table.txt" >"$tmp/ml.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); e=d["extra"]["exploitability"]; assert 0<=e<=1e-3, e; assert abs(sum(d["extra"]["lottery"].values())-1)<1e-9' \
  "$tmp/ml.json" || fail "ml exploitability bound"

# 3. Byte-identical output from two processes (same input, same seed).
for method in elo sco ml; do
  "$ratingctl" rate --method "$method" --input "$data/preflib/00008-00000012.soi" --seed 5 >"$tmp/a"
  "$ratingctl" rate --method "$method" --input "$data/preflib/00008-00000012.soi" --seed 5 >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b" || fail "$method output differs between two runs"
done

# 4. Invalid input: non-zero exit, file:line on stderr, nothing on stdout.
printf '%s\n' '{"pool":"p","gameId":"1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]}' \
  '{"pool":"p","gameId":"2","standings":[{"agent":"a","rank":1},{"agent":"a","rank":2}]}' >"$tmp/bad.jsonl"
expect_error "bad.jsonl:2: standings[1]: agent 'a' appears twice" rate --method elo --input "$tmp/bad.jsonl"
expect_error "missing.jsonl" rate --method elo --input "$tmp/missing.jsonl"
expect_error "unknown method 'glicko'" rate --method glicko --input "$tmp/bad.jsonl"
expect_error "unknown parameter 'K' for method elo" rate --method elo --input "$tmp/bad.jsonl" --param K=1
expect_error "--input FILE is required" rate --method elo
expect_error "unknown subcommand 'rank'" rank
printf '# game x y\nt1 1 2\nt2 3 oops\n' >"$tmp/scores.txt"
expect_error "scores.txt:3:" rate --method sco --input "$tmp/scores.txt"

# 5. Elo and SCO agree with the independent reference on generated data, defaults and not.
python3 "$reference" generate 11 3000 "$tmp/gen.jsonl"
for run in "elo" "elo k=20 initial=1000" "sco" "sco alpha=0.5 tau=2 min=-10 max=10"; do
  set -- $run
  method=$1
  shift
  args=()
  for p in "$@"; do args+=(--param "$p"); done
  "$ratingctl" rate --method "$method" --input "$tmp/gen.jsonl" "${args[@]}" >"$tmp/gen.json"
  python3 "$reference" check "$method" "$tmp/gen.jsonl" "$tmp/gen.json" "$@" || fail "reference: $run"
done

# 6. The batch voting methods on every format: valid JSON, every agent ranked,
#    every parameter reported.
printf '%s\n' \
  '{"pool":"p","gameId":"1","standings":[{"agent":"A","rank":1},{"agent":"B","rank":2},{"agent":"C","rank":3}]}' \
  '{"pool":"p","gameId":"2","standings":[{"agent":"A","rank":1},{"agent":"C","rank":2},{"agent":"B","rank":3}]}' \
  '{"pool":"p","gameId":"3","weight":2,"standings":[{"agent":"C","rank":1},{"agent":"A","rank":2},{"agent":"B","rank":3}]}' \
  '{"pool":"p","gameId":"4","standings":[{"agent":"B","rank":1},{"agent":"C","rank":2},{"agent":"A","rank":3}]}' \
  >"$tmp/pentathlon.jsonl"
voting_methods="approval plurality borda stv copeland kemeny ranked-pairs schulze ml-exact iml"
for input in "$tmp/pentathlon.jsonl" "$data/atari/atari_rainbow_table6.txt" \
             "$data/preflib/00004-00000102.soc" "$data/preflib/00016-00000002.toi"; do
  for method in $voting_methods; do
    rate_json "$method" "$input" \
      'd["method"]==m and len(d["ranking"])==d["agents"] and "params" in d["extra"]' || true
  done
done

# An empty file is a valid, empty election for every voting method.
: >"$tmp/empty.jsonl"
for method in $voting_methods; do
  "$ratingctl" rate --method "$method" --input "$tmp/empty.jsonl" >"$tmp/out.json" 2>"$tmp/err" ||
    fail "$method on an empty file: $(cat "$tmp/err")"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["agents"]==0 and d["ranking"]==[], d' \
    "$tmp/out.json" || fail "$method on an empty file: bad JSON"
done

# 7. The pentathlon of the [VasE] appendix through the binary (expected
#    values from the appendix; Schulze's C is 6 by its definition, the appendix's 7 is a
#    typo — see tests/ratings/voting/pentathlon_test.cc).
check_ratings() {  # check_ratings METHOD 'A:x B:y C:z' [PARAM]...
  local method=$1 expected=$2
  shift 2
  local args=()
  for p in "$@"; do args+=(--param "$p"); done
  "$ratingctl" rate --method "$method" --input "$tmp/pentathlon.jsonl" "${args[@]}" >"$tmp/p.json"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = {r["agent"]: r["rating"] for r in d["ranking"]}
for item in sys.argv[2].split():
    agent, value = item.split(":")
    assert abs(got[agent] - float(value)) < 1e-9, (agent, got)
' "$tmp/p.json" "$expected" || fail "pentathlon $method: $(cat "$tmp/p.json")"
}
check_ratings approval "A:4 B:2 C:4" k=2
check_ratings plurality "A:2 B:1 C:2"
check_ratings borda "A:6 B:3 C:6"
check_ratings stv "C:6.3 A:3.2 B:2.1"
check_ratings copeland "A:1 B:0 C:2"
check_ratings kemeny "C:6 A:4 B:0"
check_ratings schulze "C:6 A:4 B:0"
check_ratings ranked-pairs "C:5 A:3 B:0"
check_ratings iml "C:3 A:2 B:1"
"$ratingctl" rate --method ml-exact --input "$tmp/pentathlon.jsonl" >"$tmp/p.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ranking"][0]["agent"]=="C" and d["extra"]["lottery"]["C"]==1 and d["extra"]["params"]["max_agents"]==4096, d' \
  "$tmp/p.json" || fail "pentathlon ml-exact"
"$ratingctl" rate --method ml-exact --input "$tmp/pentathlon.jsonl" --output table >"$tmp/p.txt"
grep -q "probability" "$tmp/p.txt" || fail "ml-exact table lacks the probability column"
"$ratingctl" rate --method stv --input "$tmp/pentathlon.jsonl" >"$tmp/p.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["extra"]["params"]=={"winners":1} and d["extra"]["winners"]==["C"], d' \
  "$tmp/p.json" || fail "stv reports its effective winners"

# 8. The Rainbow Atari table: the A3C / Dueling-DDQN tie is one IML level, 1/2 each.
"$ratingctl" rate --method iml --input "$data/atari/atari_rainbow_table6.txt" >"$tmp/iml.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
levels = d["extra"]["levels"]
assert len(levels) == 7 and levels[0] == [{"agent": "rainbow", "probability": 1}], levels
assert levels[3] == [{"agent": "a3c", "probability": 0.5}, {"agent": "dueling-ddqn", "probability": 0.5}], levels
' "$tmp/iml.json" || fail "atari iml levels"

# 9. Voting methods: deterministic bytes, and errors naming the parameter or the limit.
for method in stv ml-exact iml; do
  "$ratingctl" rate --method "$method" --input "$data/preflib/00008-00000012.soi" >"$tmp/a"
  "$ratingctl" rate --method "$method" --input "$data/preflib/00008-00000012.soi" >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b" || fail "$method output differs between two runs"
done
atari="$data/atari/atari_rainbow_table6.txt"
# A majority cycle of three (A>B>C, B>C>A, C>A>B) cannot be split: refused at 2.
printf '%s\n' \
  '{"pool":"p","gameId":"1","standings":[{"agent":"A","rank":1},{"agent":"B","rank":2},{"agent":"C","rank":3}]}' \
  '{"pool":"p","gameId":"2","standings":[{"agent":"B","rank":1},{"agent":"C","rank":2},{"agent":"A","rank":3}]}' \
  '{"pool":"p","gameId":"3","standings":[{"agent":"C","rank":1},{"agent":"A","rank":2},{"agent":"B","rank":3}]}' \
  >"$tmp/cycle.jsonl"
expect_error "kemeny: 3 agents is above the exact solver's limit of 2" rate --method kemeny --input "$tmp/cycle.jsonl" --param max_agents=2
"$ratingctl" rate --method kemeny --input "$atari" --param max_agents=2 >/dev/null ||
  fail "kemeny on the Atari table splits into components of at most 2 agents"
expect_error "--param max_agents (kemeny): '40' is not an integer in [2, 25]" rate --method kemeny --input "$atari" --param max_agents=40
expect_error "--param k (approval): '0' is not an integer" rate --method approval --input "$atari" --param k=0
expect_error "unknown parameter 'x' for method borda (the method takes no parameters)" rate --method borda --input "$atari" --param x=1
expect_error "unknown parameter 'k' for method stv; known: winners" rate --method stv --input "$atari" --param k=2
expect_error "winners: 9 is not in [0, 8]" rate --method stv --input "$atari" --param winners=9
expect_error "above the limit of 4 agents" rate --method ml-exact --input "$atari" --param max_agents=4
printf '%s\n' \
  '{"pool":"p","gameId":"1","weight":1e308,"standings":[{"agent":"A","rank":1},{"agent":"B","rank":2}]}' \
  '{"pool":"p","gameId":"2","weight":1e308,"standings":[{"agent":"B","rank":1},{"agent":"A","rank":2}]}' \
  >"$tmp/huge.jsonl"
# A weight above 10^6 is refused where it is read (docs/CONTRACTS.md §1), so no sum of
# weights can overflow a double.
for method in $voting_methods; do
  expect_error "huge.jsonl:1: weight 1e+308 exceeds the limit of 1e+06" rate --method "$method" \
    --input "$tmp/huge.jsonl"
done
# Pools never mix: two pools need --pool, which then rates only that one.
printf '%s\n' \
  '{"pool":"x","gameId":"1","standings":[{"agent":"A","rank":1},{"agent":"B","rank":2}]}' \
  '{"pool":"y","gameId":"1","standings":[{"agent":"C","rank":1},{"agent":"D","rank":2},{"agent":"E","rank":3}]}' \
  >"$tmp/pools.jsonl"
expect_error "holds results of 2 pools (x, y)" rate --method borda --input "$tmp/pools.jsonl"
"$ratingctl" rate --method borda --input "$tmp/pools.jsonl" --pool y >"$tmp/p.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["agents"]==3 and d["results"]==1 and d["ranking"][0]["agent"]=="C", d' \
  "$tmp/p.json" || fail "borda --pool y"

# --help lists the program's own flags.
"$ratingctl" --help >"$tmp/help" 2>&1 || true
for flag in method input format output seed; do
  grep -q -- "^    --$flag (" "$tmp/help" || fail "ratingctl --help does not list --$flag"
done

# --help lists every method's parameters with their defaults, from the method table: the
# defaults written here by hand from docs/MODELS.md (elo K 32, initial 1500; sco alpha 0.1).
grep -q -- "^  elo: k (32), initial (1500)$" "$tmp/help" || fail "--help lacks elo's parameters"
grep -q -- "^  sco: alpha (0.1), tau (1), min (0), max (100)$" "$tmp/help" || fail "--help lacks sco's"
grep -q -- "^  plurality: none$" "$tmp/help" || fail "--help lacks plurality"

# `ratingctl methods` (docs/CONTRACTS.md §2.5): the table as JSON, the 20 methods of the
# contract with their family and input, every parameter with the fields the contract names,
# and every default accepted back by `rate` (the default text reads back to the default).
"$ratingctl" methods >"$tmp/methods.json" || fail "ratingctl methods"
python3 - "$tmp/methods.json" <<'PY' || fail "ratingctl methods document"
import json, sys
doc = json.load(open(sys.argv[1]))
expected = {"elo": ("online", "results"), "sco": ("online", "results"), "ml": ("online", "results"),
            "glicko2": ("online", "results"),
            "elo-bt": ("batch", "votes"), "sco-batch": ("batch", "votes"), "sco-fy": ("batch", "votes"),
            "nash-avg": ("nash", "scores"), "gt-ne": ("game", "battles"), "gt-cce": ("game", "battles")}
for m in ["ml-exact", "iml", "approval", "plurality", "borda", "stv", "copeland", "kemeny",
          "ranked-pairs", "schulze"]:
    expected[m] = ("voting", "votes")
assert [m["name"] for m in doc][:3] == ["elo", "sco", "ml"], doc
assert {m["name"]: (m["family"], m["input"]) for m in doc} == expected, doc
keys = {"name", "type", "default", "min", "max", "min_exclusive", "max_exclusive", "help"}
for m in doc:
    for p in m["params"]:
        assert set(p) == keys, p
        assert p["type"] in ("integer", "number", "string", "boolean"), p
        assert isinstance(p["default"], str) and p["help"], p
        for bound in ("min", "max"):
            assert p[bound] is None or isinstance(p[bound], (int, float)), p
elo = {p["name"]: p for p in doc[0]["params"]}
assert elo["k"]["default"] == "32" and elo["k"]["min"] == 0 and elo["k"]["max"] is None, elo
ml = {p["name"]: p for p in doc[2]["params"]}
assert ml["max_iterations"] == dict(ml["max_iterations"], type="integer", default="1000000", min=1), ml
assert ml["target"]["min_exclusive"] is True and ml["target"]["default"] == "0.001", ml
PY
# README.md's method tables name each parameter with its default: they agree with the table.
python3 - "$tmp/methods.json" "$here/../../../README.md" <<'PY' || fail "README.md's method tables disagree with ratingctl methods"
import json, re, sys
table = {m["name"]: {p["name"]: p["default"] for p in m["params"]} for m in json.load(open(sys.argv[1]))}
checked = 0
for line in open(sys.argv[2]):
    row = re.match(r"\| `([a-z-]+)` \| (.*?) \|", line)
    if not row or row.group(1) not in table:
        continue
    for name, value in re.findall(r"`(\w+)` \(([^)]*)\)", row.group(2)):
        params = table[row.group(1)]
        assert name in params, (row.group(1), name, "not a parameter")
        first = re.split(r"[,|\\ ]", value.replace("`", ""))[0]
        default = params[name]
        try:
            same = float(first) == float(default)
        except ValueError:
            same = first == default
        assert same, (row.group(1), name, value, default)
        checked += 1
assert checked >= 40, checked
PY
python3 -c 'import json,sys
for m in json.load(open(sys.argv[1])):
    print(m["name"], m["input"], " ".join("--param %s=%s" % (p["name"], p["default"]) for p in m["params"]))' \
  "$tmp/methods.json" >"$tmp/defaults"
while read -r method kind params; do
  input="$data/battles/small.csv"
  if [ "$kind" = scores ]; then input="$data/atari/atari_rainbow_table6.txt"; fi
  # shellcheck disable=SC2086
  "$ratingctl" rate --method "$method" --input "$input" $params >"$tmp/with" \
    2>"$tmp/err" || fail "rate --method $method refuses its own defaults: $(cat "$tmp/err")"
  "$ratingctl" rate --method "$method" --input "$input" >"$tmp/without" 2>/dev/null
  python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); [e.pop("fit_seconds",0) for e in (a["extra"],b["extra"])]; assert a==b' \
    "$tmp/with" "$tmp/without" || fail "rate --method $method: its defaults on the command line change the report"
done <"$tmp/defaults"

finish "ratingctl CLI contract"
