#include "daemon/methods/read_input.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ratings/io/preflib_votes.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/io/scores_votes.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

// --pool on a file that names no pool and holds results: it would select nothing.
absl::Status NoPoolsError(const RateConfig& config) {
  return absl::InvalidArgumentError(absl::StrCat("--pool ", config.pool, ": ", config.input,
                                                 " names no pools (only JSONL results do); "
                                                 "leave --pool out"));
}

// The pool to rate: all records must belong to one pool, or config.pool picks one.
absl::StatusOr<std::string> ChoosePool(const RateConfig& config,
                                       const std::vector<ratings::io::ResultRecord>& records) {
  if (!config.pool.empty()) {
    // PrefLib, score tables and battles name no pool.
    const bool pooled =
        std::any_of(records.begin(), records.end(),
                    [](const ratings::io::ResultRecord& r) { return !r.pool.empty(); });
    if (!records.empty() && !pooled) return NoPoolsError(config);
    return config.pool;
  }
  std::set<std::string> pools;
  for (const auto& r : records) pools.insert(r.pool);
  if (pools.size() <= 1) return pools.empty() ? std::string() : *pools.begin();
  std::vector<std::string> first(pools.begin(), pools.end());
  if (first.size() > 5) first.resize(5);
  return absl::InvalidArgumentError(absl::StrCat(
      config.input, ": holds results of ", pools.size(), " pools (", absl::StrJoin(first, ", "),
      pools.size() > 5 ? ", ..." : "", "); ratings never mix pools: choose one with --pool"));
}

}  // namespace

absl::StatusOr<PoolRecords> ReadPoolRecords(const RateConfig& config) {
  ratings::io::Format format;
  if (config.format.has_value()) {
    format = *config.format;
  } else {
    ASSIGN_OR_RETURN(format, ratings::io::InferFormat(config.input));
  }
  ASSIGN_OR_RETURN(ratings::io::ReadOutput input,
                   ratings::io::ReadResultsFile(config.input, format, ratings::ResultLimits{}));
  ASSIGN_OR_RETURN(const std::string chosen, ChoosePool(config, input.records));
  PoolRecords out;
  out.skipped_votes = input.skipped_votes;
  if (std::all_of(input.records.begin(), input.records.end(),
                  [&](const ratings::io::ResultRecord& r) { return r.pool == chosen; })) {
    out.records = std::move(input.records);  // the usual case: one pool, nothing to copy
    return out;
  }
  for (ratings::io::ResultRecord& record : input.records) {
    if (record.pool == chosen) out.records.push_back(std::move(record));
  }
  return out;
}

absl::StatusOr<std::optional<ratings::io::VoteInput>> ReadVotesDirectly(const RateConfig& config) {
  ratings::io::Format format;
  if (config.format.has_value()) {
    format = *config.format;
  } else {
    ASSIGN_OR_RETURN(format, ratings::io::InferFormat(config.input));
  }
  if (format != ratings::io::Format::kPreflib && format != ratings::io::Format::kScores) {
    return std::nullopt;
  }
  ASSIGN_OR_RETURN(const std::string content, ratings::io::ReadFileContent(config.input));
  // ToVoteSet's own errors, which ParsePreflibVotes and ParseScoresVotes give after those of
  // ParsePreflib and ParseScores, cannot happen under the default limits that
  // ReadPoolRecords reads with too; so the --pool check below comes after every possible
  // error of reading, as in ChoosePool.
  ASSIGN_OR_RETURN(
      ratings::io::VoteInput votes,
      format == ratings::io::Format::kPreflib
          ? ratings::io::ParsePreflibVotes(content, config.input, ratings::ResultLimits{})
          : ratings::io::ParseScoresVotes(content, config.input, ratings::ResultLimits{}));
  // As ChoosePool: PrefLib files and score tables name no pools (and hold results exactly
  // when they hold votes: a score table's every row is one).
  if (!config.pool.empty() && votes.votes.size() > 0) return NoPoolsError(config);
  return std::optional<ratings::io::VoteInput>(std::move(votes));
}

absl::StatusOr<ratings::io::VoteInput> ReadPoolVotes(const RateConfig& config) {
  ASSIGN_OR_RETURN(std::optional<ratings::io::VoteInput> direct, ReadVotesDirectly(config));
  if (direct.has_value()) return *std::move(direct);
  ASSIGN_OR_RETURN(const PoolRecords input, ReadPoolRecords(config));
  ratings::io::VoteInput out;
  ASSIGN_OR_RETURN(out.votes, ratings::io::ToVoteSet(input.records, config.input, out.agents));
  out.skipped_votes = input.skipped_votes;
  return out;
}

}  // namespace ratingd
