#include "ratings/io/preflib_votes.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <utility>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/preflib_syntax.h"
#include "ratings/status_macros.h"

namespace ratings::io {
namespace {

using preflib::Election;
using preflib::kMaxRecords;
using preflib::Ranked;

// The votes of one part of the body: one entry per data line that holds a vote (count >= 1,
// two alternatives or more), in file order. Its agents are the alternatives' numbers less
// one (header order): ids in first-appearance order need every earlier line, so they are
// given once every part is read (AssignIds).
struct LineVotes {
  std::vector<AgentId> alternatives;  // the lines' in turn, each in standing order
  std::vector<uint32_t> ranks;        // of each alternative
  std::vector<size_t> ends;           // line i's alternatives end at ends[i]
  std::vector<int64_t> counts;        // voters of each line
  std::vector<int64_t> lines;         // 1-based line of the file
  int64_t votes = 0;                  // the sum of counts
  size_t standings = 0;               // the sum over lines of count times alternatives
  int64_t skipped_votes = 0;          // as ReadOutput::skipped_votes
};

// Reads the data lines of `part` (whose first line is line `first_line` of the file) into
// `out`, with the checks of ParsePreflib in its order (preflib.cc, ParseVoteLines), so that
// the first error is the same; `votes_before` is how many votes the file has before `part`
// (for kMaxRecords).
absl::Status ReadLines(absl::string_view part, int64_t first_line, int64_t votes_before,
                       const Election& election, LineVotes& out) {
  // Room for all `part` can hold (a line per '\n', an alternative per two bytes), so that
  // nothing is copied as the arrays grow: the pages never written are never touched.
  const size_t lines_bound = CountLines(part);
  for (std::vector<int64_t>* per_line : {&out.counts, &out.lines}) per_line->reserve(lines_bound);
  out.ends.reserve(lines_bound);
  out.alternatives.reserve(part.size() / 2 + 1);
  out.ranks.reserve(part.size() / 2 + 1);
  return preflib::ForEachVoteLine(
      part, first_line, election, out.skipped_votes, [&] { return votes_before + out.votes; },
      [&](int64_t line_number, int64_t count, const std::vector<Ranked>& ranked) {
        for (const Ranked& r : ranked) {
          out.alternatives.push_back(static_cast<AgentId>(r.alternative - 1));
          out.ranks.push_back(r.rank);
        }
        out.ends.push_back(out.alternatives.size());
        out.counts.push_back(count);
        out.lines.push_back(line_number);
        out.votes += count;
        out.standings += static_cast<size_t>(count) * ranked.size();
      });
}

// Calls `visit(part, line, ranked)` for every line of every part in file order, `ranked`
// holding the line's alternatives (header order, from 0) and ranks.
template <typename Visit>
void ForEachLine(const std::vector<LineVotes>& parts, Visit visit) {
  for (const LineVotes& part : parts) {
    size_t begin = 0;
    for (size_t i = 0; i < part.counts.size(); ++i) {
      const size_t end = part.ends[i];
      visit(part, i, absl::MakeConstSpan(part.alternatives).subspan(begin, end - begin),
            absl::MakeConstSpan(part.ranks).subspan(begin, end - begin));
      begin = end;
    }
  }
}

// ToVoteSet validates every result again, under the default ResultLimits: a vote that
// `election.limits` (more permissive) let through can fail there, and the first that does,
// in file order, is its error. Run only where a vote can fail: over-long ids or more
// standings than the default allows.
absl::Status CheckDefaultLimits(const std::vector<LineVotes>& parts, const Election& election) {
  const ResultLimits defaults;
  const bool ids_valid = preflib::IdsValid(election.agents, defaults);
  if (ids_valid && election.limits->max_standings <= defaults.max_standings) {
    return absl::OkStatus();
  }
  absl::Status status;
  std::vector<Ranked> ranked;
  ForEachLine(parts, [&](const LineVotes& part, size_t i, absl::Span<const AgentId> alternatives,
                         absl::Span<const uint32_t> ranks) {
    if (!status.ok()) return;
    ranked.clear();
    for (size_t j = 0; j < alternatives.size(); ++j) {
      ranked.push_back({static_cast<int64_t>(alternatives[j]) + 1, ranks[j]});
    }
    status = preflib::CheckVote(ranked, part.lines[i], election, defaults, ids_valid);
  });
  return status;
}

// The id of each alternative (header order), interned into `agents` in the order
// ToVoteSet interns: vote order, then standing order. Alternatives in no vote get none.
std::vector<AgentId> AssignIds(const std::vector<LineVotes>& parts, const Election& election,
                               AgentIndex& agents) {
  constexpr AgentId kNone = std::numeric_limits<AgentId>::max();
  std::vector<AgentId> ids(election.agents.size(), kNone);
  size_t assigned = 0;
  for (const LineVotes& part : parts) {
    for (const AgentId alternative : part.alternatives) {
      if (ids[alternative] != kNone) continue;
      // The ids are distinct (preflib_syntax.h), so each is new to `agents`.
      ids[alternative] = agents.Intern(election.agents[alternative]);
      if (++assigned == ids.size()) return ids;  // the rest can hold no new one
    }
  }
  return ids;
}

// Where a part's votes start in the vote set: its first vote's index, and its first
// standing's offset.
struct VoteBase {
  size_t vote = 0;
  size_t standing = 0;
};

// Writes the votes of `part`, each line's `count` times, into `arrays` from `base` on, its
// alternatives as their ids. A PrefLib line lists its alternatives best first with ranks 1,
// 2, ... (one per class), so the vote as given is also the vote best first with dense ranks.
void WriteVotes(const LineVotes& part, const std::vector<AgentId>& ids, VoteBase base,
                VoteSet::Arrays& arrays) {
  size_t vote = base.vote;
  size_t standing = base.standing;
  size_t begin = 0;
  for (size_t i = 0; i < part.counts.size(); ++i) {
    const size_t end = part.ends[i];
    const size_t k = end - begin;
    AgentId* const first_agents = &arrays.agents[standing];
    uint32_t* const first_ranks = &arrays.ranks[standing];
    for (size_t j = 0; j < k; ++j) {
      first_agents[j] = ids[part.alternatives[begin + j]];
      first_ranks[j] = part.ranks[begin + j];
    }
    // The other copies of the line's vote repeat its first.
    for (int64_t copy = 0; copy < part.counts[i]; ++copy) {
      if (copy > 0) {
        std::copy_n(first_agents, k, &arrays.agents[standing]);
        std::copy_n(first_ranks, k, &arrays.ranks[standing]);
      }
      standing += k;
      arrays.offsets[vote + 1] = standing;
      arrays.weights[vote] = 1.0;
      ++vote;
    }
    begin = end;
  }
}

}  // namespace

absl::StatusOr<VoteInput> ParsePreflibVotes(std::string_view content_view,
                                            std::string_view filename_view,
                                            const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  VoteInput input;
  ASSIGN_OR_RETURN(const std::optional<preflib::Body> body,
                   preflib::ReadHeader(content, filename, limits));
  if (!body.has_value()) return input;  // no data lines: no votes, no agents
  const Election& election = body->election;

  // The data lines: in two halves on two threads when long enough (parallel_lines.h), as
  // ParsePreflib reads them, with the same rule for the bound on the file's votes.
  const std::optional<LineHalves> halves = SplitLines(body->text, body->first_line);
  std::vector<LineVotes> parts(halves.has_value() ? 2 : 1);
  if (!halves.has_value()) {
    RETURN_IF_ERROR(ReadLines(body->text, body->first_line, 0, election, parts[0]));
  } else {
    absl::Status head_status;
    absl::Status tail_status;
    RunOnTwoThreads(
        [&] { head_status = ReadLines(halves->first, body->first_line, 0, election, parts[0]); },
        [&] {
          tail_status = ReadLines(halves->second, halves->second_first_line, 0, election, parts[1]);
        });
    // An error in the first half comes first in the file.
    if (!head_status.ok()) return head_status;
    // The second half was read as if the file started there; past the bound with the first
    // half's votes it is read again counting them (why that suffices: preflib.cc).
    if (parts[0].votes + parts[1].votes > kMaxRecords) {
      parts[1] = LineVotes();
      tail_status =
          ReadLines(halves->second, halves->second_first_line, parts[0].votes, election, parts[1]);
    }
    if (!tail_status.ok()) return tail_status;
  }
  RETURN_IF_ERROR(CheckDefaultLimits(parts, election));

  // The votes, with ids by first appearance, each line's count times, written in place:
  // each part's at its offset, on two threads when there are two parts.
  const std::vector<AgentId> ids = AssignIds(parts, election, input.agents);
  VoteSet::Arrays arrays;
  std::vector<VoteBase> bases;
  VoteBase total;
  for (const LineVotes& part : parts) {
    bases.push_back(total);
    total.vote += static_cast<size_t>(part.votes);
    total.standing += part.standings;
    input.skipped_votes += part.skipped_votes;
  }
  arrays.offsets.resize(total.vote + 1);
  arrays.agents.resize(total.standing);
  arrays.ranks.resize(total.standing);
  arrays.weights.resize(total.vote);
  arrays.offsets[0] = 0;
  if (parts.size() == 1) {
    WriteVotes(parts[0], ids, bases[0], arrays);
  } else {
    RunOnTwoThreads([&] { WriteVotes(parts[0], ids, bases[0], arrays); },
                    [&] { WriteVotes(parts[1], ids, bases[1], arrays); });
  }
  input.votes = VoteSet::FromArrays(std::move(arrays), input.agents.size());
  return input;
}

}  // namespace ratings::io
