#include "ratings/active/algorithms.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ratings/active/evaluators.h"

namespace ratings::active {

absl::StatusOr<std::unique_ptr<Evaluator>> MakeEvaluator(absl::string_view name, size_t tasks,
                                                         size_t agents, const AlgorithmOptions& o,
                                                         uint64_t seed) {
  if (agents < 2 || tasks < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("need at least 2 agents and 1 task, got ", agents, " and ", tasks));
  }
  if (!(o.exploration >= 0 && o.exploration <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("exploration must be in [0, 1], got ", o.exploration));
  }
  if (!(o.ucb_c >= 0) || !std::isfinite(o.ucb_c)) {
    return absl::InvalidArgumentError(absl::StrCat("c must be finite and >= 0, got ", o.ucb_c));
  }
  if (name == "uniform-averaging") return MakeUniformAveraging(tasks, agents);
  if (name == "basic-ucb") return MakeBasicUcb(tasks, agents, o.ucb_c);
  if (name == "online-elo") return MakeOnlineElo(tasks, agents, o);
  if (name == "online-sco") return MakeOnlineSco(tasks, agents, o);
  if (name == "batch-elo") return MakeGrowingBatch(BatchMethod::kElo, tasks, agents, o, seed);
  if (name == "batch-copeland") {
    return MakeGrowingBatch(BatchMethod::kCopeland, tasks, agents, o, seed);
  }
  if (name == "batch-ranked-pairs") {
    return MakeGrowingBatch(BatchMethod::kRankedPairs, tasks, agents, o, seed);
  }
  if (name == "batch-maximal-lotteries") {
    return MakeGrowingBatch(BatchMethod::kMaximalLotteries, tasks, agents, o, seed);
  }
  if (name == "batch-sco") return MakeGrowingBatch(BatchMethod::kSco, tasks, agents, o, seed);
  if (name == "mean-model-copeland") return MakeMeanModel(TallyRule::kCopeland, tasks, agents, o);
  if (name == "mean-model-ranked-pairs") {
    return MakeMeanModel(TallyRule::kRankedPairs, tasks, agents, o);
  }
  if (name == "mean-model-max-lot") {
    return MakeMeanModel(TallyRule::kMaximalLotteries, tasks, agents, o);
  }
  if (name == "online-maximal-lotteries") return MakeOnlineMaximalLotteries(tasks, agents, o);
  if (name == "online-nash-averaging") return MakeOnlineNashAveraging(tasks, agents, o);
  if (name == "kemeny-el") return MakeKemenyEl(tasks, agents);
  if (name == "batch-nash-averaging") return MakeBatchNashAveraging(tasks, agents, o);
  if (name == "proportional-representation") {
    if (o.prop_rep_g < 1) {
      return absl::InvalidArgumentError(absl::StrCat("g must be >= 1, got ", o.prop_rep_g));
    }
    return MakeProportionalRepresentation(tasks, agents, o);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown algorithm '", name, "'; known: ", absl::StrJoin(kAlgorithmNames, ", ")));
}

}  // namespace ratings::active
