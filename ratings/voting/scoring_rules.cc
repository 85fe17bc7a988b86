#include "ratings/voting/scoring_rules.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include "ratings/voting/exact_sum.h"

namespace ratings::voting {
namespace {

// Calls visit(agent, first position, group size, vote size, weight) for every standing.
template <typename Visit>
void ForEachGroupMember(const VoteSet& votes, Visit visit) {
  for (size_t v = 0; v < votes.size(); ++v) {
    const IndexedResult vote = votes.BestFirst(v);
    const auto agents = vote.agents;
    const auto groups = vote.ranks;  // dense: equal values tie
    size_t start = 0;
    while (start < agents.size()) {
      size_t end = start + 1;
      while (end < agents.size() && groups[end] == groups[start]) ++end;
      for (size_t i = start; i < end; ++i) {
        visit(agents[i], start, end - start, agents.size(), vote.weight);
      }
      start = end;
    }
  }
}

// Exact scores (docs/MODELS.md §9): agent a scores sum[a] / denominator.
struct ExactScores {
  std::vector<ExactSum> sum;
  double denominator = 1.0;
};

std::vector<double> ToDoubles(const ExactScores& scores) {
  std::vector<double> out(scores.sum.size());
  for (size_t a = 0; a < out.size(); ++a) out[a] = scores.sum[a].Value() / scores.denominator;
  return out;
}

SocialOrder ToOrder(const ExactScores& scores, Priority priority) {
  SocialOrder out;
  out.score = ToDoubles(scores);
  out.order.resize(scores.sum.size());
  std::iota(out.order.begin(), out.order.end(), AgentId{0});
  std::sort(out.order.begin(), out.order.end(), [&](AgentId a, AgentId b) {
    const int c = Compare(scores.sum[a], scores.sum[b]);
    if (c != 0) return c > 0;
    return priority[a] < priority[b];
  });
  return out;
}

// Prime factorisation by trial division (the denominators are group sizes).
void Factor(uint64_t n, std::map<uint64_t, int>& exponent) {
  for (uint64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      ++exponent[p];
      n /= p;
    }
  }
  if (n > 1) ++exponent[n];
}

// The common denominator L of fractions with the given denominators, as the factors of
// L / d for each d: integers whose products stay below 2^53, so that scaling an exact sum
// by them in turn is exact.
class CommonDenominator {
 public:
  explicit CommonDenominator(const std::vector<uint64_t>& denominators) {
    for (uint64_t d : denominators) {
      std::map<uint64_t, int> e;
      Factor(d, e);
      for (const auto& [p, k] : e) lcm_[p] = std::max(lcm_[p], k);
    }
    for (uint64_t d : denominators) cofactors_[d] = Chunks(d);
    for (double c : Chunks(1)) value_ *= c;
  }
  double value() const { return value_; }
  // The factors of L / d. Precondition: d was given.
  const std::vector<double>& Cofactor(uint64_t d) const { return cofactors_.at(d); }

 private:
  std::vector<double> Chunks(uint64_t d) const {
    std::map<uint64_t, int> own;
    Factor(d, own);
    std::vector<double> chunks;
    uint64_t chunk = 1;
    constexpr uint64_t kExact = uint64_t{1} << 53;
    for (const auto& [p, k] : lcm_) {
      for (int i = own.count(p) > 0 ? own.at(p) : 0; i < k; ++i) {
        if (chunk > (kExact - 1) / p) {
          chunks.push_back(static_cast<double>(chunk));
          chunk = 1;
        }
        chunk *= p;
      }
    }
    if (chunk > 1) chunks.push_back(static_cast<double>(chunk));
    return chunks;
  }

  std::map<uint64_t, int> lcm_;  // prime -> exponent in L
  std::map<uint64_t, std::vector<double>> cofactors_;
  double value_ = 1.0;
};

// The share of a group of `tied` agents starting at position `first` in approval(top):
// approved / tied in lowest terms, as (numerator, denominator).
std::pair<uint64_t, uint64_t> ApprovedShare(size_t first, size_t tied, size_t top) {
  const uint64_t approved = std::min(top, first + tied) - first;
  const uint64_t g = std::gcd(approved, uint64_t{tied});
  return {approved / g, tied / g};
}

// Per-agent sums of weight x points (points: integers, given as a product of integer
// doubles), exact. In plain doubles when every weight is an integer and the total weight
// times the most points a vote gives stays below 2^52, so that every term and partial sum is
// an integer a double holds exactly (the usual case, and much the faster); else ExactSums.
class PointSums {
 public:
  PointSums(const VoteSet& votes, double max_points) : sums_(votes.num_agents()) {
    bool integral = max_points < kPlainLimit;
    for (size_t v = 0; v < votes.size() && integral; ++v) {
      integral = votes.Weight(v) == std::floor(votes.Weight(v));
    }
    plain_ = integral && votes.TotalWeight() * max_points < kPlainLimit;
    if (plain_) totals_.assign(votes.num_agents(), 0.0);
  }

  void Add(AgentId a, double weight, double points, const std::vector<double>& cofactor) {
    if (plain_) {
      for (double c : cofactor) points *= c;  // at most max_points: exact
      totals_[a] += weight * points;
      return;
    }
    ExactSum term(weight);
    term.Scale(points);
    for (double c : cofactor) term.Scale(c);
    sums_[a].Add(term);
  }

  std::vector<ExactSum> Take() && {
    if (plain_) {
      for (size_t a = 0; a < totals_.size(); ++a) sums_[a] = ExactSum(totals_[a]);
    }
    return std::move(sums_);
  }

 private:
  static constexpr double kPlainLimit = 4503599627370496.0;  // 2^52
  bool plain_ = false;
  std::vector<double> totals_;
  std::vector<ExactSum> sums_;
};

ExactScores ExactApproval(const VoteSet& votes, int k) {
  const size_t top = static_cast<size_t>(std::max(k, 1));
  // Pass 1: the denominators of the shares (a group straddling the cut shares it).
  std::set<uint64_t> denominators = {1};
  for (size_t v = 0; v < votes.size(); ++v) {
    const IndexedResult vote = votes.BestFirst(v);
    // Dense ranks: a vote with as many groups as agents ties none (the common case).
    if (vote.ranks.empty() || vote.ranks.back() == vote.ranks.size()) continue;
    size_t start = 0;
    while (start < vote.size() && start < top) {
      size_t end = start + 1;
      while (end < vote.size() && vote.ranks[end] == vote.ranks[start]) ++end;
      if (end - start > 1) denominators.insert(ApprovedShare(start, end - start, top).second);
      start = end;
    }
  }
  const CommonDenominator common({denominators.begin(), denominators.end()});
  const std::vector<double>& whole = common.Cofactor(1);
  // Pass 2: weight x numerator x L / denominator, summed exactly. A vote gives an agent at
  // most L (its whole point).
  PointSums sums(votes, common.value());
  ForEachGroupMember(votes, [&](AgentId a, size_t first, size_t tied, size_t, double w) {
    if (first >= top) return;
    if (tied == 1) {
      sums.Add(a, w, 1.0, whole);
      return;
    }
    const auto [numerator, denominator] = ApprovedShare(first, tied, top);
    sums.Add(a, w, static_cast<double>(numerator),
             denominator == 1 ? whole : common.Cofactor(denominator));
  });
  return {std::move(sums).Take(), common.value()};
}

ExactScores ExactBorda(const VoteSet& votes) {
  // Twice the points, an integer: 2 * below + (tied - 1), at most 2 (size - 1).
  size_t longest = 0;
  for (size_t v = 0; v < votes.size(); ++v) longest = std::max(longest, votes[v].size());
  PointSums sums(votes, 2.0 * static_cast<double>(longest));
  const std::vector<double> none;
  ForEachGroupMember(votes, [&](AgentId a, size_t first, size_t tied, size_t size, double w) {
    sums.Add(a, w, static_cast<double>(2 * (size - first - tied) + tied - 1), none);
  });
  return {std::move(sums).Take(), 2.0};
}

}  // namespace

SocialOrder Approval(const VoteSet& votes, int k, Priority priority) {
  return ToOrder(ExactApproval(votes, k), priority);
}

SocialOrder Plurality(const VoteSet& votes, Priority priority) {
  return Approval(votes, 1, priority);
}

SocialOrder Borda(const VoteSet& votes, Priority priority) {
  return ToOrder(ExactBorda(votes), priority);
}

std::vector<double> ApprovalScores(const VoteSet& votes, int k) {
  return ToDoubles(ExactApproval(votes, k));
}

std::vector<double> PluralityScores(const VoteSet& votes) { return ApprovalScores(votes, 1); }

std::vector<double> BordaScores(const VoteSet& votes) { return ToDoubles(ExactBorda(votes)); }

}  // namespace ratings::voting
