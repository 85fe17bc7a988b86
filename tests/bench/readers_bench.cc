// What a batch run's input costs per byte, from the file's text in memory to the vote set
// the batch methods and voting rules read (docs/BENCHMARKS.md, "Readers per byte, side by
// side"): each reader on a file of its format, generated once outside the timed loop with
// a fixed seed, of about the shape the benchmarks document describes. bytes_per_second is
// the figure to compare; wall time (UseRealTime), as the readers split a file of 1 MiB or
// more into two halves on two threads. Each run starts from a trimmed heap (malloc_trim),
// as a fresh process would.
#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "benchmark/benchmark.h"
#include "ratings/agent_index.h"
#include "ratings/io/preflib_votes.h"
#include "ratings/io/read_results.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/io/scores_votes.h"

namespace ratings::io {
namespace {

// A PrefLib header for `n` alternatives named model-1..model-n.
std::string PreflibHeader(size_t n, const char* type) {
  std::string text = absl::StrCat("# FILE NAME: bench.", type, "\n# DATA TYPE: ", type,
                                  "\n# NUMBER ALTERNATIVES: ", n, "\n");
  for (size_t i = 1; i <= n; ++i)
    absl::StrAppend(&text, "# ALTERNATIVE NAME ", i, ": model-", i, "\n");
  return text;
}

// `k` distinct alternatives of 1..n, in random order.
std::vector<size_t> Sample(std::mt19937_64& rng, size_t n, size_t k) {
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i) all[i] = i + 1;
  for (size_t i = 0; i < k; ++i) std::swap(all[i], all[i + rng() % (n - i)]);
  all.resize(k);
  return all;
}

// An arena-like .soi of about `bytes`: 130 alternatives; 77% of lines one voter's pair
// ("1: a,b"), the others 2-5 voters ranking 2-4 alternatives (about 6 bytes a vote).
std::string MakeSoi(size_t bytes) {
  std::mt19937_64 rng(1);
  constexpr size_t kN = 130;
  std::string text = PreflibHeader(kN, "soi");
  while (text.size() < bytes) {
    const bool pair = rng() % 100 < 77;
    const size_t count = pair ? 1 : 2 + rng() % 4;
    const size_t k = pair ? 2 : std::vector<size_t>{2, 2, 3, 4}[rng() % 4];
    absl::StrAppend(&text, count, ": ");
    const std::vector<size_t> order = Sample(rng, kN, k);
    for (size_t i = 0; i < k; ++i) absl::StrAppend(&text, i > 0 ? "," : "", order[i]);
    text += '\n';
  }
  return text;
}

// A .toc of about `bytes`: 20 alternatives, complete orders whose classes hold 1-3 (about
// one in three is tied), 1-3 voters a line (about 40 bytes a vote).
std::string MakeToc(size_t bytes) {
  std::mt19937_64 rng(2);
  constexpr size_t kN = 20;
  std::string text = PreflibHeader(kN, "toc");
  while (text.size() < bytes) {
    absl::StrAppend(&text, rng() % 10 < 6 ? 1 : 2 + rng() % 2, ": ");
    const std::vector<size_t> order = Sample(rng, kN, kN);
    for (size_t i = 0; i < kN;) {
      const size_t group =
          std::min<size_t>(kN - i, std::vector<size_t>{1, 1, 1, 1, 2, 3}[rng() % 6]);
      if (i > 0) text += ',';
      if (group > 1) text += '{';
      for (size_t j = 0; j < group; ++j) absl::StrAppend(&text, j > 0 ? "," : "", order[i + j]);
      if (group > 1) text += '}';
      i += group;
    }
    text += '\n';
  }
  return text;
}

// LMArena-style battles JSONL of about `bytes` (the lines of tests/bench/arena_battles.py:
// 130 models, 10% ties, about 166 bytes a line).
std::string MakeBattles(size_t bytes) {
  std::mt19937_64 rng(3);
  constexpr size_t kModels = 130;
  std::string text;
  for (size_t i = 0; text.size() < bytes; ++i) {
    const std::vector<size_t> pair = Sample(rng, kModels, 2);
    const uint64_t draw = rng() % 20;
    const char* winner = draw < 2 ? "tie" : draw % 2 == 0 ? "model_a" : "model_b";
    absl::StrAppend(
        &text, absl::StrFormat("{\"question_id\": \"%016x\", \"model_a\": \"model-%03d-chat\", "
                               "\"model_b\": \"model-%03d-chat\", \"winner\": \"%s\", \"judge\": "
                               "\"arena_user_%d\", \"tstamp\": %d.0}\n",
                               rng(), pair[0], pair[1], winner, i % 5000, 1700000000 + i));
  }
  return text;
}

// A score table of about `bytes`: `agents` columns, each score up to 100,000 with one
// decimal, half of them with thousands separators (as in published tables).
std::string MakeScores(size_t bytes, size_t agents) {
  std::mt19937_64 rng(4);
  std::string text = "# synthetic score table\n# game";
  for (size_t a = 1; a <= agents; ++a) absl::StrAppend(&text, " agent-", a);
  text += '\n';
  std::uniform_real_distribution<double> score(0, 100000);
  for (size_t t = 0; text.size() < bytes; ++t) {
    absl::StrAppend(&text, "task-", t);
    for (size_t a = 0; a < agents; ++a) {
      const double s = score(rng);
      const auto tenths = static_cast<int64_t>(s * 10);
      if (rng() % 2 == 0 || tenths < 10000) {
        absl::StrAppend(&text, " ", tenths / 10, ".", tenths % 10);
      } else {
        absl::StrAppend(&text, " ", tenths / 10000, ",",
                        absl::StrFormat("%03d", tenths / 10 % 1000), ".", tenths % 10);
      }
    }
    text += '\n';
  }
  return text;
}

constexpr size_t kMB = 1'000'000;

// Reads `content` with `read` (which returns the number of votes) once per iteration.
template <typename Read>
void RunReader(benchmark::State& state, const std::string& content, Read read) {
  size_t votes = 0;
  for (auto _ : state) {
    votes = read(content);
    benchmark::DoNotOptimize(votes);
    // Every page freed goes back to the system, so that each run faults its memory in as a
    // fresh ratingctl process does, rather than reusing the last run's heap.
    state.PauseTiming();
    malloc_trim(0);
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * content.size()));
  state.counters["votes"] = static_cast<double>(votes);
  state.counters["MB"] = static_cast<double>(content.size()) / kMB;
}

// The records of a file, then ToVoteSet: what a batch run reads every other format through.
size_t RecordsThenVotes(const absl::StatusOr<ReadOutput>& read) {
  if (!read.ok()) return 0;
  AgentIndex index;
  const absl::StatusOr<VoteSet> votes = ToVoteSet(read->records, "bench", index);
  return votes.ok() ? votes->size() : 0;
}

void BM_PreflibVotesSoi(benchmark::State& state) {
  static const std::string content = MakeSoi(16 * kMB);
  RunReader(state, content, [](const std::string& c) {
    const absl::StatusOr<VoteInput> in = ParsePreflibVotes(c, "bench.soi", {});
    return in.ok() ? in->votes.size() : 0;
  });
}
BENCHMARK(BM_PreflibVotesSoi)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PreflibVotesToc(benchmark::State& state) {
  static const std::string content = MakeToc(15 * kMB);
  RunReader(state, content, [](const std::string& c) {
    const absl::StatusOr<VoteInput> in = ParsePreflibVotes(c, "bench.toc", {});
    return in.ok() ? in->votes.size() : 0;
  });
}
BENCHMARK(BM_PreflibVotesToc)->Unit(benchmark::kMillisecond)->UseRealTime();

// The records path the online methods read PrefLib through, for comparison.
void BM_PreflibRecordsSoi(benchmark::State& state) {
  static const std::string content = MakeSoi(16 * kMB);
  RunReader(state, content, [](const std::string& c) {
    return RecordsThenVotes(ParsePreflib(c, "bench.soi", {}));
  });
}
BENCHMARK(BM_PreflibRecordsSoi)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BattlesRecordsThenVotes(benchmark::State& state) {
  static const std::string content = MakeBattles(56 * kMB);
  RunReader(state, content, [](const std::string& c) {
    return RecordsThenVotes(ParseBattles(c, "bench.jsonl", {}));
  });
}
BENCHMARK(BM_BattlesRecordsThenVotes)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScoresVotes(benchmark::State& state) {
  static const std::string content = MakeScores(22 * kMB, 130);
  RunReader(state, content, [](const std::string& c) {
    const absl::StatusOr<VoteInput> in = ParseScoresVotes(c, "bench.txt", {});
    return in.ok() ? in->votes.size() : 0;
  });
}
BENCHMARK(BM_ScoresVotes)->Unit(benchmark::kMillisecond)->UseRealTime();

// The records path nash-avg reads score tables through, for comparison.
void BM_ScoresRecordsThenVotes(benchmark::State& state) {
  static const std::string content = MakeScores(22 * kMB, 130);
  RunReader(state, content,
            [](const std::string& c) { return RecordsThenVotes(ParseScores(c, "bench.txt", {})); });
}
BENCHMARK(BM_ScoresRecordsThenVotes)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace ratings::io

BENCHMARK_MAIN();
