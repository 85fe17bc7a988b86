// The property every file-format fuzzer checks: the parser never crashes; an error names
// the file ("FILE:..."); every record it returns passes ValidateResult under small limits
// (so that the limits are reached too) and the format's own check. Aborts otherwise, which
// libFuzzer reports as a crash.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "ratings/io/read_results.h"
#include "ratings/result.h"

namespace ratingd_fuzz {

// `parse` is one of ratings::io's Parse* functions; `check(output, record)` is the
// format's own property of each record.
template <typename Parse, typename Check>
void CheckParser(std::string_view content, std::string_view filename, Parse parse, Check check) {
  ratings::ResultLimits limits;
  limits.max_standings = 8;
  limits.max_agent_id_bytes = 16;
  const absl::StatusOr<ratings::io::ReadOutput> out = parse(content, filename, limits);
  if (!out.ok()) {
    const std::string prefix = std::string(filename) + ":";
    if (!absl::StartsWith(out.status().message(), prefix)) std::abort();
    return;
  }
  for (const ratings::io::ResultRecord& record : out->records) {
    if (!ratings::ValidateResult(record.result, limits).ok()) std::abort();
    if (!check(*out, record)) std::abort();
  }
}

}  // namespace ratingd_fuzz
