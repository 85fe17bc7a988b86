// How long-running solvers report progress without doing I/O (ratings/ is I/O free): the
// caller passes a callback and decides what to show, and whether to show anything.
#pragma once

#include <cstdint>
#include <functional>

namespace ratings {

// Called with (work done, total work) in the solver's own unit (iterations, permutations).
// Solvers call it a bounded number of times (about a thousand per run) and once at the
// end with done == total. May be empty.
using ProgressFn = std::function<void(int64_t done, int64_t total)>;

// The step between calls for `total` units of work: about a thousand calls per run.
inline int64_t ProgressStride(int64_t total) { return total > 1000 ? total / 1000 : 1; }

}  // namespace ratings
