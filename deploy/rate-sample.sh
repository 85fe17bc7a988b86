#!/usr/bin/env bash
# The main job for now: install, build, and rate the Rainbow Atari table (Hessel et al.
# 2017, Table 6: 8 agents x 54 games, each game a result ordered by score) through the
# three online models, side by side. Usage: deploy/rate-sample.sh [SCORES_OR_RESULTS_FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
input=${1:-tests/data/atari/atari_rainbow_table6.txt}

bash deploy/install-deps.sh >/dev/null
cmake --preset release >/dev/null
cmake --build --preset release --target ratingctl >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for method in elo sco ml; do
  build/release/bin/ratingctl rate --method "$method" --input "$input" --output table >"$tmp/$method"
done
echo "Input: $input"
echo
paste -d '|' "$tmp/elo" "$tmp/sco" "$tmp/ml" | awk -F'|' '{printf "%-40s %-40s %s\n", $1, $2, $3}'
echo
echo "JSON for tools: build/release/bin/ratingctl rate --method ml --input $input"
