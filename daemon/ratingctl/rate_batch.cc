#include "daemon/ratingctl/rate_batch.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "daemon/deterministic_json.h"
#include "daemon/param_table.h"
#include "daemon/ratingctl/rate_intervals.h"
#include "ratings/agent_index.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/batch/permuted_elo.h"
#include "ratings/batch/sco_batch.h"
#include "ratings/batch/vote_set.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/pair_count.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"
#include "ratings/voting/batch_tally.h"

namespace ratingd {
namespace {

using google::protobuf::Value;

// extra.sem (agent -> standard error of the mean over permutations) and
// extra.order_agreement ([{pair: [above, below], agreement}] for each adjacent pair of the
// ranking, best first: the fraction of permutations that end with `above` strictly higher).
void AddPermutationSpread(absl::Span<const std::vector<double>> finals,
                          const ratings::PermutationSummary& summary,
                          const ratings::AgentIndex& index,
                          google::protobuf::Map<std::string, Value>& extra) {
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

}  // namespace

std::vector<std::string> BatchMethodNames() { return {"elo-bt", "sco-batch", "sco-fy"}; }

bool IsBatchMethod(absl::string_view method) {
  const std::vector<std::string> names = BatchMethodNames();
  return std::find(names.begin(), names.end(), method) != names.end();
}

absl::StatusOr<v1::RatingReport> RateBatch(const RateConfig& config,
                                           absl::Span<const ratings::io::ResultRecord> records,
                                           int64_t skipped_votes) {
  ratings::AgentIndex index;
  ASSIGN_OR_RETURN(const ratings::VoteSet votes,
                   ratings::io::ToVoteSet(records, config.input, index));
  return RateBatchVotes(config, index, votes, skipped_votes);
}

absl::StatusOr<v1::RatingReport> RateBatchVotes(const RateConfig& config,
                                                const ratings::AgentIndex& index,
                                                const ratings::VoteSet& votes,
                                                int64_t skipped_votes) {
  v1::RatingReport report;
  report.set_method(config.method);
  report.set_agents(static_cast<uint32_t>(index.size()));
  report.set_results(static_cast<uint32_t>(votes.size()));
  auto& extra = *report.mutable_extra()->mutable_fields();
  extra["seed"] = NumberValue(static_cast<double>(config.seed));
  extra["skipped_votes"] = NumberValue(static_cast<double>(skipped_votes));

  std::vector<double> rating;
  IntervalParams intervals;
  std::vector<ratings::RatingInterval> ci;  // empty without --param ci
  double tie_tolerance = 0.0;  // ratings within this many points tie (docs/MODELS.md §9)
  if (config.method == "elo-bt") {
    ratings::BradleyTerryOptions bt;
    ratings::PermutedEloOptions permuted;
    permuted.permutations = 0;  // 0 = the MM fit
    int64_t accelerate = 1;
    ParamTable params(config.method);
    params.Add("prior", &bt.prior)
        .Add("accelerate", &accelerate)
        .Add("anchor", &bt.anchor)
        .Add("tolerance", &bt.tolerance)
        .Add("max_iterations", &bt.max_iterations)
        .Add("permutations", &permuted.permutations)
        .Add("k", &permuted.elo.k)
        .Add("initial", &permuted.elo.initial);
    AddIntervalParams(params, intervals, /*with_ties=*/true);
    RETURN_IF_ERROR(params.Apply(config.params));
    *extra["params"].mutable_struct_value() = params.Values();
    if (accelerate != 0 && accelerate != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param accelerate (elo-bt): must be 0 or 1, got ", accelerate));
    }
    bt.accelerate = accelerate == 1;
    if (permuted.permutations < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "elo-bt: permutations must be >= 0 (0 = MM fit), got ", permuted.permutations));
    }
    if (permuted.permutations > 0 && (intervals.requested() || intervals.ties != "drop")) {
      return absl::InvalidArgumentError(
          "elo-bt: ci and ties apply to the MM fit, not to permutations (whose spread is "
          "extra.sem, and whose Elo counts a tie as a draw)");
    }
    // Both variants' options are checked whichever runs, so a typo never passes silently.
    RETURN_IF_ERROR(ratings::FitBradleyTerry(0, {}, bt).status());
    RETURN_IF_ERROR(ratings::Elo::Create(permuted.elo).status());
    // The one batch tally (ratings/voting), always sparse here: Bradley–Terry needs only the
    // pairs seen, so memory stays O(agents + pairs) (docs/CONTRACTS.md §5).
    // With ties=half a tie is half a win for each side (PairOutcomeTally, which keeps ties).
    // Only when needed: it costs a pass over the votes with a hash lookup per pair.
    std::optional<ratings::PairOutcomeTally> outcomes;
    if (intervals.ties == "half" || intervals.requested()) outcomes.emplace(votes);
    const std::vector<ratings::PairCount> pairs =
        intervals.ties == "half" ? HalfTiePairs(*outcomes) : ratings::voting::TallyPairs(votes);
    extra["pairs"] = NumberValue(static_cast<double>(pairs.size()));
    if (permuted.permutations > 0) {
      permuted.seed = config.seed;
      extra["variant"].set_string_value("permutations");
      ASSIGN_OR_RETURN(const std::vector<std::vector<double>> finals,
                       ratings::PermutedEloFinals(votes, permuted, config.progress));
      ratings::PermutationSummary summary = ratings::SummarizePermutations(finals);
      AddPermutationSpread(finals, summary, index, extra);
      rating = std::move(summary.mean);
    } else {
      extra["variant"].set_string_value("mm");
      const absl::Time start = absl::Now();
      ASSIGN_OR_RETURN(ratings::BradleyTerryFit fit,
                       ratings::FitBradleyTerry(index.size(), pairs, bt, config.progress));
      if (intervals.requested()) {
        ASSIGN_OR_RETURN(ci, BradleyTerryIntervals(*outcomes, votes.size(), fit.ratings, bt,
                                                   intervals, config.seed));
        extra["fit_seconds"] = NumberValue(absl::ToDoubleSeconds(absl::Now() - start));
      }
      extra["iterations"] = NumberValue(static_cast<double>(fit.iterations));
      extra["converged"].set_bool_value(fit.converged);
      extra["last_change"] = NumberValue(fit.last_change);
      rating = std::move(fit.ratings);
      // The fit resolves ratings no finer than its tolerance: closer ones tie, then go by
      // name (docs/MODELS.md §5.1).
      tie_tolerance = bt.tolerance;
    }
  } else if (config.method == "sco-batch") {
    ratings::ScoBatchOptions o;
    ParamTable params(config.method);
    params.Add("batch", &o.batch)
        .Add("iterations", &o.iterations)
        .Add("alpha", &o.alpha)
        .Add("tau", &o.tau)
        .Add("min", &o.min)
        .Add("max", &o.max);
    AddIntervalParams(params, intervals, /*with_ties=*/false);
    RETURN_IF_ERROR(params.Apply(config.params));
    *extra["params"].mutable_struct_value() = params.Values();
    if (intervals.ci == "sandwich") {
      return absl::InvalidArgumentError(
          "--param ci (sco-batch): sandwich needs a likelihood; sco-batch has bootstrap only");
    }
    o.seed = config.seed;
    const absl::Time start = absl::Now();
    ASSIGN_OR_RETURN(rating, ratings::SolveScoBatch(votes, o, config.progress));
    if (intervals.requested()) {
      ASSIGN_OR_RETURN(ci, ScoBatchIntervals(votes, o, intervals.rounds, config.seed));
      extra["fit_seconds"] = NumberValue(absl::ToDoubleSeconds(absl::Now() - start));
    }
  } else if (config.method == "sco-fy") {
    ratings::ScoFenchelYoungOptions o;
    ParamTable params(config.method);
    params.Add("batch", &o.batch)
        .Add("iterations", &o.iterations)
        .Add("alpha", &o.alpha)
        .Add("epsilon", &o.epsilon)
        .Add("samples", &o.samples)
        .Add("min", &o.min)
        .Add("max", &o.max);
    RETURN_IF_ERROR(params.Apply(config.params));
    *extra["params"].mutable_struct_value() = params.Values();
    o.seed = config.seed;
    ASSIGN_OR_RETURN(rating, ratings::SolveScoFenchelYoung(votes, o, config.progress));
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--method: '", config.method, "' is not a batch method"));
  }
  for (const ratings::RankedAgent& r : ratings::RankByRating(rating, index, tie_tolerance)) {
    v1::RankedAgent* out = report.add_ranking();
    out->set_rank(r.rank);
    out->set_agent(index.Name(r.id));
    out->set_rating(r.rating);
  }
  if (!ci.empty()) SetIntervals(ci, index, report);
  return report;
}

}  // namespace ratingd
