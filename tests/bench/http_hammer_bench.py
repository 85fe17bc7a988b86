#!/usr/bin/env python3
"""Do HTTP clients slow ratingd down, and how fast are they answered? (docs/BENCHMARKS.md)

    http_hammer_bench.py --ratingd BIN --ratingctl BIN [--results N] [--rounds 3]
        [--clients 8] [--streams 50] [--rate 2000] [--phases quiet,hammered,paced]
        [--ratingd-flags '--http-nice=19']

Needs a running broker ($KAFKA_DIR/bootstrap). The input: N 2-player results over 10 pools of
100 agents and 2 pools of 400 agents ("big0", "big1"). Each round runs three fresh ratingd
groups at their default flags, one after the other, each on its own copy of the input
already on its topic: "quiet", with no HTTP client; "hammered", with `--clients` threads
looping on GET /v1/pools/big{0,1}/leaderboard?model=ml, as many on ?model=elo, and
`--streams` open event streams (/v1/pools/{pool}/events, read as they come); and "paced",
with leaderboard requests (elo and ml, limit 10, the 12 pools in turn) sent at `--rate` per
second while ingesting, each timed from its request to the end of its answer (wrk, on
connections kept alive). The figure of a
phase is the results applied per second from the first to the last (its /metrics); paced
also gives the answers' latency percentiles. Prints one JSON document with every phase, the
medians, hammered/quiet and the median p99 of paced. An uncounted quiet phase runs before
the first round (--no-warmup: none): a fresh broker is still compiling its hot paths then.
"""
import argparse
import collections
import json
import math
import os
import random
import re
import selectors
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time

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


# The hammering clients stand for users on other machines: they run at the lowest priority,
# so that what slows ratingd is its answering, not the load generator (CLIENT_NICE=0 to
# compare). The paced client, which times the answers, keeps the normal priority.
CLIENT_NICE = int(os.environ.get("CLIENT_NICE", "19"))
# The paced client: each connection waits PACED_WAIT_MS after an answer; wrk's timer and
# the answer add about a millisecond more per cycle here, so ceil(rate * (wait + 1) / 1000)
# connections come near `rate`. The phase reports the rate it got.
PACED_WAIT_MS = 10
POOLS = ["p%d" % k for k in range(10)] + ["big0", "big1"]


def wrk(port, stop, statuses, connections, model, wait_ms, runs, nice=0):
    """`connections` wrk connections (hammer.lua) in 5 s runs until `stop`: each loops on a
    request, its answer, `wait_ms`, the next. Counts the answers in `statuses`; appends each
    run's latency percentiles (ms) and request count to `runs`."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hammer.lua")
    while not stop.is_set():
        out = subprocess.run(["nice", "-n", str(nice), "wrk", "-t1",
                              "-c%d" % connections, "-d5s", "-s", script,
                              "http://127.0.0.1:%d" % port, "--", model, str(wait_ms)],
                             capture_output=True, text=True).stdout
        found = re.search(r"RESULT requests=(\d+) non2xx=(\d+) errors=(\d+) p50=(\d+) "
                          r"p99=(\d+) max=(\d+)", out)
        if found is None:
            statuses["wrk failed"] += 1
            time.sleep(0.1)
            continue
        requests, non2xx, errors, p50, p99, high = map(int, found.groups())
        statuses["2xx"] += requests - non2xx
        statuses["non-2xx"] += non2xx
        statuses["socket errors"] += errors
        runs.append({"requests": requests, "p50": p50 / 1000, "p99": p99 / 1000,
                     "max": high / 1000})


def streams(port, stop, count, events):
    """`count` event streams of the pools in turn, read as they come, until `stop`."""
    selector = selectors.DefaultSelector()
    deadline = time.time() + 30
    while len(selector.get_map() or {}) < count and not stop.is_set() and time.time() < deadline:
        pool = POOLS[len(selector.get_map() or {}) % len(POOLS)]
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(("GET /v1/pools/%s/events?model=elo&limit=10 HTTP/1.1\r\n"
                          "Host: x\r\n\r\n" % pool).encode())
            if not sock.recv(16).startswith(b"HTTP/1.1 200"):  # the pool is not known yet
                sock.close()
                time.sleep(0.05)
                continue
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        except OSError:
            time.sleep(0.05)  # not listening yet
    while not stop.is_set():
        for key, _ in selector.select(timeout=0.2):
            try:
                data = key.fileobj.recv(1 << 20)
            except OSError:
                data = b""
            events["bytes"] += len(data)
            events["events"] += data.count(b"event: ")
    for key in list((selector.get_map() or {}).values()):
        key.fileobj.close()


COSTS = ("ratingd_transaction_commit_duration_seconds", "ratingd_transaction_open_seconds",
         "ratingd_ml_solve_duration_seconds", "ratingd_update_duration_seconds")


def costs(m):
    """Where the phase's time went: count and mean (ms) of the histograms in COSTS."""
    out = {"transactions": m.get('ratingd_transactions_total{outcome="committed"}')}
    for name in COSTS:
        count = sum(v for k, v in m.items() if k.startswith(name + "_count"))
        total = sum(v for k, v in m.items() if k.startswith(name + "_sum"))
        out[name[len("ratingd_"):-len("_seconds")]] = {
            "count": count, "mean_ms": round(1000 * total / count, 3) if count else None}
    return out


def phase(a, brokers, work, backlog, name, clients):
    tag = "%s-%d" % (name, int(time.time() * 1000))
    topics = {t: "hammer.%s.%s" % (tag, t) for t in ("results", "deltas", "leaderboards", "dlq")}
    http_port, metrics_port = e2e.free_port(), e2e.free_port()
    cmd = [a.ratingd, "--brokers=" + brokers, "--group=hammer-" + tag, "--instance-id=" + tag,
           "--results-topic=" + topics["results"], "--deltas-topic=" + topics["deltas"],
           "--leaderboards-topic=" + topics["leaderboards"], "--dlq-topic=" + topics["dlq"],
           "--topic-partitions=1", "--snapshot-dir=" + os.path.join(work, tag),
           "--http-address=127.0.0.1:%d" % http_port,
           "--metrics-address=127.0.0.1:%d" % metrics_port] + shlex.split(a.ratingd_flags)
    broker_sh = os.environ.get("KAFKA_BROKER_SH", os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy", "kafka", "broker.sh"))
    subprocess.run(["bash", broker_sh, "topic", topics["results"], "1"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([a.ratingctl, "produce", "--brokers=" + brokers, "--topic=" + topics["results"],
                    "--input=" + backlog], check=True, stderr=subprocess.DEVNULL)
    d = subprocess.Popen(cmd, stderr=open(os.path.join(work, tag + ".log"), "w"))
    stop, statuses, events = threading.Event(), collections.Counter(), collections.Counter()
    runs = []
    threads = []
    if name == "hammered":
        threads = [threading.Thread(target=wrk, args=(http_port, stop, statuses, clients, model,
                                                      0, [], CLIENT_NICE), daemon=True)
                   for model in ("ml", "elo")]
        threads.append(threading.Thread(target=streams,
                                        args=(http_port, stop, a.streams, events), daemon=True))
    elif name == "paced":
        connections = math.ceil(a.rate * (PACED_WAIT_MS + 1) / 1000)
        threads = [threading.Thread(target=wrk, args=(http_port, stop, statuses, connections,
                                                      "elo", PACED_WAIT_MS, runs),
                                    daemon=True)]
    for t in threads:
        t.start()
    try:
        rate = e2e.applied_rate(metrics_port, a.results)
        spent = costs(e2e.metrics(metrics_port))
    finally:
        stop.set()
        for t in threads:
            t.join()
        d.terminate()
        d.wait()
    out = {"phase": name, "results_per_s": round(rate), "costs": spent,
           "http": {str(k): v for k, v in sorted(statuses.items(), key=str)}}
    if events:
        out["events"] = dict(events)
    if runs:
        # The worst 5 s run's percentiles: wrk reports them per run, not merged.
        out["requests_per_s"] = round(sum(r["requests"] for r in runs) / (5.0 * len(runs)))
        out["latency_ms"] = {q: max(r[q] for r in runs) for q in ("p50", "p99", "max")}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ratingd", required=True)
    ap.add_argument("--ratingctl", required=True)
    ap.add_argument("--results", type=int, default=400000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--streams", type=int, default=50)
    ap.add_argument("--rate", type=float, default=2000)
    ap.add_argument("--ratingd-flags", default="",
                    help="more ratingd flags for every phase (e.g. --http-nice=19)")
    ap.add_argument("--no-warmup", action="store_true",
                    help="skip the uncounted quiet phase before the first round")
    ap.add_argument("--phases", default="quiet,hammered,paced",
                    help="which phases each round runs, in order")
    a = ap.parse_args()
    brokers = open(os.path.join(os.environ["KAFKA_DIR"], "bootstrap")).read().strip()
    work = tempfile.mkdtemp(prefix="ratingd-hammer-")
    backlog = os.path.join(work, "backlog.jsonl")
    generate(backlog, a.results, 1)
    if not a.no_warmup:
        # A fresh broker's JVM compiles its hot paths in its first minute, taking CPU from
        # whichever phase runs then: one uncounted quiet phase first.
        print(json.dumps({"warmup": phase(a, brokers, work, backlog, "quiet", a.clients)}),
              file=sys.stderr)
    phases = []
    for _ in range(a.rounds):
        for name in a.phases.split(","):
            phases.append(phase(a, brokers, work, backlog, name, a.clients))
            print(json.dumps(phases[-1]), file=sys.stderr)

    def median(name):
        v = sorted(p["results_per_s"] for p in phases if p["phase"] == name)
        return v[len(v) // 2] if v else None

    quiet, hammered = median("quiet"), median("hammered")
    p99 = sorted(p["latency_ms"]["p99"] for p in phases if "latency_ms" in p)
    print(json.dumps({"results": a.results, "clients": a.clients, "streams": a.streams,
                      "rate": a.rate, "rounds": a.rounds, "ratingd_flags": a.ratingd_flags,
                      "quiet_median": quiet, "hammered_median": hammered,
                      "hammered_over_quiet": round(hammered / quiet, 3) if quiet and hammered
                      else None,
                      "paced_median": median("paced"),
                      "paced_p99_ms_median": p99[len(p99) // 2] if p99 else None,
                      "phases": phases}))


if __name__ == "__main__":
    main()
