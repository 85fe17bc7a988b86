#!/usr/bin/env bash
# The command-line contract of the batch methods, generate and eval through the real binary:
# rate with elo-bt / sco-batch / sco-fy on every format, nash-avg on scores (values by hand),
# generate (byte-identical across processes, readable by rate), eval (JSON out, deterministic),
# errors (exit 1, stderr names the problem, nothing on stdout), progress on stderr only when it
# is a terminal.
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

# 5. nash-avg on a tiny table, by hand. Per task to [0, 1]: t1 (A 100, B 0, C 60) -> (1, 0, 0.6),
# t2 (A 10, B 20, C 18) -> (0, 1, 0.8). Task mix (q, 1-q): A gets q, B 1-q, C 0.8-0.2q; the
# largest is least at q = 2/3 (A and C meet at 2/3, B gets 1/3): value 2/3. Agent mix on the
# best responses A, C: t2 pays 0.8 x_C = 2/3, so x_C = 5/6, x_A = 1/6 (t1: 1/6 + 0.6*5/6 = 2/3).
# Ratings A 2/3, C 2/3 (tied: A first by name), B 1/3.
printf '# tiny\n# game A B C\nt1 100 0 60\nt2 10 20 18\n' >"$tmp/tiny.txt"
nash_check='abs(d["extra"]["value"]-2/3)<1e-9 and d["extra"]["exploitability"]<1e-9
 and [r["agent"] for r in d["ranking"]]==["A","C","B"]
 and all(abs(r["rating"]-p)<1e-9 for r, p in zip(d["ranking"], (2/3, 2/3, 1/3)))
 and all(abs(d["extra"]["agent_strategy"][a]-p)<1e-9 for a, p in (("A",1/6), ("B",0), ("C",5/6)))
 and all(abs(d["extra"]["task_strategy"][t]-p)<1e-9 for t, p in (("t1",2/3), ("t2",1/3)))
 and d["extra"]["params"]=={"tolerance":1e-9} and d["extra"]["tasks"]==2'
nash_check=$(echo $nash_check)  # one line for python -c
rate_json nash-avg "$tmp/tiny.txt" "$nash_check and d['results']==2" || true
# The same game from JSONL: t1's scores are the means of two results (A 90 and 110).
{
  echo '{"pool":"p","gameId":"1","task":"t1","standings":[{"agent":"A","rank":1,"score":90},{"agent":"B","rank":3,"score":0},{"agent":"C","rank":2,"score":60}]}'
  echo '{"pool":"p","gameId":"2","task":"t2","standings":[{"agent":"A","rank":3,"score":10},{"agent":"B","rank":1,"score":20},{"agent":"C","rank":2,"score":18}]}'
  echo '{"pool":"p","gameId":"3","task":"t1","standings":[{"agent":"A","rank":1,"score":110},{"agent":"B","rank":2,"score":0},{"agent":"C","rank":2,"score":60}]}'
} >"$tmp/tasks.jsonl"
rate_json nash-avg "$tmp/tasks.jsonl" "$nash_check and d['results']==3" || true
# Not scores per task, or an agent never scored on a task: errors naming what is missing.
expect_error "nash-avg needs scores per task" rate --method nash-avg --input "$data/preflib/00004-00000102.soc"
expect_error "nash-avg needs scores per task" rate --method nash-avg --input "$tmp/t.jsonl"
sed 's/"agent":"C","rank":2,"score":18/"agent":"D","rank":2,"score":18/' "$tmp/tasks.jsonl" >"$tmp/gap.jsonl"
expect_error "agent 'D' has none on task 't1'" rate --method nash-avg --input "$tmp/gap.jsonl"
expect_error "--param tolerance (nash-avg)" rate --method nash-avg --input "$tmp/tiny.txt" --param tolerance=1

# 6. Progress: a line on stderr when it is a terminal (script gives a pty), none otherwise.
if command -v script >/dev/null; then
  script -q -c "'$ratingctl' rate --method sco-batch --input '$tmp/t.jsonl' >/dev/null" /dev/null \
    >"$tmp/tty" 2>&1 || true
  grep -q "sco-batch 100%" "$tmp/tty" || fail "no progress on a terminal: $(head -c 200 "$tmp/tty")"
fi

finish "ratingctl batch CLI"
