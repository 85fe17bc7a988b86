#include "ratings/io/preflib_votes.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/preflib_syntax.h"
#include "ratings/status_macros.h"

namespace ratings::io {
namespace {

using preflib::Election;
using preflib::kMaxRecords;
using preflib::Ranked;

// A line's alternatives are kept as their numbers less one (header order), the tie with
// the one before (same indifference class) in the top bit, which no number reaches
// (ParsePreflibVotes checks). Ranks follow: 1 for the first, one more at each untied one.
constexpr AgentId kTiedWithPrevious = AgentId{1} << 31;

// The votes of one part of the body: one entry per data line that holds a vote (count >= 1,
// two alternatives or more), in file order. Its agents are the alternatives' numbers less
// one (header order): ids in first-appearance order need every earlier line, so they are
// given once every part is read (AssignIds). 8 bytes a line and 4 an alternative:
// what the vote set will hold is written once, in place (WriteVotes).
// A line's voters (at most kMaxCount) and alternatives (at most the file's, which are fewer
// than 2^31: ParsePreflibVotes checks).
struct LineShape {
  uint32_t count;
  uint32_t size;
};

struct LineVotes {
  std::vector<AgentId> alternatives;  // the lines' in turn, each in standing order, coded
  std::vector<LineShape> shapes;      // one per line
  int64_t votes = 0;                  // the sum of counts
  size_t standings = 0;               // the sum over lines of count times alternatives
  int64_t skipped_votes = 0;          // as ReadOutput::skipped_votes
  // The first vote of the part that fails the default ResultLimits (DefaultsCanFail), for
  // ToVoteSet's error, which comes only when the whole file reads without one of its own.
  absl::Status defaults_error;
};

static_assert(preflib::kMaxCount <= std::numeric_limits<uint32_t>::max());

// ToVoteSet validates every result again, under the default ResultLimits: a vote that
// `election.limits` (more permissive) let through can fail there. Only over-long ids or
// more standings than the default allows can make it.
bool DefaultsCanFail(const Election& election, bool ids_valid_by_default) {
  return !ids_valid_by_default || election.limits->max_standings > ResultLimits().max_standings;
}

// Reads the data lines of `part` (whose first line is line `first_line` of the file) into
// `out`, with the checks of ParsePreflib in its order (preflib.cc, ParseVoteLines), so that
// the first error is the same; `votes_before` is how many votes the file has before `part`
// (for kMaxRecords).
absl::Status ReadLines(absl::string_view part, int64_t first_line, int64_t votes_before,
                       const Election& election, LineVotes& out) {
  // Room for all `part` can hold (a line per '\n', an alternative per two bytes), so that
  // nothing is copied as the arrays grow: the pages never written are never touched.
  const size_t lines_bound = CountLines(part);
  out.shapes.reserve(lines_bound);
  out.alternatives.reserve(part.size() / 2 + 1);
  const ResultLimits defaults;
  const bool ids_valid_by_default = preflib::IdsValid(election.agents, defaults);
  const bool check_defaults = DefaultsCanFail(election, ids_valid_by_default);
  return preflib::ForEachVoteLine(
      part, first_line, election, out.skipped_votes, [&] { return votes_before + out.votes; },
      [&](int64_t line_number, int64_t count, const std::vector<Ranked>& ranked) {
        if (check_defaults && out.defaults_error.ok()) {
          out.defaults_error =
              preflib::CheckVote(ranked, line_number, election, defaults, ids_valid_by_default);
        }
        for (size_t j = 0; j < ranked.size(); ++j) {
          const bool tied = j > 0 && ranked[j].rank == ranked[j - 1].rank;
          out.alternatives.push_back(static_cast<AgentId>(ranked[j].alternative - 1) |
                                     (tied ? kTiedWithPrevious : 0));
        }
        out.shapes.push_back({static_cast<uint32_t>(count), static_cast<uint32_t>(ranked.size())});
        out.votes += count;
        out.standings += static_cast<size_t>(count) * ranked.size();
      });
}

// The id of each alternative (header order), interned into `agents` in the order
// ToVoteSet interns: vote order, then standing order. Alternatives in no vote get none.
std::vector<AgentId> AssignIds(const std::vector<LineVotes>& parts, const Election& election,
                               AgentIndex& agents) {
  constexpr AgentId kNone = std::numeric_limits<AgentId>::max();
  std::vector<AgentId> ids(election.agents.size(), kNone);
  size_t assigned = 0;
  for (const LineVotes& part : parts) {
    for (const AgentId coded : part.alternatives) {
      const AgentId alternative = coded & ~kTiedWithPrevious;
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
  for (const LineShape& shape : part.shapes) {
    const size_t k = shape.size;
    AgentId* const first_agents = &arrays.agents[standing];
    uint32_t* const first_ranks = &arrays.ranks[standing];
    uint32_t rank = 0;
    for (size_t j = 0; j < k; ++j) {
      const AgentId coded = part.alternatives[begin + j];
      if ((coded & kTiedWithPrevious) == 0) ++rank;
      first_agents[j] = ids[coded & ~kTiedWithPrevious];
      first_ranks[j] = rank;
    }
    // The other copies of the line's vote repeat its first.
    for (uint32_t copy = 0; copy < shape.count; ++copy) {
      if (copy > 0) {
        std::copy_n(first_agents, k, &arrays.agents[standing]);
        std::copy_n(first_ranks, k, &arrays.ranks[standing]);
      }
      standing += k;
      arrays.offsets[vote + 1] = standing;
      ++vote;
    }
    begin += k;
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
  if (election.agents.size() > kTiedWithPrevious) {
    // Each alternative needs its own header line: some 50 GB of header, out of reach.
    return absl::ResourceExhaustedError(
        absl::StrCat(filename, ": more than ", kTiedWithPrevious, " alternatives"));
  }

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
  // ToVoteSet's own error, if any: the first vote in file order that fails its defaults.
  for (const LineVotes& part : parts) RETURN_IF_ERROR(part.defaults_error);

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
