#!/bin/bash
# gt-ne and gt-cce at [RE]'s size on unseen files (docs/BENCHMARKS.md §11): 500 prompts ×
# 17 models from `ratingctl generate --model king-of-the-hill` with SEEDS seeds, once with
# exact preferences (one scored line per prompt and pair) and once with sampled battles
# (`sampled=2`: a win, loss or tie per presentation order, as arena data are), each
# optionally with COPIES adversarial prompt copies. Every file is rated RUNS times by each
# method at its defaults, the whole command timed; one line per file and method: the
# median and range of the wall times, the solver's steps (deterministic), and whether it
# converged. The last lines name the worst file of each kind and method.
#
#   RUNS=5 SEEDS="1 2 3 4 5" COPIES=0 bash tests/bench/games_bench.sh
#
# RATE_ARGS (space-separated) are extra arguments to `rate`, e.g. "--param threads=1" to count
# steps on a busy machine (the steps do not depend on the thread count).
# RATINGCTL (default build/ci/bin/ratingctl) is copied first, so a rebuild during the run
# does not change what is measured. Files go to $OUT (default /tmp/games-bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-5}
seeds=${SEEDS:-1 2 3 4 5}
copies=${COPIES:-0}
methods=${METHODS:-gt-ne gt-cce}
read -r -a rate_args <<<"${RATE_ARGS:-}"
out=${OUT:-/tmp/games-bench}
mkdir -p "$out"
cp "${RATINGCTL:-build/ci/bin/ratingctl}" "$out/ratingctl"
rc=$out/ratingctl

for kind in exact sampled; do
  extra=()
  [[ $kind == sampled ]] && extra=(--param sampled=2)
  for seed in $seeds; do
    file=$out/$kind-$seed-c$copies.jsonl
    [[ -s $file ]] || "$rc" generate --model king-of-the-hill --param prompts=500 \
      --param models=17 --param copies="$copies" "${extra[@]}" --seed "$seed" \
      --out "$file" >/dev/null
    for method in $methods; do
      times=()
      for ((r = 0; r < runs; r++)); do
        start=$(date +%s.%N)
        "$rc" rate --method "$method" --input "$file" --format battles "${rate_args[@]}" \
          >"$out/report.json"
        times+=("$(echo "$(date +%s.%N) - $start" | bc)")
      done
      python3 - "$kind" "$seed" "$copies" "$method" "$out/report.json" "${times[@]}" <<'PY'
import json, statistics, sys
kind, seed, copies, method, report = sys.argv[1:6]
times = sorted(float(t) for t in sys.argv[6:])
extra = json.load(open(report))["extra"]
print(f"{kind} seed={seed} copies={copies} {method}: median {statistics.median(times):.2f} s "
      f"({times[0]:.2f}-{times[-1]:.2f}, n={len(times)}) steps={extra['steps']} "
      f"converged={extra['converged']} exploitability={extra['exploitability']:.3g}")
PY
    done
  done
done | tee "$out/summary.txt"
python3 - "$out/summary.txt" <<'PY'
import re, sys
worst = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) seed=(\d+) copies=\d+ ([\w-]+): median ([\d.]+) s .* steps=(\d+)", line)
    if m:
        key = (m[1], m[3])
        if key not in worst or float(m[4]) > worst[key][0]:
            worst[key] = (float(m[4]), m[2], int(m[5]))
for (kind, method), (t, seed, steps) in sorted(worst.items()):
    print(f"worst {kind} {method}: seed {seed}, median {t:.2f} s, {steps} steps")
PY
