#!/usr/bin/env python3
"""The reliability cases about what arrives (reliability_it.py runs them):
invalid_sustained (every invalid-input class and random bytes among valid results) and
stale_leaderboards (results just before an eager rebalance still get their leaderboard).
Each ends with the exactly-once check of the deltas and the comparison with `ratingctl rate`
(reliability_lib.py). Python standard library only.
"""

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
import it_harness as it  # noqa: E402
from it_harness import check  # noqa: E402
from reliability_lib import (  # noqa: E402
    T0, Instance, compare_all, create_topic, exactly_once, expected_deltas, log, read_deltas,
    start_producer, total, wait_all_results, wait_producer)


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
    rng = random.Random(it.ARGS.seed)
    d = Instance("invalid", ["--ml-solve-every=%d" % every, "--ml-solve-min-interval=0"])
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
        counts = it.generate_jsonl(path, n, pools=6, agents=20, seed=it.ARGS.seed)
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
    rng = random.Random(it.ARGS.seed)
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
