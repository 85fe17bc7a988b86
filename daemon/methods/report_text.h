// A rating report as `ratingctl rate` prints it (docs/CONTRACTS.md §2): JSON, or a table.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "ratingd/v1/report.pb.h"

namespace ratingd {

// One JSON document (protobuf's JSON printer; proto field names; zero values printed;
// map keys sorted, so equal reports give byte-identical text). No trailing newline.
absl::StatusOr<std::string> ReportToJson(const v1::RatingReport& report);

// A fixed-width table for people: rank, agent, rating (and probability for a lottery, the
// interval columns and games when the entries carry them).
std::string ReportToTable(const v1::RatingReport& report);

}  // namespace ratingd
