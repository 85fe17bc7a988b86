#!/usr/bin/env python3
"""The reliability cases in which ratingd or the broker fails (reliability_it.py runs them):
kills (SIGKILLs of one instance at random instants), broker_outage (the broker stopped
mid-stream, then resumed) and scale_out (2, then 3 instances in one group, one killed).
Each ends with the exactly-once check of the deltas and the comparison with `ratingctl rate`
(reliability_lib.py). Python standard library only.
"""

import collections
import json
import os
import random
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import it_harness as it  # noqa: E402
from it_harness import check  # noqa: E402
from reliability_lib import (  # noqa: E402
    Instance, Supervisor, compare_all, create_topic, exactly_once, log, start_producer, total,
    wait_all_results, wait_producer)


def case_kills():
    kills = int(os.environ.get("RELIABILITY_KILLS", "20"))
    every, rate, mean_gap = 40, 250, 4.5
    rng = random.Random(it.ARGS.seed)
    d = Instance("kills", ["--ml-solve-every=%d" % every, "--ml-solve-min-interval=0",
                           "--snapshot-interval=1s"])
    producer = None
    try:
        path = os.path.join(d.dir, "results.jsonl")
        n = max(3000, int(kills * mean_gap * rate))
        counts = it.generate_jsonl(path, n, pools=8, agents=30, seed=it.ARGS.seed)
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
        new_producers = sum(open(os.path.join(d.dir, "ratingd.%d.log" % r)).read().count(
            "asking again with a new producer") for r in range(1, d.runs + 1))
        check_compacted_segments(d.topics["snapshots"], "8388608")
        check_compacted_segments(d.topics["leaderboards"], "33554432")
        print("ok: %d SIGKILLs at random instants (seed %d), %d results in 8 pools: every delta "
              "exactly once (%d), state equals ratingctl rate; %d restarts asked for their "
              "producer id again with a new producer" % (kills, it.ARGS.seed, n, n_deltas,
                                                           new_producers))
    finally:
        if producer and producer.poll() is None:
            producer.kill()
        d.stop()


def check_compacted_segments(topic, segment_bytes):
    """The compacted topic ratingd created rolls its segments each minute and at
    `segment_bytes` (docs/ARCHITECTURE.md §5.2): Kafka's own ConfigCommand describes it."""
    libs = os.environ.get("KAFKA_LIBS", os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "..", "build", "kafka-libs"))
    out = subprocess.run(["java", "-cp", os.path.join(libs, "*"), "kafka.admin.ConfigCommand",
                          "--bootstrap-server", it.bootstrap(), "--describe", "--entity-type",
                          "topics", "--entity-name", topic],
                         capture_output=True, text=True, timeout=120).stdout
    for setting in ("segment.ms=60000 ", "segment.bytes=%s " % segment_bytes,
                    "cleanup.policy=compact "):
        check(setting in out, "%s: no %s in its configs:\n%s" % (topic, setting, out))


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
    d = Instance("outage", ["--ml-solve-every=%d" % every, "--ml-solve-min-interval=0",
                            "--snapshot-interval=2s"])
    producer = supervisor = None
    try:
        path = os.path.join(d.dir, "results.jsonl")
        n = int(rate * (before + outage + after))
        counts = it.generate_jsonl(path, n, pools=6, agents=30, seed=it.ARGS.seed)
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
    extra = ["--ml-solve-every=%d" % every, "--ml-solve-min-interval=0", "--snapshot-interval=2s",
             "--kafka=session.timeout.ms=6000"]
    first = Instance("scale%d" % count, extra, partitions=6)
    group = [first] + [Instance("", extra, partitions=6, peer=first, index=i)
                       for i in range(1, count)]
    producer = None
    try:
        path = os.path.join(first.dir, "results.jsonl")
        counts = it.generate_jsonl(path, n, pools=12, agents=25, seed=it.ARGS.seed + count)
        create_topic(first.topics["results"], 6)
        # One after the other: each newcomer takes partitions from those already running
        # (scale-up), whose gauges for them must go (check_gauge_owners).
        for d in group:
            d.spawn()
            d.wait_ready()
        producer = start_producer(path, first.topics["results"], rate)
        time.sleep(n / rate * 0.35)
        # Every instance holds some pools; one asked for a pool another holds answers it from
        # the leaderboards topic, and says so.
        held = {d: set(d.pools_or_none() or {}) for d in group}
        log("pools held: %s" % {d.instance_id: len(p) for d, p in held.items()})
        a = group[0]
        others = sorted(set().union(*(held[d] for d in group[1:])) - held[a])
        check(others, "no pool held by another instance than %s: %s" % (a.instance_id, held))
        status, body = it.http("http://127.0.0.1:%d/v1/pools/%s/leaderboard?model=elo" %
                               (a.http_port, others[0]))
        check(status == 200 and json.loads(body)["owner"] is False,
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
    rng = random.Random(it.ARGS.seed)
    failed = []
    for count in (2, 3):
        try:
            scale_out(count, rng)
        except SystemExit as e:  # fail(): run the other group size too, then fail
            if e.code:
                failed.append(count)
    check(not failed, "scale_out failed with %s instances" % failed)
