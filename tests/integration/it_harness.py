#!/usr/bin/env python3
"""What the Kafka integration tests share: ratingd as a process (`Ratingd`), the broker's
address, `ratingctl` and kcat as subprocesses, HTTP, and checks against `ratingctl rate`
(the offline replay of the same library, docs/CONTRACTS.md §2).

The broker is the CTest fixture `kafka` ($KAFKA_DIR/bootstrap). A test's `main` sets
`ARGS` (at least `ratingd` and `ratingctl`) before it calls anything here. Python standard
library only.
"""

import csv
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# Re-exported: the suites call them as it_harness.generate_jsonl and so on.
from it_inputs import game_result, generate_jsonl, invalid_cases  # noqa: E402,F401

ARGS = None
# Topic, group and instance names carry this run's tag, so a case can run again on a broker
# that kept the previous run's topics and offsets.
RUN = "%x%x" % (int(time.time()), os.getpid())


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def bootstrap():
    with open(os.path.join(os.environ["KAFKA_DIR"], "bootstrap")) as f:
        return f.read().strip()


def http(url, timeout=30):
    """(status, body) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
    except (urllib.error.URLError, ConnectionError, socket.timeout) as e:
        return 0, str(e)


# ---------------------------------------------------------------------------------------
# Processes


class Ratingd:
    def __init__(self, name, extra=()):
        self.name = name
        self.dir = tempfile.mkdtemp(prefix="ratingd-it-%s-" % name)
        self.http_port = free_port()
        self.metrics_port = free_port()
        self.topics = {t: "it.%s.%s.%s" % (name, RUN, t)
                       for t in ("results", "deltas", "leaderboards", "dlq")}
        # Overridden by tests that run several instances in one group (reliability_it.py).
        self.group = "it-%s-%s" % (name, RUN)
        self.instance_id = "it-%s-%s" % (name, RUN)
        self.partitions = 3
        self.extra = list(extra)
        self.proc = None
        self.runs = 0

    def args(self):
        return [
            ARGS.ratingd,
            "--brokers=" + bootstrap(),
            "--group=" + self.group,
            "--instance-id=" + self.instance_id,
            "--results-topic=" + self.topics["results"],
            "--deltas-topic=" + self.topics["deltas"],
            "--leaderboards-topic=" + self.topics["leaderboards"],
            "--dlq-topic=" + self.topics["dlq"],
            "--topic-partitions=%d" % self.partitions,
            "--topic-replication=1",
            "--snapshot-dir=" + os.path.join(self.dir, "snapshots"),
            "--http-address=127.0.0.1:%d" % self.http_port,
            "--metrics-address=127.0.0.1:%d" % self.metrics_port,
        ] + self.extra

    def start(self):
        self.runs += 1
        log = open(os.path.join(self.dir, "ratingd.%d.log" % self.runs), "w")
        self.proc = subprocess.Popen(self.args(), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.proc.poll() is not None:
                fail("ratingd exited with %d:\n%s" % (self.proc.returncode, self.log()))
            status, _ = http("http://127.0.0.1:%d/readyz" % self.http_port, timeout=2)
            if status == 200:
                return
            time.sleep(0.1)
        fail("ratingd not ready after 90 s:\n" + self.log())

    def log(self):
        with open(os.path.join(self.dir, "ratingd.%d.log" % self.runs)) as f:
            return f.read()[-4000:]

    def signal(self, sig):
        self.proc.send_signal(sig)

    def wait(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail("ratingd did not exit within %s s:\n%s" % (timeout, self.log()))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def get(self, path):
        status, body = http("http://127.0.0.1:%d%s" % (self.http_port, path))
        if status != 200:
            died = self.proc is not None and self.proc.poll() is not None
            fail("GET %s: %d %s%s" % (path, status, body, "\nratingd exited with %d:\n%s" %
                                      (self.proc.returncode, self.log()) if died else ""))
        return json.loads(body)

    def pools(self):
        return {p["pool"]: int(p["results"]) for p in self.get("/v1/pools")["pools"]}

    def wait_for_results(self, expected, timeout=120):
        deadline = time.time() + timeout
        got = None
        while time.time() < deadline:
            got = self.pools()
            if got == expected:
                return
            time.sleep(0.2)
        fail("results per pool: got %s, expected %s\n%s" % (got, expected, self.log()))

    def wait_for_committed_results(self, expected, timeout=120):
        """wait_for_results, then until a commit point passes with the counts still there:
        with aborts injected, counts reached in a transaction that then aborts roll back
        (and come again after the replay), so counts alone may be seen too early."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            self.wait_for_results(expected, timeout=max(1.0, deadline - time.time()))
            seen = time.time()
            while (time.time() < deadline and
                   self.metric("ratingd_last_commit_timestamp_seconds") <= seen):
                time.sleep(0.1)
            if self.pools() == expected:
                return
        fail("results per pool did not stay at %s past a commit\n%s" % (expected, self.log()))

    def metrics(self):
        status, body = http("http://127.0.0.1:%d/metrics" % self.metrics_port)
        check(status == 200, "GET /metrics: %d" % status)
        return body

    def metric(self, name):
        total = 0.0
        for line in self.metrics().splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{"):
                total += float(line.rsplit(" ", 1)[1])
        return total


def ratingctl(*args, check_ok=True):
    p = subprocess.run([ARGS.ratingctl] + list(args), capture_output=True, text=True, timeout=300)
    if check_ok and p.returncode != 0:
        fail("ratingctl %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return p


def produce(path, topic, rate=0, event_time="now"):
    args = ["produce", "--brokers=" + bootstrap(), "--topic=" + topic, "--input=" + path,
            "--event-time=" + event_time]
    if rate:
        args.append("--rate=%g" % rate)
    ratingctl(*args)


def tail(topic, kind, idle="5s", count=0):
    args = ["tail", "--brokers=" + bootstrap(), "--topic=" + topic, "--type=" + kind,
            "--idle_timeout=" + idle]
    if count:
        args.append("--count=%d" % count)
    out = ratingctl(*args).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def kcat_produce(topic, key, value):
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(value)
    cmd = ["kcat", "-P", "-b", bootstrap(), "-t", topic, "-X", "message.max.bytes=2000000"]
    if key is not None:
        cmd += ["-k", key]
    p = subprocess.run(cmd + [f.name], capture_output=True, text=True, timeout=60)
    os.unlink(f.name)
    check(p.returncode == 0, "kcat: " + p.stderr)


def pool_prefix(path, pool, results):
    """A copy of `path` cut after `pool`'s results-th result: the results an ml solve saw."""
    out = "%s.%s.%d.jsonl" % (path, pool, results)
    seen = 0
    with open(path) as f, open(out, "w") as o:
        for line in f:
            if seen == results:
                break
            o.write(line)
            seen += json.loads(line).get("pool") == pool
    return out


def compare_with_rate(d, path, pools, models=("elo", "sco", "ml")):
    """Every pool's leaderboard over HTTP equals `ratingctl rate` on the same file, the
    games, provisional flags and intervals of ratingd's default 16 bootstrap replicas
    included (ratingctl --bootstrap-replicas=16 replays them from the pool's name). The ml
    leaderboard is its last scheduled solve's: `ratingctl rate` on the results it saw."""
    for pool in pools:
        for model in models:
            live = d.get("/v1/pools/%s/leaderboard?model=%s" % (pool, model))
            check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z",
                               live["committed_at"]), "%s/%s: committed_at: %s" %
                  (pool, model, live.get("committed_at")))
            seen = path if model != "ml" else pool_prefix(path, pool, live["results"])
            # glicko2's intervals are its deviation's: no replicas.
            replicas = [] if model == "glicko2" else ["--bootstrap-replicas=16"]
            history = [] if model == "ml" else ["--history=%s.%s.%s.csv" % (path, pool, model)]
            offline = json.loads(ratingctl("rate", "--method=" + model, "--input=" + seen,
                                           "--pool=" + pool, *replicas, *history).stdout)
            if history:
                compare_histories(d, pool, model, history[0].split("=", 1)[1],
                                  [e["agent"] for e in offline["ranking"][:3]])
            if model != "ml":
                check(all("ci_low" in e for e in live["ranking"]),
                      "%s/%s: no intervals in the live leaderboard" % (pool, model))
                check(live["sequence"] == live["results"], "%s/%s: sequence %s" %
                      (pool, model, live.get("sequence")))
            for field in ("method", "agents", "results", "ranking"):
                check(live[field] == offline[field],
                      "%s/%s: %s differs:\n daemon  %s\n ratingctl %s" %
                      (pool, model, field, json.dumps(live[field])[:400],
                       json.dumps(offline[field])[:400]))
            check(live["extra"]["params"] == offline["extra"]["params"], "params differ")
            if model == "ml":
                for field in ("lottery", "exploitability", "iterations", "converged"):
                    check(live["extra"][field] == offline["extra"][field],
                          "%s/ml: %s differs" % (pool, field))


def compare_histories(d, pool, model, csv_path, agents):
    """The agents' histories over HTTP are the points `ratingctl rate --history` writes for
    the same results (ratingd's default --history-points 128): after a restart or a
    rollback too, restored from the snapshot and the replay."""
    expected = {}
    with open(csv_path) as f:
        next(f)  # the header
        for row in csv.reader(f):
            expected.setdefault(row[0], []).append(row[1:])
    for agent in agents:
        live = d.get("/v1/pools/%s/agents/%s?model=%s" % (pool, agent, model))
        got = [[str(p["sequence"]), p.get("time", ""), p["rating"], p.get("ci_low"),
                p.get("ci_high")] for p in live["history"]]
        want = [[r[0], r[1], float(r[2]), float(r[3]) if r[3] else None,
                 float(r[4]) if r[4] else None] for r in expected[agent]]
        # A file without event times was produced with the time of sending (produce's
        # default): ratingd's points carry those, ratingctl's none.
        for g, w in zip(got, want):
            if w[1] == "":
                g[1] = ""
        check(got == want, "%s/%s/%s: history differs:\n daemon  %s\n ratingctl %s" %
              (pool, model, agent, json.dumps(got)[:300], json.dumps(want)[:300]))
        check(live["agent"]["agent"] == agent and live["owner"], "%s/%s/%s: %s" %
              (pool, model, agent, json.dumps(live)[:300]))


def check_deltas(d, counts, ml_every, models=("elo", "sco", "ml")):
    """Exactly once: a read_committed reader sees every (pool, model, sequence)
    delta once, sequences 1..n without gaps."""
    seen = {}
    for delta in tail(d.topics["deltas"], "deltas"):
        key = (delta["pool"], delta["model"], int(delta["sequence"]))
        check(key not in seen, "delta %s seen twice by a read_committed reader" % (key,))
        seen[key] = delta
    for pool, n in counts.items():
        for model in models:
            expected = n // ml_every if model == "ml" else n
            seqs = sorted(s for (p, m, s) in seen if p == pool and m == model)
            check(seqs == list(range(1, expected + 1)),
                  "%s/%s: sequences %s..%s (%d), expected 1..%d" %
                  (pool, model, seqs[:1], seqs[-1:], len(seqs), expected))
    return len(seen)

