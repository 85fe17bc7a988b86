// The HTTP API's budget of answers (--http-max-rps; ARCHITECTURE.md §3): at most `rate`
// answers a second on average, in bursts of at most `burst`, so that clients polling as fast
// as they can take a bounded share of the cores the consumer thread needs. A request beyond
// the budget waits its turn (the worker sleeps, taking no CPU) up to `max_wait`; past that it
// is refused (429). The generic cell rate algorithm: each answer moves a theoretical time
// forward by 1/rate, and one may start once that time is at most burst/rate ahead of now.
// An answer's cost grows with its size (copying and sending it): with `unit_bytes`, an answer
// counts once per started `unit_bytes` of its body, the extra turns charged before it is sent
// (they delay the next answers, never this one).
//
//   ReadBudget budget({.rate = 5000, .burst = 500, .max_wait = absl::Seconds(1)}, &clock);
//   if (std::optional<absl::Duration> wait = budget.Take()) {
//     absl::SleepFor(*wait); build the answer; budget.Charge(its size); send it
//   } else { 429 }
#pragma once

#include <cstddef>
#include <optional>

#include "absl/time/time.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/mutex.h"

namespace ratingd {

struct ReadBudgetOptions {
  double rate = 0;   // answers a second; 0 = no budget (Take always returns zero)
  double burst = 1;  // answers that may start at once; at least 1
  absl::Duration max_wait = absl::Seconds(1);
  size_t unit_bytes = 0;  // an answer counts once per started unit_bytes; 0: once, any size
};

// Thread-safe.
class ReadBudget {
 public:
  // `clock` must outlive the budget.
  ReadBudget(const ReadBudgetOptions& options, const Clock* clock);

  // One answer's turn: how long the caller must wait before it starts (zero: now), or nullopt
  // if that would be longer than max_wait (then nothing is taken).
  std::optional<absl::Duration> Take();
  // A turn taken ahead, for a request not yet read (a connection's next): taken, and its wait
  // returned, only if it must wait (0 < wait <= max_wait); otherwise nullopt and nothing is
  // taken, so a turn free now is never spent on a request that may not come.
  std::optional<absl::Duration> TakeAheadIfWaiting();
  // For an answer whose body is `bytes` long, before it is sent: takes the turns it counts
  // beyond the one Take took (ceil(bytes / unit_bytes) - 1), never refusing.
  void Charge(size_t bytes);
  const ReadBudgetOptions& options() const { return options_; }

 private:
  // Take, or with `free_now` TakeAheadIfWaiting (for a rate > 0).
  std::optional<absl::Duration> TakeUnless(bool free_now);

  const ReadBudgetOptions options_;
  const Clock* clock_;
  Mutex mu_;
  absl::Time theoretical_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
};

}  // namespace ratingd
