// The base of the methods of input kVotes (batch fits and voting rules): records become
// votes (ratings/io/records_to_votes.h) and are rated as a vote set read straight from a
// file would be.
#pragma once

#include <string>
#include <utility>

#include "daemon/methods/method_registry.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/status_macros.h"

namespace ratingd {

class VoteRun : public MethodRun {
 public:
  absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                               absl::Span<const ratings::io::ResultRecord> records,
                                               int64_t skipped_votes) const override {
    ratings::AgentIndex index;
    ASSIGN_OR_RETURN(const ratings::VoteSet votes,
                     ratings::io::ToVoteSet(records, config.input, index));
    return RateVotes(config, index, votes, skipped_votes);
  }

  absl::StatusOr<v1::RatingReport> RateVotes(const RateConfig& config,
                                             const ratings::AgentIndex& index,
                                             const ratings::VoteSet& votes,
                                             int64_t skipped_votes) const override = 0;

 protected:
  explicit VoteRun(std::string name) : MethodRun(std::move(name)) {}
};

}  // namespace ratingd
