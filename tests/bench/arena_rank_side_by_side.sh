#!/bin/bash
# Bradley–Terry ratings with sandwich intervals, ratingctl against LMArena's arena-rank
# from PyPI, on the same battles file and in the same run (docs/BENCHMARKS.md, "Intervals
# side by side with arena-rank"). Creates a virtual environment with arena-rank and pandas
# (in $VENV, default /tmp/arena-rank-venv), writes the battles with arena_battles.py
# unless $BATTLES exists, then alternates RUNS runs of each whole process (arena-rank:
# PairDataset.from_pandas + BradleyTerry.compute_ratings_and_cis, fresh interpreter,
# reading included), printing each time, and finally the medians, their ratio and how far
# the two fits' ratings and interval bounds are apart.
#
#   RUNS=3 BATTLES=/tmp/arena.jsonl bash tests/bench/arena_rank_side_by_side.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-3}
venv=${VENV:-/tmp/arena-rank-venv}
battles=${BATTLES:-/tmp/arena-1.7m.jsonl}
ratingctl=${RATINGCTL:-build/ci/bin/ratingctl}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q arena-rank pandas
fi
[ -s "$battles" ] || python3 tests/bench/arena_battles.py --out "$battles"

cat >"$work/arena_rank_fit.py" <<'PY'
import json, sys
import pandas as pd
from arena_rank.models.bradley_terry import BradleyTerry
from arena_rank.utils.data_utils import PairDataset
df = pd.read_json(sys.argv[1], lines=True)
data = PairDataset.from_pandas(df)
result = BradleyTerry(n_competitors=len(data.competitors)).compute_ratings_and_cis(
    data, ci_method="sandwich")
print(json.dumps({c: [float(r), float(lo), float(hi)] for c, r, lo, hi in zip(
    result["competitors"], result["ratings"], result["rating_lower"], result["rating_upper"])}))
PY

elapsed() {  # elapsed COMMAND...: seconds of wall time, the command's stdout to $work/out
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/out"
  end=$(date +%s.%N)
  python3 -c "print(round($end - $start, 3))"
}

ours=() theirs=()
for i in $(seq "$runs"); do
  t=$(elapsed "$ratingctl" rate --method elo-bt --format battles --input "$battles" \
    --param prior=0 --param ties=half --param ci=sandwich --param anchor=1000 \
    --param tolerance=1e-7)
  cp "$work/out" "$work/ours.json"
  fit=$(python3 -c "import json; print(json.load(open('$work/ours.json'))['extra']['fit_seconds'])")
  ours+=("$t")
  t2=$(elapsed "$venv/bin/python" "$work/arena_rank_fit.py" "$battles")
  cp "$work/out" "$work/theirs.json"
  theirs+=("$t2")
  echo "run $i: ratingctl ${t} s (fit and intervals ${fit} s), arena-rank ${t2} s"
done
python3 - "$work/ours.json" "$work/theirs.json" "${ours[*]}" "${theirs[*]}" <<'PY'
import json, statistics, sys
ours = json.load(open(sys.argv[1]))["ranking"]
theirs = json.load(open(sys.argv[2]))
rating = max(abs(e["rating"] - theirs[e["agent"]][0]) for e in ours)
bound = max(max(abs(e["ci_low"] - theirs[e["agent"]][1]), abs(e["ci_high"] - theirs[e["agent"]][2]))
            for e in ours)
widths = [(e["ci_high"] - e["ci_low"]) / (theirs[e["agent"]][2] - theirs[e["agent"]][1]) for e in ours]
a = statistics.median(float(x) for x in sys.argv[3].split())
b = statistics.median(float(x) for x in sys.argv[4].split())
print(f"medians: ratingctl {a} s, arena-rank {b} s, ratio {b / a:.1f}x")
print(f"largest rating difference {rating:.4f} Elo, largest bound difference {bound:.3f} Elo, "
      f"width ratio {min(widths):.4f}-{max(widths):.4f}")
PY
