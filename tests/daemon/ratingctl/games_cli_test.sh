#!/usr/bin/env bash
# The command-line contract of `ratingctl rate --method gt-ne|gt-cce` and `ratingctl
# generate --model king-of-the-hill` (docs/GAMES.md §5-6) through the real binary. Expected
# values: the definitions (every prompt listed, masses summing to 1, ratings <= ε), and the
# un-copied file's own ratings, which adversarial prompt copies must not move (invariance is a
# comparison of two runs).
set -euo pipefail
ratingctl=$1
source "$(dirname "$0")/../cli_checks.sh"

gen() { "$ratingctl" generate --model king-of-the-hill --seed 5 --param prompts=20 \
  --param models=5 "$@"; }
gen --out "$tmp/base.jsonl"
gen --param copies=20 --out "$tmp/copied.jsonl"

# 1. The generator: 20 prompts x 10 pairs, then 20 copies of 10 pairs; battles lines.
[ "$(wc -l <"$tmp/base.jsonl")" = 200 ] || fail "base: $(wc -l <"$tmp/base.jsonl") lines"
[ "$(wc -l <"$tmp/copied.jsonl")" = 400 ] || fail "copied: $(wc -l <"$tmp/copied.jsonl") lines"
head -200 "$tmp/copied.jsonl" | cmp -s - "$tmp/base.jsonl" || fail "the originals changed"
python3 - "$tmp/copied.jsonl" "$tmp/copied.truth.json" <<'PY' || fail "generated battles"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for d in lines:
    assert sorted(d) == ["model_a", "model_b", "question_id", "score", "winner"], d
    s = d["score"]
    assert -1 <= s <= 1 and d["winner"] == ("model_a" if s > 0 else "model_b" if s < 0 else "tie"), d
copies = [d for d in lines if "-copy" in d["question_id"]]
assert len(copies) == 200, len(copies)
by_prompt = {}
for d in lines:
    by_prompt.setdefault(d["question_id"], []).append((d["model_a"], d["model_b"], d["score"]))
for q, rows in by_prompt.items():
    if "-copy" in q:
        assert rows == by_prompt[q.split("-copy")[0]], q
truth = json.load(open(sys.argv[2]))
assert truth["generator"] == "king-of-the-hill" and truth["target"] == truth["ranking"][0], truth
PY
# Sampled battles: 2 per prompt and pair, orders alternating, a winner and no score; the
# copies repeat their original's lines (docs/GAMES.md §6).
gen --param sampled=2 --param copies=5 --out "$tmp/sampled.jsonl"
python3 - "$tmp/sampled.jsonl" <<'PY' || fail "sampled battles"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == (20 + 5) * 10 * 2, len(lines)
for first, second in zip(lines[::2], lines[1::2]):
    assert sorted(first) == ["model_a", "model_b", "question_id", "winner"], first
    assert (second["model_a"], second["model_b"]) == (first["model_b"], first["model_a"]), second
    assert first["winner"] in ("model_a", "model_b", "tie"), first
by_prompt = {}
for d in lines:
    by_prompt.setdefault(d["question_id"], []).append(d)
for q, rows in by_prompt.items():
    if "-copy" in q:
        original = by_prompt[q.split("-copy")[0]]
        assert [(d["model_a"], d["winner"]) for d in rows] == [
            (d["model_a"], d["winner"]) for d in original], q
PY

# 2. gt-ne and gt-cce: the contract's fields, and invariance under the copies.
for m in gt-ne gt-cce; do
  for f in base copied; do
    "$ratingctl" rate --method $m --input "$tmp/$f.jsonl" --format battles >"$tmp/$m-$f.json" ||
      fail "$m on $f exited non-zero"
  done
  python3 - "$tmp/$m-base.json" "$tmp/$m-copied.json" "$m" <<'PY' || fail "$m documents"
import json, sys
base, copied, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
for d, prompts in ((base, 20), (copied, 40)):
    x = d["extra"]
    assert d["method"] == m and d["agents"] == 5, d
    assert x["converged"] is True and x["exploitability"] <= 1e-3, x
    assert len(x["prompts"]) == prompts and len(x["rebel"]) == 5, x
    assert all(sorted(p) == ["mass", "prompt", "rating"] for p in x["prompts"]), x["prompts"]
    assert all(sorted(r) == ["agent", "mass", "rating"] for r in x["rebel"]), x["rebel"]
    for entries in (d["ranking"], x["prompts"], x["rebel"]):
        assert abs(sum(e["mass"] for e in entries) - 1) < 1e-9, entries
        assert all(e["rating"] <= 1e-3 for e in entries), entries
    assert [r["rank"] for r in d["ranking"]] == [1, 2, 3, 4, 5], d["ranking"]
    assert (x["tau"] is None) == (m == "gt-cce"), x
    assert x["params"]["selection"] == "affinity" and x["params"]["epsilon"] == 0.001, x
# The king's and the rebel's ratings do not move, nor their order; copies rate as originals.
assert [r["agent"] for r in base["ranking"]] == [r["agent"] for r in copied["ranking"]]
for a, b in zip(base["ranking"], copied["ranking"]):
    assert abs(a["rating"] - b["rating"]) <= 1e-3, (a, b)
rebel = {r["agent"]: r["rating"] for r in base["extra"]["rebel"]}
for r in copied["extra"]["rebel"]:
    assert abs(r["rating"] - rebel[r["agent"]]) <= 1e-3, r
prompt = {p["prompt"]: p["rating"] for p in copied["extra"]["prompts"]}
for q, rating in prompt.items():
    if "-copy" in q:
        assert abs(rating - prompt[q.split("-copy")[0]]) <= 1e-9, q
PY
done
# Deterministic: byte-identical reports.
"$ratingctl" rate --method gt-ne --input "$tmp/copied.jsonl" --format battles >"$tmp/again.json"
cmp -s "$tmp/again.json" "$tmp/gt-ne-copied.json" || fail "gt-ne: two runs differ"

# 3. Errors: results that are not battles with a prompt, bad parameters.
echo '{"pool":"p","gameId":"g1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2},{"agent":"c","rank":3}],"task":"t"}' >"$tmp/three.jsonl"
expect_error "three.jsonl:1: a result of 3 agents" rate --method gt-ne --input "$tmp/three.jsonl"
echo '{"pool":"p","gameId":"g1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]}' >"$tmp/notask.jsonl"
expect_error "notask.jsonl:1: no prompt" rate --method gt-cce --input "$tmp/notask.jsonl"
expect_error "--param selection (gt-ne): 'nash' is not affinity or shannon" \
  rate --method gt-ne --input "$tmp/base.jsonl" --format battles --param selection=nash
expect_error "--param p (gt-cce)" rate --method gt-cce --input "$tmp/base.jsonl" \
  --format battles --param p=1.5
expect_error "--param: unknown parameter 'tau0' for method gt-cce" \
  rate --method gt-cce --input "$tmp/base.jsonl" --format battles --param tau0=1
expect_error "--param copies" generate --model king-of-the-hill --param copies=-1 \
  --out "$tmp/x.jsonl"
expect_error "target: no model 'm9'" generate --model king-of-the-hill --param copies=2 \
  --param target=m9 --out "$tmp/x.jsonl"
expect_error "noise: must be 0 with sampled battles" generate --model king-of-the-hill \
  --param sampled=2 --param copies=1 --param noise=0.1 --out "$tmp/x.jsonl"

finish games_cli
