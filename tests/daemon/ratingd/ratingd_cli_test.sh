#!/usr/bin/env bash
# ratingd's configuration errors: bad flags or config give a non-zero
# exit and a message on stderr that says what to fix. No broker needed (the last case
# points at a closed port on purpose).
set -euo pipefail
ratingd=$1
source "$(dirname "$0")/../cli_checks.sh"

# expect "MESSAGE" ARGS...: exit status != 0 and MESSAGE in stderr.
expect() {
  local message=$1
  shift
  if "$ratingd" "$@" >"$tmp/out" 2>"$tmp/err"; then
    fail "ratingd $* exited 0"
    return
  fi
  grep -qF -- "$message" "$tmp/err" || fail "ratingd $*: expected '$message' in: $(cat "$tmp/err")"
}

# Port 0: never collide with another test or a running ratingd.
snap=(--snapshot-dir="$tmp/snap" --metrics-address=127.0.0.1:0 --http-address=127.0.0.1:0)
expect "--snapshot-dir is required" --brokers=127.0.0.1:1
expect "--models: unknown model 'glicko'" "${snap[@]}" --models=elo,glicko
expect "--models: name at least one" "${snap[@]}" --models=,
expect "expected MODEL.KEY=VALUE" "${snap[@]}" --param k=3
expect "unknown parameter" "${snap[@]}" --param elo.q=3
expect "elo" "${snap[@]}" --param elo.k=-1
expect "sco" "${snap[@]}" --param sco.min=5 --param sco.max=1
expect "'novalue' is not key=value" "${snap[@]}" --kafka novalue
expect "Kafka property no.such.property=1" "${snap[@]}" --kafka no.such.property=1
expect "$tmp/missing.properties: cannot open" "${snap[@]}" --kafka-config-file="$tmp/missing.properties"
expect "--snapshot-interval must be > 0" "${snap[@]}" --snapshot-interval=0s
expect "--dedup-window must be >= 1" "${snap[@]}" --dedup-window=0
expect "--bootstrap-replicas must be 0 or 2..256, got 1" "${snap[@]}" --bootstrap-replicas=1
expect "--bootstrap-replicas must be 0 or 2..256, got 257" "${snap[@]}" --bootstrap-replicas=257
expect "unexpected argument 'extra'" "${snap[@]}" extra
# --seed was removed (the pools' generator drew nothing): an old command line fails loudly.
expect "Unknown command line flag 'seed'" "${snap[@]}" --seed=3
expect "are the brokers at --brokers=127.0.0.1:1 reachable?" "${snap[@]}" --brokers=127.0.0.1:1
# Dashes and underscores are the same flag.
expect "--models: unknown model 'x'" "${snap[@]}" --models=x
expect "--models: unknown model 'y'" --snapshot_dir="$tmp/snap" --metrics_address=127.0.0.1:0 --models=y

# --help lists the program's own flags (deploy/README.md's flag table is checked against it).
"$ratingd" --help >"$tmp/help" 2>&1 || true
for flag in brokers snapshot_dir models commit_interval dlq_max_bytes; do
  grep -q -- "^    --$flag (" "$tmp/help" || fail "ratingd --help does not list --$flag"
done

finish ratingd_cli
