#!/usr/bin/env python3
"""Writes a synthetic LMArena-style battles file (docs/BENCHMARKS.md, "Intervals side by
side with arena-rank"): `models` models with Bradley-Terry strengths N(0, 1), pairs drawn
uniformly, 10% ties, the rest decided by the strengths; one JSON object per line with
question_id, model_a, model_b, winner, judge and tstamp (about 130-180 bytes a line).
Seeded: the same arguments give the same file."""
import argparse
import json
import math
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--battles", type=int, default=1_700_000)
    parser.add_argument("--models", type=int, default=130)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    models = [f"model-{i:03d}-chat" for i in range(args.models)]
    skill = [rng.gauss(0, 1) for _ in models]
    with open(args.out, "w") as f:
        for i in range(args.battles):
            a, b = rng.sample(range(args.models), 2)
            if rng.random() < 0.1:
                winner = "tie"
            else:
                p = 1 / (1 + math.exp(skill[b] - skill[a]))
                winner = "model_a" if rng.random() < p else "model_b"
            f.write(json.dumps({"question_id": f"{rng.getrandbits(64):016x}",
                                "model_a": models[a], "model_b": models[b], "winner": winner,
                                "judge": f"arena_user_{i % 5000}", "tstamp": 1.7e9 + i}) + "\n")


if __name__ == "__main__":
    main()
