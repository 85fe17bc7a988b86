#!/usr/bin/env python3
"""Reliability suite of ratingd against a real Kafka broker.

    reliability_it.py CASE --ratingd BIN --ratingctl BIN [--seed N]

Cases (each its own topics, group, ports and snapshot folders; the broker is the CTest
fixture `kafka`, $KAFKA_DIR/bootstrap):
  kills              RELIABILITY_KILLS (default 20) SIGKILLs of one ratingd at random instants
                     while a producer streams, restart after each
  broker_outage      the broker stopped for RELIABILITY_OUTAGE_SECONDS (default 32) mid-stream,
                     then resumed on the same data and port (broker.sh stop / resume)
  scale_out          2, then 3 instances in one group; one killed mid-stream, not restarted
  invalid_sustained  every invalid-input class and random bytes, interleaved with valid
                     results for RELIABILITY_INVALID_SECONDS (default 20)
  stale_leaderboards 2 instances, 6 pools one per partition (elo, sco); 100 results per
                     pool, then 50 more within --leaderboard-interval (10 s), then a third
                     instance joins (eager rebalance): interval + 5 s after the input
                     stopped, every (pool, model) key's last leaderboard agrees with its
                     last delta (results count and sequence)

Every case ends with the same two checks. (1) A read_committed reader (`ratingctl tail`) of
the deltas topic sees every (pool, model, sequence) exactly once: elo and sco sequences
1..n for a pool of n results, ml sequences 1..n/every (the delta of sequence s carries
s*every results); lost, duplicated and unexpected deltas are counted and printed.
(2) Every pool's leaderboard over HTTP equals `ratingctl rate` on the same input (the offline
replay of the same library, docs/CONTRACTS.md §2), as in ratingd_it.py. Expected values come
from the input's construction (counts per pool, the invalid records sent) and from `ratingctl rate`.
Python standard library only; processes and the checker are in reliability_lib.py, the
lower-level helpers in ratingd_it.py.
"""

import argparse
import base64
import calendar
import collections
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ratingd_it as it  # noqa: E402
from ratingd_it import check  # noqa: E402
from reliability_lib import (RUN, T0, Instance, Supervisor, compare_all, create_topic,  # noqa: E402
                             exactly_once, expected_deltas, log, read_deltas, start_producer,
                             total, wait_all_results, wait_producer)

ARGS = None


# ---------------------------------------------------------------------------------------
# Cases


def case_kills():
    kills = int(os.environ.get("RELIABILITY_KILLS", "20"))
    every, rate, mean_gap = 40, 250, 4.5
    rng = random.Random(ARGS.seed)
    d = Instance("kills", ["--ml-solve-every=%d" % every, "--snapshot-interval=1s"])
    producer = None
    try:
        path = os.path.join(d.dir, "results.jsonl")
        n = max(3000, int(kills * mean_gap * rate))
        counts = it.generate_jsonl(path, n, pools=8, agents=30, seed=ARGS.seed)
        create_topic(d.topics["results"], 4)
        d.spawn()
        d.wait_ready()
        producer = start_producer(path, d.topics["results"], rate)
        states = collections.Counter()
        ready_after = []  # seconds from spawn to /readyz 200
        for i in range(kills):
            # A random instant of the run: one kill in four within its first 1.5 s (start-up,
            # restore, replay), the others 0.2-3 s after it is ready, while it processes.
            if rng.random() < 0.25:
                time.sleep(max(0.0, d.spawned + rng.uniform(0.05, 1.5) - time.time()))
            else:
                d.wait_ready()
                ready_after.append(time.time() - d.spawned)
                time.sleep(rng.uniform(0.2, 3.0))
            if d.proc.poll() is not None:
                d.exits.append(d.proc.returncode)
                log("run %d had exited with %d by itself:\n%s" %
                    (d.runs, d.proc.returncode, d.log()[-1500:]))
            else:
                states["ready" if d.ready() else "not ready"] += 1
                if producer.poll() is not None:
                    states["after the stream ended"] += 1
                d.kill9()
            d.spawn()
        ready_after.sort()
        log("%d kills done (%s); restart to ready: median %.1f s, max %.1f s; waiting for the "
            "producer" % (kills, dict(states), ready_after[len(ready_after) // 2] if ready_after
                          else 0, max(ready_after, default=0)))
        wait_producer(producer, timeout=n / rate + 120)
        d.wait_ready()
        holders = wait_all_results([d], counts, timeout=180)
        log("all results applied")
        n_deltas, failure = exactly_once(d.topics["deltas"], counts, every,
                                "kills=%d (%s)" % (kills, ", ".join(
                                    "%d %s" % (v, k) for k, v in sorted(states.items()))))
        compare_all(holders, path)
        check(failure is None, failure)
        check(not d.exits, "runs exited by themselves with %s" % d.exits)
        print("ok: %d SIGKILLs at random instants (seed %d), %d results in 8 pools: every delta "
              "exactly once (%d), state equals ratingctl rate" % (kills, ARGS.seed, n, n_deltas))
    finally:
        if producer and producer.poll() is None:
            producer.kill()
        d.stop()


def broker(*commands):
    p = subprocess.run(["bash", os.environ["KAFKA_BROKER_SH"]] + list(commands),
                       capture_output=True, text=True, timeout=180)
    check(p.returncode == 0, "broker.sh %s: %s" % (" ".join(commands), p.stderr[-3000:]))


def broker_running():
    pid_file = os.path.join(os.environ["KAFKA_DIR"], "broker.pid")
    return os.path.exists(pid_file)


def case_broker_outage():
    outage = float(os.environ.get("RELIABILITY_OUTAGE_SECONDS", "32"))
    every, rate, before, after = 40, 150, 12, 15
    d = Instance("outage", ["--ml-solve-every=%d" % every, "--snapshot-interval=2s"])
    producer = supervisor = None
    try:
        path = os.path.join(d.dir, "results.jsonl")
        n = int(rate * (before + outage + after))
        counts = it.generate_jsonl(path, n, pools=6, agents=30, seed=ARGS.seed)
        create_topic(d.topics["results"], 4)
        d.spawn()
        d.wait_ready()
        supervisor = Supervisor(d)
        supervisor.start()
        producer = start_producer(path, d.topics["results"], rate)
        time.sleep(before)
        base = d.scrape()
        check(base is not None, "no /metrics before the outage")
        log("stopping the broker; applied so far %d, kafka errors %d" %
            (total(base, "ratingd_results_applied_total"),
             total(base, "ratingd_kafka_errors_total")))
        t_stop = time.time()
        broker("stop")
        t_down = time.time()
        log("broker stopped (took %.1f s); outage of %.0f s" % (t_down - t_stop, outage))
        scrapes, health, reads = [], collections.Counter(), collections.Counter()
        while time.time() < t_down + outage:
            s = d.scrape()
            if s is not None:
                scrapes.append((time.time() - t_down, d.runs, s))
            health[it.http("http://127.0.0.1:%d/healthz" % d.http_port, timeout=2)[0]] += 1
            reads[it.http("http://127.0.0.1:%d/v1/pools" % d.http_port, timeout=3)[0]] += 1
            time.sleep(1)
        check(producer.poll() is None, "the stream ended during the outage")
        address = it.bootstrap()
        broker("resume", "wait")
        # Same address and data (the deltas of before the outage are read back below).
        check(it.bootstrap() == address, "the broker came back at %s, not %s" %
              (it.bootstrap(), address))
        log("broker resumed after %.1f s down" % (time.time() - t_down))
        deadline = time.time() + n / rate + 180
        while producer.poll() is None and time.time() < deadline:
            s = d.scrape()
            if s is not None:
                scrapes.append((time.time() - t_down, d.runs, s))
            time.sleep(1)
        wait_producer(producer, timeout=10)
        holders = wait_all_results([d], counts, timeout=180)
        supervisor.stop()
        log("all results applied")

        # What the alerts and the dashboards see (from the same run's scrapes only).
        during = [s for (t, run, s) in scrapes if 0 <= t <= outage and run == 1]
        for name in ("ratingd_kafka_errors_total", "ratingd_results_applied_total",
                     "ratingd_consumer_lag_records", "ratingd_ready",
                     "ratingd_transactions_total"):
            values = [total(s, name) for s in during]
            print("  %s during the outage (run 1): %s" %
                  (name, "%s -> %s (max %s)" % (values[0], values[-1], max(values))
                   if values else "no scrape"))
        print("  healthz during the outage: %s; GET /v1/pools: %s (0: no answer in 3 s); "
              "runs: %d; exits: %s" % (dict(health), dict(reads), d.runs, d.exits or "none"))
        supervised = "kept running" if not d.exits else "exited %s and was restarted" % d.exits
        n_deltas, failure = exactly_once(d.topics["deltas"], counts, every,
                                "outage=%.0fs daemon %s" % (outage, supervised))
        compare_all(holders, path)
        check(failure is None, failure)
        # The outage shows in the metrics while it lasts: Kafka errors counted, transactions
        # aborted or consumer lag up; and nothing applied while the broker was down (the
        # stall alert's rate(ratingd_results_applied_total) == 0).
        check(during, "no /metrics scrape of the first run during the outage")

        def rise(name, **labels):
            return total(during[-1], name, **labels) - total(base, name, **labels)

        errors = rise("ratingd_kafka_errors_total")
        aborted = rise("ratingd_transactions_total", outcome="aborted")
        lag = max(total(s, "ratingd_consumer_lag_records") for s in during) - \
            total(base, "ratingd_consumer_lag_records")
        first_after = [s for (t, run, s) in scrapes if t > outage and run == 1][:1]
        errors_after = (total(first_after[0], "ratingd_kafka_errors_total") -
                        total(base, "ratingd_kafka_errors_total")) if first_after else None
        print("  while the broker was down: kafka_errors_total +%d, aborted transactions +%d, "
              "consumer lag +%d; first scrape after it came back: kafka_errors_total +%s" %
              (errors, aborted, lag, errors_after))
        # The RatingdCommitsStalled alert's metric: time since the last commit point, read
        # from the last scrape of the outage (the exposer answers even while the consumer
        # loop is blocked in a transactional call).
        last = [(t, s) for (t, run, s) in scrapes if 0 <= t <= outage and run == 1][-1]
        commit_age = t_down + last[0] - total(last[1], "ratingd_last_commit_timestamp_seconds")
        print("  time since the last commit at the last scrape of the outage: %.1f s" % commit_age)
        check(errors > 0 or aborted > 0 or lag > 0 or commit_age >= outage / 2,
              "the metrics did not show the outage while it lasted (%d scrapes over %.0f s): "
              "kafka_errors_total +%d, aborted transactions +%d, consumer lag +%d, last commit "
              "%.1f s before the last scrape" %
              (len(during), outage, errors, aborted, lag, commit_age))
        late = [s for (t, run, s) in scrapes if 5 <= t <= outage and run == 1]
        if len(late) >= 2:
            stalled = total(late[-1], "ratingd_results_applied_total") - \
                total(late[0], "ratingd_results_applied_total")
            check(stalled == 0, "%d results applied while the broker was down" % stalled)
        print("ok: broker down %.0f s mid-stream (%d results): daemon %s, kafka_errors_total "
              "+%d, every delta exactly once (%d), state equals ratingctl rate" %
              (outage, n, supervised, errors, n_deltas))
    finally:
        if supervisor:
            supervisor.stop()
        if not broker_running():  # never leave the shared fixture broker down
            broker("resume", "wait")
        if producer and producer.poll() is None:
            producer.kill()
        d.stop()


def check_gauge_owners(instances, pools):
    """After rebalances, each partition's lag and each pool's agent count is exported by one
    instance only: a handed-over partition's gauges do not stay behind, frozen. Gauges are
    refreshed about every second, so a missing one is waited for up to 10 s; a duplicate
    does not go away by waiting (it fails at the deadline too)."""
    deadline = time.time() + 10
    while True:
        lag, agents = {}, {}
        for d in instances:
            for key in d.scrape() or {}:
                for name, owners, label in (("ratingd_consumer_lag_records", lag, "partition"),
                                            ("ratingd_pool_agents", agents, "pool")):
                    if key.startswith(name + "{"):
                        value = key.split(label + '="', 1)[1].split('"', 1)[0]
                        owners.setdefault(value, []).append(d.instance_id)
        ok_lag = (sorted(lag) == [str(p) for p in range(6)] and
                  all(len(o) == 1 for o in lag.values()))
        ok_agents = sorted(agents) == sorted(pools) and all(len(o) == 1 for o in agents.values())
        if (ok_lag and ok_agents) or time.time() > deadline:
            break
        time.sleep(0.5)
    check(ok_lag, "ratingd_consumer_lag_records by partition: %s" % lag)
    check(ok_agents, "ratingd_pool_agents by pool: %s" % agents)


def scale_out(count, rng):
    every, rate, n = 40, 300, 9000
    extra = ["--ml-solve-every=%d" % every, "--snapshot-interval=2s",
             "--kafka=session.timeout.ms=6000"]
    first = Instance("scale%d" % count, extra, partitions=6)
    group = [first] + [Instance("", extra, partitions=6, peer=first, index=i)
                       for i in range(1, count)]
    producer = None
    try:
        path = os.path.join(first.dir, "results.jsonl")
        counts = it.generate_jsonl(path, n, pools=12, agents=25, seed=ARGS.seed + count)
        create_topic(first.topics["results"], 6)
        # One after the other: each newcomer takes partitions from those already running
        # (scale-up), whose gauges for them must go (check_gauge_owners).
        for d in group:
            d.spawn()
            d.wait_ready()
        producer = start_producer(path, first.topics["results"], rate)
        time.sleep(n / rate * 0.35)
        # Every instance holds some pools; one asked for a pool another holds says so.
        held = {d: set(d.pools_or_none() or {}) for d in group}
        log("pools held: %s" % {d.instance_id: len(p) for d, p in held.items()})
        a = group[0]
        others = sorted(set().union(*(held[d] for d in group[1:])) - held[a])
        check(others, "no pool held by another instance than %s: %s" % (a.instance_id, held))
        status, body = it.http("http://127.0.0.1:%d/v1/pools/%s/leaderboard?model=elo" %
                               (a.http_port, others[0]))
        check(status == 404 and "not held by this instance" in body,
              "pool %s held elsewhere: %d %s" % (others[0], status, body))
        victim = group[rng.randrange(count)]
        survivors = [d for d in group if d is not victim]
        check(producer.poll() is None, "the stream ended before the kill")
        victim.kill9()
        t_kill = time.time()
        log("killed %s (held %d pools)" % (victim.instance_id, len(held[victim])))
        # The survivors take its partitions once the group notices (session.timeout.ms).
        moved = None
        while time.time() < t_kill + 120:
            parts = [total(d.scrape(), "ratingd_assigned_partitions") for d in survivors]
            if None not in parts and sum(parts) == 6 and all(d.ready() for d in survivors):
                moved = time.time() - t_kill
                break
            time.sleep(0.25)
        check(moved is not None, "survivors did not take all 6 partitions within 120 s")
        log("survivors hold all 6 partitions and are ready %.1f s after the kill" % moved)
        wait_producer(producer, timeout=n / rate + 120)
        holders = wait_all_results(survivors, counts, timeout=240)
        log("all results applied")
        for d in survivors:
            check(d.proc.poll() is None, "%s exited:\n%s" % (d.instance_id, d.log()))
        check_gauge_owners(survivors, counts)
        n_deltas, failure = exactly_once(first.topics["deltas"], counts, every,
                                "instances=%d killed=1 partitions_moved_in=%.1fs" % (count, moved),
                                since=t_kill)
        compare_all(holders, path)
        check(failure is None, failure)
        print("ok: %d instances, %s killed mid-stream: its partitions moved in %.1f s, every "
              "delta exactly once (%d), every pool equals ratingctl rate" %
              (count, victim.instance_id, moved, n_deltas))
    finally:
        if producer and producer.poll() is None:
            producer.kill()
        for d in group:
            d.stop()


def case_scale_out():
    rng = random.Random(ARGS.seed)
    failed = []
    for count in (2, 3):
        try:
            scale_out(count, rng)
        except SystemExit as e:  # fail(): run the other group size too, then fail
            if e.code:
                failed.append(count)
    check(not failed, "scale_out failed with %s instances" % failed)


# kcat splits its input on these (binary values may hold any byte; checked absent below).
KCAT_KEY = b"\x1dRDKEY\x1c"
KCAT_END = b"\x1eRDEND\x1f"


def kcat_batch(topic, records):
    """Produces [(key, value)] with one kcat run."""
    data = b""
    for key, value in records:
        check(KCAT_KEY not in value and KCAT_END not in value and value, "delimiter in value")
        data += key.encode() + KCAT_KEY + value + KCAT_END
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
    p = subprocess.run(["kcat", "-P", "-b", it.bootstrap(), "-t", topic, "-z", "none",
                        "-K", KCAT_KEY.decode("latin-1"), "-D", KCAT_END.decode("latin-1"),
                        "-l", f.name], capture_output=True, text=True, timeout=60)
    os.unlink(f.name)
    check(p.returncode == 0 and not p.stderr.strip(), "kcat: %d %s" % (p.returncode, p.stderr))


def case_invalid_sustained():
    seconds = float(os.environ.get("RELIABILITY_INVALID_SECONDS", "20"))
    every, valid_rate, invalid_rate = 40, 100, 100
    rng = random.Random(ARGS.seed)
    d = Instance("invalid", ["--ml-solve-every=%d" % every])
    producer = None
    stop = threading.Event()
    health = collections.Counter()
    down = []

    def watch():  # /healthz every 0.2 s, and the process itself
        while not stop.is_set():
            status = it.http("http://127.0.0.1:%d/healthz" % d.http_port, timeout=2)[0]
            health[status] += 1
            if status != 200 or d.proc.poll() is not None:
                down.append((time.time() - T0, status, d.proc.poll()))
            stop.wait(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    try:
        path = os.path.join(d.dir, "results.jsonl")
        n = int(valid_rate * seconds)
        counts = it.generate_jsonl(path, n, pools=6, agents=20, seed=ARGS.seed)
        create_topic(d.topics["results"], 4)
        d.spawn()
        d.wait_ready()
        watcher.start()
        producer = start_producer(path, d.topics["results"], valid_rate)
        sent = []  # (reason or None for random bytes, key, value)
        drawn = set()
        i = 0
        start = time.time()
        while time.time() - start < seconds:
            batch = []
            for _ in range(int(invalid_rate / 2)):
                classes = it.invalid_cases(tag="-%d-" % i, pool="inv-pool")
                batch.append(classes[i % len(classes)])
                if i % 4 == 0:  # random bytes, unique (never a valid result: no key match)
                    value = b""
                    while not value or value in drawn:
                        value = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 96)))
                    drawn.add(value)
                    batch.append((None, "inv-pool", value))
                i += 1
            kcat_batch(d.topics["results"], [(k, v) for (_, k, v) in batch])
            sent += batch
            time.sleep(max(0.0, start + len(sent) / (invalid_rate * 1.25) - time.time()))
        log("sent %d invalid records in %.1f s" % (len(sent), time.time() - start))
        wait_producer(producer, timeout=n / valid_rate + 60)
        holders = wait_all_results([d], counts, timeout=120)
        deadline = time.time() + 60
        while time.time() < deadline and \
                total(d.scrape(), "ratingd_results_rejected_total") < len(sent):
            time.sleep(0.25)
        stop.set()
        watcher.join()
        rejected = total(d.scrape(), "ratingd_results_rejected_total")

        dead = it.tail(d.topics["dlq"], "dlq", idle="5s")
        seen = collections.Counter(base64.b64decode(r["value_base64"]) for r in dead)
        reasons = {base64.b64decode(r["value_base64"]): r["x-ratingd-reason"] for r in dead}
        values = collections.Counter(v for (_, _, v) in sent)
        check(max(values.values()) == 1, "the invalid values sent are not unique")
        missing = [(r, v[:24]) for (r, _, v) in sent if v not in seen]
        duplicated = sum(c - 1 for c in seen.values())
        unexpected = [v[:24] for v in seen if v not in values]
        wrong = [(r, reasons[v]) for (r, _, v) in sent if r and v in reasons and reasons[v] != r]
        by_class = collections.Counter(r or "random_bytes" for (r, _, _) in sent)
        print("invalid=%d (%d classes + random bytes) dlq=%d missing=%d duplicated=%d "
              "unexpected=%d wrong_reason=%d rejected_total=%d healthz=%s" %
              (len(sent), len(by_class) - 1, len(dead), len(missing), duplicated,
               len(unexpected), len(wrong), rejected, dict(health)), flush=True)
        check(not down, "daemon unhealthy or gone at (t, status, exit): %s" % down[:5])
        check(not missing, "not in the DLQ: %s" % missing[:5])
        check(not duplicated and not unexpected, "DLQ: %d duplicated, %d unexpected" %
              (duplicated, len(unexpected)))
        check(not wrong, "wrong reasons: %s" % wrong[:5])
        check(rejected == len(sent), "rejected_total %s != %d sent" % (rejected, len(sent)))
        n_deltas, failure = exactly_once(d.topics["deltas"], counts, every,
                                "invalid_sustained seconds=%.0f" % seconds)
        compare_all(holders, path)
        check(failure is None, failure)
        print("ok: %d invalid records over %.0f s (%s) all in the DLQ once with their reason; "
              "daemon healthy throughout; %d valid results applied, deltas exactly once (%d), "
              "state equals ratingctl rate" %
              (len(sent), seconds, dict(by_class), n, n_deltas))
    finally:
        stop.set()
        if producer and producer.poll() is None:
            producer.kill()
        d.stop()


# ratingctl produce keys each result by its pool with librdkafka's default partitioner,
# consistent_random: CRC-32 of the key modulo the partition count (zlib.crc32 is the same
# CRC-32 as librdkafka's rd_crc32).
def pools_one_per_partition(partitions, prefix):
    """{partition: pool name}: the first names prefix-0, prefix-1, ... that put one pool in
    each partition."""
    found, i = {}, 0
    while len(found) < partitions:
        name = "%s-%d" % (prefix, i)
        found.setdefault(zlib.crc32(name.encode()) % partitions, name)
        i += 1
    return found


def write_rounds(path, pools, rounds, first, agents, rng):
    """`rounds` results of each pool, pools interleaved, game ids from round `first` on;
    appended to path. 2-4 players, stronger with a higher index, some ties."""
    with open(path, "a") as f:
        for r in range(first, first + rounds):
            for pool in pools:
                players = rng.sample(range(agents), rng.randint(2, 4))
                players.sort(key=lambda a: -(a + rng.gauss(0, agents / 3)))
                standings, rank = [], 1
                for j, a in enumerate(players):
                    if j == 0 or rng.random() >= 0.1:  # else a tie with the previous agent
                        rank = j + 1
                    standings.append({"agent": "agent-%02d" % a, "rank": rank})
                f.write(json.dumps({"pool": pool, "game_id": "%s-g%04d" % (pool, r),
                                    "standings": standings}) + "\n")


def partitions_of_keys(topic):
    """{key: {partitions}} of every record in topic (kcat from the beginning to the end)."""
    p = subprocess.run(["kcat", "-C", "-b", it.bootstrap(), "-t", topic, "-e", "-q",
                        "-f", "%p %k\\n"], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, "kcat -C %s: %s" % (topic, p.stderr))
    out = collections.defaultdict(set)
    for line in p.stdout.splitlines():
        if line.strip():
            partition, key = line.split(" ", 1)
            out[key].add(int(partition))
    return out


def timestamp_seconds(text):
    """Seconds since the epoch of a protobuf JSON Timestamp (2026-11-25T18:53:00.123456Z)."""
    base, _, frac = text.rstrip("Z").partition(".")
    return calendar.timegm(time.strptime(base, "%Y-%m-%dT%H:%M:%S")) + float("0." + (frac or "0"))


def last_by_key(records, keys):
    """{(pool, model): the last record of that key in topic order} (one key, one partition)."""
    last = {}
    for r in records:
        if (r["pool"], r["model"]) in keys:
            last[(r["pool"], r["model"])] = r
    return last


def stale_keys(boards, deltas, keys):
    """[(key, its last leaderboard or None, its last delta)] where the last leaderboard does
    not carry the results count and sequence of the last delta."""
    last_board, last_delta = last_by_key(boards, keys), last_by_key(deltas, keys)
    out = []
    for key in sorted(keys):
        b, d = last_board.get(key), last_delta.get(key)
        if d is None:
            continue  # no delta at all: exactly_once() reports it
        if b is None or int(b["results"]) != int(d["results"]) or \
                int(b["sequence"]) != int(d["sequence"]):
            out.append((key, b, d))
    return out


def case_stale_leaderboards():
    """A pool whose last results were applied less than --leaderboard-interval before an
    eager rebalance moved its partition must still get a leaderboard of those results: the
    last leaderboard of every (pool, model) key agrees with its last delta once the input has
    stopped and one interval has passed."""
    interval, slack, rounds, more = 10.0, 5.0, 100, 50
    models = ("elo", "sco")
    rng = random.Random(ARGS.seed)
    extra = ["--models=" + ",".join(models), "--leaderboard-interval=%gs" % interval,
             "--kafka=session.timeout.ms=6000", "--kafka=heartbeat.interval.ms=500"]
    first = Instance("stale", extra, partitions=6)
    group = [first] + [Instance("", extra, partitions=6, peer=first, index=i) for i in (1, 2)]
    a, b, c = group
    try:
        by_partition = pools_one_per_partition(6, "stale")
        pools = [by_partition[p] for p in range(6)]
        keys = {(pool, m) for pool in pools for m in models}
        path = os.path.join(first.dir, "results.jsonl")  # the whole input, for ratingctl rate
        # rounds - 1 results per pool, 1 more that publishes the leaderboards at `rounds`
        # results, then `more` within the interval after it.
        parts = [os.path.join(first.dir, "results-%d.jsonl" % i) for i in (1, 2, 3)]
        for part, n, start in zip(parts, (rounds - 1, 1, more), (0, rounds - 1, rounds)):
            write_rounds(part, pools, n, start, 12, rng)
        with open(path, "w") as out:
            for part in parts:
                with open(part) as f:
                    out.write(f.read())
        create_topic(first.topics["results"], 6)
        for d in (a, b):  # b takes 3 of the 6 partitions from a
            d.spawn()
            d.wait_ready()
        deadline = time.time() + 60
        while time.time() < deadline:
            assigned = [total(d.scrape(), "ratingd_assigned_partitions") for d in (a, b)]
            if assigned == [3, 3] and a.ready() and b.ready():
                break
            time.sleep(0.25)
        check(assigned == [3, 3], "two instances, 6 partitions: assigned %s" % assigned)

        def published():
            return sum(total(d.scrape(), "ratingd_leaderboards_published_total") or 0
                       for d in (a, b))

        # 1. rounds - 1 results per pool. A key publishes a leaderboard when it has changed and
        # its previous one is at least one interval old: the last leaderboard of these results
        # comes at the latest one interval after they were applied, so two intervals after,
        # every key is up to date and free to publish at once.
        it.produce(parts[0], first.topics["results"])
        where = partitions_of_keys(first.topics["results"])
        check(sorted(where) == sorted(pools) and
              sorted(p for ps in where.values() for p in ps) == list(range(6)),
              "the pools are not one per partition: %s" % dict(where))
        check(all(where[by_partition[p]] == {p} for p in range(6)),
              "partitions differ from CRC-32 of the key: %s" % dict(where))
        wait_all_results([a, b], {pool: rounds - 1 for pool in pools}, timeout=60)
        log("%d results of 6 pools applied, one pool per partition: %s; waiting %.0f s for "
            "their leaderboards" % ((rounds - 1) * 6, {p: by_partition[p] for p in range(6)},
                                    2 * interval + 1))
        time.sleep(2 * interval + 1)
        # 2. One more result per pool: every key publishes its leaderboard at `rounds` results
        # at once (its interval has passed), and the next only one interval later.
        base = published()
        it.produce(parts[1], first.topics["results"])
        t_sent = time.time()
        deadline = t_sent + 30
        while time.time() < deadline and published() < base + len(keys):
            time.sleep(0.05)
        t_published = time.time()
        check(published() == base + len(keys), "leaderboards published after 1 more result per "
              "pool: %d, expected %d (1 per key)" % (published() - base, len(keys)))
        log("%d leaderboards published at %d results, %.1f s after the result" %
            (len(keys), rounds, t_published - t_sent))
        # 3. `more` results per pool, applied within the interval: held back until it ends.
        it.produce(parts[2], first.topics["results"])
        counts = {pool: rounds + more for pool in pools}
        before = wait_all_results([a, b], counts, timeout=60)
        t_applied = time.time()
        log("%d more results per pool applied %.1f s after those leaderboards" %
            (more, t_applied - t_published))

        # 4. A third instance joins: eager rebalance, every partition revoked, 2 each.
        c.spawn()
        deadline = time.time() + 60
        while time.time() < deadline:
            assigned = [total(d.scrape(), "ratingd_assigned_partitions") for d in group]
            if assigned == [2, 2, 2] and all(d.ready() for d in group):
                break
            time.sleep(0.1)
        t_moved = time.time()
        check(assigned == [2, 2, 2], "three instances, 6 partitions: assigned %s" % assigned)
        after = wait_all_results(group, counts, timeout=30)
        moved = sorted(pool for pool in pools if after[pool] is not before[pool])
        log("rebalanced %.1f s after the last results were applied: each instance holds 2 "
            "partitions; moved: %s" % (t_moved - t_applied, ", ".join(
                "%s (%s -> %s)" % (pool, before[pool].instance_id, after[pool].instance_id)
                for pool in moved)))
        check(moved, "no pool changed instance in the rebalance")

        # 5. The check: interval + slack after the input stopped (and slack after the
        # handover), every key's last leaderboard agrees with its last delta.
        # (ml_every 0: no ml model, no ml delta expected.)
        deltas, _ = read_deltas(first.topics["deltas"], expected_deltas(counts, 0, models))
        deadline = max(t_applied + interval, t_moved) + slack
        while True:
            started = time.time()
            boards = it.tail(first.topics["leaderboards"], "leaderboards", idle="3s")
            stale = stale_keys(boards, deltas, keys)
            if not stale or started >= deadline:
                break
            time.sleep(max(0.0, min(1.0, deadline - time.time())))
        # The case tests what it should only if the partitions moved while the last results'
        # leaderboards were still held back: before one interval after the leaderboard at
        # `rounds` results (computed_at is ratingd's clock, the same host's).
        at_rounds = {(x["pool"], x["model"]): timestamp_seconds(x["computed_at"])
                     for x in boards if (x["pool"], x["model"]) in keys and
                     int(x["results"]) == rounds}
        check(len(at_rounds) == len(keys), "leaderboards at %d results (before the %d more) "
              "only for %s" % (rounds, more, sorted(at_rounds)))
        held_until = min(at_rounds.values()) + interval
        print("stale_leaderboards: keys=%d stale=%d moved_pools=%d last read %.1f s after the "
              "input stopped; handover ended %.1f s before the held-back leaderboards were due" %
              (len(keys), len(stale), len(moved), started - t_applied, held_until - t_moved),
              flush=True)
        for key, board, delta in stale:
            print("  stale %s/%s: last leaderboard results=%s sequence=%s computed_at=%s; last "
                  "delta results=%s sequence=%s%s" %
                  (key[0], key[1], board and board["results"], board and board["sequence"],
                   board and board["computed_at"], delta["results"], delta["sequence"],
                   " (moved)" if key[0] in moved else ""), flush=True)
        n_deltas, failure = exactly_once(first.topics["deltas"], counts, 0,
                                         "stale_leaderboards", models=models)
        compare_all(after, path, models=models)
        check(failure is None, failure)
        check(t_moved < held_until,
              "the rebalance ended %.1f s after the held-back leaderboards were due: the case "
              "did not test a handover within the interval" % (t_moved - held_until))
        check(not stale, "%d of %d (pool, model) keys keep a leaderboard older than their last "
              "delta %.0f s after the input stopped: %s" %
              (len(stale), len(keys), started - t_applied,
               ", ".join("%s/%s %s<%s" % (k[0], k[1], bd and bd["results"], dl["results"])
                         for k, bd, dl in stale)))
        for d in group:
            check(d.proc.poll() is None, "%s exited:\n%s" % (d.instance_id, d.log()))
        print("ok: %d pools x (%s), %d results each, the last %d within --leaderboard-interval "
              "(%gs) of an eager rebalance that moved %d pools: every key's last leaderboard "
              "agrees with its last delta; every delta exactly once (%d), state equals "
              "ratingctl rate" % (len(pools), ", ".join(models), rounds + more, more, interval,
                                  len(moved), n_deltas))
    finally:
        for d in group:
            d.stop()


CASES = {
    "kills": case_kills,
    "broker_outage": case_broker_outage,
    "scale_out": case_scale_out,
    "invalid_sustained": case_invalid_sustained,
    "stale_leaderboards": case_stale_leaderboards,
}


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--ratingd", required=True)
    parser.add_argument("--ratingctl", required=True)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("RELIABILITY_SEED", "6")))
    ARGS = parser.parse_args()
    it.ARGS = ARGS
    log("case %s, seed %d, run %s, ratingd %s" % (ARGS.case, ARGS.seed, RUN, ARGS.ratingd))
    CASES[ARGS.case]()
    log("done")


if __name__ == "__main__":
    main()
