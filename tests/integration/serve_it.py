#!/usr/bin/env python3
"""Integration tests of what ratingd serves (docs/CONTRACTS.md §3.2) against a real Kafka
broker: the answers read from the committed views.

    serve_it.py CASE --ratingd BIN --ratingctl BIN

The broker is the CTest fixture `kafka`, as in ratingd_it.py, whose processes and helpers
these cases use. Expected values come from `ratingctl` on the same file (for ml, on the
results the last scheduled solve saw) and from the input's construction. Python standard
library only.
"""

import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ratingd_it as it  # noqa: E402
from ratingd_it import check  # noqa: E402

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


CASES = {
    "suggest": case_suggest,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--ratingd", required=True)
    parser.add_argument("--ratingctl", required=True)
    it.ARGS = parser.parse_args()  # ratingd_it.py's helpers read it there
    CASES[it.ARGS.case]()


if __name__ == "__main__":
    main()
