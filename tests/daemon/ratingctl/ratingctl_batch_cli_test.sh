#!/usr/bin/env bash
# The command-line contract of the batch methods, generate and eval through the real binary:
# rate with elo-bt / sco-batch / sco-fy on every format, generate (byte-identical across processes,
# readable by rate), eval (JSON out, deterministic), errors (exit 1, stderr names the
# problem, nothing on stdout), progress on stderr only when it is a terminal.
set -euo pipefail
ratingctl=$1
data=$2
source "$(dirname "$0")/../cli_checks.sh"

# 1. Every batch method on every shipped format: valid JSON, quiet stderr when not a tty.
for input in "$data/atari/atari_rainbow_table6.txt" "$data/preflib/00004-00000102.soc" \
             "$data/preflib/00016-00000002.toi"; do
  for method in elo-bt sco-batch sco-fy; do
    args=(--param iterations=500)  # elo-bt has no `iterations`; its default fit is fast
    [ "$method" = elo-bt ] && args=()
    rate_json "$method" "$input" 'd["method"]==m and d["ranking"] and d["extra"]["params"]' \
      "${args[@]}" || continue
    [ -s "$tmp/err" ] && fail "$method on $input wrote to stderr: $(cat "$tmp/err")"
  done
done

# 2. generate: byte-identical files from two processes; rate reads them.
for model in mallows plackett-luce clones cycle tournament; do
  "$ratingctl" generate --model "$model" --out "$tmp/a.jsonl" --seed 9 2>"$tmp/err" ||
    { fail "generate $model: $(cat "$tmp/err")"; continue; }
  "$ratingctl" generate --model "$model" --out "$tmp/b.jsonl" --seed 9
  cmp -s "$tmp/a.jsonl" "$tmp/b.jsonl" || fail "generate $model: JSONL differs between runs"
  cmp -s "$tmp/a.truth.json" "$tmp/b.truth.json" || fail "generate $model: truth differs"
  "$ratingctl" rate --method sco-batch --input "$tmp/a.jsonl" --param iterations=200 >/dev/null ||
    fail "rate cannot read generated $model"
done

# 3. eval: JSON with the metrics asked for, identical across processes.
"$ratingctl" generate --model tournament --out "$tmp/t.jsonl" --param contests=120 --seed 1
for run in 1 2; do
  "$ratingctl" eval --input "$tmp/t.jsonl" --method elo-bt --truth "$tmp/t.truth.json" \
    --methods elo,sco-batch --splits 3 --param sco-batch:iterations=300 --seed 4 \
    >"$tmp/eval$run.json" 2>"$tmp/err" || fail "eval exited non-zero: $(cat "$tmp/err")"
done
cmp -s "$tmp/eval1.json" "$tmp/eval2.json" || fail "eval output differs between runs"
python3 - "$tmp/eval1.json" <<'PY' || fail "eval JSON lacks a metric"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["truth"]
for key in ("ktd", "ktd_normalised", "identification_error", "gre", "agents_compared"):
    assert key in t, key
assert 0 <= t["ktd_normalised"] <= 1
assert "condorcet_winner" in d
m = d["held_out"]["methods"]
assert set(m) == {"elo", "sco-batch"} and len(m["elo"]["ktd_test"]) == 3, m
PY

# 4. Errors: exit 1, the parameter or file named on stderr, nothing on stdout.
expect_error "--param batch (sco-batch)" rate --method sco-batch --input "$tmp/t.jsonl" --param batch=x
expect_error "unknown parameter 'phi'" generate --model mallows --out "$tmp/x.jsonl" --param phi=1
expect_error "/nonexistent/truth" eval --input "$tmp/t.jsonl" --method elo --truth /nonexistent/truth
expect_error "--ranking or --method" eval --input "$tmp/t.jsonl" --method elo --ranking "$tmp/t.truth.json"

# 5. Progress: a line on stderr when it is a terminal (script gives a pty), none otherwise.
if command -v script >/dev/null; then
  script -q -c "'$ratingctl' rate --method sco-batch --input '$tmp/t.jsonl' >/dev/null" /dev/null \
    >"$tmp/tty" 2>&1 || true
  grep -q "sco-batch 100%" "$tmp/tty" || fail "no progress on a terminal: $(head -c 200 "$tmp/tty")"
fi

finish "ratingctl batch CLI"
