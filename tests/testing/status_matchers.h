// The status matchers Debian's Abseil lacks: IsOk, StatusIs and IsOkAndHolds.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace ratings::testing {

inline const absl::Status& GetStatus(const absl::Status& s) { return s; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& s) {
  return s.status();
}

// StatusIs(code, message_matcher): matches a Status or StatusOr with that code and a
// message the matcher accepts.
MATCHER_P2(StatusIs, code, message_matcher,
           std::string("status code ") + absl::StatusCodeToString(code)) {
  const absl::Status& s = GetStatus(arg);
  *result_listener << "status is " << s;
  return s.code() == code &&
         ::testing::ExplainMatchResult(message_matcher, std::string(s.message()), result_listener);
}

MATCHER(IsOk, "is OK") {
  const absl::Status& s = GetStatus(arg);
  *result_listener << "status is " << s;
  return s.ok();
}

// IsOkAndHolds(value_matcher): an OK StatusOr whose value the matcher accepts.
MATCHER_P(IsOkAndHolds, value_matcher, "is OK and holds a value that matches") {
  if (!arg.ok()) {
    *result_listener << "status is " << arg.status();
    return false;
  }
  return ::testing::ExplainMatchResult(value_matcher, *arg, result_listener);
}

}  // namespace ratings::testing
