#include "daemon/ratingd/read_budget.h"

#include <algorithm>

namespace ratingd {

ReadBudget::ReadBudget(const ReadBudgetOptions& options, const Clock* clock)
    : options_(options), clock_(clock) {}

std::optional<absl::Duration> ReadBudget::Take() { return TakeUnless(/*free_now=*/false); }

std::optional<absl::Duration> ReadBudget::TakeAheadIfWaiting() {
  if (options_.rate <= 0) return std::nullopt;
  return TakeUnless(/*free_now=*/true);
}

std::optional<absl::Duration> ReadBudget::TakeUnless(bool free_now) {
  if (options_.rate <= 0) return absl::ZeroDuration();
  const absl::Duration interval = absl::Seconds(1.0 / options_.rate);
  const absl::Duration tolerance = interval * (std::max(options_.burst, 1.0) - 1.0);
  const absl::Time now = clock_->Now();
  MutexLock lock(&mu_);
  // The answer's theoretical start; it may start for real `tolerance` earlier.
  const absl::Time start = std::max(theoretical_, now);
  const absl::Duration wait = std::max(start - tolerance - now, absl::ZeroDuration());
  if (wait > options_.max_wait || (free_now && wait == absl::ZeroDuration())) return std::nullopt;
  theoretical_ = start + interval;
  return wait;
}

void ReadBudget::Charge(size_t bytes) {
  if (options_.rate <= 0 || options_.unit_bytes == 0 || bytes <= options_.unit_bytes) return;
  const size_t extra = (bytes - 1) / options_.unit_bytes;  // ceil(bytes / unit) - 1
  MutexLock lock(&mu_);
  theoretical_ += absl::Seconds(static_cast<double>(extra) / options_.rate);
}

}  // namespace ratingd
