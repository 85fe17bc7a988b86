#!/usr/bin/env python3
"""Processes and checks shared by the cases of reliability_it.py: ratingd
instances (scale-out peers, SIGKILL, restart), a supervisor that restarts instances exiting
on their own, the streaming producer, and the read_committed exactly-once checker with the
comparison against `ratingctl rate`. Python standard library only; the lower-level helpers
are it_harness.py's.
"""

import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import it_harness as it  # noqa: E402
from it_harness import check, fail  # noqa: E402

# ratingd's models by default (--models); a case keeping fewer passes its own.
MODELS = ("elo", "sco", "ml")
# Unique per run, so a case can run again against the same broker (topics persist).
RUN = "%x" % (int(time.time() * 1000) % 0xFFFFFFF)
T0 = time.time()


def log(message):
    print("[%7.1f s] %s" % (time.time() - T0, message), flush=True)


# ---------------------------------------------------------------------------------------
# Processes


class Instance(it.Ratingd):
    """One ratingd; `peer` shares its topics and group (scale-out), `index` names it."""

    def __init__(self, name, extra=(), partitions=4, peer=None, index=0):
        super().__init__("%s-%s" % (name, RUN) if peer is None else peer.name, extra)
        if peer is not None:
            self.topics = peer.topics
            self.group = peer.group
        else:
            self.topics["snapshots"] = "it.%s.snapshots" % self.name  # one per group
        self.instance_id = "it-%s-%d" % (self.name, index)
        self.index = index
        self.partitions = partitions
        self.exits = []  # exit statuses of runs that ended without our SIGKILL

    def args(self):
        return super().args() + ["--snapshots-topic=" + self.topics["snapshots"]]

    def spawn(self):
        """Starts a run without waiting for readiness."""
        self.runs += 1
        out = open(os.path.join(self.dir, "ratingd.%d.log" % self.runs), "w")
        self.proc = subprocess.Popen(self.args(), stdout=out, stderr=subprocess.STDOUT)
        self.spawned = time.time()

    def ready(self):
        return it.http("http://127.0.0.1:%d/readyz" % self.http_port, timeout=2)[0] == 200

    def wait_ready(self, timeout=90):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                fail("%s exited with %d:\n%s" %
                     (self.instance_id, self.proc.returncode, self.log()))
            if self.ready():
                return
            time.sleep(0.1)
        fail("%s not ready after %d s:\n%s" % (self.instance_id, timeout, self.log()))

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def supervise(self):
        """What a supervisor does: restart a run that exited. True if it restarted one."""
        if self.proc.poll() is None:
            return False
        self.exits.append(self.proc.returncode)
        log("%s run %d exited with %d; restarting. Log tail:\n%s" %
            (self.instance_id, self.runs, self.proc.returncode, self.log()[-1500:]))
        self.spawn()
        return True

    def scrape(self):
        """{metric name with labels: value} of /metrics, or None if it does not answer."""
        status, body = it.http("http://127.0.0.1:%d/metrics" % self.metrics_port, timeout=3)
        if status != 200:
            return None
        values = {}
        for line in body.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                values[name] = float(value)
        return values

    def pools_or_none(self):
        status, body = it.http("http://127.0.0.1:%d/v1/pools" % self.http_port, timeout=10)
        if status != 200:
            return None
        return {p["pool"]: int(p["results"]) for p in json.loads(body)["pools"] if p["owner"]}


class Supervisor(threading.Thread):
    """Restarts an instance whenever its run exits (after 1 s, like systemd's
    Restart=on-failure RestartSec=1), until stop()."""

    def __init__(self, instance):
        super().__init__(daemon=True)
        self.instance = instance
        self.halt = threading.Event()

    def run(self):
        while not self.halt.wait(0.5):
            if self.instance.proc.poll() is not None:
                time.sleep(1)
                self.instance.supervise()

    def stop(self):
        self.halt.set()
        self.join()


def total(scrape, name, **labels):
    """Sum of the samples of `name` whose labels include `labels`."""
    if scrape is None:
        return None
    want = ['%s="%s"' % kv for kv in labels.items()]
    return sum(v for k, v in scrape.items()
               if (k == name or k.startswith(name + "{")) and all(w in k for w in want))


def create_topic(name, partitions):
    p = subprocess.run(["bash", os.environ["KAFKA_BROKER_SH"], "topic", name, str(partitions)],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "creating topic %s: %s" % (name, p.stderr))


def start_producer(path, topic, rate):
    """`ratingctl produce` in the background (idempotent producer, keyed by pool)."""
    err = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen([it.ARGS.ratingctl, "produce", "--brokers=" + it.bootstrap(),
                             "--topic=" + topic, "--input=" + path, "--rate=%g" % rate],
                            stdout=subprocess.DEVNULL, stderr=err)
    proc.err = err
    return proc


def wait_producer(proc, timeout):
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("ratingctl produce did not finish within %d s" % timeout)
    proc.err.seek(0)
    check(code == 0, "ratingctl produce: exit %d\n%s" % (code, proc.err.read()[-2000:]))


def wait_all_results(instances, counts, timeout):
    """Until the instances together hold every pool with its count (each pool on one)."""
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got, holders = {}, {}
        for d in instances:
            for pool, n in (d.pools_or_none() or {}).items():
                got[pool] = got.get(pool, 0) + n
                holders.setdefault(pool, []).append(d)
        if got == counts and all(len(h) == 1 for h in holders.values()):
            return {pool: h[0] for pool, h in holders.items()}
        time.sleep(0.25)
    fail("results per pool: got %s, expected %s\n%s" %
         (got, counts, "\n".join(d.log()[-1500:] for d in instances)))


# ---------------------------------------------------------------------------------------
# Checks


def expected_deltas(counts, ml_every, models=MODELS):
    """{(pool, model, sequence): results of the pool after that delta}, for the models kept
    (ratingd --models)."""
    out = {}
    for pool, n in counts.items():
        for model in ("elo", "sco"):
            if model in models:
                for s in range(1, n + 1):
                    out[(pool, model, s)] = s
        if "ml" in models:
            for s in range(1, n // ml_every + 1):
                out[(pool, "ml", s)] = s * ml_every
    return out


def read_deltas(topic, expected):
    """One read_committed pass; retried while deltas are missing, since a transaction left
    open by a killed instance holds the partition's last stable offset until the broker
    aborts it (ratingd's transaction.timeout.ms, plus the broker's 10 s abort check)."""
    deadline = time.time() + 90
    while True:
        started = time.time()
        deltas = it.tail(topic, "deltas", idle="6s")
        keys = {(d["pool"], d["model"], int(d["sequence"])) for d in deltas}
        missing = len(set(expected) - keys)
        if missing == 0 or time.time() > deadline:
            return deltas, started
        log("read_committed: %d of %d deltas missing; reading again" % (missing, len(expected)))
        time.sleep(5)


def exactly_once(topic, counts, ml_every, summary, since=None, models=MODELS):
    """The read_committed checker: every expected (pool, model, sequence) exactly once.
    Prints the counts; returns (deltas read, failure message or None) so that the state
    comparison still runs (and says whether the state is right) before the test fails."""
    expected = expected_deltas(counts, ml_every, models)
    deltas, complete = read_deltas(topic, expected)
    if since is not None:
        summary += " complete_for_read_committed_after=%.0fs" % (complete - since)
    seen = collections.Counter()
    first = {}
    differing, wrong_results = [], []
    for d in deltas:
        key = (d["pool"], d["model"], int(d["sequence"]))
        seen[key] += 1
        text = json.dumps(d, sort_keys=True)
        if first.setdefault(key, text) != text:
            differing.append(key)
        if key in expected and int(d["results"]) != expected[key]:
            wrong_results.append((key, d["results"]))
    lost = sorted(set(expected) - set(seen))
    unexpected = sorted(set(seen) - set(expected))
    duplicated = sum(n - 1 for n in seen.values())
    dup_keys = sorted(k for k, n in seen.items() if n > 1)
    print("%s results=%d deltas=%d lost=%d duplicated=%d unexpected=%d" %
          (summary, sum(counts.values()), len(deltas), len(lost), duplicated, len(unexpected)),
          flush=True)
    by_model = collections.Counter(k[1] for k in dup_keys)
    if dup_keys:
        print("  duplicated keys: %d (%s), e.g. %s" %
              (len(dup_keys), dict(by_model), dup_keys[:8]))
        print("  re-emitted with different content: %d, e.g. %s" % (len(differing), differing[:5]))
    if lost:
        print("  lost, e.g. %s" % lost[:10])
    if unexpected:
        print("  unexpected, e.g. %s" % unexpected[:10])
    if wrong_results:
        print("  results field not what the sequence implies, e.g. %s" % wrong_results[:5])
    failure = None
    if lost or duplicated or unexpected or wrong_results:
        failure = "not exactly once: lost=%d duplicated=%d unexpected=%d wrong_results=%d" % (
            len(lost), duplicated, len(unexpected), len(wrong_results))
    return len(deltas), failure


def compare_all(holders, path, models=MODELS):
    """Every pool's leaderboard (elo, sco, ml, or the models kept) from the instance holding
    it equals `ratingctl rate` on the same file (it_harness.compare_with_rate)."""
    by_instance = collections.defaultdict(list)
    for pool, d in holders.items():
        by_instance[d].append(pool)
    for d, pools in by_instance.items():
        it.compare_with_rate(d, path, sorted(pools), models=models)
    print("  state: %d pools x (%s) equal ratingctl rate" % (len(holders), ", ".join(models)),
          flush=True)
