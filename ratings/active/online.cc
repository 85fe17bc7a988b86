// ONLINEELO and ONLINESCO ([AE] Table 1): uniform selection, one online update per sample.
#include <memory>
#include <utility>
#include <vector>

#include "ratings/active/evaluators.h"
#include "ratings/active/sample_vote.h"
#include "ratings/active/selection.h"
#include "ratings/elo.h"
#include "ratings/sco.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

// Model is Elo or Sco: Update(IndexedResult) and ratings().
template <typename Model>
class Online final : public Evaluator {
 public:
  Online(size_t tasks, Model model) : tasks_(tasks), model_(std::move(model)) {}
  Query Choose(int64_t, std::mt19937_64& rng) override {
    return UniformQuery(tasks_, model_.size(), rng);
  }
  void Observe(const Sample& s) override { model_.Update(SampleVote(s).view()); }
  std::vector<AgentId> Ranking() override {
    return voting::OrderByScore(model_.ratings(), voting::IdentityPriority(model_.size()));
  }

 private:
  size_t tasks_;
  Model model_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Evaluator>> MakeOnlineElo(size_t tasks, size_t agents,
                                                         const AlgorithmOptions& o) {
  absl::StatusOr<Elo> elo = Elo::Create({.k = o.elo_k, .initial = o.elo_initial});
  if (!elo.ok()) return elo.status();
  elo->Resize(agents);
  return std::make_unique<Online<Elo>>(tasks, *std::move(elo));
}

absl::StatusOr<std::unique_ptr<Evaluator>> MakeOnlineSco(size_t tasks, size_t agents,
                                                         const AlgorithmOptions& o) {
  absl::StatusOr<Sco> sco = Sco::Create(o.sco);
  if (!sco.ok()) return sco.status();
  sco->Resize(agents);
  return std::make_unique<Online<Sco>>(tasks, *std::move(sco));
}

}  // namespace ratings::active
