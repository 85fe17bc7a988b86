#include "daemon/methods/run_rate.h"

#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/methods/method_registry.h"
#include "daemon/methods/read_input.h"
#include "ratings/online_bootstrap.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

absl::Status CheckReplicas(const RateConfig& config, const MethodInfo& method) {
  if (config.bootstrap_replicas == 0) return absl::OkStatus();
  if (!method.replicas) {
    return absl::InvalidArgumentError(
        absl::StrCat("--bootstrap-replicas: only the online models elo, sco and ml take it, not '",
                     config.method, "' (elo-bt and sco-batch: --param ci=...)"));
  }
  if (config.bootstrap_replicas < 2 || config.bootstrap_replicas > ratings::kMaxReplicas) {
    return absl::InvalidArgumentError(absl::StrCat("--bootstrap-replicas must be 0 or 2..",
                                                   ratings::kMaxReplicas, ", got ",
                                                   config.bootstrap_replicas));
  }
  return absl::OkStatus();
}

absl::Status CheckHistory(const RateConfig& config, const MethodInfo& method) {
  if (config.history.empty() || method.family == MethodFamily::kOnline) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("--history: only the online models elo, sco and glicko2 keep a history, not '",
                   config.method, "'"));
}

absl::Status CheckInactivity(const RateConfig& config, const MethodInfo& method) {
  if (config.inactive_after == absl::InfiniteDuration()) return absl::OkStatus();
  if (method.family != MethodFamily::kOnline) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--inactive-after: only the online models elo, sco, ml and glicko2 take it, not '",
        config.method, "'"));
  }
  if (config.inactive_after < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat("--inactive-after must be a duration >= 0, got ",
                                                   absl::FormatDuration(config.inactive_after)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::RatingReport> RunRate(const RateConfig& config) {
  ASSIGN_OR_RETURN(const MethodInfo* method, FindMethod(config.method));
  RETURN_IF_ERROR(CheckReplicas(config, *method));
  RETURN_IF_ERROR(CheckHistory(config, *method));
  RETURN_IF_ERROR(CheckInactivity(config, *method));
  // Bad parameters are reported before the input is read.
  ASSIGN_OR_RETURN(const std::unique_ptr<MethodRun> run, PrepareMethod(config));
  // The methods that rate a vote set read a PrefLib file or a score table straight into one.
  if (method->input == MethodInput::kVotes) {
    ASSIGN_OR_RETURN(const std::optional<ratings::io::VoteInput> votes, ReadVotesDirectly(config));
    if (votes.has_value()) {
      return run->RateVotes(config, votes->agents, votes->votes, votes->skipped_votes);
    }
  }
  ASSIGN_OR_RETURN(const PoolRecords input, ReadPoolRecords(config));
  return run->RateRecords(config, input.records, input.skipped_votes);
}

absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                             absl::Span<const ratings::io::ResultRecord> records,
                                             int64_t skipped_votes) {
  ASSIGN_OR_RETURN(const std::unique_ptr<MethodRun> run, PrepareMethod(config));
  return run->RateRecords(config, records, skipped_votes);
}

}  // namespace ratingd
