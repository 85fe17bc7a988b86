#!/usr/bin/env bash
# Smoke test of the real broker started by the `kafka` CTest fixture (deploy/kafka/broker.sh
# with KAFKA_DIR from the environment): topic creation through `broker.sh topic`, keyed
# produce and consume with kcat, auto-creation off, and compaction of a `compact` topic.
# Expected values are the records this script writes itself; partition placement is only
# required to be consistent per key (librdkafka's partitioner), not predicted.
# Run by CTest with the fixture's environment (KAFKA_DIR, KAFKA_BROKER_SH), as a C++
# integration test would be.
set -euo pipefail
broker=${KAFKA_BROKER_SH:?set by RATINGD_KAFKA_ENV}
fail() { echo "FAIL: $*" >&2; exit 1; }

bootstrap=$(bash "$broker" bootstrap)
[[ $bootstrap =~ ^127\.0\.0\.1:[0-9]+$ ]] || fail "bootstrap '$bootstrap' is not 127.0.0.1:PORT"
[[ $(head -n1 "${KAFKA_DIR:?}/bootstrap") == "$bootstrap" ]] || fail "\$KAFKA_DIR/bootstrap differs"
run=$$  # topic names unique per run, in case the fixture broker is reused by hand

# 1. A 3-partition topic: created, and every partition has a leader.
topic=smoke.$run
bash "$broker" topic "$topic" 3 > /dev/null
meta=$(kcat -b "$bootstrap" -L -t "$topic")
grep -q "topic \"$topic\" with 3 partitions" <<< "$meta" || fail "no 3 partitions: $meta"
[[ $(grep -c 'leader 1,' <<< "$meta") == 3 ]] || fail "not every partition has leader 1: $meta"

# Creating it again is an error, not a silent success.
if bash "$broker" topic "$topic" 3 2> /dev/null; then fail "creating an existing topic succeeded"; fi

# 2. Keyed records come back exactly once each, the same key always in the same partition.
expected=$(printf 'a:1\nb:2\nc:3\na:4\nb:5\nc:6\nd:7\n')
kcat -b "$bootstrap" -P -t "$topic" -K: -X message.timeout.ms=20000 <<< "$expected"
got=$(kcat -b "$bootstrap" -C -t "$topic" -o beginning -e -q -f '%k:%s %p\n' -X fetch.wait.max.ms=100)
[[ $(cut -d' ' -f1 <<< "$got" | sort) == "$(sort <<< "$expected")" ]] ||
  fail "consumed records differ: expected $(sort <<< "$expected" | tr '\n' ' '), got $(tr '\n' ' ' <<< "$got")"
placements=$(awk '{split($1, kv, ":"); print kv[1], $2}' <<< "$got" | sort -u)
[[ $(cut -d' ' -f1 <<< "$placements" | uniq -d) == "" ]] || fail "a key landed in two partitions: $placements"

# 3. Auto-creation is off (server.properties.in): a metadata request for an unknown topic
#    reports it unknown rather than creating it.
meta=$(kcat -b "$bootstrap" -L -t "nosuch.$run")
grep -q 'Unknown topic or partition' <<< "$meta" || fail "unknown topic was not reported: $meta"
meta=$(kcat -b "$bootstrap" -L -t "nosuch.$run")
grep -q 'Unknown topic or partition' <<< "$meta" || fail "unknown topic was auto-created: $meta"

# 4. `compact`: after a newer record for key k and a segment roll, the cleaner removes the
#    older k (segment.ms=100 rolls on the next append; the active segment is never cleaned).
compacted=compact.$run
bash "$broker" topic "$compacted" 1 compact > /dev/null
for record in k:old x:1 k:new; do
  kcat -b "$bootstrap" -P -t "$compacted" -K: <<< "$record"
  sleep 0.3
done
compact_start=$SECONDS
deadline=$((SECONDS + 120))
while :; do
  kcat -b "$bootstrap" -P -t "$compacted" -K: <<< "roll:$SECONDS"  # keeps rolling segments
  got=$(kcat -b "$bootstrap" -C -t "$compacted" -o beginning -e -q -f '%k:%s\n' | grep -v '^roll:' || true)
  if [[ $got == $'x:1\nk:new' ]]; then break; fi
  ((SECONDS < deadline)) || fail "topic not compacted after 120 s: $(tr '\n' ' ' <<< "$got")"
  sleep 0.5
done

echo "kafka smoke: $bootstrap OK (create, produce/consume, no auto-create, compacted in $((SECONDS - compact_start)) s)"
