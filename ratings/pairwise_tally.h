// The voter preference matrix N and margin matrix M = N - N^T (docs/MODELS.md §1;
// [VasE] §"Voting" and Fig. 4), dense and growable.
#pragma once

#include <cstddef>
#include <vector>

#include "Eigen/Core"
#include "ratings/result.h"

namespace ratings {

// Not thread-safe; one owner. Memory: capacity^2 doubles, where capacity doubles as
// agents arrive (amortised O(n) per new agent; a result costs O(k^2)).
class PairwiseTally {
 public:
  // Grows to n agents with zero counts; never shrinks.
  void Resize(size_t n);
  // Adds the result's weight to N(a, b) for every pair a strictly above b. Ties add
  // nothing. Precondition: every id < size().
  void Add(const IndexedResult& result);

  // Total weight of results placing a strictly above b. Precondition: a, b < size().
  double N(AgentId a, AgentId b) const { return n_[a * capacity_ + b]; }
  double Margin(AgentId a, AgentId b) const { return N(a, b) - N(b, a); }
  // Sets N(a, b) (restoring a snapshot). Precondition: a, b < size().
  void Set(AgentId a, AgentId b, double n) { n_[a * capacity_ + b] = n; }
  // The dense margin matrix M (size() x size()); O(n^2).
  Eigen::MatrixXd MarginMatrix() const;

  size_t size() const { return size_; }
  // Releases the matrix; size() becomes 0.
  void Clear();

 private:
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::vector<double> n_;  // row-major, capacity_ x capacity_
};

}  // namespace ratings
