#include "daemon/methods/rate_intervals.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"

namespace ratingd {
namespace {

// Each vote `times[v]` times (none when 0): one bootstrap resample as a vote set.
ratings::VoteSet Resampled(const ratings::VoteSet& votes, absl::Span<const uint32_t> times) {
  ratings::VoteSet resampled(votes.num_agents());
  for (size_t v = 0; v < votes.size(); ++v) {
    for (uint32_t t = 0; t < times[v]; ++t) resampled.Add(votes[v]);
  }
  return resampled;
}

std::vector<ratings::PairCount> ToPairCounts(absl::Span<const ratings::PairOutcomes> outcomes,
                                             bool half_ties) {
  std::vector<ratings::PairCount> pairs;
  pairs.reserve(outcomes.size());
  for (const ratings::PairOutcomes& o : outcomes) {
    const double half = half_ties ? o.ties / 2 : 0.0;
    if (o.a_wins + half == 0 && o.b_wins + half == 0) continue;
    pairs.push_back({.a = o.a, .b = o.b, .n_ab = o.a_wins + half, .n_ba = o.b_wins + half});
  }
  return pairs;
}

}  // namespace

void AddIntervalParams(ParamTable& table, IntervalParams& params, bool with_ties) {
  table
      .Add(
          "ci",
          [&params](absl::string_view v) {
            if (v != "none" && v != "sandwich" && v != "bootstrap") {
              return absl::InvalidArgumentError(
                  absl::StrCat("'", v, "' is not none, sandwich or bootstrap"));
            }
            params.ci = std::string(v);
            return absl::OkStatus();
          },
          [&params] { return StringValue(params.ci); })
      .Help("95% rating and rank intervals: none, sandwich (elo-bt) or bootstrap");
  table
      .Add(
          "rounds",
          [&params](absl::string_view v) {
            int64_t rounds = 0;
            if (!absl::SimpleAtoi(v, &rounds) || rounds < 2) {
              return absl::InvalidArgumentError(absl::StrCat("'", v, "' is not an integer >= 2"));
            }
            params.rounds = rounds;
            return absl::OkStatus();
          },
          [&params] { return NumberValue(static_cast<double>(params.rounds)); })
      .Type(ParamType::kInteger)
      .Bounds(2, std::nullopt)
      .Help("ci=bootstrap: resamples fitted");
  if (!with_ties) return;
  table
      .Add(
          "ties",
          [&params](absl::string_view v) {
            if (v != "drop" && v != "half") {
              return absl::InvalidArgumentError(absl::StrCat("'", v, "' is not drop or half"));
            }
            params.ties = std::string(v);
            return absl::OkStatus();
          },
          [&params] { return StringValue(params.ties); })
      .Help("ties: drop, or half (half a win to each side)");
}

std::vector<ratings::PairCount> HalfTiePairs(const ratings::PairOutcomeTally& tally) {
  return ToPairCounts(tally.Tally(), /*half_ties=*/true);
}

absl::StatusOr<std::vector<ratings::RatingInterval>> BradleyTerryIntervals(
    const ratings::PairOutcomeTally& tally, size_t votes, absl::Span<const double> ratings,
    const ratings::BradleyTerryOptions& bt, const IntervalParams& params, uint64_t seed) {
  const bool half_ties = params.ties == "half";
  if (params.ci == "sandwich") {
    std::vector<ratings::PairOutcomes> outcomes = tally.Tally();
    if (!half_ties) {
      for (ratings::PairOutcomes& o : outcomes) o.ties = 0;  // dropped: not observations
    }
    return ratings::SandwichIntervals(outcomes, ratings, bt);
  }
  ratings::BradleyTerryOptions warm = bt;
  warm.start.assign(ratings.begin(), ratings.end());
  const size_t agents = ratings.size();
  return ratings::BootstrapIntervals(
      votes,
      [&](absl::Span<const uint32_t> times) -> absl::StatusOr<std::vector<double>> {
        absl::StatusOr<ratings::BradleyTerryFit> fit =
            ratings::FitBradleyTerry(agents, ToPairCounts(tally.Tally(times), half_ties), warm);
        if (!fit.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat("ci=bootstrap: a resample cannot be fitted: ", fit.status().message(),
                           " (prior=0 needs every resample connected; try prior > 0)"));
        }
        return std::move(fit->ratings);
      },
      params.rounds, seed);
}

absl::StatusOr<std::vector<ratings::RatingInterval>> ScoBatchIntervals(
    const ratings::VoteSet& votes, const ratings::ScoBatchOptions& options, int64_t rounds,
    uint64_t seed) {
  int64_t round = 0;
  return ratings::BootstrapIntervals(
      votes.size(),
      [&](absl::Span<const uint32_t> times) {
        ratings::ScoBatchOptions o = options;
        o.seed = options.seed + static_cast<uint64_t>(++round);
        return ratings::SolveScoBatch(Resampled(votes, times), o);
      },
      rounds, seed);
}

void SetIntervals(absl::Span<const ratings::RatingInterval> intervals,
                  const ratings::AgentIndex& index, v1::RatingReport& report) {
  // The printed rating lies in its interval (a bootstrap's percentiles need not hold it):
  // clamped first, so the rank intervals are those of the printed intervals.
  std::vector<ratings::RatingInterval> printed(intervals.begin(), intervals.end());
  std::vector<v1::RankedAgent*> entries(intervals.size(), nullptr);
  for (v1::RankedAgent& entry : *report.mutable_ranking()) {
    const ratings::AgentId* id = index.Find(entry.agent());
    if (id == nullptr || *id >= intervals.size()) continue;
    entries[*id] = &entry;
    printed[*id].low = std::min(printed[*id].low, entry.rating());
    printed[*id].high = std::max(printed[*id].high, entry.rating());
  }
  const std::vector<ratings::RankInterval> ranks = ratings::RankIntervals(printed);
  for (size_t a = 0; a < entries.size(); ++a) {
    if (entries[a] == nullptr) continue;
    entries[a]->set_ci_low(printed[a].low);
    entries[a]->set_ci_high(printed[a].high);
    entries[a]->set_rank_low(ranks[a].best);
    entries[a]->set_rank_high(ranks[a].worst);
  }
}

}  // namespace ratingd
