#!/usr/bin/env bash
# Smoke test of deploy/prometheus/run.sh (PROM_DIR from the environment): the generated
# configuration passes `promtool check config`, and a real Prometheus scrapes two targets,
# itself (must become health "up", up == 1) and a closed port (must be "down", up == 0),
# so the check can tell a scraped target from a dead one.
#   prometheus_smoke_test.sh PATH/TO/run.sh
set -euo pipefail
run=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# A port with nothing listening: bound and released here, so nobody else holds it.
closed=$(free_port)
port=$(free_port)
while [[ $port == "$closed" ]]; do port=$(free_port); done
export PROM_PORT=$port PROM_TARGET="127.0.0.1:$port,127.0.0.1:$closed" PROM_JOB=smoke
trap 'bash "$run" stop' EXIT
bash "$run" start wait > /dev/null
url=$(bash "$run" url)
[[ $url == "http://127.0.0.1:$port" ]] || fail "url '$url' is not http://127.0.0.1:$port"

promtool check config "$(bash "$run" config)" || fail "promtool check config failed"

# Targets are picked up within about 5 s (Prometheus applies discovery updates every 5 s).
deadline=$((SECONDS + 60))
while :; do
  # instance=health of every smoke target, in the order of the arguments
  health=$(curl -fsS "$url/api/v1/targets" | python3 -c '
import json, sys
targets = json.load(sys.stdin)["data"]["activeTargets"]
health = {t["labels"]["instance"]: t["health"] for t in targets if t["labels"]["job"] == "smoke"}
print(" ".join(i + "=" + health.pop(i, "absent") for i in sys.argv[1:]) + "".join(" extra:" + i for i in health))
' "127.0.0.1:$port" "127.0.0.1:$closed")
  want="127.0.0.1:$port=up 127.0.0.1:$closed=down"
  [[ $health == "$want" ]] && break
  ((SECONDS < deadline)) || fail "targets after 60 s: '$health', want '$want'"
  sleep 0.5
done

# The scraped samples are queryable: up is 1 for itself and 0 for the closed port.
up=$(curl -fsS "$url/api/v1/query" --data-urlencode 'query=up{job="smoke"}' | python3 -c '
import json, sys
up = {r["metric"]["instance"]: r["value"][1] for r in json.load(sys.stdin)["data"]["result"]}
print(" ".join(i + "=" + up.pop(i, "absent") for i in sys.argv[1:]) + "".join(" extra:" + i for i in up))
' "127.0.0.1:$port" "127.0.0.1:$closed")
[[ $up == "127.0.0.1:$port=1 127.0.0.1:$closed=0" ]] || fail "up{job=\"smoke\"} is '$up'"

echo "prometheus smoke: $url OK (promtool, self up, closed port down)"
