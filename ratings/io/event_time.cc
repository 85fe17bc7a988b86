#include "ratings/io/event_time.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace ratings::io {
absl::StatusOr<absl::Time> EventTimeFromSeconds(double seconds, absl::string_view field) {
  if (!std::isfinite(seconds) || seconds < static_cast<double>(kMinEventSeconds) ||
      seconds >= static_cast<double>(kMaxEventSeconds + 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " ", seconds, " is not a time in seconds since the Unix epoch from ",
                     kEventTimeRange));
  }
  // To the microsecond: a double near today's seconds since the epoch is only good to a
  // quarter of one, so nanoseconds would print its binary noise (…15.900000095Z).
  const double whole = std::floor(seconds);
  int64_t micros = std::llround((seconds - whole) * 1e6);  // [0, 1e6]
  int64_t at = static_cast<int64_t>(whole);
  if (micros == 1'000'000) {
    ++at;
    micros = 0;
  }
  if (at > kMaxEventSeconds) {  // rounded up past the end
    return absl::InvalidArgumentError(
        absl::StrCat(field, " ", seconds, " is not a time in seconds since the Unix epoch from ",
                     kEventTimeRange));
  }
  return absl::FromUnixSeconds(at) + absl::Microseconds(micros);
}

}  // namespace ratings::io
