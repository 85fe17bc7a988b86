#!/usr/bin/env bash
# A real single-node Apache Kafka 3.9.1 broker (KRaft, broker + controller in one JVM) on
# 127.0.0.1 for the integration tests and the quickstart. See deploy/kafka/README.md.
#
#   broker.sh COMMAND...      commands run in order, e.g. `broker.sh start wait`
#     fetch                   materialise the broker classpath in $KAFKA_LIBS with Maven
#                             (skipped when already there for this pom.xml)
#     start                   fetch, format a fresh $KAFKA_DIR, start the broker in the
#                             background on free ports; prints host:port
#     resume                  start again after `stop`, on the same data dir, cluster id
#                             and ports (a broker outage, for the reliability tests)
#     wait                    until the broker answers a metadata request (or fail with
#                             the tail of its log)
#     bootstrap               prints host:port
#     topic NAME PARTITIONS [compact|KEY=VALUE]...
#                             creates a topic (Java AdminClient) and waits for its leaders
#     stop                    TERM the recorded broker pid, wait, then KILL
#
# Environment (all optional):
#   KAFKA_DIR                 run folder: config, data, broker.log, broker.pid, bootstrap
#                             (default <repo>/build/kafka-run); one broker per folder
#   KAFKA_LIBS                classpath cache (default <repo>/build/kafka-libs)
#   KAFKA_PORT                client port (default: a free one)
#   KAFKA_AUTO_CREATE_TOPICS  true|false (default false)
#   KAFKA_HEAP                -Xms/-Xmx (default 256m)
#   KAFKA_JVM_OPTS            replaces the default JIT/GC flags
#   KAFKA_START_TIMEOUT       seconds `wait` waits (default 90)
#   KAFKA_STOP_TIMEOUT        seconds `stop` waits after TERM before KILL (default 30)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
LIBS=$(realpath -m "${KAFKA_LIBS:-$root/build/kafka-libs}")
DIR=$(realpath -m "${KAFKA_DIR:-$root/build/kafka-run}")
MARKER="$DIR/.made-by-broker-sh"

say() { echo "broker.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# free_port, alive, live_pid_of, stop_pid
source "$root/deploy/lib/process.sh"

# The pid in $DIR/broker.pid if that process is alive and is our broker (guards against a
# stale file whose pid was reused by another process).
live_pid() { live_pid_of "$DIR/broker.pid" "kafka.Kafka $DIR/server.properties"; }

fetch() {
  local stamp="$LIBS/.fetched" want
  want=$(sha256sum "$here/pom.xml" | cut -d' ' -f1)
  mkdir -p "$(dirname "$LIBS")"
  # One fetch at a time per cache, even when several brokers start at once.
  exec 9> "$LIBS.lock"
  flock 9
  if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
    exec 9>&-
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found (run deploy/install-deps.sh)"
  say "fetching the Kafka broker classpath with Maven into $LIBS"
  local t0=$SECONDS attempt
  for attempt in 1 2; do
    rm -rf "$LIBS" "$LIBS.mvn"
    if mvn -B -q -f "$here/pom.xml" package -Dkafka.libs.dir="$LIBS" > "$LIBS.log" 2>&1; then
      break
    fi
    if ((attempt == 2)); then
      tail -n 40 "$LIBS.log" >&2
      mvn -v >&2 || true
      die "Maven could not fetch the broker classpath (twice); full log: $LIBS.log"
    fi
    say "mvn failed; retrying once"
    sleep 2
  done
  rm -rf "$LIBS.mvn"
  local jars
  jars=$(find "$LIBS" -maxdepth 1 -name '*.jar' | wc -l)
  compgen -G "$LIBS/kafka_2.13-*.jar" > /dev/null && compgen -G "$LIBS/slf4j-reload4j-*.jar" > /dev/null ||
    die "Maven finished but the broker jars are missing from $LIBS"
  echo "$want" > "$stamp"
  say "$jars jars in $LIBS ($((SECONDS - t0)) s)"
  exec 9>&-
}

# reload4j configuration: everything at INFO to the console, which start redirects to
# broker.log. Without an SLF4J binding the broker runs silently (SLF4J 1.7 falls back to NOP).
write_log4j() {
  local level=$1 file=$2
  printf '%s\n' "log4j.rootLogger=$level, C" \
    "log4j.appender.C=org.apache.log4j.ConsoleAppender" \
    "log4j.appender.C.Target=System.err" \
    "log4j.appender.C.layout=org.apache.log4j.PatternLayout" \
    "log4j.appender.C.layout.ConversionPattern=[%d] %p %m (%c)%n" > "$file"
}

# launch T0: starts kafka.Kafka on $DIR/server.properties in the background and
# records its pid; T0 is the time the start began (for `wait` to report).
launch() {
  local t0=$1
  local heap=${KAFKA_HEAP:-256m}
  # Short-lived test broker on a 2-core machine: serial GC, C1 only (faster start).
  local jvm_opts=${KAFKA_JVM_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1}
  # setsid: the broker outlives this script and is not in the caller's process group
  # (CTest, Ctrl-C); it is stopped by its recorded pid. The log is appended to, so a
  # `resume` keeps the log of the run before it.
  # shellcheck disable=SC2086
  setsid java -Xms"$heap" -Xmx"$heap" $jvm_opts -XX:+ExitOnOutOfMemoryError \
    -Djava.awt.headless=true -Djava.io.tmpdir="$DIR/tmp" \
    -Dlog4j.configuration="file:$DIR/log4j.properties" \
    -cp "$LIBS/*" kafka.Kafka "$DIR/server.properties" \
    < /dev/null >> "$DIR/broker.log" 2>&1 &
  local pid=$!
  echo "$pid" > "$DIR/broker.pid"
  echo "$t0" > "$DIR/start.time"
  # setsid execs in place (the background child is not a group leader); make sure.
  sleep 0.2
  if ! live_pid > /dev/null; then
    alive "$pid" || { tail -n 40 "$DIR/broker.log" >&2; die "the broker exited at once"; }
    die "pid $pid is not the broker JVM; cannot record it"
  fi
}

start() {
  if pid=$(live_pid); then
    die "a broker is already running from $DIR (pid $pid); run stop first"
  fi
  if [[ -e $DIR && ! -e $MARKER && -n $(ls -A "$DIR" 2>/dev/null) ]]; then
    die "$DIR exists and was not made by broker.sh; refusing to delete it (set KAFKA_DIR)"
  fi
  fetch
  command -v java >/dev/null || die "java not found (run deploy/install-deps.sh)"
  rm -rf "$DIR"
  mkdir -p "$DIR/data" "$DIR/tmp"
  touch "$MARKER"
  local bport cport auto=${KAFKA_AUTO_CREATE_TOPICS:-false}
  [[ $auto == true || $auto == false ]] || die "KAFKA_AUTO_CREATE_TOPICS must be true or false"
  bport=${KAFKA_PORT:-$(free_port)}
  [[ $bport =~ ^[0-9]+$ ]] || die "KAFKA_PORT must be a port number, got '$bport'"
  cport=$(free_port)
  while [[ $cport == "$bport" ]]; do cport=$(free_port); done
  sed -e "s#@BPORT@#$bport#g" -e "s#@CPORT@#$cport#g" -e "s#@DIR@#$DIR#g" \
    -e "s#@AUTO_CREATE@#$auto#g" "$here/server.properties.in" > "$DIR/server.properties"
  write_log4j INFO "$DIR/log4j.properties"
  local log_opt="-Dlog4j.configuration=file:$DIR/log4j.properties"
  # Cluster id: base64url of 16 random bytes, unpadded (what `kafka-storage random-uuid`
  # prints), without paying a JVM start for it. One starting with "-" would be read as an
  # option by the storage tool's argument parser (1 start in 64 failed that way): redraw.
  local cluster_id
  cluster_id=$(python3 -c 'import base64, uuid
while True:
    cid = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    if not cid.startswith("-"):
        print(cid)
        break')
  local t0
  t0=$(date +%s.%N)
  if ! java "$log_opt" -cp "$LIBS/*" kafka.tools.StorageTool format -t "$cluster_id" \
    -c "$DIR/server.properties" > "$DIR/format.log" 2>&1; then
    cat "$DIR/format.log" >&2
    die "formatting $DIR/data failed"
  fi
  echo "127.0.0.1:$bport" > "$DIR/bootstrap"
  : > "$DIR/broker.log"
  launch "$t0"
  say "started pid $(cat "$DIR/broker.pid"), data in $DIR"
  cat "$DIR/bootstrap"
}

# Starts the broker again after `stop`, on the same data, cluster id and ports (a broker
# outage seen by its clients), e.g. `broker.sh stop; sleep 30; broker.sh resume wait`.
resume() {
  if pid=$(live_pid); then
    die "a broker is already running from $DIR (pid $pid)"
  fi
  [[ -f $MARKER && -f $DIR/server.properties && -f $DIR/data/meta.properties ]] ||
    die "no stopped broker in $DIR to resume (run start)"
  fetch
  echo "broker.sh: resume $(date -u +%FT%TZ)" >> "$DIR/broker.log"
  launch "$(date +%s.%N)"
  say "resumed pid $(cat "$DIR/broker.pid"), data in $DIR"
  cat "$DIR/bootstrap"
}

wait_ready() {
  local pid bootstrap deadline
  pid=$(cat "$DIR/broker.pid" 2>/dev/null) || die "no broker started from $DIR"
  bootstrap=$(cat "$DIR/bootstrap")
  command -v kcat >/dev/null || die "kcat not found (run deploy/install-deps.sh)"
  deadline=$((SECONDS + ${KAFKA_START_TIMEOUT:-90}))
  # kcat -L exits 0 once a Metadata response arrives, 1 on a closed port.
  until kcat -b "$bootstrap" -L -m 2 > /dev/null 2>&1; do
    if ! alive "$pid"; then
      tail -n 80 "$DIR/broker.log" >&2
      die "the broker (pid $pid) died before becoming ready; log: $DIR/broker.log"
    fi
    if ((SECONDS >= deadline)); then
      tail -n 80 "$DIR/broker.log" >&2
      die "the broker at $bootstrap is not ready after ${KAFKA_START_TIMEOUT:-90} s; log: $DIR/broker.log"
    fi
    sleep 0.25
  done
  local elapsed
  elapsed=$(python3 -c "import sys, time; print(f'{time.time() - float(sys.argv[1]):.1f}')" "$(cat "$DIR/start.time")")
  say "ready at $bootstrap (pid $pid), ${elapsed} s after start"
}

topic() {
  (($# >= 2)) || die "usage: broker.sh topic NAME PARTITIONS [compact|KEY=VALUE]..."
  [[ -f $DIR/bootstrap ]] || die "no broker started from $DIR"
  [[ -f $DIR/log4j-tool.properties ]] || write_log4j WARN "$DIR/log4j-tool.properties"
  local name=$1 partitions=$2
  shift 2
  java -Dlog4j.configuration="file:$DIR/log4j-tool.properties" -cp "$LIBS/*" \
    "$here/CreateTopic.java" "$(cat "$DIR/bootstrap")" "$name" "$partitions" "$@"
}

stop() {
  local pid
  pid=$(live_pid) || pid=
  stop_pid "$pid" "$DIR/broker.pid" "${KAFKA_STOP_TIMEOUT:-30}" "broker in $DIR"
}

(($# > 0)) || die "usage: broker.sh fetch|start|resume|wait|bootstrap|topic|stop ..."
while (($# > 0)); do
  cmd=$1
  shift
  case $cmd in
    fetch) fetch ;;
    start) start ;;
    resume) resume ;;
    wait) wait_ready ;;
    bootstrap) cat "$DIR/bootstrap" 2>/dev/null || die "no broker started from $DIR" ;;
    topic) topic "$@"; exit ;;
    stop) stop ;;
    *) die "unknown command '$cmd' (fetch|start|resume|wait|bootstrap|topic|stop)" ;;
  esac
done
