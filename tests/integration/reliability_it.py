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
Python standard library only. This file parses the command line and runs one case; the
cases are in reliability_faults.py (kills, broker_outage, scale_out) and
reliability_inputs.py (invalid_sustained, stale_leaderboards), processes and the checker in
reliability_lib.py, the lower-level helpers in it_harness.py.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import it_harness as it  # noqa: E402
import reliability_faults  # noqa: E402
import reliability_inputs  # noqa: E402
from reliability_lib import RUN, log  # noqa: E402

CASES = {
    "kills": reliability_faults.case_kills,
    "broker_outage": reliability_faults.case_broker_outage,
    "scale_out": reliability_faults.case_scale_out,
    "invalid_sustained": reliability_inputs.case_invalid_sustained,
    "stale_leaderboards": reliability_inputs.case_stale_leaderboards,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--ratingd", required=True)
    parser.add_argument("--ratingctl", required=True)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("RELIABILITY_SEED", "6")))
    args = parser.parse_args()
    it.ARGS = args  # the cases and it_harness.py's helpers read it there
    log("case %s, seed %d, run %s, ratingd %s" % (args.case, args.seed, RUN, args.ratingd))
    CASES[args.case]()
    log("done")


if __name__ == "__main__":
    main()
