#!/usr/bin/env bash
# The command-line contract of `ratingctl game` (docs/CONTRACTS.md §2.3) through the real
# binary, on the games of tests/data/games/ (README there). Expected values are closed
# forms: Rock-paper-scissors' unique equilibrium (1/3 each, every regret 0; a zero-sum
# game's CCE marginals are its minimax strategies), clones sharing their action's mass,
# Chicken's symmetric mixed equilibrium (swerve q = 11/12 from 0·q − (1−q) = q − 12(1−q)),
# the 3-player volunteer's dilemma's (volunteer p = 1 − √0.36 = 0.4 from 1 − c = 1 − (1−p)²),
# and the regrets u_i(a, x_-i) − u_i(x) recomputed in Python from the payoffs.
set -euo pipefail
ratingctl=$1
data=$2/games
source "$(dirname "$0")/../cli_checks.sh"

# game_json FILE SOLVER CHECK [ARGS...]: `game --input FILE --solver SOLVER ARGS...` exits 0
# with nothing on stderr and prints JSON for which the Python expression CHECK holds over
# `d` (the document), `p` (player name -> action -> probability) and `r` (-> rating).
# Leaves the document in $tmp/out.json.
game_json() {
  local file=$1 solver=$2 check=$3
  shift 3
  if ! "$ratingctl" game --input "$file" --solver "$solver" "$@" >"$tmp/out.json" 2>"$tmp/err"; then
    fail "$solver on $file exited non-zero: $(cat "$tmp/err")"
    return 1
  fi
  [ -s "$tmp/err" ] && fail "$solver on $file wrote on stderr: $(cat "$tmp/err")"
  python3 - "$tmp/out.json" "$check" <<'PY' || fail "$solver on $file: $check"
import json, sys
d = json.load(open(sys.argv[1]))
p = {q["name"]: {a["action"]: a["probability"] for a in q["actions"]} for q in d["players"]}
r = {q["name"]: {a["action"]: a["rating"] for a in q["actions"]} for q in d["players"]}
assert eval("(" + sys.argv[2] + ")"), d
PY
}

# 1. Rock-paper-scissors: 1/3 each, regrets ~0; the contract's keys, in the input's order.
for solver in ne cce; do
  game_json "$data/rps.json" $solver \
    'all(abs(x - 1/3) <= 2e-3 for q in p.values() for x in q.values()) and
     all(-3e-3 <= x <= 1e-3 for q in r.values() for x in q.values())'
  python3 - "$tmp/out.json" $solver <<'PY' || fail "rps $solver: document shape"
import json, sys
d = json.load(open(sys.argv[1]))
solver = sys.argv[2]
extra = {"ne": ["forced_decays", "loss", "tau"], "cce": ["slackness"]}[solver]
assert sorted(d) == sorted(["solver", "exploitability", "steps", "converged", "params",
                            "players"] + extra), list(d)
assert d["solver"] == solver and d["converged"] is True, d
assert [q["name"] for q in d["players"]] == ["row", "column"], d
for q in d["players"]:
    assert list(q) == ["actions", "name"], q
    assert [a["action"] for a in q["actions"]] == ["R", "P", "S"], q
    assert all(list(a) == ["action", "probability", "rating"] for a in q["actions"]), q
ratings = [a["rating"] for q in d["players"] for a in q["actions"]]
assert d["exploitability"] == max(ratings), d
assert isinstance(d["steps"], int) and d["steps"] >= 0, d
# Every parameter of the contract with its default (the options structs'); the solvers
# may take more.
common = {"selection": "affinity", "kernel_variance": 1e-6, "p": 1, "epsilon": 1e-3,
          "learning_rate": 1e-2, "max_steps": 1000000}
own = {"ne": {"tau0": 1, "decay": 0.95, "steps_per_decay": 25, "anneal_threshold": 1e-5,
              "tau_min": 1e-4},
       "cce": {"slackness": 1e-5, "initial_dual": 1e-3}}[solver]
for key, value in {**common, **own}.items():
    assert d["params"][key] == value, (key, d["params"])
PY
done

# 2. Rock twice: the clones R1 and R2 share rock's 1/3 equally; the rest as in RPS.
for solver in ne cce; do
  game_json "$data/rps_rock_twice.json" $solver \
    'abs(p["row"]["R1"] - p["row"]["R2"]) <= 1e-9 and
     abs(p["row"]["R1"] + p["row"]["R2"] - 1/3) <= 2e-3 and
     abs(p["row"]["P"] - 1/3) <= 2e-3 and abs(p["row"]["S"] - 1/3) <= 2e-3 and
     all(abs(x - 1/3) <= 2e-3 for x in p["column"].values()) and
     all(-3e-3 <= x <= 1e-3 for q in r.values() for x in q.values())'
done

# 3. Chicken: the symmetric mixed Nash equilibrium, swerve 11/12 for both players.
game_json "$data/chicken.json" ne \
  'all(abs(p[n]["swerve"] - 11/12) <= 2e-3 and abs(sum(p[n].values()) - 1) <= 1e-9
       for n in ("row", "column")) and d["exploitability"] <= 1e-3'

# 4. Three players, volunteer's dilemma: volunteer p = 0.4 (epsilon 1e-4 for a tighter
# equilibrium; with the default 1e-3, p is 0.402); the printed regrets are the payoffs'.
game_json "$data/volunteers_dilemma.json" ne \
  'all(abs(p[n]["volunteer"] - 0.4) <= 1e-3 for n in ("ann", "bob", "cat")) and
   d["params"]["epsilon"] == 1e-4 and d["exploitability"] <= 1e-4' --param epsilon=1e-4
python3 - "$data/volunteers_dilemma.json" "$tmp/out.json" <<'PY' || fail "volunteers: regrets"
import itertools, json, sys
game = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
x = [[a["probability"] for a in q["actions"]] for q in d["players"]]
sizes = [len(q["actions"]) for q in game["players"]]
joints = list(itertools.product(*[range(n) for n in sizes]))  # the last player fastest
for i, u in enumerate(game["payoffs"]):
    def value(fixed):  # u_i with player i playing `fixed` (or x_i), the others x_-i
        total = 0
        for k, joint in enumerate(joints):
            w = 1
            for j, a in enumerate(joint):
                if j == i and fixed is not None:
                    w *= 1 if a == fixed else 0
                else:
                    w *= x[j][a]
            total += w * u[k]
        return total
    played = value(None)
    for a, action in enumerate(d["players"][i]["actions"]):
        assert abs(action["rating"] - (value(a) - played)) <= 1e-9, (i, action, value(a) - played)
PY
# The CCE: every regret (CCE violation) at most epsilon, marginals on the simplex.
game_json "$data/volunteers_dilemma.json" cce \
  'd["converged"] and all(x <= 1e-3 for q in r.values() for x in q.values()) and
   all(abs(sum(q.values()) - 1) <= 1e-9 for q in p.values()) and
   d["exploitability"] == max(x for q in r.values() for x in q.values())'

# 5. Parameters are applied and echoed with their effective values.
game_json "$data/rps.json" ne \
  'd["params"]["selection"] == "shannon" and d["params"]["tau0"] == 2 and
   d["params"]["steps_per_decay"] == 100' \
  --param selection=shannon --param tau0=2 --param steps_per_decay=100
game_json "$data/rps.json" cce 'd["params"]["slackness"] == 1e-4' --param slackness=1e-4

# 6. Equal inputs give byte-identical output.
for solver in ne cce; do
  for file in chicken volunteers_dilemma; do
    "$ratingctl" game --input "$data/$file.json" --solver $solver >"$tmp/a.json"
    "$ratingctl" game --input "$data/$file.json" --solver $solver >"$tmp/b.json"
    cmp -s "$tmp/a.json" "$tmp/b.json" || fail "$file $solver: two runs differ"
  done
done

# 7. Not converged: exit 0 with the document, and a warning on stderr.
for solver in ne cce; do
  if ! "$ratingctl" game --input "$data/chicken.json" --solver $solver --param max_steps=10 \
    >"$tmp/out.json" 2>"$tmp/err"; then
    fail "$solver max_steps=10 exited non-zero: $(cat "$tmp/err")"
  fi
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['converged'] is False and d['steps'] == 10, d" \
    "$tmp/out.json" || fail "$solver max_steps=10: document"
  grep -qF "warning: game: $solver did not converge in 10 steps: exploitability" "$tmp/err" ||
    fail "$solver max_steps=10: no warning: $(cat "$tmp/err")"
done

# 8. Bad input: exit 1, nothing on stdout, stderr naming the field.
bad() {  # bad NAME JSON: writes $tmp/NAME.json
  printf '%s\n' "$2" >"$tmp/$1.json"
}
two='[{"name":"row","actions":["a","b"]},{"name":"column","actions":["a","b"]}]'
bad malformed '{"players": '"$two"',
  "payoffs": [[1, 2, 3, 4] [1, 2, 3, 4]]}'
expect_error "malformed.json:2:28: malformed JSON: Expected , or ] after array value" \
  game --input "$tmp/malformed.json" --solver ne
bad truncated '{"players": '"$two"', "payoffs": [[1, 2'
expect_error "truncated.json:2:1: malformed JSON: Unexpected end of string" \
  game --input "$tmp/truncated.json" --solver ne
bad nan '{"players": '"$two"', "payoffs": [[1, NaN, 3, 4], [1, 2, 3, 4]]}'
expect_error "nan.json: payoffs[0][1]: not finite (NaN is not a JSON number)" \
  game --input "$tmp/nan.json" --solver ne
bad inf '{"players": '"$two"', "payoffs": [[1, 2, 3, 4], [1, 2, 3, Infinity]]}'
expect_error "inf.json: payoffs[1][3]: not finite (Infinity is not a JSON number)" \
  game --input "$tmp/inf.json" --solver cce
bad neginf '{"players": '"$two"', "payoffs": [[1, 2, 3, 4], [-Infinity, 2, 3, 4]]}'
expect_error "payoffs[1][0]: not finite (-Infinity is not a JSON number)" \
  game --input "$tmp/neginf.json" --solver ne
bad huge '{"players": '"$two"', "payoffs": [[1, 2, 1e999, 4], [1, 2, 3, 4]]}'
expect_error "huge.json: payoffs[0][2]: not finite (1e999 is beyond the range of a double)" \
  game --input "$tmp/huge.json" --solver ne
bad namenan '{"players": [{"name": NaN, "actions": ["a"]}], "payoffs": [[1]]}'
expect_error "players[0].name: not finite (NaN is not a JSON number)" \
  game --input "$tmp/namenan.json" --solver ne
bad bare 'NaN'
expect_error "bare.json: (the document): not finite (NaN is not a JSON number)" \
  game --input "$tmp/bare.json" --solver ne
bad length '{"players": '"$two"', "payoffs": [[1, 2, 3, 4], [1, 2, 3]]}'
expect_error "length.json: payoffs[1]: 3 values, expected 4" \
  game --input "$tmp/length.json" --solver ne
bad count '{"players": '"$two"', "payoffs": [[1, 2, 3, 4]]}'
expect_error "count.json: payoffs: 1 arrays, expected 2 (one per player)" \
  game --input "$tmp/count.json" --solver ne
bad text '{"players": '"$two"', "payoffs": [[1, 2, 3, 4], [1, "NaN", 3, 4]]}'
expect_error "text.json: payoffs[1][1]: not a number" game --input "$tmp/text.json" --solver ne
bad null '{"players": '"$two"', "payoffs": [[1, 2, 3, 4], [1, 2, null, 4]]}'
expect_error "payoffs[1][2]: not a number" game --input "$tmp/null.json" --solver ne
bad flat '{"players": '"$two"', "payoffs": [[1, 2, 3, 4], 5]}'
expect_error "payoffs[1]: not a list" game --input "$tmp/flat.json" --solver ne
bad nopayoffs '{"players": '"$two"'}'
expect_error "nopayoffs.json: payoffs: missing" game --input "$tmp/nopayoffs.json" --solver ne
bad empty '{"players": [{"name": "row", "actions": ["a"]}, {"name": "column", "actions": []}],
  "payoffs": [[], []]}'
expect_error "empty.json: players[1].actions: empty" game --input "$tmp/empty.json" --solver ne
bad noactions '{"players": [{"name": "row"}], "payoffs": [[1]]}'
expect_error "players[0].actions: missing" game --input "$tmp/noactions.json" --solver ne
bad dupaction '{"players": [{"name": "row", "actions": ["R"]},
  {"name": "column", "actions": ["R", "P", "R"]}], "payoffs": [[1, 2, 3], [1, 2, 3]]}'
expect_error "dupaction.json: players[1].actions[2]: duplicate action 'R' (also players[1].actions[0])" \
  game --input "$tmp/dupaction.json" --solver ne
bad dupplayer '{"players": [{"name": "x", "actions": ["a"]}, {"name": "x", "actions": ["a"]}],
  "payoffs": [[1], [1]]}'
expect_error "players[1].name: duplicate player 'x' (also players[0].name)" \
  game --input "$tmp/dupplayer.json" --solver ne
bad emptyaction '{"players": [{"name": "row", "actions": ["a", ""]}], "payoffs": [[1, 2]]}'
expect_error "players[0].actions[1]: empty name" game --input "$tmp/emptyaction.json" --solver ne
bad numaction '{"players": [{"name": "row", "actions": ["a", 7]}], "payoffs": [[1, 2]]}'
expect_error "players[0].actions[1]: not a string" game --input "$tmp/numaction.json" --solver ne
bad emptyname '{"players": [{"name": "", "actions": ["a"]}], "payoffs": [[1]]}'
expect_error "players[0].name: empty name" game --input "$tmp/emptyname.json" --solver ne
bad noname '{"players": [{"actions": ["a"]}], "payoffs": [[1]]}'
expect_error "players[0].name: missing" game --input "$tmp/noname.json" --solver ne
bad notobject '{"players": ["row"], "payoffs": [[1]]}'
expect_error "players[0]: not an object" game --input "$tmp/notobject.json" --solver ne
bad noplayers '{"players": [], "payoffs": []}'
expect_error "noplayers.json: players: no player" game --input "$tmp/noplayers.json" --solver ne
bad missing '{"payoffs": []}'
expect_error "missing.json: players: missing" game --input "$tmp/missing.json" --solver ne
bad unknown '{"players": [{"name": "row", "actions": ["a"]}], "payoffs": [[1]], "rules": 1}'
expect_error "unknown.json: rules: unknown field; known: players, payoffs" \
  game --input "$tmp/unknown.json" --solver ne
bad unknown2 '{"players": [{"name": "row", "actions": ["a"], "team": 1}], "payoffs": [[1]]}'
expect_error "players[0].team: unknown field; known: name, actions" \
  game --input "$tmp/unknown2.json" --solver ne
bad array '[1, 2]'
expect_error "array.json: malformed JSON: Root element must be a message" \
  game --input "$tmp/array.json" --solver ne
# 27 players of 2 actions: 2^27 joint actions, above ratings::games::kMaxJointActions = 2^26.
python3 -c "import json; print(json.dumps({'players': [{'name': 'p%d' % i, 'actions': ['a', 'b']}
  for i in range(27)], 'payoffs': [[] for i in range(27)]}))" >"$tmp/large.json"
expect_error "large.json: players: more than 67108864 joint actions" \
  game --input "$tmp/large.json" --solver ne
# Payoffs near the largest double: the CCE's regrets overflow; refused, not printed.
bad overflow '{"players": '"$two"',
  "payoffs": [[1.7e308, -1.7e308, -1.7e308, -1.7e308], [1.7e308, -1.7e308, -1.7e308, -1.7e308]]}'
expect_error "overflow.json: the cce solve overflowed" \
  game --input "$tmp/overflow.json" --solver cce --param max_steps=1000

# 9. Bad flags and parameters.
rps=$data/rps.json
expect_error "unknown parameter 'q' for method ne; known: selection, kernel_variance" \
  game --input "$rps" --solver ne --param q=1
expect_error "unknown parameter 'tau0' for method cce" game --input "$rps" --solver cce --param tau0=1
expect_error "unknown parameter 'slackness' for method ne" \
  game --input "$rps" --solver ne --param slackness=1
expect_error "--param p (ne): '0' is not a number in (0, 1]" \
  game --input "$rps" --solver ne --param p=0
expect_error "--param selection (cce): 'max' is not affinity or shannon" \
  game --input "$rps" --solver cce --param selection=max
expect_error "--param 'epsilon': expected key=value" game --input "$rps" --solver ne --param epsilon
expect_error "--solver: unknown solver 'nash'; known: ne, cce" game --input "$rps" --solver nash
expect_error "game: --solver ne|cce is required" game --input "$rps"
expect_error "game: --input GAME.json is required" game --solver ne
expect_error "absent.json: cannot open" game --input "$tmp/absent.json" --solver ne
# Parameters are checked before the file is read.
expect_error "unknown parameter 'q'" game --input "$tmp/absent.json" --solver ne --param q=1

finish game_cli
