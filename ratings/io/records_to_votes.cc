#include "ratings/io/records_to_votes.h"

#include "absl/strings/str_cat.h"

namespace ratings::io {

absl::StatusOr<VoteSet> ToVoteSet(absl::Span<const ResultRecord> records, std::string_view input,
                                  AgentIndex& index) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view name(input.data(), input.size());
  VoteSet votes;
  for (const ResultRecord& record : records) {
    if (absl::Status s = votes.Add(record.result, index); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(name, ":", record.line, ": ", s.message()));
    }
  }
  votes.SetNumAgents(index.size());
  return votes;
}

}  // namespace ratings::io
