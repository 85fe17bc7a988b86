#!/usr/bin/env bash
# The command-line contract of `ratingctl rate` (DESIGN §6), through the real binary:
# JSON on stdout and exit 0 on success; on invalid input exit != 0, a message naming
# file and line on stderr and nothing on stdout; byte-identical output across processes;
# and Elo/SCO equal to an independent Python implementation on generated data.
set -euo pipefail
ratingctl=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)
reference="$here/../reference/online_models.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 1. Every online method on every shipped format, with valid JSON out.
for input in "$data/atari/atari_rainbow_table6.txt" "$data/preflib/00004-00000102.soc" \
             "$data/preflib/00016-00000002.toi"; do
  for method in elo sco ml; do
    if ! "$ratingctl" rate --method "$method" --input "$input" >"$tmp/out.json" 2>"$tmp/err"; then
      fail "$method on $input exited non-zero: $(cat "$tmp/err")"
      continue
    fi
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["method"]==sys.argv[2] and d["ranking"], d' \
      "$tmp/out.json" "$method" || fail "$method on $input: bad JSON"
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
expect_error() {  # expect_error WORDS_ON_STDERR ARGS...
  local words=$1
  shift
  if "$ratingctl" "$@" >"$tmp/out" 2>"$tmp/err"; then
    fail "'$*' should fail"
  elif [ -s "$tmp/out" ]; then
    fail "'$*' printed on stdout: $(head -c 200 "$tmp/out")"
  elif ! grep -qF -- "$words" "$tmp/err"; then
    fail "'$*': stderr lacks '$words': $(cat "$tmp/err")"
  fi
}
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

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "ratingctl CLI contract: all checks passed"
