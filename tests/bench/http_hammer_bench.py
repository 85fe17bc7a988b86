#!/usr/bin/env python3
"""Does a client hammering the HTTP API slow ratingd down? (docs/BENCHMARKS.md)

    http_hammer_bench.py --ratingd BIN --ratingctl BIN [--results N] [--rounds 2] [--clients 8]

Needs a running broker ($KAFKA_DIR/bootstrap). The input: N 2-player results over 10 pools of
100 agents and 2 pools of 400 agents ("big0", "big1"). Each round runs two fresh ratingd
groups, one after the other, each on its own copy of the input already on its topic (all
models on, --ml-solve-every 1000): "quiet", with no HTTP client, and "hammered", with
`--clients` threads looping on GET /v1/pools/big{0,1}/leaderboard?model=ml. The figure of a
phase is the results applied per second from the first to the last (its /metrics). Prints
one JSON document with every phase, the medians and hammered/quiet.
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_bench as e2e  # noqa: E402


def generate(path, n, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(n):
            k = rng.randrange(12)
            pool, agents = ("p%d" % k, 100) if k < 10 else ("big%d" % (k - 10), 400)
            a, b = rng.sample(range(agents), 2)
            f.write('{"pool":"%s","game_id":"g-%d","standings":[{"agent":"a%d","rank":1},'
                    '{"agent":"a%d","rank":2}]}\n' % (pool, i, a, b))


def hammer(port, stop, statuses):
    i = 0
    while not stop.is_set():
        url = "http://127.0.0.1:%d/v1/pools/big%d/leaderboard?model=ml&limit=10" % (port, i % 2)
        i += 1
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                r.read()
                statuses[r.status] += 1
        except urllib.error.HTTPError as e:
            statuses[e.code] += 1
        except Exception:
            statuses["error"] += 1
            time.sleep(0.01)


def phase(a, brokers, work, backlog, name, clients):
    tag = "%s-%d" % (name, int(time.time() * 1000))
    topics = {t: "hammer.%s.%s" % (tag, t) for t in ("results", "deltas", "leaderboards", "dlq")}
    http_port, metrics_port = e2e.free_port(), e2e.free_port()
    cmd = [a.ratingd, "--brokers=" + brokers, "--group=hammer-" + tag, "--instance-id=" + tag,
           "--results-topic=" + topics["results"], "--deltas-topic=" + topics["deltas"],
           "--leaderboards-topic=" + topics["leaderboards"], "--dlq-topic=" + topics["dlq"],
           "--topic-partitions=1", "--snapshot-dir=" + os.path.join(work, tag),
           "--snapshot-interval=60s", "--ml-solve-every=1000",
           "--http-address=127.0.0.1:%d" % http_port,
           "--metrics-address=127.0.0.1:%d" % metrics_port]
    broker_sh = os.environ.get("KAFKA_BROKER_SH", os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy", "kafka", "broker.sh"))
    subprocess.run(["bash", broker_sh, "topic", topics["results"], "1"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([a.ratingctl, "produce", "--brokers=" + brokers, "--topic=" + topics["results"],
                    "--input=" + backlog], check=True, stderr=subprocess.DEVNULL)
    d = subprocess.Popen(cmd, stderr=open(os.path.join(work, tag + ".log"), "w"))
    stop, statuses = threading.Event(), collections.Counter()
    threads = [threading.Thread(target=hammer, args=(http_port, stop, statuses), daemon=True)
               for _ in range(clients)]
    for t in threads:
        t.start()
    try:
        rate = e2e.applied_rate(metrics_port, a.results)
    finally:
        stop.set()
        for t in threads:
            t.join()
        d.terminate()
        d.wait()
    return {"phase": name, "results_per_s": round(rate),
            "http": {str(k): v for k, v in sorted(statuses.items(), key=str)}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ratingd", required=True)
    ap.add_argument("--ratingctl", required=True)
    ap.add_argument("--results", type=int, default=400000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--clients", type=int, default=8)
    a = ap.parse_args()
    brokers = open(os.path.join(os.environ["KAFKA_DIR"], "bootstrap")).read().strip()
    work = tempfile.mkdtemp(prefix="ratingd-hammer-")
    backlog = os.path.join(work, "backlog.jsonl")
    generate(backlog, a.results, 1)
    phases = []
    for _ in range(a.rounds):
        phases.append(phase(a, brokers, work, backlog, "quiet", 0))
        phases.append(phase(a, brokers, work, backlog, "hammered", a.clients))
        print(json.dumps(phases[-2:]), file=sys.stderr)

    def median(name):
        v = sorted(p["results_per_s"] for p in phases if p["phase"] == name)
        return v[len(v) // 2]

    quiet, hammered = median("quiet"), median("hammered")
    print(json.dumps({"results": a.results, "clients": a.clients, "rounds": a.rounds,
                      "quiet_median": quiet, "hammered_median": hammered,
                      "hammered_over_quiet": round(hammered / quiet, 3), "phases": phases}))


if __name__ == "__main__":
    main()
