# Shell helpers shared by deploy/kafka/broker.sh and deploy/prometheus/run.sh (sourced).
# The caller defines say() (its own message prefix).

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Is pid $1 running? A zombie (exited, not yet reaped) counts as gone; kill -0 would not.
alive() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ $state != Z* ]]
}

# live_pid_of PIDFILE PATTERN: the pid recorded in PIDFILE if that process is alive and its
# command line contains PATTERN (guards against a stale file whose pid was reused).
live_pid_of() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2" || return 1
  echo "$pid"
}

# stop_pid PID PIDFILE TIMEOUT NAME: TERM, wait up to TIMEOUT seconds, then KILL; removes
# PIDFILE. An empty PID means nothing runs (not an error).
stop_pid() {
  local pid=$1 pidfile=$2 timeout=$3 name=$4
  if [[ -z $pid ]]; then
    rm -f "$pidfile"
    say "no $name running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + timeout))
  while alive "$pid"; do
    if ((SECONDS >= deadline)); then
      say "pid $pid still running $timeout s after TERM; sending KILL"
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.2
  done
  rm -f "$pidfile"
  say "stopped pid $pid"
}
