#!/usr/bin/env python3
"""Inputs of the integration tests (ratingd_it.py, reliability_it.py): generated results as
JSON lines, and a minimal protobuf encoder of ratingd.v1.GameResult to build the invalid
records ratingctl would refuse to produce, one per invalid-input class the daemon sends to
its dead-letter topic. Python standard library only.
"""

import datetime
import json
import random
import struct


# ---------------------------------------------------------------------------------------
# Input data


def generate_jsonl(path, n, pools, agents, seed, times=False):
    """n results over `pools` pools of `agents` agents: 2-5 players, some ties, weights.
    With `times`, nine results in ten carry an event_time, ten minutes apart from
    2024-01-01 with up to an hour of jitter either way (some go back in time)."""
    rng = random.Random(seed)
    start = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    counts = {}
    with open(path, "w") as f:
        for i in range(n):
            pool = "pool-%d" % rng.randrange(pools)
            counts[pool] = counts.get(pool, 0) + 1
            k = rng.randint(2, 5)
            players = rng.sample(range(agents), k)
            # Agent i is stronger with higher i, plus noise, so rankings are meaningful.
            players.sort(key=lambda a: -(a + rng.gauss(0, agents / 3)))
            standings, rank = [], 1
            for j, a in enumerate(players):
                if j > 0 and rng.random() < 0.1:
                    pass  # tie with the previous agent
                else:
                    rank = j + 1
                standings.append({"agent": "agent-%02d" % a, "rank": rank})
            record = {"pool": pool, "game_id": "g%06d" % i, "standings": standings}
            if rng.random() < 0.2:
                record["weight"] = rng.choice([0.5, 2.0, 3.0])
            if times and rng.random() < 0.9:
                at = start + datetime.timedelta(seconds=600 * i + rng.randint(-3600, 3600),
                                                microseconds=rng.randrange(10**6))
                record["event_time"] = at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            f.write(json.dumps(record) + "\n")
    return counts


# ---------------------------------------------------------------------------------------
# Minimal protobuf encoder for ratingd.v1.GameResult (field numbers from
# proto/ratingd/v1/game_result.proto), to build records ratingctl would refuse to produce.


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_bytes(number, data):
    return varint(number << 3 | 2) + varint(len(data)) + data


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_double(number, value):
    return varint(number << 3 | 1) + struct.pack("<d", value)


def standing(agent, rank, score=None):
    out = field_bytes(1, agent.encode()) + field_varint(2, rank)
    if score is not None:
        out += field_double(3, score)
    return out


def game_result(pool="dlq-pool", game_id="x", standings=None, weight=None, event_seconds=None):
    if standings is None:
        standings = [standing("a", 1), standing("b", 2)]
    out = b""
    if pool:
        out += field_bytes(1, pool.encode())
    if game_id:
        out += field_bytes(2, game_id.encode())
    if event_seconds is not None:  # a google.protobuf.Timestamp: seconds (field 1)
        out += field_bytes(3, field_varint(1, event_seconds))
    for s in standings:
        out += field_bytes(4, s)
    if weight is not None:
        out += field_double(5, weight)
    return out


def invalid_cases(tag="", pool="dlq-pool"):
    """(reason, key, value) of every invalid-input class the daemon sends to its DLQ; `tag`
    goes into every value (agent ids, game id, trailing bytes) to make the values unique."""
    nan = float("nan")
    a, b, x = "a" + tag, "b" + tag, "x" + tag

    def result(**kw):
        kw.setdefault("pool", pool)
        kw.setdefault("game_id", x)
        kw.setdefault("standings", [standing(a, 1), standing(b, 2)])
        return game_result(**kw)

    return [
        # Field 0x1fffff, wire type 7 (no such type): fails at the first tag, whatever follows.
        ("unparseable", pool, b"\xff\xff\xff\x01" + tag.encode()),
        ("missing_pool", pool, result(pool="")),
        ("missing_game_id", pool, result(game_id="")),
        ("key_mismatch", "another-pool", result()),
        ("bad_event_time", pool, result(event_seconds=253402300800)),  # 10000-01-01
        ("too_few_standings", pool, result(standings=[standing(a, 1)])),
        ("too_many_standings", pool,
         result(standings=[standing("%s%d" % (a, i), 1 + i) for i in range(300)])),
        ("bad_weight", pool, result(weight=0.0)),
        ("bad_weight", pool, result(weight=nan)),
        ("empty_agent_id", pool, result(standings=[standing(a, 1), standing("", 2)])),
        ("agent_id_too_long", pool, result(standings=[standing(a, 1), standing(b + "b" * 299, 2)])),
        ("zero_rank", pool, result(standings=[standing(a, 0), standing(b, 1)])),
        ("bad_score", pool, result(standings=[standing(a, 1, nan), standing(b, 2)])),
        ("duplicate_agent", pool, result(standings=[standing(a, 1), standing(a, 2)])),
    ]
