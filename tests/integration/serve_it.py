#!/usr/bin/env python3
"""Integration tests of what ratingd serves (docs/CONTRACTS.md §3.2) against a real Kafka
broker: the answers read from the committed views.

    serve_it.py CASE --ratingd BIN --ratingctl BIN

The broker is the CTest fixture `kafka`, as in ratingd_it.py; these cases use the processes
and helpers of it_harness.py. Expected values come from `ratingctl` on the same file (for ml, on the
results the last scheduled solve saw) and from the input's construction. Python standard
library only.
"""

import argparse
import calendar
import collections
import datetime
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import it_harness as it  # noqa: E402
import reliability_lib as rl  # noqa: E402
from it_harness import check  # noqa: E402

SUGGEST_FIELDS = ["committed_at", "pool", "sequence", "strategy", "suggestions"]


def case_suggest():
    """/v1/pools/{pool}/suggest returns the documented JSON, equals `ratingctl suggest` on
    the same results for every strategy (ml: on the results the ml leaderboard's solve saw,
    with that leaderboard's sequence), and changes nothing."""
    d = it.Ratingd("suggest")
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = it.generate_jsonl(path, 600, pools=2, agents=12, seed=5)
        d.start()
        it.produce(path, d.topics["results"])
        d.wait_for_results(counts)
        before = {p: d.get("/v1/pools/%s/leaderboard?model=elo" % p) for p in counts}
        asked = 0
        for pool, n in counts.items():
            for strategy in ("uniform", "ucb", "ml"):
                query = "strategy=%s&n=20&exploration=0.2&seed=5" % strategy
                live = d.get("/v1/pools/%s/suggest?%s" % (pool, query))
                seen, sequence = path, n
                if strategy == "ml":
                    board = d.get("/v1/pools/%s/leaderboard?model=ml&limit=1" % pool)
                    check(board["results"] > 0, "%s: no ml solve yet" % pool)
                    seen = it.pool_prefix(path, pool, board["results"])
                    sequence = board["sequence"]
                    check(live["committed_at"] == board["committed_at"],
                          "%s/ml: committed_at %s, the leaderboard's %s" %
                          (pool, live["committed_at"], board["committed_at"]))
                asked += len(live["suggestions"])
                check(list(live) == SUGGEST_FIELDS, "suggest fields: %s" % list(live))
                check((live["pool"], live["sequence"], live["strategy"]) ==
                      (pool, sequence, strategy), "suggest header: %s" % json.dumps(live)[:300])
                check(len(live["suggestions"]) == 20, "%s/%s: %d suggestions" %
                      (pool, strategy, len(live["suggestions"])))
                for s in live["suggestions"]:
                    check(list(s) == ["agents", "probability"] and len(s["agents"]) == 2 and
                          s["agents"][0] != s["agents"][1] and 0 < s["probability"] <= 1,
                          "suggestion: %s" % s)
                offline = json.loads(it.ratingctl(
                    "suggest", "--input=" + seen, "--pool=" + pool, "--strategy=" + strategy,
                    "--n=20", "--exploration=0.2", "--seed=5").stdout)
                offline["sequence"] = sequence  # ml: the solve count, not the results read
                offline["committed_at"] = live["committed_at"]
                check(live == offline, "%s/%s: daemon and ratingctl differ:\n daemon    %s\n"
                      " ratingctl %s" % (pool, strategy, json.dumps(live)[:400],
                                         json.dumps(offline)[:400]))
        status, body = it.http("http://127.0.0.1:%d/v1/pools/nope/suggest?strategy=ucb" %
                               d.http_port)
        check(status == 404 and "error" in json.loads(body), "unknown pool: %d %s" % (status, body))
        pool = sorted(counts)[0]
        status, body = it.http(
            "http://127.0.0.1:%d/v1/pools/%s/suggest?strategy=ml&exploration=2" %
            (d.http_port, pool))
        check(status == 400 and "exploration" in json.loads(body)["error"],
              "bad exploration: %d %s" % (status, body))
        big = d.get("/v1/pools/%s/suggest?strategy=uniform&n=5000" % pool)
        check(len(big["suggestions"]) == 1000, "n=5000 gave %d" % len(big["suggestions"]))
        asked += 1000
        check(d.pools() == counts, "suggest changed the results per pool")
        check({p: d.get("/v1/pools/%s/leaderboard?model=elo" % p) for p in counts} == before,
              "suggest changed a leaderboard")
        check(d.metric("ratingd_suggestions_total") == asked,
              "ratingd_suggestions_total %s, expected %d" %
              (d.metric("ratingd_suggestions_total"), asked))
        print("ok: suggest equals ratingctl suggest for uniform, ucb and ml in %d pools" %
              len(counts))
    finally:
        d.stop()


class EventReader:
    """A Server-Sent Events stream read off a socket: (event, id, data) as they come."""

    def __init__(self, port, target, last_event_id=None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        headers = "Last-Event-ID: %s\r\n" % last_event_id if last_event_id else ""
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n" %
                           (target, headers)).encode())
        self.buffer = b""
        self.head = None
        self.comments = 0

    def next(self, timeout):
        """The next event as (name, id, data, arrival time), or None after `timeout` s."""
        deadline = time.time() + timeout
        while True:
            if self.head is None and b"\r\n\r\n" in self.buffer:
                self.head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
                check(self.head.startswith(b"HTTP/1.1 200") and
                      b"text/event-stream" in self.head, "stream head: %r" % self.head)
            if self.head is not None and b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                fields = {}
                for line in block.decode().split("\n"):
                    if line.startswith(":"):
                        self.comments += 1
                        continue
                    name, _, value = line.partition(": ")
                    fields[name] = fields.get(name, "") + value
                if "event" in fields:
                    return fields["event"], fields["id"], json.loads(fields["data"]), time.time()
                continue
            left = deadline - time.time()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                return None
            check(chunk, "the stream closed")
            self.buffer += chunk

    def close(self):
        self.sock.close()


def case_events():
    """The event streams of a live ratingd: the current leaderboard at once, then newer ones
    at most once per --events-interval (1 s), ids increasing, the last equal to the
    leaderboard answer once input stops; the pool list likewise; a reconnect with the last
    id gets nothing until a newer view."""
    d = it.Ratingd("events")
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = it.generate_jsonl(path, 4000, pools=2, agents=30, seed=8)
        lines = open(path).read().splitlines(True)
        first, rest = os.path.join(d.dir, "first.jsonl"), os.path.join(d.dir, "rest.jsonl")
        open(first, "w").writelines(lines[:200])
        open(rest, "w").writelines(lines[200:])
        d.start()
        it.produce(first, d.topics["results"])
        early = {}
        for line in lines[:200]:
            pool = json.loads(line)["pool"]
            early[pool] = early.get(pool, 0) + 1
        d.wait_for_results(early)
        streams = {(pool, model): EventReader(
            d.http_port, "/v1/pools/%s/events?model=%s&limit=5" % (pool, model))
            for pool in counts for model in ("elo", "ml")}
        streams["pools"] = EventReader(d.http_port, "/v1/events")
        got = {key: [] for key in streams}
        done = threading.Event()

        def follow(key):  # arrival times are only true if each stream is read as it comes
            while not done.is_set():
                event = streams[key].next(0.2)
                if event is not None:
                    got[key].append(event)

        threads = [threading.Thread(target=follow, args=(key,)) for key in streams]
        for t in threads:
            t.start()
        it.produce(rest, d.topics["results"], rate=2000)  # about 2 s of input
        d.wait_for_results(counts)
        time.sleep(3)  # the last views' events: one interval and a commit
        done.set()
        for t in threads:
            t.join()
        check(d.metric("ratingd_event_streams") == len(streams), "ratingd_event_streams %s" %
              d.metric("ratingd_event_streams"))
        check(got["pools"] and got["pools"][-1][2] == d.get("/v1/pools"),
              "pool list: the last event is not the final list: %s" %
              (got["pools"][-1:] and json.dumps(got["pools"][-1][2])[:300]))
        del got["pools"]
        for (pool, model), events in got.items():
            final = d.get("/v1/pools/%s/leaderboard?model=%s&limit=5" % (pool, model))
            check(len(events) >= 2 and events[0][0] == "leaderboard",
                  "%s/%s: %d events" % (pool, model, len(events)))
            check(events[-1][2] == final, "%s/%s: the last event is not the final leaderboard: "
                  "%s" % (pool, model, json.dumps(events[-1][2])[:300]))
            ids = [int(e[1]) for e in events]
            check(ids == sorted(set(ids)) and all(int(e[1]) == e[2]["sequence"] for e in events),
                  "%s/%s: ids %s" % (pool, model, ids))
            gaps = [b[3] - a[3] for a, b in zip(events, events[1:])]
            check(all(g > 0.8 for g in gaps), "%s/%s: events closer than the 1 s interval: %s" %
                  (pool, model, gaps))
            again = EventReader(d.http_port, "/v1/pools/%s/events?model=%s&limit=5" %
                                (pool, model), last_event_id=events[-1][1])
            check(again.next(2.5) is None and again.comments >= 1,
                  "%s/%s: a reconnect with the last id got an event" % (pool, model))
            again.close()
        print("ok: %d leaderboard streams and the pool list followed %d results to the end" %
              (len(streams), sum(counts.values())))
    finally:
        d.stop()


def rfc3339(text):
    """Seconds since the epoch of ratingd's RFC 3339 UTC time."""
    whole, _, fraction = text.rstrip("Z").partition(".")
    return (calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) +
            (float("0." + fraction) if fraction else 0.0))


def record_partitions(topic):
    """(Kafka partition, key) of every committed record of `topic`, read with kcat."""
    p = subprocess.run(["kcat", "-C", "-b", it.bootstrap(), "-t", topic, "-e", "-q",
                        "-X", "isolation.level=read_committed", "-f", "%p\t%k\n"],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "kcat: " + p.stderr)
    return [(int(a), b) for a, _, b in (line.partition("\t") for line in p.stdout.splitlines())]


def check_output_partitions(topics, boards_by_pool, partitions):
    """Every delta and leaderboard of a pool is in its results partition's number
    (docs/CONTRACTS.md §1.1); the results partition is the one the pool's leaderboards name."""
    owner = {pool: int(b.get("partition", 0)) for pool, b in boards_by_pool.items()}
    for kind in ("deltas", "leaderboards"):
        records = record_partitions(topics[kind])
        wrong = [(p, k) for p, k in records if k.rpartition("/")[0] not in owner
                 or p != owner[k.rpartition("/")[0]] % partitions]
        check(records and not wrong, "%s: %d of %d records outside their pool's partition: %s" %
              (kind, len(wrong), len(records), wrong[:5]))


def case_any_instance():
    """Three instances behind a round-robin client that only asks the ready ones: every
    instance answers every pool (its own from its views, the others' from the leaderboards
    topic). One instance is SIGKILLed and restarted mid-stream: at least 99% of the
    leaderboard requests answer 200, and none is older than the leaderboard of its key
    committed 2 s before the request (checked against the leaderboards topic afterwards)."""
    extra = ["--ml-solve-every=50", "--kafka=session.timeout.ms=6000"]
    first = rl.Instance("anyinst", extra, partitions=6)
    group = [first] + [rl.Instance("", extra, partitions=6, peer=first, index=i)
                       for i in (1, 2)]
    producer = None
    answers = []  # (request time, instance index, pool, status, sequence, owner)
    done = threading.Event()
    try:
        path = os.path.join(first.dir, "results.jsonl")
        counts = it.generate_jsonl(path, 9000, pools=12, agents=20, seed=21)
        pools = sorted(counts)
        rl.create_topic(first.topics["results"], 6)
        for d in group:
            d.spawn()
            d.wait_ready()
        producer = rl.start_producer(path, first.topics["results"], 300)

        def listed(d):
            status, body = it.http("http://127.0.0.1:%d/v1/pools" % d.http_port)
            return {p["pool"] for p in json.loads(body)["pools"]} if status == 200 else set()

        # Every instance knows every pool once each owner published its leaderboards.
        deadline = time.time() + 60
        while time.time() < deadline and not all(listed(d) >= set(pools) for d in group):
            time.sleep(0.25)
        check(all(listed(d) >= set(pools) for d in group), "not every instance lists every pool")

        def client():
            turn = 0
            while not done.is_set():
                turn += 1
                d = group[turn % len(group)]
                if d.proc.poll() is not None or not d.ready():
                    time.sleep(0.01)
                    continue
                pool = pools[turn % len(pools)]
                t = time.time()
                status, body = it.http("http://127.0.0.1:%d/v1/pools/%s/leaderboard?model=elo"
                                       "&limit=1" % (d.http_port, pool), timeout=5)
                doc = json.loads(body) if status == 200 else {}
                answers.append((t, d.index, pool, status, doc.get("sequence"), doc.get("owner")))

        threads = [threading.Thread(target=client) for _ in range(2)]
        for t in threads:
            t.start()
        time.sleep(8)
        victim = group[1]
        victim.kill9()
        rl.log("killed %s" % victim.instance_id)
        time.sleep(3)
        victim.spawn()
        victim.wait_ready(timeout=120)
        rl.log("%s ready again" % victim.instance_id)
        rl.wait_producer(producer, timeout=120)
        rl.wait_all_results(group, counts, timeout=120)
        time.sleep(2)
        done.set()
        for t in threads:
            t.join()
        boards = {}  # pool -> [(committed_at, sequence)] of its elo leaderboards
        last_board = {}  # pool -> its last leaderboard of any model
        for b in it.tail(first.topics["leaderboards"], "leaderboards", idle="3s"):
            last_board[b["pool"]] = b
            if b["model"] == "elo":
                boards.setdefault(b["pool"], []).append(
                    (rfc3339(b["committed_at"]), int(b["sequence"])))
        check_output_partitions(first.topics, last_board, 6)
        ok = [a for a in answers if a[3] == 200]
        share = len(ok) / max(1, len(answers))
        remote = sum(1 for a in ok if a[5] is False)
        rl.log("%d requests, %d answered 200 (%.2f%%), %d from the leaderboards topic" %
               (len(answers), len(ok), 100 * share, remote))
        check(len(answers) >= 1000 and share >= 0.99,
              "%d of %d requests answered 200; the others: %s" % (
                  len(ok), len(answers), collections.Counter(a[3] for a in answers)))
        check(remote > 0, "no answer came from the leaderboards topic")
        stale = []
        for t, index, pool, _, sequence, owner in ok:
            due = [s for (c, s) in boards.get(pool, []) if c <= t - 2]
            if due and sequence < max(due):
                stale.append((round(t, 2), index, pool, sequence, max(due), owner))
        check(not stale, "%d answers older than the leaderboard committed 2 s before: %s" %
              (len(stale), stale[:10]))
        print("ok: %d requests to 3 instances, %.2f%% 200 through a SIGKILL and restart, %d "
              "from other instances' leaderboards, none stale" %
              (len(answers), 100 * share, remote))
    finally:
        done.set()
        if producer is not None and producer.poll() is None:
            producer.kill()
        for d in group:
            d.stop()


def case_large_pool():
    """A pool of 10,000 agents fed a backlog of 15,000 results at ratingd's default flags
    keeps the instance's transactional id: no transaction aborts, none stays open 5 s (the
    broker aborts one open 10 s, fencing the instance), every result is applied once, and
    the leaderboard is answered while it ingests."""
    d = it.Ratingd("large")
    try:
        rng = random.Random(9)
        path = os.path.join(d.dir, "large.jsonl")
        with open(path, "w") as f:
            for i in range(15000):
                players = rng.sample(range(10000), rng.randint(2, 4))
                f.write(json.dumps({"pool": "large", "game_id": "g%d" % i, "standings": [
                    {"agent": "agent-%05d" % a, "rank": r + 1}
                    for r, a in enumerate(players)]}) + "\n")
        d.start()
        it.produce(path, d.topics["results"])
        d.wait_for_results({"large": 15000}, timeout=300)
        board = d.get("/v1/pools/large/leaderboard?model=elo&limit=3")
        check(board["results"] == 15000 and board["agents"] > 9000 and board["owner"],
              "leaderboard: %s" % json.dumps(board)[:300])
        check(d.proc.poll() is None, "ratingd exited:\n" + d.log())
        check(d.metric('ratingd_transactions_total{outcome="aborted"}') == 0,
              "aborted transactions:\n" + d.log())
        within = d.metric('ratingd_transaction_open_seconds_bucket{le="5"}')
        count = d.metric("ratingd_transaction_open_seconds_count")
        check(count > 0 and within == count,
              "%d of %d transactions stayed open 5 s or more" % (count - within, count))
        check(d.metric("ratingd_results_applied_total") == 15000, "applied_total")
        print("ok: 15,000 results into a pool of 10,000 agents in %d transactions, each open "
              "< 5 s, none aborted" % count)
    finally:
        d.stop()


def write_timed(path, results, start, players, seed):
    """`results` two- to four-agent results among `players`, one a minute of event time from
    `start` (a datetime), appended to `path`; the agents in random order, some tied."""
    rng = random.Random(seed)
    with open(path, "a") as f:
        for i in range(results):
            who = rng.sample(players, rng.randint(2, min(4, len(players))))
            ranks = [1]
            for j in range(1, len(who)):
                ranks.append(ranks[-1] if rng.random() < 0.1 else j + 1)
            at = start + datetime.timedelta(minutes=i)
            f.write(json.dumps({
                "pool": "idle", "game_id": "%s-%d" % (seed, i),
                "event_time": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "standings": [{"agent": a, "rank": r} for a, r in zip(who, ranks)],
            }) + "\n")


def case_inactive():
    """--inactive-after: agents that stopped playing more than D of event time before the
    pool's latest result leave the leaderboards of every model and their rank intervals;
    ?include_inactive=true lists them after the ranked ones, marked, with rank 0 and no rank
    interval; both equal
    `ratingctl rate --inactive-after D [--include-inactive]` on the same file, and an agent
    that plays again is back in the ranking."""
    models = ("elo", "sco", "glicko2")
    d = it.Ratingd("inactive", ["--models=" + ",".join(models), "--inactive-after=12h"])
    try:
        path = os.path.join(d.dir, "results.jsonl")
        everyone = ["agent-%d" % i for i in range(8)]
        start = datetime.datetime(2024, 3, 1, tzinfo=datetime.timezone.utc)
        write_timed(path, 300, start, everyone, seed=1)
        # A day later only half of them play on: the others' last result is 19 h or more
        # before the latest, so they are inactive.
        write_timed(path, 300, start + datetime.timedelta(days=1), everyone[:4], seed=2)
        d.start()
        it.produce(path, d.topics["results"], event_time="file")
        d.wait_for_results({"idle": 600})

        def compare(file, ranked):
            for model in models:
                replicas = [] if model == "glicko2" else ["--bootstrap-replicas=16"]
                for include in (False, True):
                    query = "&include_inactive=true" if include else ""
                    live = d.get("/v1/pools/idle/leaderboard?model=%s%s" % (model, query))
                    offline = json.loads(it.ratingctl(
                        "rate", "--method=" + model, "--input=" + file, "--pool=idle",
                        "--inactive-after=12h", *replicas,
                        *(["--include-inactive"] if include else [])).stdout)
                    check(live["ranking"] == offline["ranking"],
                          "%s include_inactive=%s: daemon and ratingctl differ:\n daemon    %s"
                          "\n ratingctl %s" % (model, include, json.dumps(live["ranking"])[:600],
                                               json.dumps(offline["ranking"])[:600]))
                    listed = [e["agent"] for e in live["ranking"] if not e.get("inactive")]
                    check(sorted(listed) == sorted(ranked), "%s: ranked %s, expected %s" %
                          (model, listed, ranked))
                    check([e["rank"] for e in live["ranking"][:len(ranked)]] ==
                          list(range(1, len(ranked) + 1)) and
                          all(e.get("rank_high", 0) <= len(ranked)
                              for e in live["ranking"][:len(ranked)]),
                          "%s: ranks or rank intervals reach past the active agents: %s" %
                          (model, json.dumps(live["ranking"])[:600]))
                    idle = live["ranking"][len(ranked):]
                    check(len(idle) == (8 - len(ranked) if include else 0) and
                          all(e.get("inactive") is True and e["rank"] == 0 and
                              "rank_low" not in e and "rank_high" not in e for e in idle),
                          "%s include_inactive=%s: the inactive entries: %s" %
                          (model, include, json.dumps(idle)[:600]))

        compare(path, everyone[:4])
        gone = d.get("/v1/pools/idle/agents/agent-6?model=glicko2")
        check(gone["agent"].get("inactive") is True and gone["history"],
              "an inactive agent's own answer: %s" % json.dumps(gone)[:400])
        # agent-5 plays again: it is back, ranked.
        back = os.path.join(d.dir, "back.jsonl")
        write_timed(back, 1, start + datetime.timedelta(days=1, hours=6),
                    ["agent-5", "agent-0"], seed=3)
        it.produce(back, d.topics["results"], event_time="file")
        d.wait_for_results({"idle": 601})
        with open(path, "a") as f, open(back) as b:
            f.write(b.read())
        compare(path, everyone[:4] + ["agent-5"])
        print("ok: inactive agents leave and rejoin the elo, sco and glicko2 leaderboards as "
              "ratingctl rate --inactive-after ranks them")
    finally:
        d.stop()


CASES = {
    "suggest": case_suggest,
    "events": case_events,
    "any_instance": case_any_instance,
    "large_pool": case_large_pool,
    "inactive": case_inactive,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--ratingd", required=True)
    parser.add_argument("--ratingctl", required=True)
    it.ARGS = parser.parse_args()  # it_harness.py's helpers read it there
    CASES[it.ARGS.case]()


if __name__ == "__main__":
    main()
