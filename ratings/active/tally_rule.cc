#include "ratings/active/tally_rule.h"

#include <algorithm>

#include "Eigen/Core"
#include "ratings/voting/copeland.h"
#include "ratings/voting/iterative_lotteries.h"
#include "ratings/voting/ranked_pairs.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {

absl::Status RankByTallyRule(TallyRule rule, const voting::BatchTally& tally,
                             std::vector<AgentId>& ranking, std::vector<double>* lottery) {
  const std::vector<uint32_t> priority = voting::IdentityPriority(tally.agents());
  if (rule == TallyRule::kCopeland) {
    ranking = voting::OrderByScore(voting::CopelandScores(tally), priority);
    return absl::OkStatus();
  }
  absl::StatusOr<Eigen::MatrixXd> margins = tally.MarginMatrix();
  if (!margins.ok()) return margins.status();
  if (rule == TallyRule::kRankedPairs) {
    ranking = voting::RankedPairs(*margins, priority).order;
    return absl::OkStatus();
  }
  absl::StatusOr<voting::ImlOutcome> iml = voting::IterativeMaximalLotteries(*margins);
  if (!iml.ok()) return iml.status();
  ranking = voting::OrderByScore(iml->score, priority);
  if (lottery != nullptr && lottery->size() == tally.agents()) {
    std::fill(lottery->begin(), lottery->end(), 0.0);
    for (const auto& [agent, p] : iml->levels.front()) (*lottery)[agent] = p;
  }
  return absl::OkStatus();
}

}  // namespace ratings::active
