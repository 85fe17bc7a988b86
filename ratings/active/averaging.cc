// UNIFORMAVERAGING and BASICUCB ([AE] §4.1, §4.1.1).
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "ratings/active/evaluators.h"
#include "ratings/active/selection.h"
#include "ratings/seeded_draws.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

// Per-agent sample sums and counts: the state both algorithms keep.
class ScoreSums {
 public:
  explicit ScoreSums(size_t agents) : sum_(agents, 0.0), count_(agents, 0) {}
  void Add(const Sample& s) {
    sum_[s.a] += s.score_a;
    sum_[s.b] += s.score_b;
    ++count_[s.a];
    ++count_[s.b];
  }
  size_t agents() const { return sum_.size(); }
  int64_t count(AgentId a) const { return count_[a]; }
  double mean(AgentId a) const { return sum_[a] / static_cast<double>(count_[a]); }

 private:
  std::vector<double> sum_;
  std::vector<int64_t> count_;
};

std::vector<AgentId> Descending(const std::vector<double>& score) {
  return voting::OrderByScore(score, voting::IdentityPriority(score.size()));
}

class UniformAveraging final : public Evaluator {
 public:
  UniformAveraging(size_t tasks, size_t agents) : tasks_(tasks), sums_(agents) {}
  Query Choose(int64_t, std::mt19937_64& rng) override {
    return UniformQuery(tasks_, sums_.agents(), rng);
  }
  void Observe(const Sample& s) override { sums_.Add(s); }
  std::vector<AgentId> Ranking() override {
    std::vector<double> score(sums_.agents(), -std::numeric_limits<double>::infinity());
    for (AgentId a = 0; a < score.size(); ++a) {
      if (sums_.count(a) > 0) score[a] = sums_.mean(a);
    }
    return Descending(score);
  }

 private:
  size_t tasks_;
  ScoreSums sums_;
};

class BasicUcb final : public Evaluator {
 public:
  BasicUcb(size_t tasks, size_t agents, double c) : tasks_(tasks), c_(c), sums_(agents) {}
  Query Choose(int64_t, std::mt19937_64& rng) override {
    // 2T = the number of updates so far (two per round).
    const double log_updates = std::log(static_cast<double>(2 * rounds_));
    std::vector<double> ucb(sums_.agents(), std::numeric_limits<double>::infinity());
    for (AgentId a = 0; a < ucb.size(); ++a) {
      const int64_t n = sums_.count(a);
      if (n > 0) ucb[a] = sums_.mean(a) + c_ * std::sqrt(log_updates / static_cast<double>(n));
    }
    const std::vector<AgentId> order = Descending(ucb);
    const TaskId v = static_cast<TaskId>(UniformIndex(rng, tasks_));
    return {v, order[0], order[1]};
  }
  void Observe(const Sample& s) override {
    sums_.Add(s);
    ++rounds_;
  }
  std::vector<AgentId> Ranking() override {
    std::vector<double> visits(sums_.agents());
    for (AgentId a = 0; a < visits.size(); ++a) visits[a] = static_cast<double>(sums_.count(a));
    return Descending(visits);
  }

 private:
  size_t tasks_;
  double c_;
  ScoreSums sums_;
  int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<Evaluator> MakeUniformAveraging(size_t tasks, size_t agents) {
  return std::make_unique<UniformAveraging>(tasks, agents);
}

std::unique_ptr<Evaluator> MakeBasicUcb(size_t tasks, size_t agents, double c) {
  return std::make_unique<BasicUcb>(tasks, agents, c);
}

}  // namespace ratings::active
