#!/usr/bin/env python3
"""End-to-end benchmark of ratingd through a real broker (docs/CONTRACTS.md §5 rows 9-10).

    e2e_bench.py --ratingd BIN --ratingctl BIN [--results N] [--rate R] [--seconds S]
                 [--pools 12x100,2x400] [--ratingd-defaults]

Needs a running broker ($KAFKA_DIR/bootstrap, deploy/kafka/broker.sh). Two phases:
  1. throughput: N results (2-player; by default 10 pools of 100 agents, --pools COUNTxAGENTS,...
     for others, each result in a pool drawn uniformly) are put on the topic first,
     then ratingd (all models on) starts; the figure is results applied per second from
     the first to the last applied result (read from its /metrics every 100 ms).
  2. latency: ratingd caught up (and, with --after-first-snapshot, its first snapshot
     taken) and the page cache written back (sync); `ratingctl produce --rate R` for S seconds stamps each
     event time at send; the p50/p99 of ratingd_end_to_end_latency_seconds (event time ->
     delta acknowledged by the broker) are interpolated from the histogram buckets, and the
     committed visibility is measured: a read_committed reader (`ratingctl tail`) notes when
     each elo delta arrives; visible_p50/p99 are arrival - event time over every result.
     E2E_BENCH_TRACE=<file> writes "<arrival unix time> <visible ms>" per elo delta.
"""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def metrics(port):
    out = {}
    text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10).read().decode()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def quantile(m, name, q):
    buckets = sorted((float(k.split('le="')[1].split('"')[0]), v) for k, v in m.items()
                     if k.startswith(name + "_bucket"))
    total = buckets[-1][1]
    if total == 0:
        return float("nan")
    prev_bound, prev_count = 0.0, 0.0
    for bound, count in buckets:
        if count >= q * total:
            if bound == float("inf"):
                return prev_bound
            return prev_bound + (bound - prev_bound) * (q * total - prev_count) / max(count - prev_count, 1)
        prev_bound, prev_count = bound, count
    return prev_bound


def watch_visibility(ratingctl, brokers, topic):
    """Starts a read_committed reader of the deltas topic from its end (`ratingctl tail --lag`:
    one '<model> <ms>' line per delta, its arrival minus its event time); returns the process
    and the list it fills with those times in seconds, one per elo delta."""
    proc = subprocess.Popen([ratingctl, "tail", "--brokers=" + brokers, "--topic=" + topic,
                             "--type=deltas", "--from_end", "--lag"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    seen = []
    trace = open(os.environ["E2E_BENCH_TRACE"], "w") if os.environ.get("E2E_BENCH_TRACE") else None

    def read():
        for line in proc.stdout:
            model, _, ms = line.partition(" ")
            if model == "elo":
                seen.append(float(ms) / 1e3)
                if trace:  # arrival time and visibility, to find when the tail happens
                    trace.write("%.4f %s\n" % (time.time(), ms.strip()))
        if trace:
            trace.close()

    threading.Thread(target=read, daemon=True).start()
    return proc, seen


def applied_rate(port, total):
    """Results applied per second by the ratingd whose /metrics is on `port`, from the first
    applied result to the `total`-th (polled every 100 ms)."""
    first = None
    while True:
        time.sleep(0.1)
        try:
            applied = metrics(port).get("ratingd_results_applied_total", 0)
        except Exception:
            continue  # not listening yet
        now = time.time()
        if applied > 0 and first is None:
            first = (now, applied)
        if applied >= total:
            return (applied - first[1]) / (now - first[0])


def percentile(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def parse_pools(spec):
    """'12x100,2x400' -> the agent count of each pool: [100] * 12 + [400] * 2."""
    sizes = []
    for part in spec.split(","):
        count, _, agents = part.partition("x")
        if not count.isdigit() or not agents.isdigit() or int(agents) < 2:
            raise SystemExit("--pools: '%s' is not COUNTxAGENTS (agents >= 2)" % part)
        sizes += [int(agents)] * int(count)
    return sizes


def generate(path, n, seed, pools):
    """n 2-player results in the pools of `pools` (agent counts), a pool drawn uniformly
    per result; the better-numbered agent wins more often, by more in the larger pools."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(n):
            pool = rng.randrange(len(pools))
            a, b = rng.sample(range(pools[pool]), 2)
            if rng.random() < 0.5 + (a - b) / (2.5 * pools[pool]):
                a, b = b, a
            f.write('{"pool":"p%d","game_id":"%s-%d","standings":[{"agent":"a%d","rank":1},'
                    '{"agent":"a%d","rank":2}]}\n' % (pool, os.path.basename(path), i, a, b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ratingd", required=True)
    ap.add_argument("--ratingctl", required=True)
    ap.add_argument("--results", type=int, default=1000000)
    ap.add_argument("--rate", type=float, default=10000)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--ml-solve-every", type=int, default=1000)
    ap.add_argument("--pools", default="10x100",
                    help="pools of the backlog and the live phase, COUNTxAGENTS,... "
                         "(default 10x100; the issue's mixed backlog: 12x100,2x400)")
    ap.add_argument("--ratingd-defaults", action="store_true",
                    help="run ratingd at its own defaults: pass neither --ml-solve-every "
                         "nor --snapshot-interval (otherwise 1000 and 10s)")
    ap.add_argument("--after-first-snapshot", action="store_true",
                    help="start the latency phase once ratingd has taken its first snapshot "
                         "(the one that writes the whole de-duplication window after the "
                         "backlog): the steady state, where a snapshot writes the game ids "
                         "of the last --snapshot-interval only")
    ap.add_argument("--ratingd-arg", action="append", default=[],
                    help="extra ratingd flag, e.g. --ratingd-arg=--kafka=linger.ms=1")
    ap.add_argument("--ratingd-cpus", default="",
                    help="run ratingd pinned to these CPUs (taskset -c LIST), e.g. 0")
    a = ap.parse_args()
    brokers = open(os.path.join(os.environ["KAFKA_DIR"], "bootstrap")).read().strip()
    work = tempfile.mkdtemp(prefix="ratingd-e2e-")
    tag = str(int(time.time()))
    topics = {t: "bench.%s.%s" % (tag, t) for t in ("results", "deltas", "leaderboards", "dlq")}
    backlog = os.path.join(work, "backlog.jsonl")
    pools = parse_pools(a.pools)
    generate(backlog, a.results, 1, pools)
    http_port, metrics_port = free_port(), free_port()
    pin = ["taskset", "-c", a.ratingd_cpus] if a.ratingd_cpus else []
    cmd = pin + [a.ratingd, "--brokers=" + brokers, "--group=bench-" + tag, "--instance-id=bench",
           "--results-topic=" + topics["results"], "--deltas-topic=" + topics["deltas"],
           "--leaderboards-topic=" + topics["leaderboards"], "--dlq-topic=" + topics["dlq"],
           "--topic-partitions=1", "--snapshot-dir=" + os.path.join(work, "snap")]
    if not a.ratingd_defaults:
        cmd += ["--snapshot-interval=10s", "--ml-solve-every=%d" % a.ml_solve_every]
    cmd += ["--http-address=127.0.0.1:%d" % http_port, "--metrics-address=127.0.0.1:%d" % metrics_port] + a.ratingd_arg
    # Create the topics (ratingd does it at start), then stop it and load the backlog.
    d = subprocess.Popen(cmd, stderr=open(os.path.join(work, "create.log"), "w"))
    time.sleep(3)
    d.terminate()
    d.wait()
    t0 = time.time()
    subprocess.run([a.ratingctl, "produce", "--brokers=" + brokers, "--topic=" + topics["results"],
                    "--input=" + backlog], check=True, stderr=subprocess.DEVNULL)
    produce_rate = a.results / (time.time() - t0)
    subprocess.run(["rm", "-rf", os.path.join(work, "snap")])

    d = subprocess.Popen(cmd, stderr=open(os.path.join(work, "ratingd.log"), "w"))
    throughput = applied_rate(metrics_port, a.results)
    snp = "ratingd_snapshot_duration_seconds"
    while a.after_first_snapshot and metrics(metrics_port).get(snp + "_count", 0) < 1:
        time.sleep(0.1)
    # Write back the page cache the backlog phase dirtied (the broker's logs, a few hundred
    # MB): the kernel would otherwise do it ~30 s after, inside the latency phase, and the
    # broker's appends stall behind that burst of disk writes.
    os.sync()
    m0 = metrics(metrics_port)

    live = os.path.join(work, "live.jsonl")
    generate(live, int(a.rate * a.seconds), 2, pools)
    watcher, visible = watch_visibility(a.ratingctl, brokers, topics["deltas"])
    time.sleep(3)  # the reader has joined and sits at the end
    subprocess.run([a.ratingctl, "produce", "--brokers=" + brokers, "--topic=" + topics["results"],
                    "--input=" + live, "--rate=%g" % a.rate], check=True, stderr=subprocess.DEVNULL)
    time.sleep(2)
    watcher.terminate()
    watcher.wait()
    m1 = metrics(metrics_port)
    name = "ratingd_end_to_end_latency_seconds"
    diff = {k: m1[k] - m0.get(k, 0) for k in m1 if k.startswith(name + "_bucket")}
    upd = "ratingd_update_duration_seconds"
    udiff = {k: m1[k] - m0.get(k, 0) for k in m1 if k.startswith(upd + "_bucket")}
    sol = "ratingd_ml_solve_duration_seconds"
    sdiff = {k: m1[k] for k in m1 if k.startswith(sol + "_bucket")}
    ing = "ratingd_ingest_latency_seconds"
    idiff = {k: m1[k] - m0.get(k, 0) for k in m1 if k.startswith(ing + "_bucket")}
    com = "ratingd_transaction_commit_duration_seconds"
    cdiff = {k: m1[k] - m0.get(k, 0) for k in m1 if k.startswith(com + "_bucket")}
    ndiff = {k: m1[k] - m0.get(k, 0) for k in m1 if k.startswith(snp + "_bucket")}
    txn = {o: m1.get('ratingd_transactions_total{outcome="%s"}' % o, 0) -
           m0.get('ratingd_transactions_total{outcome="%s"}' % o, 0)
           for o in ("committed", "aborted")}
    d.terminate()
    d.wait()
    print(json.dumps({
        "ml_solve_p50_ms": round(quantile(sdiff, sol, 0.5) * 1e3, 3),
        "ml_solve_p99_ms": round(quantile(sdiff, sol, 0.99) * 1e3, 3),
        "ingest_p50_ms": round(quantile(idiff, ing, 0.5) * 1e3, 3),
        "ingest_p99_ms": round(quantile(idiff, ing, 0.99) * 1e3, 3),
        "results": a.results, "produce_rate_per_s": round(produce_rate),
        "ratingd_throughput_per_s": round(throughput),
        "latency_rate_per_s": a.rate, "latency_seconds": a.seconds,
        "e2e_p50_ms": round(quantile(diff, name, 0.5) * 1e3, 3),
        "e2e_p99_ms": round(quantile(diff, name, 0.99) * 1e3, 3),
        "visible_p50_ms": round(percentile(visible, 0.5) * 1e3, 3),
        "visible_p99_ms": round(percentile(visible, 0.99) * 1e3, 3),
        "visible_deltas": len(visible),
        "update_p50_us": round(quantile(udiff, upd, 0.5) * 1e6, 2),
        "update_p99_us": round(quantile(udiff, upd, 0.99) * 1e6, 2),
        "commit_p50_ms": round(quantile(cdiff, com, 0.5) * 1e3, 3) if cdiff else None,
        "commit_p99_ms": round(quantile(cdiff, com, 0.99) * 1e3, 3) if cdiff else None,
        "latency_phase_transactions": txn,
        "latency_phase_snapshots": ndiff.get(snp + '_bucket{le="+Inf"}', 0),
        "snapshot_p99_ms": round(quantile(ndiff, snp, 0.99) * 1e3, 3) if ndiff else None,
        "after_first_snapshot": a.after_first_snapshot,
        "last_snapshot_bytes": m1.get('ratingd_snapshot_size_bytes{partition="0"}'),
        "ml_solve_every": None if a.ratingd_defaults else a.ml_solve_every,
        "ratingd_defaults": a.ratingd_defaults, "pools": a.pools}))


if __name__ == "__main__":
    main()
