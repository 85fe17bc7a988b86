#!/usr/bin/env bash
# The README's main command: installs what is missing, builds, starts a local Kafka broker
# and ratingd, streams simulated Atari evaluations (the Agent57 table), and prints the live
# top of the leaderboard for Elo, SCO and maximal lotteries. Ctrl-C stops everything it
# started. Everything binds to 127.0.0.1.
#
#   QUICKSTART_RESULTS   results to stream (default 20000)
#   QUICKSTART_RATE      results per second (default 250)
#   QUICKSTART_SECONDS   stop by itself after this many seconds (default: run until Ctrl-C)
#   QUICKSTART_TABLE     mean±std score table to simulate from (default tests/data/atari/atari_agent57_table.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
results=${QUICKSTART_RESULTS:-20000}
rate=${QUICKSTART_RATE:-250}
run_for=${QUICKSTART_SECONDS:-0}
work=$root/build/quickstart
say() { printf '\033[1m== %s\033[0m\n' "$*"; }
source deploy/lib/process.sh  # free_port

say "dependencies"
bash deploy/install-deps.sh

say "build (release)"
cmake --preset release >/dev/null
cmake --build build/release --target ratingd ratingctl

rm -rf "$work"
mkdir -p "$work"
export KAFKA_DIR=$work/kafka
pids=()
cleanup() {
  trap - INT TERM EXIT
  say "stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash deploy/kafka/broker.sh stop || true
}
trap cleanup INT TERM EXIT

say "Kafka broker (KRaft, 127.0.0.1)"
brokers=$(bash deploy/kafka/broker.sh start)
bash deploy/kafka/broker.sh wait

http_port=$(free_port)
metrics_port=$(free_port)
say "ratingd"
build/release/bin/ratingd --brokers="$brokers" --snapshot-dir="$work/snapshots" \
  --instance-id=quickstart --topic-partitions=3 --ml-solve-every=25 \
  --http-address=127.0.0.1:$http_port --metrics-address=127.0.0.1:$metrics_port \
  >"$work/ratingd.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do
  curl -fs "http://127.0.0.1:$http_port/readyz" >/dev/null 2>&1 && break
  kill -0 "${pids[0]}" 2>/dev/null || { cat "$work/ratingd.log"; exit 1; }
  sleep 0.2
done

table=${QUICKSTART_TABLE:-$root/tests/data/atari/atari_agent57_table.txt}
say "streaming $results simulated evaluations at $rate/s ($table)"
python3 deploy/quickstart/simulate_evaluations.py "$table" --results "$results" >"$work/results.jsonl"
build/release/bin/ratingctl produce --brokers="$brokers" --topic=ratingd.results \
  --input="$work/results.jsonl" --rate="$rate" 2>"$work/produce.log" &
pids+=($!)

cat <<EOF2

  live page    http://127.0.0.1:$http_port/?pool=atari57&model=sco
  leaderboard  http://127.0.0.1:$http_port/v1/pools/atari57/leaderboard?model=sco
  pools        http://127.0.0.1:$http_port/v1/pools
  metrics      http://127.0.0.1:$metrics_port/metrics
  deltas       build/release/bin/ratingctl tail --brokers=$brokers --topic=ratingd.deltas
  Ctrl-C stops the broker, ratingd and the stream.

EOF2
start=$SECONDS
while :; do
  python3 - "$http_port" <<'PY' || true
import json, sys, urllib.request
port = sys.argv[1]
def get(model):
    url = "http://127.0.0.1:%s/v1/pools/atari57/leaderboard?model=%s&limit=5" % (port, model)
    try:
        return json.load(urllib.request.urlopen(url, timeout=20))
    except Exception:
        return None
boards = {m: get(m) for m in ("elo", "sco", "ml")}
if not boards["elo"]:
    print("waiting for the first results...")
    sys.exit(0)
print("atari57: %d results, %d agents" % (boards["elo"]["results"], boards["elo"]["agents"]))
print("  %-4s %-26s %-26s %-28s" % ("rank", "Elo", "SCO", "maximal lottery (p, rating)"))
for i in range(5):
    row = []
    for m in ("elo", "sco", "ml"):
        b = boards[m]
        if b and i < len(b["ranking"]):
            r = b["ranking"][i]
            if m == "ml":  # lottery probability, then expected margin against the lottery
                p = b["extra"]["lottery"].get(r["agent"], 0)
                row.append("%-16s %4.2f %+5.2f" % (r["agent"], p, r["rating"]))
            else:
                row.append("%-16s %9.2f" % (r["agent"], r["rating"]))
        else:
            row.append("")
    print("  %-4d %-26s %-26s %-26s" % (i + 1, *row))
PY
  echo
  if (( run_for > 0 && SECONDS - start >= run_for )); then break; fi
  sleep 2
done
