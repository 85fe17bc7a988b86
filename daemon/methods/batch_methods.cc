#include "daemon/methods/batch_methods.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/rate_intervals.h"
#include "daemon/methods/vote_run.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/batch/permuted_elo.h"
#include "ratings/batch/sco_batch.h"
#include "ratings/pair_count.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"
#include "ratings/voting/batch_tally.h"

namespace ratingd {
namespace {

using google::protobuf::Value;
using Extra = google::protobuf::Map<std::string, Value>;

// extra.sem (agent -> standard error of the mean over permutations) and
// extra.order_agreement ([{pair: [above, below], agreement}] for each adjacent pair of the
// ranking, best first: the fraction of permutations that end with `above` strictly higher).
void AddPermutationSpread(absl::Span<const std::vector<double>> finals,
                          const ratings::PermutationSummary& summary,
                          const ratings::AgentIndex& index, Extra& extra) {
  auto& sem = *extra["sem"].mutable_struct_value()->mutable_fields();
  for (size_t a = 0; a < summary.sem.size(); ++a) {
    sem[index.Name(static_cast<ratings::AgentId>(a))] = NumberValue(summary.sem[a]);
  }
  const std::vector<ratings::RankedAgent> ranked = ratings::RankByRating(summary.mean, index);
  auto& agreement = *extra["order_agreement"].mutable_list_value();
  for (size_t i = 0; i + 1 < ranked.size(); ++i) {
    auto& entry = *agreement.add_values()->mutable_struct_value()->mutable_fields();
    auto& pair = *entry["pair"].mutable_list_value();
    *pair.add_values() = StringValue(index.Name(ranked[i].id));
    *pair.add_values() = StringValue(index.Name(ranked[i + 1].id));
    entry["agreement"] =
        NumberValue(ratings::OrderAgreement(finals, ranked[i].id, ranked[i + 1].id));
  }
}

// The ranking by rating (ratings within `tie_tolerance` tie, docs/MODELS.md §9), with the
// intervals when there are any.
void FinishReport(const std::vector<double>& rating, double tie_tolerance,
                  const std::vector<ratings::RatingInterval>& ci, const ratings::AgentIndex& index,
                  v1::RatingReport& report) {
  for (const ratings::RankedAgent& r : ratings::RankByRating(rating, index, tie_tolerance)) {
    v1::RankedAgent* out = report.add_ranking();
    out->set_rank(r.rank);
    out->set_agent(index.Name(r.id));
    out->set_rating(r.rating);
  }
  if (!ci.empty()) SetIntervals(ci, index, report);
}

// The batch fits' common frame.
class BatchRun : public VoteRun {
 protected:
  using VoteRun::VoteRun;

  // The report's frame: method, counts, and the common extra.
  v1::RatingReport StartReport(const RateConfig& config, const ratings::AgentIndex& index,
                               const ratings::VoteSet& votes, int64_t skipped_votes) const {
    v1::RatingReport report;
    report.set_method(config.method);
    report.set_agents(static_cast<uint32_t>(index.size()));
    report.set_results(static_cast<uint32_t>(votes.size()));
    AddCommonExtra(config, skipped_votes, report);
    return report;
  }
};

class EloBtRun : public BatchRun {
 public:
  EloBtRun() : BatchRun("elo-bt") {
    permuted_.permutations = 0;  // 0 = the MM fit
    params_.Add("prior", &bt_.prior)
        .Help(
            "pseudo-games of the prior: each agent wins and loses prior/2 against a virtual "
            "agent (0 = none)")
        .Bounds(0, std::nullopt)
        .Add("accelerate", &accelerate_)
        .Help("1 = SQUAREM-accelerated MM, 0 = plain MM")
        .Bounds(0, 1)
        .Add("anchor", &bt_.anchor)
        .Help("the mean rating the fit is shifted to")
        .Add("tolerance", &bt_.tolerance)
        .Help("stop when no rating moves more than this many Elo points; closer ratings tie")
        .Bounds(0, std::nullopt, /*min_exclusive=*/true)
        .Add("max_iterations", &bt_.max_iterations)
        .Help("cap on MM iterations")
        .Bounds(1, std::nullopt)
        .Add("permutations", &permuted_.permutations)
        .Help("0 = Hunter's MM fit; N = mean of N shuffled online Elo runs ([EU] §7)")
        .Bounds(0, std::nullopt)
        .Add("k", &permuted_.elo.k)
        .Help("permutations: the online Elo's K-factor")
        .Add("initial", &permuted_.elo.initial)
        .Help("permutations: every agent's initial Elo rating");
    AddIntervalParams(params_, intervals_, /*with_ties=*/true);
  }

  absl::Status Check() const override {
    if (accelerate_ != 0 && accelerate_ != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param accelerate (elo-bt): must be 0 or 1, got ", accelerate_));
    }
    if (permuted_.permutations < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "elo-bt: permutations must be >= 0 (0 = MM fit), got ", permuted_.permutations));
    }
    if (permuted_.permutations > 0 && (intervals_.requested() || intervals_.ties != "drop")) {
      return absl::InvalidArgumentError(
          "elo-bt: ci and ties apply to the MM fit, not to permutations (whose spread is "
          "extra.sem, and whose Elo counts a tie as a draw)");
    }
    // Both variants' options are checked whichever runs, so a typo never passes silently.
    RETURN_IF_ERROR(ratings::CheckBradleyTerryOptions(bt_));
    return ratings::Elo::Create(permuted_.elo).status();
  }

  absl::StatusOr<v1::RatingReport> RateVotes(const RateConfig& config,
                                             const ratings::AgentIndex& index,
                                             const ratings::VoteSet& votes,
                                             int64_t skipped_votes) const override {
    v1::RatingReport report = StartReport(config, index, votes, skipped_votes);
    auto& extra = *report.mutable_extra()->mutable_fields();
    // The one batch tally (ratings/voting), always sparse here: Bradley–Terry needs only the
    // pairs seen, so memory stays O(agents + pairs) (docs/CONTRACTS.md §5).
    // With ties=half a tie is half a win for each side (PairOutcomeTally, which keeps ties).
    // Only when needed: it costs a pass over the votes with a hash lookup per pair.
    std::optional<ratings::PairOutcomeTally> outcomes;
    if (intervals_.ties == "half" || intervals_.requested()) outcomes.emplace(votes);
    const std::vector<ratings::PairCount> pairs =
        intervals_.ties == "half" ? HalfTiePairs(*outcomes) : ratings::voting::TallyPairs(votes);
    extra["pairs"] = NumberValue(static_cast<double>(pairs.size()));
    std::vector<double> rating;
    std::vector<ratings::RatingInterval> ci;  // empty without --param ci
    double tie_tolerance = 0.0;
    if (permuted_.permutations > 0) {
      ASSIGN_OR_RETURN(rating, Permutations(config, index, votes, extra));
    } else {
      ASSIGN_OR_RETURN(rating,
                       MmFit(config, index.size(), pairs, outcomes, votes.size(), ci, extra));
      // The fit resolves ratings no finer than its tolerance: closer ones tie, then go by
      // name (docs/MODELS.md §5.1).
      tie_tolerance = bt_.tolerance;
    }
    FinishReport(rating, tie_tolerance, ci, index, report);
    return report;
  }

 private:
  absl::StatusOr<std::vector<double>> Permutations(const RateConfig& config,
                                                   const ratings::AgentIndex& index,
                                                   const ratings::VoteSet& votes,
                                                   Extra& extra) const {
    ratings::PermutedEloOptions permuted = permuted_;
    permuted.seed = config.seed;
    extra["variant"].set_string_value("permutations");
    ASSIGN_OR_RETURN(const std::vector<std::vector<double>> finals,
                     ratings::PermutedEloFinals(votes, permuted, config.progress));
    ratings::PermutationSummary summary = ratings::SummarizePermutations(finals);
    AddPermutationSpread(finals, summary, index, extra);
    return std::move(summary.mean);
  }

  absl::StatusOr<std::vector<double>> MmFit(
      const RateConfig& config, size_t agents, const std::vector<ratings::PairCount>& pairs,
      const std::optional<ratings::PairOutcomeTally>& outcomes, size_t votes,
      std::vector<ratings::RatingInterval>& ci, Extra& extra) const {
    extra["variant"].set_string_value("mm");
    const absl::Time start = absl::Now();
    ASSIGN_OR_RETURN(ratings::BradleyTerryFit fit,
                     ratings::FitBradleyTerry(agents, pairs, Options(), config.progress));
    if (intervals_.requested()) {
      ASSIGN_OR_RETURN(ci, BradleyTerryIntervals(*outcomes, votes, fit.ratings, Options(),
                                                 intervals_, config.seed));
      extra["fit_seconds"] = NumberValue(absl::ToDoubleSeconds(absl::Now() - start));
    }
    extra["iterations"] = NumberValue(static_cast<double>(fit.iterations));
    extra["converged"].set_bool_value(fit.converged);
    extra["last_change"] = NumberValue(fit.last_change);
    return std::move(fit.ratings);
  }

  ratings::BradleyTerryOptions Options() const {
    ratings::BradleyTerryOptions bt = bt_;
    bt.accelerate = accelerate_ == 1;
    return bt;
  }

  ratings::BradleyTerryOptions bt_;
  ratings::PermutedEloOptions permuted_;
  int64_t accelerate_ = 1;
  IntervalParams intervals_;
};

// The sampling options both SCO fits share, with their help.
template <typename Options>
void AddScoSampling(ParamTable& table, Options& o) {
  table.Add("batch", &o.batch)
      .Help("results sampled per step")
      .Bounds(1, std::nullopt)
      .Add("iterations", &o.iterations)
      .Help("gradient steps")
      .Bounds(0, std::nullopt)
      .Add("alpha", &o.alpha)
      .Help("step size")
      .Bounds(0, std::nullopt, /*min_exclusive=*/true);
}

class ScoBatchRun : public BatchRun {
 public:
  ScoBatchRun() : BatchRun("sco-batch") {
    AddScoSampling(params_, o_);
    params_.Add("tau", &o_.tau)
        .Help("temperature of the sigmoid loss")
        .Bounds(0, std::nullopt, /*min_exclusive=*/true)
        .Add("min", &o_.min)
        .Help("lower bound of the ratings")
        .Add("max", &o_.max)
        .Help("upper bound of the ratings");
    AddIntervalParams(params_, intervals_, /*with_ties=*/false);
  }

  absl::Status Check() const override {
    if (intervals_.ci == "sandwich") {
      return absl::InvalidArgumentError(
          "--param ci (sco-batch): sandwich needs a likelihood; sco-batch has bootstrap only");
    }
    return ratings::CheckScoBatchOptions(o_);
  }

  absl::StatusOr<v1::RatingReport> RateVotes(const RateConfig& config,
                                             const ratings::AgentIndex& index,
                                             const ratings::VoteSet& votes,
                                             int64_t skipped_votes) const override {
    v1::RatingReport report = StartReport(config, index, votes, skipped_votes);
    ratings::ScoBatchOptions o = o_;
    o.seed = config.seed;
    const absl::Time start = absl::Now();
    ASSIGN_OR_RETURN(const std::vector<double> rating,
                     ratings::SolveScoBatch(votes, o, config.progress));
    std::vector<ratings::RatingInterval> ci;
    if (intervals_.requested()) {
      ASSIGN_OR_RETURN(ci, ScoBatchIntervals(votes, o, intervals_.rounds, config.seed));
      (*report.mutable_extra()->mutable_fields())["fit_seconds"] =
          NumberValue(absl::ToDoubleSeconds(absl::Now() - start));
    }
    FinishReport(rating, 0.0, ci, index, report);
    return report;
  }

 private:
  ratings::ScoBatchOptions o_;
  IntervalParams intervals_;
};

class ScoFyRun : public BatchRun {
 public:
  ScoFyRun() : BatchRun("sco-fy") {
    AddScoSampling(params_, o_);
    params_.Add("epsilon", &o_.epsilon)
        .Help("scale of the Gumbel perturbation")
        .Bounds(0, std::nullopt, /*min_exclusive=*/true)
        .Add("samples", &o_.samples)
        .Help("Gumbel draws per result in each gradient")
        .Bounds(1, std::nullopt)
        .Add("min", &o_.min)
        .Help("lower bound of the ratings")
        .Add("max", &o_.max)
        .Help("upper bound of the ratings");
  }

  absl::Status Check() const override { return ratings::CheckScoFenchelYoungOptions(o_); }

  absl::StatusOr<v1::RatingReport> RateVotes(const RateConfig& config,
                                             const ratings::AgentIndex& index,
                                             const ratings::VoteSet& votes,
                                             int64_t skipped_votes) const override {
    v1::RatingReport report = StartReport(config, index, votes, skipped_votes);
    ratings::ScoFenchelYoungOptions o = o_;
    o.seed = config.seed;
    ASSIGN_OR_RETURN(const std::vector<double> rating,
                     ratings::SolveScoFenchelYoung(votes, o, config.progress));
    FinishReport(rating, 0.0, {}, index, report);
    return report;
  }

 private:
  ratings::ScoFenchelYoungOptions o_;
};

}  // namespace

std::unique_ptr<MethodRun> MakeEloBtRun() { return std::make_unique<EloBtRun>(); }
std::unique_ptr<MethodRun> MakeScoBatchRun() { return std::make_unique<ScoBatchRun>(); }
std::unique_ptr<MethodRun> MakeScoFyRun() { return std::make_unique<ScoFyRun>(); }

}  // namespace ratingd
