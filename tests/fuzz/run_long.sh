#!/usr/bin/env bash
# The longer recorded fuzz run (docs/RELIABILITY.md, "Fuzzing"): each libFuzzer target runs for
# RUNS inputs (default 10^7) on a copy of its corpus tests/fuzz/corpus/<name>, one fuzzer at
# a time, and prints its command, final stats, wall time and corpus size.
#   tests/fuzz/run_long.sh                    # all five fuzzers, 10^7 inputs each
#   RUNS=1000 tests/fuzz/run_long.sh scores   # one fuzzer, a quick check
# Environment: RUNS (inputs per fuzzer), JOBS (build parallelism, default 1), FUZZ_WORK (where
# the grown corpora, logs and any crash artifacts are kept; default a new temporary directory),
# ASAN_OPTIONS (default: no allocation stacks, no quarantine; see below).
# Exits non-zero if any fuzzer reports a crash, leak, out-of-memory, timeout or sanitizer error.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-10000000}
# ASan keeps the call stack of every allocation in its stack depot, forever. Protobuf's JSON
# parser (behind jsonl_fuzz) allocates from endlessly varied recursive stacks, so with the
# default options the depot alone passed libFuzzer's 2048 MB RSS limit after 8.5 million
# inputs while the live heap was 25 MB (docs/RELIABILITY.md). Without allocation stacks RSS stays
# flat; a crash report still has the crashing stack, and its reproducer can be re-run with
# the default options to get the allocation stacks.
# ASan's quarantine (256 MB of freed memory held back to catch use-after-free) adds its own
# plateau; the recorded jsonl run turned it off too (docs/RELIABILITY.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0:quarantine_size_mb=0:thread_local_quarantine_size_kb=0}
jobs=${JOBS:-1}
work=${FUZZ_WORK:-$(mktemp -d -t ratingd-fuzz.XXXXXX)}
if (($# > 0)); then names=("$@"); else names=(jsonl preflib scores battles result_decoder); fi

# Builds the fuzz preset (a no-op when it is up to date).
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -n1); $(date -u +%FT%TZ)"
echo "work directory: $work; ASAN_OPTIONS=$ASAN_OPTIONS"
failed=()
for name in "${names[@]}"; do
  fuzzer=build/fuzz/tests/fuzz/${name}_fuzz
  corpus=$work/$name/corpus
  artifacts=$work/$name/artifacts
  log=$work/$name/log.txt
  mkdir -p "$corpus" "$artifacts"
  cp tests/fuzz/corpus/"$name"/* "$corpus"/
  seeds=$(find "$corpus" -type f | wc -l)
  cmd=("$fuzzer" -runs="$runs" -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus")
  printf '\n== %s ==\ncommand: ASAN_OPTIONS=%s %s\n' "$name" "$ASAN_OPTIONS" "${cmd[*]}"
  start=$(date +%s)
  status=0
  "${cmd[@]}" >"$log" 2>&1 || status=$?
  wall=$(($(date +%s) - start))
  grep -m1 'DONE' "$log" || true
  grep '^stat::' "$log" || true
  echo "wall time: ${wall} s"
  echo "corpus: ${seeds} seeds -> $(find "$corpus" -type f | wc -l) files," \
    "$(find "$corpus" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}') bytes"
  crashes=$(find "$artifacts" -type f | wc -l)
  echo "crash artifacts: ${crashes}; exit status: ${status}"
  if ((status != 0 || crashes != 0)); then
    tail -n 60 "$log"
    failed+=("$name")
  fi
done

if ((${#failed[@]} > 0)); then
  echo "FAILED: ${failed[*]} (artifacts under $work)"
  exit 1
fi
echo "all fuzzers: ${runs} inputs each, no crash"
