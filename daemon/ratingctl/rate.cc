#include "daemon/ratingctl/rate.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "daemon/deterministic_json.h"
#include "daemon/model_params.h"
#include "daemon/pool_report.h"
#include "daemon/ratingctl/rate_batch.h"
#include "daemon/ratingctl/rate_games.h"
#include "daemon/ratingctl/rate_voting.h"
#include "ratings/io/preflib_votes.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/io/scores_votes.h"
#include "ratings/model.h"
#include "ratings/online_bootstrap.h"
#include "ratings/pool.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

// A pool keeping only `model`, with `params` ("key=value") applied.
absl::StatusOr<ratings::PoolOptions> OptionsFor(ratings::Model model,
                                                const std::vector<std::string>& params) {
  ratings::PoolOptions options;
  options.elo = model == ratings::Model::kElo;
  options.sco = model == ratings::Model::kSco;
  options.ml = model == ratings::Model::kMl;
  for (const std::string& p : params) {
    RETURN_IF_ERROR(ApplyModelParam(ratings::ModelName(model), p, options));
  }
  return options;
}

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

absl::Status CheckMethod(const std::string& method) {
  const std::vector<std::string> methods = RateMethods();
  if (std::find(methods.begin(), methods.end(), method) == methods.end()) {
    return absl::InvalidArgumentError(absl::StrCat("--method: unknown method '", method,
                                                   "'; known: ", absl::StrJoin(methods, ", ")));
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<std::string> RateMethods() {
  std::vector<std::string> methods;
  for (ratings::Model m : ratings::kModels) methods.emplace_back(ratings::ModelName(m));
  for (const std::string& m : BatchMethodNames()) methods.push_back(m);
  for (std::string& m : VotingMethods()) methods.push_back(std::move(m));
  for (std::string& m : GameMethods()) methods.push_back(std::move(m));
  return methods;
}

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

absl::StatusOr<v1::RatingReport> RunRate(const RateConfig& config) {
  RETURN_IF_ERROR(CheckMethod(config.method));
  if (config.bootstrap_replicas != 0) {
    if (!ratings::ParseModel(config.method).has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--bootstrap-replicas: only the online models elo, sco and ml take it, not '",
          config.method, "' (elo-bt and sco-batch: --param ci=...)"));
    }
    if (config.bootstrap_replicas < 2 || config.bootstrap_replicas > ratings::kMaxReplicas) {
      return absl::InvalidArgumentError(absl::StrCat("--bootstrap-replicas must be 0 or 2..",
                                                     ratings::kMaxReplicas, ", got ",
                                                     config.bootstrap_replicas));
    }
  }
  // Bad parameters are reported before the input is read.
  if (IsVotingMethod(config.method)) {
    RETURN_IF_ERROR(CheckVotingParams(config));
  } else if (IsGameMethod(config.method)) {
    RETURN_IF_ERROR(CheckGameParams(config));
  } else if (IsBatchMethod(config.method)) {
    RateConfig quiet = config;
    quiet.progress = nullptr;
    RETURN_IF_ERROR(RateBatch(quiet, {}, 0).status());
  } else if (const std::optional<ratings::Model> model = ratings::ParseModel(config.method)) {
    ASSIGN_OR_RETURN(const ratings::PoolOptions options, OptionsFor(*model, config.params));
    RETURN_IF_ERROR(ratings::Pool::Create(options).status());
  }
  // The methods that rate a vote set read a PrefLib file or a score table straight into
  // one. Not nash-avg, which rates the records' scores, nor the online models and game
  // methods, which replay the records.
  const bool batch = IsBatchMethod(config.method);
  if (batch || (IsVotingMethod(config.method) && config.method != "nash-avg")) {
    ASSIGN_OR_RETURN(const std::optional<ratings::io::VoteInput> votes, ReadVotesDirectly(config));
    if (votes.has_value()) {
      return batch ? RateBatchVotes(config, votes->agents, votes->votes, votes->skipped_votes)
                   : RateVotesByVoting(config, votes->agents, votes->votes, votes->skipped_votes);
    }
  }
  ASSIGN_OR_RETURN(const PoolRecords input, ReadPoolRecords(config));
  return RateRecords(config, input.records, input.skipped_votes);
}

absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                             absl::Span<const ratings::io::ResultRecord> records,
                                             int64_t skipped_votes) {
  RETURN_IF_ERROR(CheckMethod(config.method));
  if (IsBatchMethod(config.method)) return RateBatch(config, records, skipped_votes);
  if (IsVotingMethod(config.method)) return RateByVoting(config, records, skipped_votes);
  if (IsGameMethod(config.method)) return RateByGame(config, records, skipped_votes);
  // CheckMethod passed and the method is neither batch nor voting: an online model.
  const std::optional<ratings::Model> model = ratings::ParseModel(config.method);
  if (!model.has_value()) {
    return absl::InternalError(absl::StrCat("--method '", config.method, "' is not a model"));
  }
  ASSIGN_OR_RETURN(const ratings::PoolOptions options, OptionsFor(*model, config.params));
  ASSIGN_OR_RETURN(ratings::Pool pool, ratings::Pool::Create(options));
  // ratingd's replicas of this pool: seeded by its name (records hold one pool here).
  std::optional<ratings::OnlineBootstrap> bootstrap;
  if (config.bootstrap_replicas > 0 && *model != ratings::Model::kMl) {
    ASSIGN_OR_RETURN(bootstrap,
                     ratings::OnlineBootstrap::Create(
                         {.replicas = config.bootstrap_replicas,
                          .seed = ratings::NameSeed(records.empty() ? "" : records.front().pool)},
                         options.elo ? std::optional(options.elo_options) : std::nullopt,
                         options.sco ? std::optional(options.sco_options) : std::nullopt));
  }
  for (const ratings::io::ResultRecord& record : records) {
    absl::Status applied = pool.Apply(record.result);
    if (!applied.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(config.input, ":", record.line, ": ", applied.message()));
    }
    if (bootstrap) bootstrap->Update(pool);
  }

  // The online models draw nothing; the seed is only echoed in extra.seed.
  ASSIGN_OR_RETURN(v1::RatingReport report, PoolReport(*model, pool, 0, config.seed));
  if (config.bootstrap_replicas > 0) {
    AddUncertainty(*model, pool, bootstrap ? &*bootstrap : nullptr, config.provisional_games,
                   *report.mutable_ranking());
  }
  (*report.mutable_extra()->mutable_fields())["skipped_votes"].set_number_value(
      static_cast<double>(skipped_votes));
  return report;
}

absl::StatusOr<std::string> ReportToJson(const v1::RatingReport& report) {
  return DeterministicJson(report);
}

std::string ReportToTable(const v1::RatingReport& report) {
  const bool ml =
      report.method() == ratings::ModelName(ratings::Model::kMl) || report.method() == "ml-exact";
  const auto& extra = report.extra().fields();
  size_t width = 5;
  for (const auto& r : report.ranking()) width = std::max(width, r.agent().size());
  std::string out = absl::StrFormat("%s: %u agents, %u results\n", report.method(), report.agents(),
                                    report.results());
  // Optional columns, shown when the first entry has them (every entry then does): the 95%
  // interval with the rank interval (ci=..., --bootstrap-replicas), and games.
  const bool intervals = report.ranking_size() > 0 && report.ranking(0).has_ci_low();
  const bool games = report.ranking_size() > 0 && report.ranking(0).has_games();
  absl::StrAppendFormat(&out, "%4s  %-*s  %12s%s%s%s\n", "rank", static_cast<int>(width), "agent",
                        "rating", ml ? "  probability" : "",
                        intervals ? absl::StrFormat("  %-26s  %9s", "95% interval", "ranks") : "",
                        games ? "      games" : "");
  for (const auto& r : report.ranking()) {
    std::string line = absl::StrFormat("%4u  %-*s  %12.4f", r.rank(), static_cast<int>(width),
                                       r.agent(), r.rating());
    if (ml) {
      const auto& lottery = extra.at("lottery").struct_value().fields();
      absl::StrAppendFormat(&line, "  %11.4f", lottery.at(r.agent()).number_value());
    }
    if (intervals) {
      absl::StrAppendFormat(&line, "  [%11.4f, %11.4f]  %9s", r.ci_low(), r.ci_high(),
                            absl::StrFormat("%u-%u", r.rank_low(), r.rank_high()));
    }
    if (games) absl::StrAppendFormat(&line, "  %9u%s", r.games(), r.provisional() ? " ?" : "");
    absl::StrAppend(&out, line, "\n");
  }
  if (games) out += "? provisional: fewer results than --provisional-games\n";
  if (ml && extra.count("iterations") == 0) {  // ml-exact: an LP, no iterations
    absl::StrAppendFormat(&out, "exploitability %.2e (exact)\n",
                          extra.at("exploitability").number_value());
  } else if (ml) {
    absl::StrAppendFormat(&out, "exploitability %.2e after %.0f iterations\n",
                          extra.at("exploitability").number_value(),
                          extra.at("iterations").number_value());
  }
  return out;
}

}  // namespace ratingd
