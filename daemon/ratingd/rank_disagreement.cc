#include "daemon/ratingd/rank_disagreement.h"

#include <algorithm>
#include <utility>

namespace ratingd {
namespace {

// Sorts v[lo, hi) and returns the number of inversions in it.
uint64_t CountInversions(std::vector<uint32_t>& v, std::vector<uint32_t>& scratch, size_t lo,
                         size_t hi) {
  if (hi - lo < 2) return 0;
  const size_t mid = lo + (hi - lo) / 2;
  uint64_t count = CountInversions(v, scratch, lo, mid) + CountInversions(v, scratch, mid, hi);
  size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    if (v[i] <= v[j]) {
      scratch[k++] = v[i++];
    } else {
      count += mid - i;  // v[j] precedes every remaining left element
      scratch[k++] = v[j++];
    }
  }
  while (i < mid) scratch[k++] = v[i++];
  while (j < hi) scratch[k++] = v[j++];
  std::copy(scratch.begin() + static_cast<long>(lo), scratch.begin() + static_cast<long>(hi),
            v.begin() + static_cast<long>(lo));
  return count;
}

}  // namespace

double NormalizedKendallTau(const std::vector<uint32_t>& rank_a,
                            const std::vector<uint32_t>& rank_b) {
  std::vector<std::pair<uint32_t, uint32_t>> both;
  const size_t n = std::min(rank_a.size(), rank_b.size());
  for (size_t i = 0; i < n; ++i) {
    if (rank_a[i] > 0 && rank_b[i] > 0) both.emplace_back(rank_a[i], rank_b[i]);
  }
  if (both.size() < 2) return 0.0;
  std::sort(both.begin(), both.end());
  std::vector<uint32_t> b(both.size()), scratch(both.size());
  for (size_t i = 0; i < both.size(); ++i) b[i] = both[i].second;
  const double pairs = static_cast<double>(both.size()) * static_cast<double>(both.size() - 1) / 2;
  return static_cast<double>(CountInversions(b, scratch, 0, b.size())) / pairs;
}

}  // namespace ratingd
