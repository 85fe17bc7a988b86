#!/bin/bash
# Repeated end-to-end runs on one fresh benchmark broker (docs/BENCHMARKS.md, "A concurrent
# collector for the co-located broker"): starts a broker in an empty $KAFKA_DIR with the
# given heap and JVM flags, makes one full-size warm-up run (a fresh broker JVM is still
# compiling its hot paths then; not counted), then RUNS runs of e2e_bench.py in the steady
# state (--after-first-snapshot), one JSON line each in $OUT_PREFIX-<i>.json, and stops
# the broker. Prints one summary line per run.
#
#   KAFKA_HEAP=2g KAFKA_JVM_OPTS="-XX:+UseZGC -XX:+AlwaysPreTouch" RUNS=6 \
#       bash tests/bench/e2e_latency_runs.sh
#
# BROKER_CPUS and RATINGD_CPUS (taskset -c lists, e.g. 1 and 0) pin the broker and ratingd
# to separate CPUs; unset, both float over every CPU.
# RATINGD_ARGS (space-separated) are extra ratingd flags, e.g. "--commit-interval=250ms".
# B_BIN_DIR: a second build's bin folder (another commit's ratingd and ratingctl); each run
# is then made with both, alternating, the second's in $OUT_PREFIX-<i>-b.json: an A/B
# comparison on one broker, in one sequence.
# E2E_ARGS (space-separated) are extra e2e_bench.py arguments, after (so overriding) the
# defaults: the issue's mixed backlog at ratingd's own defaults, with and without the first
# snapshot in the latency phase, is
#   E2E_ARGS="--pools 12x100,2x400 --ratingd-defaults --results 1500000" bash ...
# (and AFTER_FIRST_SNAPSHOT=0 for the phase that includes it; default 1).
set -euo pipefail
cd "$(dirname "$0")/../.."
export KAFKA_DIR=${KAFKA_DIR:-/tmp/kafka-bench}
runs=${RUNS:-5}
out=${OUT_PREFIX:-/tmp/e2e-latency}
bin=${RATINGD_BIN_DIR:-build/ci/bin}

bash deploy/kafka/broker.sh stop >/dev/null 2>&1 || true
rm -rf "$KAFKA_DIR"
broker_pin=()
[[ -n ${BROKER_CPUS:-} ]] && broker_pin=(taskset -c "$BROKER_CPUS")
"${broker_pin[@]}" bash deploy/kafka/broker.sh start wait
trap 'bash deploy/kafka/broker.sh stop' EXIT

extra=()
for arg in ${RATINGD_ARGS:-}; do extra+=("--ratingd-arg=$arg"); done
read -r -a e2e_args <<<"${E2E_ARGS:-}"
after=()
[[ ${AFTER_FIRST_SNAPSHOT:-1} == 1 ]] && after=(--after-first-snapshot)
bench() {
  local dir=$1
  shift
  python3 tests/bench/e2e_bench.py --ratingd "$dir/ratingd" --ratingctl "$dir/ratingctl" \
      --ratingd-cpus="${RATINGD_CPUS:-}" "${extra[@]}" --results 1000000 --seconds 15 \
      "$@" "${e2e_args[@]}"
}
report() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("run %s: %s results/s, visible p50 %s ms p99 %s ms, ingest p99 %s ms, commit p99 %s ms, "
      "snapshots in the phase %s (%s bytes)" % (
    sys.argv[2], d["ratingd_throughput_per_s"], d["visible_p50_ms"], d["visible_p99_ms"],
    d["ingest_p99_ms"], d["commit_p99_ms"], d["latency_phase_snapshots"],
    d["last_snapshot_bytes"]))
PY
}
bench "$bin" >"$out-warmup.json"
for i in $(seq 1 "$runs"); do
  bench "$bin" "${after[@]}" | tail -1 >"$out-$i.json"
  report "$out-$i.json" "$i"
  if [[ -n ${B_BIN_DIR:-} ]]; then
    bench "$B_BIN_DIR" "${after[@]}" | tail -1 >"$out-$i-b.json"
    report "$out-$i-b.json" "$i (B)"
  fi
done
