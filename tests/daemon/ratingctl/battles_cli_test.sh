#!/usr/bin/env bash
# The battles input format (docs/CONTRACTS.md §2.4) through the real binary: `rate`, `eval`,
# `suggest` and `produce` read it as JSONL or CSV; JSONL and CSV twins give the same bytes;
# a bad line exits 1 with FILE:LINE on stderr and nothing on stdout. Expected values: Elo by
# hand (one battle; the six of tests/data/battles/ to 0.01) and the independent Python
# reference (tests/reference/online_models.py) on the same battles as GameResults.
set -euo pipefail
ratingctl=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)
reference="$here/../../reference/online_models.py"
source "$(dirname "$0")/../cli_checks.sh"
battles="$data/battles"

# 1. One battle by hand: equal ratings expect 0.5, so K/2 = 16 moves each way.
echo '{"model_a":"a","model_b":"b","winner":"model_a"}' >"$tmp/one.jsonl"
want='{"method":"elo","agents":2,"results":1,"ranking":[{"rank":1,"agent":"a","rating":1516},{"rank":2,"agent":"b","rating":1484}],"extra":{"params":{"initial":1500,"k":32},"seed":0,"skipped_votes":0}}'
got=$("$ratingctl" rate --method elo --input "$tmp/one.jsonl" --format battles)
[ "$got" = "$want" ] || fail "one battle: got $got"

# 2. The JSONL file and its CSV twin (--format battles picks CSV by the extension; .csv alone
#    and battles-csv too) give the same document.
"$ratingctl" rate --method elo --input "$battles/small.jsonl" --format battles >"$tmp/jsonl.json"
"$ratingctl" rate --method elo --input "$battles/small.csv" --format battles >"$tmp/csv.json"
"$ratingctl" rate --method elo --input "$battles/small.csv" >"$tmp/inferred.json"
"$ratingctl" rate --method elo --input "$battles/small.csv" --format battles-csv >"$tmp/explicit.json"
for other in csv inferred explicit; do
  cmp -s "$tmp/jsonl.json" "$tmp/$other.json" || fail "$other differs from JSONL: $(cat "$tmp/$other.json")"
done
# By hand (Elo, K 32, from 1500, battle by battle): gpt-4 1529.05, claude-v1 1512.56,
# vicuna-13b 1458.39.
python3 - "$tmp/jsonl.json" <<'PY' || fail "small.jsonl ranking: $(cat "$tmp/jsonl.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["agents"], d["results"]) == (3, 6), d
want = [("gpt-4", 1529.05), ("claude-v1", 1512.56), ("vicuna-13b", 1458.39)]
got = [(r["agent"], r["rating"]) for r in d["ranking"]]
assert [a for a, _ in got] == [a for a, _ in want], got
assert all(abs(g - w) < 0.01 for (_, g), (_, w) in zip(got, want)), got
PY
# The reference on the same battles written as GameResults (tie = shared rank).
python3 - "$battles/small.jsonl" "$tmp/as_results.jsonl" <<'PY'
import json, sys
ranks = {"model_a": (1, 2), "model_b": (2, 1), "tie": (1, 1), "tie (bothbad)": (1, 1)}
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    for n, line in enumerate(f, 1):
        b = json.loads(line)
        ra, rb = ranks[b["winner"]]
        out.write(json.dumps({"pool": "p", "gameId": str(n), "standings": [
            {"agent": b["model_a"], "rank": ra}, {"agent": b["model_b"], "rank": rb}]}) + "\n")
PY
for method in elo sco; do
  "$ratingctl" rate --method "$method" --input "$battles/small.csv" >"$tmp/r.json"
  python3 "$reference" check "$method" "$tmp/as_results.jsonl" "$tmp/r.json" ||
    fail "reference: $method on small.csv"
done

# 3. eval and suggest read battles too. gpt-4 beats or ties each other model and wins one of
#    each pair: the Condorcet winner.
"$ratingctl" eval --input "$battles/small.jsonl" --format battles >"$tmp/eval.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["results"]==6 and d["condorcet_winner"]=="gpt-4", d' \
  "$tmp/eval.json" || fail "eval: $(cat "$tmp/eval.json")"
"$ratingctl" suggest --input "$battles/small.csv" --strategy ucb --n 1 >"$tmp/s.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["sequence"]==6 and len(d["suggestions"])==1, d' \
  "$tmp/s.json" || fail "suggest: $(cat "$tmp/s.json")"

# 4. Bad lines: exit 1, FILE:LINE: problem on stderr, nothing on stdout.
jsonl_error="bad.jsonl:2: unknown winner 'model_c'; expected model_a, model_b, tie or tie (bothbad)"
csv_error="bad.csv:3: score -0.5 contradicts winner 'model_a' (which needs a score > 0)"
expect_error "$jsonl_error" rate --method elo --input "$battles/bad.jsonl" --format battles
expect_error "$csv_error" rate --method elo --input "$battles/bad.csv" --format battles
expect_error "$csv_error" rate --method borda --input "$battles/bad.csv"
expect_error "$jsonl_error" eval --input "$battles/bad.jsonl" --format battles
expect_error "$csv_error" suggest --input "$battles/bad.csv" --strategy ucb
printf 'model_a,model_b,winner\na,b,model_a\n"a,b,tie\n' >"$tmp/open.csv"
expect_error "open.csv:3: malformed row: unterminated quoted field" rate --method elo --input "$tmp/open.csv"
# A battles file is not GameResult JSONL: without --format battles it is refused.
expect_error "small.jsonl:1: invalid GameResult JSON" rate --method elo --input "$battles/small.jsonl"
expect_error "expected jsonl, preflib, scores, battles or battles-csv" rate --method elo --input "$battles/small.jsonl" --format arena
# produce checks the file before it connects: the bad line, then the missing pool.
expect_error "$csv_error" produce --brokers 127.0.0.1:1 --topic t --input "$battles/bad.csv" --pool p
expect_error "records have no pool" produce --brokers 127.0.0.1:1 --topic t --input "$battles/small.csv"
# --pool selects among JSONL pools; battles name none, so it would select nothing.
expect_error "--pool x: $battles/small.csv names no pools" rate --method elo --input "$battles/small.csv" --pool x
expect_error "names no pools" suggest --input "$battles/small.csv" --strategy ucb --pool x

finish battles_cli
