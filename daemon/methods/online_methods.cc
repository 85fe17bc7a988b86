#include "daemon/methods/online_methods.h"

#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/history_csv.h"
#include "daemon/model_params.h"
#include "daemon/pool_report.h"
#include "ratings/online_bootstrap.h"
#include "ratings/pool_history.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

// ml's extra.lottery keeps the listed agents only (those --inactive-after left in).
void PruneLottery(v1::RatingReport& report) {
  auto& fields = *report.mutable_extra()->mutable_fields();
  const auto lottery = fields.find("lottery");
  if (lottery == fields.end()) return;
  absl::flat_hash_set<std::string> listed;
  for (const v1::RankedAgent& r : report.ranking()) listed.insert(r.agent());
  auto& probabilities = *lottery->second.mutable_struct_value()->mutable_fields();
  for (auto it = probabilities.begin(); it != probabilities.end();) {
    it = listed.contains(it->first) ? std::next(it) : probabilities.erase(it);
  }
}

class OnlineRun : public MethodRun {
 public:
  explicit OnlineRun(ratings::Model model)
      : MethodRun(std::string(ratings::ModelName(model))), model_(model) {
    options_.elo = model == ratings::Model::kElo;
    options_.sco = model == ratings::Model::kSco;
    options_.ml = model == ratings::Model::kMl;
    options_.glicko2 = model == ratings::Model::kGlicko2;
    params_ = ModelParamTable(model, options_);
  }

  const ratings::PoolOptions& options() const { return options_; }

  absl::Status Check() const override { return ratings::Pool::Create(options_).status(); }

  absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                               absl::Span<const ratings::io::ResultRecord> records,
                                               int64_t skipped_votes) const override {
    ratings::PoolOptions options = options_;
    options.inactive_after = config.inactive_after;
    ASSIGN_OR_RETURN(ratings::Pool pool, ratings::Pool::Create(options));
    // ratingd's replicas of this pool: seeded by its name (records hold one pool here).
    std::optional<ratings::OnlineBootstrap> bootstrap;
    if (config.bootstrap_replicas > 0 && (options_.elo || options_.sco)) {
      ASSIGN_OR_RETURN(bootstrap,
                       ratings::OnlineBootstrap::Create(
                           {.replicas = config.bootstrap_replicas,
                            .seed = ratings::NameSeed(records.empty() ? "" : records.front().pool)},
                           options_.elo ? std::optional(options_.elo_options) : std::nullopt,
                           options_.sco ? std::optional(options_.sco_options) : std::nullopt));
    }
    std::optional<ratings::PoolHistory> history;
    if (!config.history.empty()) {
      absl::StatusOr<ratings::PoolHistory> created =
          ratings::PoolHistory::Create(model_, config.history_points);
      if (!created.ok())
        return absl::InvalidArgumentError(absl::StrCat("--", created.status().message()));
      history = *std::move(created);
    }
    for (const ratings::io::ResultRecord& record : records) {
      absl::Status applied = pool.Apply(record.result, record.event_time);
      if (!applied.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(config.input, ":", record.line, ": ", applied.message()));
      }
      if (bootstrap) bootstrap->Update(pool);
      if (history) history->Record(pool, bootstrap ? &*bootstrap : nullptr, record.event_time);
    }
    if (history) RETURN_IF_ERROR(WriteHistoryCsv(config.history, *history, pool.index()));
    // The online models draw nothing; the seed is only echoed in extra.seed.
    ASSIGN_OR_RETURN(v1::RatingReport report, PoolReport(model_, pool, 0, config.seed));
    // Glicko-2's deviation is its uncertainty: its entries always carry it.
    if (config.bootstrap_replicas > 0 || options_.glicko2) {
      AddUncertainty(model_, pool, bootstrap ? &*bootstrap : nullptr,
                     {.games = config.provisional_games, .rd = config.provisional_rd},
                     *report.mutable_ranking());
    }
    ApplyInactivity(pool, config.include_inactive, *report.mutable_ranking());
    if (pool.activity() != nullptr) PruneLottery(report);
    (*report.mutable_extra()->mutable_fields())["skipped_votes"] =
        NumberValue(static_cast<double>(skipped_votes));
    return report;
  }

 private:
  ratings::Model model_;
  ratings::PoolOptions options_;
};

}  // namespace

std::unique_ptr<MethodRun> MakeOnlineRun(ratings::Model model) {
  return std::make_unique<OnlineRun>(model);
}

const ratings::PoolOptions* OnlineOptions(const MethodRun& run) {
  const auto* online = dynamic_cast<const OnlineRun*>(&run);
  return online == nullptr ? nullptr : &online->options();
}

}  // namespace ratingd
