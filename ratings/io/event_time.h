// Event times as the readers take them: a result's `event_time` (JSONL, the wire) and a
// battle's `tstamp` (seconds since the Unix epoch), both within the range a
// google.protobuf.Timestamp holds, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace ratings::io {

// The range's ends in whole seconds since the Unix epoch, and as the errors name it.
inline constexpr int64_t kMinEventSeconds = -62135596800;  // 0001-01-01T00:00:00Z
inline constexpr int64_t kMaxEventSeconds = 253402300799;  // 9999-12-31T23:59:59Z
inline constexpr absl::string_view kEventTimeRange = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z";

// `seconds` since the Unix epoch as a time, to the nearest microsecond. InvalidArgument
// naming `field` when it is not finite or outside the range.
absl::StatusOr<absl::Time> EventTimeFromSeconds(double seconds, absl::string_view field);

}  // namespace ratings::io
