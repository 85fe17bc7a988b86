#!/usr/bin/env python3
"""Integration tests of ratingd against a real Kafka broker.

    ratingd_it.py CASE --ratingd BIN --ratingctl BIN [--prometheus-sh run.sh]

The broker is the CTest fixture `kafka` ($KAFKA_DIR/bootstrap). Every case uses its own
topics, consumer group, snapshot folder and ports, so cases can share the broker. Expected
values come from `ratingctl rate` on the same file (the offline replay of the same
library, docs/CONTRACTS.md §2) or from the construction of the input (counts, reasons).
Python standard library only.
"""

import argparse
import base64
import csv
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from it_inputs import game_result, generate_jsonl, invalid_cases  # noqa: E402,F401
from views_watch import PoolsWatcher  # noqa: E402

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


# ---------------------------------------------------------------------------------------
# Cases


def case_state_equals_rate():
    # All four models, glicko2 on the file's event times (produce --event-time=file).
    models = ("elo", "sco", "ml", "glicko2")
    d = Ratingd("rate", ["--ml-solve-every=50", "--ml-solve-min-interval=0",
                         "--models=" + ",".join(models)])
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = generate_jsonl(path, 3000, pools=4, agents=25, seed=1, times=True)
        d.start()
        produce(path, d.topics["results"], event_time="file")
        d.wait_for_results(counts)
        compare_with_rate(d, path, counts, models=models)
        n = check_deltas(d, counts, 50, models=models)
        check(d.metric("ratingd_results_applied_total") == 3000, "applied_total")
        boards = tail(d.topics["leaderboards"], "leaderboards", idle="3s")
        check({(b["pool"], b["model"]) for b in boards} >=
              {(p, m) for p in counts for m in models}, "leaderboards missing")
        print("ok: 3000 results in 4 pools equal ratingctl rate (%s); %d deltas" %
              (", ".join(models), n))
    finally:
        d.stop()


def case_dlq():
    d = Ratingd("dlq")
    try:
        d.start()
        topic = d.topics["results"]
        cases = invalid_cases()
        rng = random.Random(5)
        for i in range(20):  # random bytes: whatever they decode to, never a crash
            cases.append((None, "dlq-pool", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))))
        for i, (_, key, value) in enumerate(cases):
            kcat_produce(topic, key, value)
            # A valid result after each invalid one: valid input is unaffected.
            kcat_produce(topic, "dlq-pool", game_result(game_id="valid-%d" % i))
        # Poison pill: a record the results topic takes (broker default
        # max.message.bytes 1048588) whose dead letter, with ratingd's headers, would not fit
        # the DLQ topic. It must be cut to --dlq-max-bytes (1000000), not abort every
        # transaction. Random bytes so that no compression shrinks it; 0xff.. is unparseable.
        big = b"\xff\xff\xff\x01" + rng.randbytes(1048400 - 4)
        kcat_produce(topic, "dlq-pool", big)
        kcat_produce(topic, "dlq-pool", game_result(game_id="valid-big"))
        # A key longer than a dead letter keeps (1024 bytes): cut, so the value has room.
        long_key = "k" * 120000
        kcat_produce(topic, long_key, game_result(pool="dlq-pool", game_id="long-key"))
        kcat_produce(topic, "dlq-pool", game_result(game_id="valid-long-key"))
        valid = len(cases) + 2
        deadline = time.time() + 60
        while time.time() < deadline and d.pools().get("dlq-pool", 0) < valid:
            time.sleep(0.2)
        dead = tail(d.topics["dlq"], "dlq", idle="3s")
        reasons = [r["x-ratingd-reason"] for r in dead]
        for reason, _, _ in cases:
            if reason:
                check(reasons.count(reason) >= [c[0] for c in cases].count(reason),
                      "reason %s: %d in the DLQ" % (reason, reasons.count(reason)))
        expected_dead = sum(1 for c in cases if c[0])
        check(len(dead) >= expected_dead, "only %d dead letters" % len(dead))
        keyed = [r for r in dead if "x-ratingd-key-truncated" in r]
        check(len(keyed) == 1 and keyed[0]["x-ratingd-key-truncated"] == "120000" and
              keyed[0]["key"] == long_key[:1024] and keyed[0]["x-ratingd-reason"] == "key_mismatch",
              "the 120000-byte key: %s" % [(k, v[:80]) for r in keyed for k, v in r.items()])
        cut = [r for r in dead if "x-ratingd-truncated" in r]
        check(len(cut) == 1 and cut[0]["x-ratingd-truncated"] == str(len(big)),
              "the 1048400-byte record: %s" % [(k, v) for r in cut for k, v in r.items()
                                                if k != "value_base64"])
        kept = base64.b64decode(cut[0]["value_base64"])
        check(900000 < len(kept) < 1000000 and big.startswith(kept),
              "cut dead letter: %d bytes, a prefix of the original: %s" %
              (len(kept), big.startswith(kept)))
        check(d.metric('ratingd_transactions_total{outcome="aborted"}') == 0,
              "transactions aborted (a refused dead letter?)")
        by_offset = {}
        for r in dead:
            check(r["x-src-topic"] == topic, "x-src-topic " + r["x-src-topic"])
            check(r["x-ratingd-error"], "empty x-ratingd-error")
            by_offset[int(r["x-src-offset"])] = r
        # Offsets: case i sits at 2i (each followed by a valid record); bytes are original.
        for i, (reason, key, value) in enumerate(cases):
            if reason is None:
                continue
            r = [x for x in dead if base64.b64decode(x["value_base64"]) == value and
                 "x-ratingd-truncated" not in x]
            check(r and r[0]["x-ratingd-reason"] == reason,
                  "case %d (%s): original bytes not in the DLQ with that reason" % (i, reason))
        rejected = d.metric("ratingd_results_rejected_total")
        check(rejected == len(dead), "rejected_total %s != %d dead letters" % (rejected, len(dead)))
        check(d.pools().get("dlq-pool") == valid, "valid results: %s" % d.pools())
        check(d.proc.poll() is None, "ratingd died")
        print("ok: %d invalid records in the DLQ with their reasons (a 1048400-byte one cut to "
              "%d bytes); %d valid applied" % (len(dead), len(kept), valid))
    finally:
        d.stop()


def case_duplicates():
    d = Ratingd("dup")
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = generate_jsonl(path, 500, pools=2, agents=10, seed=2)
        d.start()
        produce(path, d.topics["results"])
        produce(path, d.topics["results"])  # the same game ids again
        deadline = time.time() + 60
        while time.time() < deadline and d.metric("ratingd_results_duplicate_total") < 500:
            time.sleep(0.2)
        check(d.metric("ratingd_results_duplicate_total") == 500, "duplicate_total")
        d.wait_for_results(counts)
        compare_with_rate(d, path, counts, models=("elo", "sco"))
        check(d.metric("ratingd_results_rejected_total") == 0, "duplicates must not be DLQ'd")
        print("ok: 500 repeated game ids skipped and counted, state as if sent once")
    finally:
        d.stop()


def case_kill_restart():
    kills = int(os.environ.get("RATINGD_IT_KILLS", "6"))
    # A window of 500 ids (segments of 500) per pool of 2,400 results: snapshots write,
    # and later delete, de-duplication segments, and restores read them back.
    d = Ratingd("kill", ["--snapshot-interval=300ms", "--ml-solve-every=40",
                         "--ml-solve-min-interval=0", "--dedup-window=500"])
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = generate_jsonl(path, 12000, pools=5, agents=30, seed=3)
        d.start()
        producer = subprocess.Popen([ARGS.ratingctl, "produce", "--brokers=" + bootstrap(),
                                     "--topic=" + d.topics["results"], "--input=" + path,
                                     "--rate=2500"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        rng = random.Random(11)
        for i in range(kills):
            time.sleep(rng.uniform(0.2, 1.2))
            d.signal(signal.SIGKILL)
            d.wait(10)
            d.start()
        check(producer.wait(timeout=120) == 0, "produce failed")
        d.wait_for_results(counts, timeout=180)
        compare_with_rate(d, path, counts)
        n = check_deltas(d, counts, 40)
        print("ok: %d SIGKILLs mid-stream, then the state equals ratingctl rate; %d deltas, "
              "each exactly once" % (kills, n))
    finally:
        d.stop()


def case_abort_rollback():
    """Every third transaction is aborted (fault injection) while results stream
    in; each abort rolls the state back to the last commit and rewinds. A read_committed
    reader still sees every delta exactly once, the state equals ratingctl rate, and no pool's
    count over HTTP ever goes back (a rollback's replay passes through older states)."""
    d = Ratingd("abort", ["--snapshot-interval=500ms", "--ml-solve-every=40",
                          "--ml-solve-min-interval=0", "--commit-interval=50ms",
                          "--dedup-window=500"])
    os.environ["RATINGD_FAULT_ABORT_EVERY"] = "3"
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = generate_jsonl(path, 4000, pools=4, agents=20, seed=5)
        d.start()
        # Each rollback restores every partition (about a second here), so a slow stream
        # leaves room for several aborts; one is enough to test the path.
        with PoolsWatcher(d.http_port) as watch:
            produce(path, d.topics["results"], rate=500)
            d.wait_for_committed_results(counts, timeout=180)
        check(watch.answers > 100 and not watch.backwards, "%d answers; counts went back: %s" %
              (watch.answers, watch.backwards[:5]))
        aborted = d.metric('ratingd_transactions_total{outcome="aborted"}')
        check(aborted >= 1, "no transaction aborted")
        check(d.metric("ratingd_replayed_records_total") > 0, "nothing replayed after the aborts")
        compare_with_rate(d, path, counts)
        n = check_deltas(d, counts, 40)
        print("ok: %d transactions aborted and rolled back; %d deltas, each exactly once; state "
              "equals ratingctl rate" % (aborted, n))
    finally:
        del os.environ["RATINGD_FAULT_ABORT_EVERY"]
        d.stop()


def case_sigterm():
    d = Ratingd("term", ["--snapshot-interval=1h"])
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = generate_jsonl(path, 2000, pools=3, agents=20, seed=4)
        d.start()
        produce(path, d.topics["results"])
        d.wait_for_results(counts)
        start = time.time()
        d.signal(signal.SIGTERM)
        code = d.wait(15)
        took = time.time() - start
        check(code == 0, "exit status %d after SIGTERM:\n%s" % (code, d.log()))
        check(took < 10, "took %.1f s to stop" % took)
        snaps = os.listdir(os.path.join(d.dir, "snapshots"))
        check(len([s for s in snaps if s.endswith(".snapshot")]) >= 1, "no snapshot: %s" % snaps)
        d.start()  # restores from the shutdown snapshot: nothing to replay
        d.wait_for_results(counts, timeout=30)
        check(d.metric("ratingd_records_consumed_total") == 0,
              "replayed records after a clean shutdown")
        compare_with_rate(d, path, counts, models=("elo", "sco"))
        # A second signal during the drain exits at once (status 130), without a snapshot.
        start = time.time()
        d.signal(signal.SIGTERM)
        d.signal(signal.SIGINT)
        code = d.wait(15)
        check(code == 130, "second signal: exit status %d, expected 130" % code)
        check(time.time() - start < 1.0, "second signal took %.2f s" % (time.time() - start))
        print("ok: SIGTERM exits 0 in %.1f s with a snapshot; restart resumes without replay; "
              "a second signal exits at once" % took)
    finally:
        d.stop()


def case_prometheus():
    d = Ratingd("prom")
    env = dict(os.environ, PROM_DIR=os.path.join(d.dir, "prometheus"),
               PROM_TARGET="127.0.0.1:%d" % d.metrics_port, PROM_JOB="ratingd")
    run = ARGS.prometheus_sh
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = generate_jsonl(path, 300, pools=2, agents=8, seed=6)
        d.start()
        produce(path, d.topics["results"])
        d.wait_for_results(counts)
        lint = subprocess.run(["promtool", "check", "metrics"], input=d.metrics(),
                              capture_output=True, text=True)
        check(lint.returncode == 0, "promtool check metrics:\n" + lint.stdout + lint.stderr)
        subprocess.run(["bash", run, "start", "wait"], env=env, check=True, stdout=subprocess.DEVNULL)
        url = subprocess.run(["bash", run, "url"], env=env, check=True, capture_output=True,
                             text=True).stdout.strip()
        deadline = time.time() + 60
        value = None
        while time.time() < deadline:
            status, body = http(url + "/api/v1/query?query=ratingd_results_applied_total")
            if status == 200:
                result = json.loads(body)["data"]["result"]
                if result:
                    value = float(result[0]["value"][1])
                    if value == 300:
                        break
            time.sleep(0.5)
        check(value == 300, "Prometheus saw ratingd_results_applied_total=%s" % value)
        status, body = http(url + "/api/v1/query?query=" +
                            urllib.request.quote('up{job="ratingd"}'))
        check(json.loads(body)["data"]["result"][0]["value"][1] == "1", "up != 1")
        print("ok: a real Prometheus scrapes ratingd; promtool check metrics passes")
    finally:
        subprocess.run(["bash", run, "stop"], env=env)
        d.stop()


CASES = {
    "state_equals_rate": case_state_equals_rate,
    "dlq": case_dlq,
    "duplicates": case_duplicates,
    "kill_restart": case_kill_restart,
    "abort_rollback": case_abort_rollback,
    "sigterm": case_sigterm,
    "prometheus": case_prometheus,
}


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--ratingd", required=True)
    parser.add_argument("--ratingctl", required=True)
    parser.add_argument("--prometheus-sh", default="")
    ARGS = parser.parse_args()
    CASES[ARGS.case]()


if __name__ == "__main__":
    main()
