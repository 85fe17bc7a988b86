// Private to the two SCO implementations, the online Sco (sco.cc) and the batch solvers
// (batch/sco_batch.cc): their option checks and the walk over a vote's ordered pairs.
// Not part of the library's interface.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace ratings::sco_internal {

// InvalidArgument "<method>: <name> must be finite and > 0, got <value>" unless it is.
inline absl::Status CheckPositive(absl::string_view method, absl::string_view name, double value) {
  if (!std::isfinite(value) || value <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(method, ": ", name, " must be finite and > 0, got ", value));
  }
  return absl::OkStatus();
}

// InvalidArgument "<method>: need finite min < max, got [<min>, <max>]" unless so.
inline absl::Status CheckBounds(absl::string_view method, double min, double max) {
  if (!std::isfinite(min) || !std::isfinite(max) || !(min < max)) {
    return absl::InvalidArgumentError(
        absl::StrCat(method, ": need finite min < max, got [", min, ", ", max, "]"));
  }
  return absl::OkStatus();
}

// Calls pair(a, c) for every two positions of a vote with different ranks, a the one
// strictly above (the lower rank), c the one below, pairs in the order (0, 1), (0, 2),
// ..., (1, 2), ...; tied pairs are skipped (they carry no SCO gradient).
template <typename Pair>
inline void ForEachOrderedPair(absl::Span<const uint32_t> ranks, Pair&& pair) {
  const size_t k = ranks.size();
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = i + 1; j < k; ++j) {
      if (ranks[i] == ranks[j]) continue;
      const bool i_above = ranks[i] < ranks[j];
      pair(i_above ? i : j, i_above ? j : i);
    }
  }
}

}  // namespace ratings::sco_internal
