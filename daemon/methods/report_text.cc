#include "daemon/methods/report_text.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "daemon/deterministic_json.h"

namespace ratingd {

absl::StatusOr<std::string> ReportToJson(const v1::RatingReport& report) {
  return DeterministicJson(report);
}

std::string ReportToTable(const v1::RatingReport& report) {
  const auto& extra = report.extra().fields();
  // ml and ml-exact: a lottery, shown beside the rating.
  const bool ml = extra.contains("lottery");
  size_t width = 5;
  for (const auto& r : report.ranking()) width = std::max(width, r.agent().size());
  std::string out = absl::StrFormat("%s: %u agents, %u results\n", report.method(), report.agents(),
                                    report.results());
  // Optional columns, shown when the first entry has them (every entry then does): the 95%
  // interval with the rank interval (ci=..., --bootstrap-replicas), and games.
  const bool intervals = report.ranking_size() > 0 && report.ranking(0).has_ci_low();
  const bool games = report.ranking_size() > 0 && report.ranking(0).has_games();
  // glicko2: the rating deviation beside the rating.
  const bool rd = report.ranking_size() > 0 && report.ranking(0).has_rd();
  absl::StrAppendFormat(&out, "%4s  %-*s  %12s%s%s%s%s\n", "rank", static_cast<int>(width), "agent",
                        "rating", rd ? "          rd" : "", ml ? "  probability" : "",
                        intervals ? absl::StrFormat("  %-26s  %9s", "95% interval", "ranks") : "",
                        games ? "      games" : "");
  for (const auto& r : report.ranking()) {
    std::string line = absl::StrFormat("%4u  %-*s  %12.4f", r.rank(), static_cast<int>(width),
                                       r.agent(), r.rating());
    if (rd) absl::StrAppendFormat(&line, "  %10.4f", r.rd());
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
  if (games && rd) {
    out += "? provisional: rd above --provisional-rd or fewer results than --provisional-games\n";
  } else if (games) {
    out += "? provisional: fewer results than --provisional-games\n";
  }
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
