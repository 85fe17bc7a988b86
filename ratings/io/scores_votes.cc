#include "ratings/io/scores_votes.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/scores_syntax.h"
#include "ratings/status_macros.h"

namespace ratings::io {
namespace {

using scores::Body;
using scores::RowParser;

// ToVoteSet validates every result again, under the default ResultLimits: a row that more
// permissive `limits` let through can fail there. Every row has the column header's agents
// (distinct, non-empty), ranks from 1, finite scores and weight 1, so only too many columns
// or an over-long column name can make it, for the first row as for all.
bool DefaultsCanFail(const Body& body) {
  const ResultLimits defaults;
  if (body.agents.size() > defaults.max_standings) return true;
  for (const std::string& agent : body.agents) {
    if (agent.size() > defaults.max_agent_id_bytes) return true;
  }
  return false;
}

// Reads the data lines of `part` (whose first line is line `first_line` of the file) with
// ParseScores' checks in its order (scores_syntax.h, ParseRows), writing row r of the part
// as vote first_row + r into `arrays`, whose every array has room for it. The vote ranks
// every column: agents 0..k-1 with their competition ranks, and best first the columns by
// score descending, equal scores in column order (VoteSet::BestFirst's stable sort by rank),
// with dense ranks. `first_scores`, when not null, receives the part's first row's scores.
absl::Status WriteRows(absl::string_view part, int64_t first_line, size_t first_row,
                       const Body& body, VoteSet::Arrays& arrays,
                       std::vector<double>* first_scores) {
  const size_t k = body.agents.size();
  size_t vote = first_row;
  size_t standing = first_row * k;
  scores::RankScratch scratch;
  return scores::ParseRows(part, first_line, body, [&](const RowParser& row, int64_t) {
    if (first_scores != nullptr) {
      *first_scores = row.means();
      first_scores = nullptr;
    }
    AgentId* const agents = &arrays.agents[standing];
    uint32_t* const ranks = &arrays.ranks[standing];
    AgentId* const best_first = &arrays.best_first_agents[standing];
    uint32_t* const dense_ranks = &arrays.dense_ranks[standing];
    for (size_t a = 0; a < k; ++a) agents[a] = static_cast<AgentId>(a);
    scores::Ranks(row.means(), ranks, best_first, scratch);
    uint32_t dense = 1;
    dense_ranks[0] = dense;
    for (size_t p = 1; p < k; ++p) {
      if (ranks[best_first[p]] != ranks[best_first[p - 1]]) ++dense;
      dense_ranks[p] = dense;
    }
    standing += k;
    arrays.offsets[++vote] = standing;
  });
}

// ToVoteSet's check of the first row, the first record it validates (DefaultsCanFail): its
// result as ParseScores builds it, under the default limits.
absl::Status CheckFirstRow(const Body& body, const VoteSet::Arrays& arrays,
                           const std::vector<double>& scores) {
  Result result;
  result.standings.resize(body.agents.size());
  for (size_t a = 0; a < result.standings.size(); ++a) {
    result.standings[a].agent = body.agents[a];
    result.standings[a].rank = arrays.ranks[a];
    result.standings[a].score = scores[a];
  }
  if (absl::Status s = ValidateResult(result, ResultLimits()); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(body.filename, ":", body.first_line, ": ", s.message()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<VoteInput> ParseScoresVotes(std::string_view content_view,
                                           std::string_view filename_view,
                                           const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  VoteInput input;
  ASSIGN_OR_RETURN(const std::optional<Body> body, scores::ParseHeader(content, filename, limits));
  if (!body.has_value()) return input;  // no data lines: no votes, no agents

  // The data lines: in two halves on two threads when long enough (parallel_lines.h), as
  // ParseScores reads them. The rows of each half are counted first, so that the arrays
  // have their exact sizes and the second half knows where its votes start.
  const std::optional<LineHalves> halves = SplitLines(body->text, body->first_line);
  size_t head_rows = 0;
  size_t tail_rows = 0;
  if (!halves.has_value()) {
    head_rows = scores::CountRows(body->text);
  } else {
    RunOnTwoThreads([&] { head_rows = scores::CountRows(halves->first); },
                    [&] { tail_rows = scores::CountRows(halves->second); });
  }
  const size_t k = body->agents.size();
  const size_t standings = (head_rows + tail_rows) * k;
  VoteSet::Arrays arrays;
  arrays.offsets.resize(head_rows + tail_rows + 1);
  arrays.agents.resize(standings);
  arrays.ranks.resize(standings);
  arrays.best_first_agents.resize(standings);
  arrays.dense_ranks.resize(standings);
  arrays.offsets[0] = 0;

  const bool check_defaults = DefaultsCanFail(*body);
  std::vector<double> first_scores;
  std::vector<double>* const keep_first = check_defaults ? &first_scores : nullptr;
  if (!halves.has_value()) {
    RETURN_IF_ERROR(WriteRows(body->text, body->first_line, 0, *body, arrays, keep_first));
  } else {
    absl::Status head_status;
    absl::Status tail_status;
    RunOnTwoThreads(
        [&] {
          head_status = WriteRows(halves->first, body->first_line, 0, *body, arrays, keep_first);
        },
        [&] {
          tail_status = WriteRows(halves->second, halves->second_first_line, head_rows, *body,
                                  arrays, nullptr);
        });
    // An error in the first half comes first in the file.
    RETURN_IF_ERROR(head_status);
    RETURN_IF_ERROR(tail_status);
  }
  // ToVoteSet's own error, which comes only when the whole file reads without one of its own.
  if (check_defaults) RETURN_IF_ERROR(CheckFirstRow(*body, arrays, first_scores));

  // The first row interns the columns in order: agent id a is column a.
  for (const std::string& agent : body->agents) input.agents.Intern(agent);
  input.votes = VoteSet::FromArrays(std::move(arrays), k);
  return input;
}

}  // namespace ratings::io
