// The growing-batch algorithms of [AE] §4.2: BATCHELO, BATCHCOPELAND, BATCHRANKEDPAIRS,
// BATCHMAXIMALLOTTERIES and BATCHSCO. Each round re-runs the offline method on every sample
// so far; the iterative ones (Bradley–Terry, SCO) start from the last round's ratings.
#include <algorithm>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "Eigen/Core"
#include "ratings/active/evaluators.h"
#include "ratings/active/sample_vote.h"
#include "ratings/active/selection.h"
#include "ratings/active/tally_rule.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/batch/sco_batch.h"
#include "ratings/batch/vote_set.h"
#include "ratings/seeded_draws.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

// One offline method fed sample by sample: Add() collects, Refit() ranks everything so far.
class BatchFit {
 public:
  virtual ~BatchFit() = default;
  virtual void Add(const Sample& s) = 0;
  // Sets `ranking` (best first, ties by id).
  virtual absl::Status Refit(std::vector<AgentId>& ranking) = 0;
};

// BATCHELO: Bradley–Terry on wins and losses, a draw half a win to each (Table 1: "wins,
// losses and draws").
class BradleyTerryFitter final : public BatchFit {
 public:
  BradleyTerryFitter(size_t agents, const BradleyTerryOptions& options)
      : options_(options), wins_(Eigen::MatrixXd::Zero(agents, agents)) {
    options_.start.assign(agents, options.anchor);
  }
  void Add(const Sample& s) override {
    const bool tie = s.score_a == s.score_b;
    wins_(s.a, s.b) += tie ? 0.5 : (s.score_a > s.score_b ? 1.0 : 0.0);
    wins_(s.b, s.a) += tie ? 0.5 : (s.score_b > s.score_a ? 1.0 : 0.0);
  }
  absl::Status Refit(std::vector<AgentId>& ranking) override {
    const size_t m = static_cast<size_t>(wins_.rows());
    std::vector<PairCount> pairs;
    for (AgentId a = 0; a < m; ++a) {
      for (AgentId b = a + 1; b < m; ++b) {
        if (wins_(a, b) + wins_(b, a) > 0) pairs.push_back({a, b, wins_(a, b), wins_(b, a)});
      }
    }
    absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(m, pairs, options_);
    if (!fit.ok()) return fit.status();
    options_.start = std::move(fit->ratings);  // the next round's warm start
    ranking = voting::OrderByScore(options_.start, voting::IdentityPriority(m));
    return absl::OkStatus();
  }

 private:
  BradleyTerryOptions options_;
  Eigen::MatrixXd wins_;
};

// BATCHCOPELAND, BATCHRANKEDPAIRS, BATCHMAXIMALLOTTERIES: a rule on the pairwise tally.
class TallyFitter final : public BatchFit {
 public:
  TallyFitter(TallyRule rule, size_t agents, std::vector<double>* lottery)
      : rule_(rule), tally_(agents), lottery_(lottery) {}
  void Add(const Sample& s) override { tally_.Add(SampleVote(s).view()); }
  absl::Status Refit(std::vector<AgentId>& ranking) override {
    return RankByTallyRule(rule_, tally_, ranking, lottery_);
  }

 private:
  TallyRule rule_;
  voting::BatchTally tally_;
  std::vector<double>* lottery_;  // owned by the evaluator
};

// BATCHSCO: `steps` minibatch steps of [SCO] Alg. 1 per round on every sample so far.
class ScoFitter final : public BatchFit {
 public:
  ScoFitter(size_t agents, const AlgorithmOptions& o, uint64_t seed) : votes_(agents), rng_(seed) {
    options_ = {.batch = o.sco_batch,
                .iterations = o.sco_steps,
                .alpha = o.sco_batch_alpha,
                .tau = o.sco.tau,
                .min = o.sco.min,
                .max = o.sco.max};
    options_.start.assign(agents, (o.sco.min + o.sco.max) / 2.0);
  }
  void Add(const Sample& s) override { votes_.Add(SampleVote(s).view()); }
  absl::Status Refit(std::vector<AgentId>& ranking) override {
    options_.seed = rng_();
    absl::StatusOr<std::vector<double>> theta = SolveScoBatch(votes_, options_);
    if (!theta.ok()) return theta.status();
    options_.start = *std::move(theta);
    ranking = voting::OrderByScore(options_.start, voting::IdentityPriority(options_.start.size()));
    return absl::OkStatus();
  }

 private:
  VoteSet votes_;
  ScoBatchOptions options_;
  std::mt19937_64 rng_;
};

// Burn-in, then uniform selection, or pairs from the maximal lottery (BATCHMAXIMALLOTTERIES).
class GrowingBatch final : public RefittingEvaluator {
 public:
  GrowingBatch(BatchMethod method, size_t tasks, size_t agents, const AlgorithmOptions& o,
               uint64_t seed)
      : RefittingEvaluator(agents),
        tasks_(tasks),
        agents_(agents),
        burn_in_enabled_(o.burn_in),
        exploration_(o.exploration),
        use_lottery_(method == BatchMethod::kMaximalLotteries),
        burn_in_(tasks, agents),
        lottery_(agents, 1.0 / static_cast<double>(agents)) {
    switch (method) {
      case BatchMethod::kElo:
        fit_ = std::make_unique<BradleyTerryFitter>(agents, o.bradley_terry);
        break;
      case BatchMethod::kSco:
        fit_ = std::make_unique<ScoFitter>(agents, o, seed);
        break;
      case BatchMethod::kCopeland:
        fit_ = std::make_unique<TallyFitter>(TallyRule::kCopeland, agents, &lottery_);
        break;
      case BatchMethod::kRankedPairs:
        fit_ = std::make_unique<TallyFitter>(TallyRule::kRankedPairs, agents, &lottery_);
        break;
      case BatchMethod::kMaximalLotteries:
        fit_ = std::make_unique<TallyFitter>(TallyRule::kMaximalLotteries, agents, &lottery_);
        break;
    }
  }

  Query Choose(int64_t round, std::mt19937_64& rng) override {
    if (burn_in_enabled_ && burn_in_.Active(round)) return burn_in_.Next(round, rng);
    if (!use_lottery_) return UniformQuery(tasks_, agents_, rng);
    // §4.2.2: a ~ σ', b ~ σ' redrawn until b != a, σ' the lottery mixed with uniform.
    const TaskId v = static_cast<TaskId>(UniformIndex(rng, tasks_));
    const auto [a, b] = DistinctPairFrom(MixUniform(lottery_, exploration_), rng);
    return {v, a, b};
  }

  void Observe(const Sample& s) override {
    fit_->Add(s);
    MarkStale();
  }

  absl::Status Refit(std::vector<AgentId>& ranking) override { return fit_->Refit(ranking); }

 private:
  size_t tasks_;
  size_t agents_;
  bool burn_in_enabled_;
  double exploration_;
  bool use_lottery_;
  BurnIn burn_in_;
  std::vector<double> lottery_;  // the last maximal lottery (uniform before any data)
  std::unique_ptr<BatchFit> fit_;
};

}  // namespace

std::unique_ptr<Evaluator> MakeGrowingBatch(BatchMethod method, size_t tasks, size_t agents,
                                            const AlgorithmOptions& o, uint64_t seed) {
  return std::make_unique<GrowingBatch>(method, tasks, agents, o, seed);
}

}  // namespace ratings::active
