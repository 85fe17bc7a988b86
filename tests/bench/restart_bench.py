#!/usr/bin/env python3
"""Restart time of ratingd through a real broker (docs/CONTRACTS.md §5, docs/BENCHMARKS.md).

    restart_bench.py --ratingd BIN --ratingctl BIN [--kills 10] [--rate 1000] [--partitions 1]
        [--ratingd-defaults]

Needs a running broker ($KAFKA_DIR/bootstrap, deploy/kafka/broker.sh). A producer sends
`--rate` results/s to the results topic; one ratingd with --instance-id runs (with
--snapshot-interval=5s unless --ratingd-defaults: then its own 30 s); a
read_committed reader (`ratingctl tail`) notes when each delta arrives. Then, `--kills`
times, at a random instant: SIGKILL, restart at once with the same flags, and measure
SIGKILL -> the first delta whose arrival follows the kill (a delta the new process
committed). The restarted process's log lines are time-stamped on arrival to split that
time into: process start -> init_transactions done ("transactional.id" line), -> every
partition restored, -> first delta visible. Also prints the replayed records per restart
(ratingd_replayed_records_total just before the next kill). Prints one JSON document;
with RESTART_BENCH_LOG=1 also the last process's log lines, timed from its start (add
--ratingd-arg=--kafka=debug=cgrp,eos for librdkafka's side).
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_bench as e2e  # noqa: E402


class Daemon:
    """One ratingd process whose stderr lines are kept with their arrival times."""

    def __init__(self, cmd):
        self.t_start = time.time()
        self.proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stderr:
            self.lines.append((time.time(), line.rstrip()))

    def first(self, needle):
        for t, line in list(self.lines):
            if needle in line:
                return t
        return None

    def last(self, needle):
        found = None
        for t, line in list(self.lines):
            if needle in line:
                found = t
        return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ratingd", required=True)
    ap.add_argument("--ratingctl", required=True)
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--rate", type=float, default=1000)
    ap.add_argument("--partitions", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ratingd-arg", action="append", default=[])
    ap.add_argument("--ratingd-defaults", action="store_true",
                    help="ratingd's own --snapshot-interval instead of 5 s")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    brokers = open(os.path.join(os.environ["KAFKA_DIR"], "bootstrap")).read().strip()
    work = tempfile.mkdtemp(prefix="ratingd-restart-")
    tag = str(int(time.time()))
    topics = {t: "restart.%s.%s" % (tag, t) for t in ("results", "deltas", "leaderboards", "dlq")}
    metrics_port, http_port = e2e.free_port(), e2e.free_port()
    cmd = [a.ratingd, "--brokers=" + brokers, "--group=restart-" + tag, "--instance-id=restart",
           "--results-topic=" + topics["results"], "--deltas-topic=" + topics["deltas"],
           "--leaderboards-topic=" + topics["leaderboards"], "--dlq-topic=" + topics["dlq"],
           "--topic-partitions=%d" % a.partitions, "--snapshot-dir=" + os.path.join(work, "snap"),
           "--http-address=127.0.0.1:%d" % http_port,
           "--metrics-address=127.0.0.1:%d" % metrics_port] + a.ratingd_arg
    if not a.ratingd_defaults:
        cmd.append("--snapshot-interval=5s")
    stream = os.path.join(work, "stream.jsonl")
    e2e.generate(stream, int(a.rate * (a.kills * 8 + 30)), 3, e2e.parse_pools("10x100"))
    d = Daemon(cmd)
    while d.first("consuming") is None:
        time.sleep(0.1)
    watcher, arrivals = watch_arrivals(a.ratingctl, brokers, topics["deltas"])
    producer = subprocess.Popen([a.ratingctl, "produce", "--brokers=" + brokers,
                                 "--topic=" + topics["results"], "--input=" + stream,
                                 "--rate=%g" % a.rate], stderr=subprocess.DEVNULL)
    time.sleep(5)
    runs = []
    try:
        for _ in range(a.kills):
            time.sleep(rng.uniform(3, 6))
            replayed = replayed_total(metrics_port)
            d.proc.send_signal(signal.SIGKILL)
            t_kill = time.time()
            d.proc.wait()
            d = Daemon(cmd)
            deadline = t_kill + 30
            first = None
            while first is None and time.time() < deadline:
                time.sleep(0.01)
                # Not a delta the old process committed just before the kill and the reader
                # saw just after it (the reader's lag is a few milliseconds).
                first = next((t for t in list(arrivals) if t > t_kill + 0.05), None)
            restored = d.last("restored")
            runs.append({
                "kill_to_visible_s": round(first - t_kill, 3) if first else None,
                "start_to_fenced_s": rel(d.first("transactional.id"), d.t_start),
                "start_to_restored_s": rel(restored, d.t_start),
                "restored_to_visible_s": rel(first, restored),
                "replayed_before_kill": replayed,
            })
            print(json.dumps(runs[-1]), file=sys.stderr)
        if os.environ.get("RESTART_BENCH_LOG"):  # the last process's log, timed from its start
            for t, line in d.lines:
                print("%8.3f %s" % (t - d.t_start, line), file=sys.stderr)
    finally:
        producer.kill()
        watcher.kill()
        d.proc.terminate()
        d.proc.wait()
    times = sorted(r["kill_to_visible_s"] for r in runs if r["kill_to_visible_s"] is not None)
    print(json.dumps({
        "kills": a.kills, "rate": a.rate, "partitions": a.partitions,
        "kill_to_visible_median_s": times[len(times) // 2] if times else None,
        "kill_to_visible_max_s": times[-1] if times else None,
        "runs": runs}))


def rel(t, t0):
    return round(t - t0, 3) if t is not None and t0 is not None else None


def replayed_total(port):
    try:
        return e2e.metrics(port).get("ratingd_replayed_records_total", 0)
    except Exception:
        return None


def watch_arrivals(ratingctl, brokers, topic):
    """A read_committed reader of the deltas topic; returns it and the arrival times."""
    proc = subprocess.Popen([ratingctl, "tail", "--brokers=" + brokers, "--topic=" + topic,
                             "--type=deltas", "--from_end"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    arrivals = []

    def read():
        for _ in proc.stdout:
            arrivals.append(time.time())

    threading.Thread(target=read, daemon=True).start()
    return proc, arrivals


if __name__ == "__main__":
    main()
