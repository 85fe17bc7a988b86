// KEMENYEL ([AE] §4.1.2; George & Dimitrakakis 2024, Alg. 1) adapted to active evaluation
// as docs/ACTIVE.md §3 reads it: uniform tasks; pairs drawn uniformly among those whose
// preference is not yet resolved with confidence 1 - δ_k (Hoeffding); epochs halve δ and
// the accepted Kendall-tau error ρ; the ranking is the exact Kemeny ranking of the
// estimated preference matrix Q.
#include <cmath>
#include <memory>
#include <vector>

#include "Eigen/Core"
#include "ratings/active/evaluators.h"
#include "ratings/active/selection.h"
#include "ratings/seeded_draws.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

class KemenyEl final : public RefittingEvaluator {
 public:
  KemenyEl(size_t tasks, size_t agents)
      : RefittingEvaluator(agents),
        tasks_(tasks),
        agents_(agents),
        pairs_(static_cast<double>(agents * (agents - 1) / 2)),
        wins_(Eigen::MatrixXd::Zero(agents, agents)),
        games_(Eigen::MatrixXd::Zero(agents, agents)) {}

  Query Choose(int64_t, std::mt19937_64& rng) override {
    const TaskId v = static_cast<TaskId>(UniformIndex(rng, tasks_));
    std::vector<std::pair<AgentId, AgentId>> open;
    for (AgentId a = 0; a < agents_; ++a) {
      for (AgentId b = a + 1; b < agents_; ++b) {
        if (!Resolved(a, b)) open.push_back({a, b});
      }
    }
    if (open.empty()) {
      const auto [a, b] = UniformPair(agents_, rng);
      return {v, a, b};
    }
    // The epoch ends once every open pair has its n_k samples.
    bool epoch_done = true;
    for (const auto& [a, b] : open) epoch_done = epoch_done && games_(a, b) >= EpochSamples();
    if (epoch_done) ++epoch_;
    const auto [a, b] = open[UniformIndex(rng, open.size())];
    return (rng() & 1) ? Query{v, a, b} : Query{v, b, a};
  }

  void Observe(const Sample& s) override {
    const double win = s.score_a > s.score_b ? 1.0 : (s.score_a < s.score_b ? 0.0 : 0.5);
    wins_(s.a, s.b) += win;
    wins_(s.b, s.a) += 1.0 - win;
    games_(s.a, s.b) += 1;
    games_(s.b, s.a) += 1;
    MarkStale();
  }

  absl::Status Refit(std::vector<AgentId>& ranking) override {
    Eigen::MatrixXd q = Eigen::MatrixXd::Zero(agents_, agents_);
    for (AgentId a = 0; a < agents_; ++a) {
      for (AgentId b = 0; b < agents_; ++b) {
        if (games_(a, b) > 0) q(a, b) = wins_(a, b) / games_(a, b);
      }
    }
    absl::StatusOr<voting::KemenyOutcome> kemeny =
        voting::Kemeny(q, {}, voting::IdentityPriority(agents_));
    if (!kemeny.ok()) return kemeny.status();
    ranking = kemeny->order.order;
    return absl::OkStatus();
  }

 private:
  double Delta() const { return 0.1 / std::pow(2.0, epoch_); }  // δ_0 = 0.1, halved
  // Hoeffding: |Q_ab - 1/2| above sqrt(ln(2 C(m,2) / δ_k) / (2 n_ab)).
  bool Resolved(AgentId a, AgentId b) const {
    const double n = games_(a, b);
    if (n == 0) return false;
    const double width = std::sqrt(std::log(2 * pairs_ / Delta()) / (2 * n));
    return std::abs(wins_(a, b) / n - 0.5) > width;
  }
  // n_k = ceil(ln(2 C(m,2) / δ_k) / (2 ε_k^2)), ε_k = ρ_k / (2 C(m,2)) with ρ_0 = C(m,2)/2
  // (half the largest Kendall-tau distance), halved every epoch: ε_0 = 1/4.
  double EpochSamples() const {
    const double epsilon = 0.25 / std::pow(2.0, epoch_);
    return std::ceil(std::log(2 * pairs_ / Delta()) / (2 * epsilon * epsilon));
  }

  size_t tasks_;
  size_t agents_;
  double pairs_;           // C(m, 2)
  Eigen::MatrixXd wins_;   // wins_(a, b): a's wins over b, a draw half to each
  Eigen::MatrixXd games_;  // samples of each pair
  int epoch_ = 0;
};

}  // namespace

std::unique_ptr<Evaluator> MakeKemenyEl(size_t tasks, size_t agents) {
  return std::make_unique<KemenyEl>(tasks, agents);
}

}  // namespace ratings::active
