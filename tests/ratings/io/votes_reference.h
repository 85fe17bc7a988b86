// The definition the readers straight into votes (ratings/io/vote_input.h) must meet:
// ToVoteSet of the records the same file gives with a new index. The comparison field by
// field, shared by the PrefLib and score-table references (preflib_votes_reference.h,
// scores_votes_reference.h), their tests and fuzzers.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"
#include "ratings/io/read_results.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/io/vote_input.h"

namespace ratings::io::testing {

template <typename T>
bool SameElements(absl::Span<const T> a, absl::Span<const T> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

inline bool SameWeight(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Empty when `got` is what ToVoteSet gives for the records `read` of `filename` (the same
// votes, each with its agents and ranks as given and best first, weight and line; the same
// agents' names by id, num_agents, total weight and skipped_votes; or the same error), else
// what differs.
inline std::string RecordsVotesDifference(const absl::StatusOr<VoteInput>& got,
                                          const absl::StatusOr<ReadOutput>& read,
                                          std::string_view filename) {
  AgentIndex index;
  const absl::StatusOr<VoteSet> votes = read.ok() ? ToVoteSet(read->records, filename, index)
                                                  : absl::StatusOr<VoteSet>(read.status());
  if (got.ok() != votes.ok() || (!got.ok() && got.status() != votes.status())) {
    return absl::StrCat("got ", got.status().ToString(), "; expected ", votes.status().ToString());
  }
  if (!got.ok()) return "";
  if (got->skipped_votes != read->skipped_votes) return "skipped_votes";
  if (got->agents.names() != index.names()) return "agents' names by id";
  if (got->votes.num_agents() != votes->num_agents()) return "num_agents";
  if (got->votes.size() != votes->size()) {
    return absl::StrCat("votes: ", got->votes.size(), " != ", votes->size());
  }
  if (!SameWeight(got->votes.TotalWeight(), votes->TotalWeight())) return "total weight";
  for (size_t i = 0; i < votes->size(); ++i) {
    const IndexedResult a = got->votes[i];
    const IndexedResult b = (*votes)[i];
    const IndexedResult a_best = got->votes.BestFirst(i);
    const IndexedResult b_best = votes->BestFirst(i);
    if (!SameElements(a.agents, b.agents) || !SameElements(a.ranks, b.ranks) ||
        !SameElements(a_best.agents, b_best.agents) || !SameElements(a_best.ranks, b_best.ranks) ||
        !SameWeight(a.weight, b.weight) || !SameWeight(a_best.weight, b_best.weight) ||
        !SameWeight(got->votes.Weight(i), votes->Weight(i))) {
      return absl::StrCat("vote ", i, " (line ", read->records[i].line, ")");
    }
  }
  return "";
}

}  // namespace ratings::io::testing
