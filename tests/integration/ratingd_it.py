#!/usr/bin/env python3
"""Integration tests of ratingd against a real Kafka broker.

    ratingd_it.py CASE --ratingd BIN --ratingctl BIN [--prometheus-sh run.sh]

The broker is the CTest fixture `kafka` ($KAFKA_DIR/bootstrap); it_harness.py holds the
processes and helpers these cases share with the other suites. Every case uses its own
topics, consumer group, snapshot folder and ports, so cases can share the broker. Expected
values come from `ratingctl rate` on the same file (the offline replay of the same
library, docs/CONTRACTS.md §2) or from the construction of the input (counts, reasons).
Python standard library only.
"""

import argparse
import base64
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import it_harness  # noqa: E402
from it_harness import (Ratingd, bootstrap, check, check_deltas, compare_with_rate,  # noqa: E402
                        http, kcat_produce, produce, tail)
from it_inputs import game_result, generate_jsonl, invalid_cases  # noqa: E402
from views_watch import PoolsWatcher  # noqa: E402

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
        producer = subprocess.Popen([it_harness.ARGS.ratingctl, "produce", "--brokers=" + bootstrap(),
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
    run = it_harness.ARGS.prometheus_sh
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
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--ratingd", required=True)
    parser.add_argument("--ratingctl", required=True)
    parser.add_argument("--prometheus-sh", default="")
    it_harness.ARGS = parser.parse_args()  # the harness reads it there
    CASES[it_harness.ARGS.case]()


if __name__ == "__main__":
    main()
