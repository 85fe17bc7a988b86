#!/usr/bin/env bash
# promtool on deploy/prometheus: the shipped configuration and its rule files parse,
# and the alerts' unit tests (firing and not firing, deploy/prometheus/rules/
# ratingd.rules_test.yml) pass.
#   prometheus_rules_test.sh <repo>/deploy/prometheus
set -euo pipefail
dir=${1:?usage: prometheus_rules_test.sh DEPLOY_PROMETHEUS_DIR}
command -v promtool >/dev/null || { echo "FAIL: promtool not found (deploy/install-deps.sh)"; exit 1; }
promtool check config "$dir/prometheus.yml"
promtool check rules "$dir/rules/ratingd.rules.yml"
promtool test rules "$dir/rules/ratingd.rules_test.yml"
echo "ok: promtool check config, check rules, test rules"
