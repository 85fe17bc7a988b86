// The algorithms of [AE] Table 1 by the names `ratingctl simulate --algorithms` takes
// (docs/ACTIVE.md §3, docs/CONTRACTS.md §2).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ratings/active/algorithm_options.h"
#include "ratings/active/evaluator.h"

namespace ratings::active {

// Every name, in Table 1's order.
inline constexpr std::array<absl::string_view, 17> kAlgorithmNames = {
    "uniform-averaging",
    "basic-ucb",
    "kemeny-el",
    "batch-elo",
    "batch-copeland",
    "batch-ranked-pairs",
    "batch-maximal-lotteries",
    "batch-sco",
    "batch-nash-averaging",
    "mean-model-copeland",
    "mean-model-ranked-pairs",
    "mean-model-max-lot",
    "proportional-representation",
    "online-elo",
    "online-sco",
    "online-maximal-lotteries",
    "online-nash-averaging",
};

// A new evaluator of `agents` agents on `tasks` tasks; `seed` drives the algorithm's own
// randomness (BATCHSCO's batches). InvalidArgument naming the known algorithms for an
// unknown name, or naming the option an algorithm refuses.
absl::StatusOr<std::unique_ptr<Evaluator>> MakeEvaluator(absl::string_view name, size_t tasks,
                                                         size_t agents,
                                                         const AlgorithmOptions& options,
                                                         uint64_t seed);

}  // namespace ratings::active
