#!/usr/bin/env python3
"""How soon does a result reach the event streams? (docs/BENCHMARKS.md, [serve] §2)

    events_latency_bench.py --ratingd BIN --ratingctl BIN [--results 100000] [--rate 10000]
        [--streams 100] [--rounds 3]

Needs a running broker ($KAFKA_DIR/bootstrap). The input: 2-player results over 10 pools of
100 agents and 2 of 400 (http_hammer_bench's). Each round starts a fresh ratingd at its
default flags (--events-interval 1s), gives each pool one result, opens `--streams` streams
of /v1/pools/{pool}/events?model=elo&limit=1 (the pools in turn), then produces the input
at `--rate` results per second (ratingctl produce --rate). For every result and every stream
of its pool, the latency is the arrival of the first event whose `results` include it minus
the result's produce time, taken as t0 + i / rate for the input's i-th line, t0 the start of
ratingctl produce (so a slow start makes the figures larger, never smaller). Prints one JSON
document with each round's p50, p95 and max and the median p95.
"""
import argparse
import collections
import json
import os
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_bench as e2e  # noqa: E402
import http_hammer_bench as hammer  # noqa: E402

RESULTS = re.compile(rb'"results":(\d+)')


def follow(port, pools, count, stop, arrivals):
    """Opens `count` streams (pools in turn) and records (arrival, results) per stream."""
    selector = selectors.DefaultSelector()
    for i in range(count):
        pool = pools[i % len(pools)]
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(("GET /v1/pools/%s/events?model=elo&limit=1 HTTP/1.1\r\nHost: x\r\n\r\n" %
                      pool).encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, (i, pool))
        arrivals[(i, pool)] = []
    buffers = collections.defaultdict(bytes)
    while not stop.is_set():
        for key, _ in selector.select(timeout=0.1):
            now = time.time()
            data = key.fileobj.recv(1 << 20)
            buffers[key.data] += data
            *events, buffers[key.data] = buffers[key.data].split(b"\n\n")
            for e in events:
                m = RESULTS.search(e)
                if m and b"event: leaderboard" in e:
                    arrivals[key.data].append((now, int(m.group(1))))
    for key in list(selector.get_map().values()):
        key.fileobj.close()


def round_once(a, brokers, work, lines, rnd):
    tag = "events-%d-%d" % (rnd, int(time.time() * 1000))
    topics = {t: "evb.%s.%s" % (tag, t) for t in ("results", "deltas", "leaderboards", "dlq")}
    http_port, metrics_port = e2e.free_port(), e2e.free_port()
    cmd = [a.ratingd, "--brokers=" + brokers, "--group=evb-" + tag, "--instance-id=" + tag,
           "--results-topic=" + topics["results"], "--deltas-topic=" + topics["deltas"],
           "--leaderboards-topic=" + topics["leaderboards"], "--dlq-topic=" + topics["dlq"],
           "--topic-partitions=1", "--snapshot-dir=" + os.path.join(work, tag),
           "--http-address=127.0.0.1:%d" % http_port,
           "--metrics-address=127.0.0.1:%d" % metrics_port]
    d = subprocess.Popen(cmd, stderr=open(os.path.join(work, tag + ".log"), "w"))
    try:
        pools = hammer.POOLS
        warm = os.path.join(work, tag + ".warm.jsonl")
        with open(warm, "w") as f:
            for k, pool in enumerate(pools):
                f.write('{"pool":"%s","game_id":"w-%d","standings":[{"agent":"a0","rank":1},'
                        '{"agent":"a1","rank":2}]}\n' % (pool, k))
        deadline = time.time() + 60
        while True:  # ratingd has created its topics once it listens
            try:
                e2e.metrics(metrics_port)
                break
            except Exception:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        subprocess.run([a.ratingctl, "produce", "--brokers=" + brokers,
                        "--topic=" + topics["results"], "--input=" + warm], check=True,
                       stderr=subprocess.DEVNULL)
        while True:  # every pool is in the committed views (a stream of an unknown pool is 404)
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/v1/pools" % http_port) as r:
                    if len(json.load(r)["pools"]) == len(pools):
                        break
            except OSError:
                pass  # the HTTP API starts after the metrics
            time.sleep(0.1)
        timed = os.path.join(work, "timed.jsonl")
        stop, arrivals = threading.Event(), {}
        reader = threading.Thread(target=follow,
                                  args=(http_port, pools, a.streams, stop, arrivals))
        reader.start()
        time.sleep(1.5)  # every stream has its first event
        t0 = time.time()
        subprocess.run([a.ratingctl, "produce", "--brokers=" + brokers,
                        "--topic=" + topics["results"], "--input=" + timed,
                        "--rate=%g" % a.rate], check=True, stderr=subprocess.DEVNULL)
        while e2e.metrics(metrics_port).get("ratingd_results_applied_total", 0) < \
                len(pools) + len(lines):
            time.sleep(0.1)
        time.sleep(2.5)  # the last events: one interval and a commit
        stop.set()
        reader.join()
    finally:
        d.terminate()
        d.wait()
    # Produce time of each pool's k-th timed result (k counted after the warm-up one).
    produced = collections.defaultdict(list)
    for i, pool in enumerate(lines):
        produced[pool].append(t0 + i / a.rate)
    latencies = []
    for (_, pool), events in arrivals.items():
        seen = 1  # the warm-up result
        for arrival, results in events:
            for k in range(seen + 1, results + 1):
                latencies.append(arrival - produced[pool][k - 2])
            seen = max(seen, results)
    return {"round": rnd, "latencies": len(latencies),
            "p50_s": round(e2e.percentile(latencies, 0.5), 3),
            "p95_s": round(e2e.percentile(latencies, 0.95), 3),
            "max_s": round(e2e.percentile(latencies, 1.0), 3)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ratingd", required=True)
    ap.add_argument("--ratingctl", required=True)
    ap.add_argument("--results", type=int, default=100000)
    ap.add_argument("--rate", type=float, default=10000)
    ap.add_argument("--streams", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    brokers = open(os.path.join(os.environ["KAFKA_DIR"], "bootstrap")).read().strip()
    work = tempfile.mkdtemp(prefix="ratingd-events-")
    hammer.generate(os.path.join(work, "timed.jsonl"), a.results, 2)
    lines = [json.loads(line)["pool"] for line in open(os.path.join(work, "timed.jsonl"))]
    rounds = [round_once(a, brokers, work, lines, r) for r in range(a.rounds)]
    p95 = sorted(r["p95_s"] for r in rounds)
    print(json.dumps({"results": a.results, "rate": a.rate, "streams": a.streams,
                      "p95_s_median": p95[len(p95) // 2], "rounds": rounds}))


if __name__ == "__main__":
    main()
