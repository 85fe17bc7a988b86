#include "daemon/methods/glicko2_method.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/rate_intervals.h"
#include "google/protobuf/util/time_util.h"
#include "ratings/agent_index.h"
#include "ratings/glicko2.h"
#include "ratings/io/game_result_proto.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

// The normal quantile of a two-sided 95% interval.
constexpr double kZ95 = 1.96;

class Glicko2Run : public MethodRun {
 public:
  Glicko2Run() : MethodRun("glicko2") {
    params_.Add("initial", &options_.initial)
        .Help("a new agent's rating")
        .Add("rd", &options_.rd)
        .Bounds(0, std::nullopt)
        .Help("a new agent's rating deviation, and the most that inactivity grows it to")
        .Add("volatility", &options_.volatility)
        .Bounds(0, std::nullopt, /*min_exclusive=*/true)
        .Help("a new agent's volatility sigma")
        .Add("tau", &options_.tau)
        .Bounds(0, std::nullopt, /*min_exclusive=*/true)
        .Help("how far the volatility may move in one result")
        .Add(
            "period",
            [this](absl::string_view value) {
              if (!absl::ParseDuration(value, &options_.period)) {
                return absl::InvalidArgumentError(
                    absl::StrCat("'", value, "' is not a duration (e.g. 24h, 90m, 0)"));
              }
              return absl::OkStatus();
            },
            [this] { return StringValue(absl::FormatDuration(options_.period)); })
        .Help(
            "event time in which the squared deviation grows by the squared volatility; 0: "
            "no growth");
  }

  absl::Status Check() const override { return ratings::Glicko2::Create(options_).status(); }

  const ratings::Glicko2Options& options() const { return options_; }

  absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                               absl::Span<const ratings::io::ResultRecord> records,
                                               int64_t skipped_votes) const override {
    ASSIGN_OR_RETURN(ratings::Glicko2 model, ratings::Glicko2::Create(options_));
    ratings::AgentIndex index;
    std::vector<uint64_t> games;
    std::vector<ratings::AgentId> ids;
    std::vector<uint32_t> ranks;
    for (const ratings::io::ResultRecord& record : records) {
      ids.clear();
      ranks.clear();
      for (const ratings::Standing& s : record.result.standings) {
        ids.push_back(index.Intern(s.agent));
        ranks.push_back(s.rank);
      }
      model.Resize(index.size());
      games.resize(index.size(), 0);
      for (const ratings::AgentId id : ids) ++games[id];
      model.Update({ids, ranks, record.result.weight}, record.event_time);
    }
    return Report(config, model, index, games, records.size(), skipped_votes);
  }

 private:
  v1::RatingReport Report(const RateConfig& config, const ratings::Glicko2& model,
                          const ratings::AgentIndex& index, const std::vector<uint64_t>& games,
                          size_t results, int64_t skipped_votes) const {
    std::vector<double> rating(index.size());
    std::vector<ratings::RatingInterval> intervals(index.size());
    for (ratings::AgentId id = 0; id < index.size(); ++id) {
      rating[id] = model.Rating(id);
      const double rd = model.Deviation(id);
      intervals[id] = {.low = rating[id] - kZ95 * rd, .high = rating[id] + kZ95 * rd};
    }
    v1::RatingReport report;
    report.set_method("glicko2");
    report.set_agents(static_cast<uint32_t>(index.size()));
    report.set_results(
        static_cast<uint32_t>(std::min<uint64_t>(results, std::numeric_limits<uint32_t>::max())));
    for (const ratings::RankedAgent& ranked : ratings::RankByRating(rating, index)) {
      v1::RankedAgent& entry = *report.add_ranking();
      const ratings::AgentId id = ranked.id;
      entry.set_rank(ranked.rank);
      entry.set_agent(index.Name(id));
      entry.set_rating(rating[id]);
      entry.set_rd(model.Deviation(id));
      entry.set_volatility(model.Volatility(id));
      if (const std::optional<absl::Time> last = model.LastPlayed(id)) {
        *entry.mutable_last_played() = ratings::io::TimestampOf(*last);
      }
      entry.set_games(static_cast<uint32_t>(
          std::min<uint64_t>(games[id], std::numeric_limits<uint32_t>::max())));
      entry.set_provisional(model.Deviation(id) > config.provisional_rd ||
                            games[id] < config.provisional_games);
    }
    SetIntervals(intervals, index, report);
    AddCommonExtra(config, skipped_votes, report);
    if (const std::optional<absl::Time> latest = model.latest()) {
      (*report.mutable_extra()->mutable_fields())["latest_event_time"] = StringValue(
          google::protobuf::util::TimeUtil::ToString(ratings::io::TimestampOf(*latest)));
    }
    return report;
  }

  ratings::Glicko2Options options_;
};

}  // namespace

std::unique_ptr<MethodRun> MakeGlicko2Run() { return std::make_unique<Glicko2Run>(); }

const ratings::Glicko2Options* Glicko2RunOptions(const MethodRun& run) {
  const auto* glicko2 = dynamic_cast<const Glicko2Run*>(&run);
  return glicko2 == nullptr ? nullptr : &glicko2->options();
}

}  // namespace ratingd
