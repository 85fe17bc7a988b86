// The GameResult JSONL reader as it was before its simdjson fast path: every line through
// protobuf's JSON parser (unknown fields refused) and FromProto. The reference that
// ParseJsonl must equal, record for record and message for message (jsonl_fast_test.cc,
// tests/fuzz/jsonl_fuzz.cc), and the comparison.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/util/json_util.h"
#include "ratingd/v1/game_result.pb.h"
#include "ratings/io/game_result_proto.h"
#include "ratings/io/read_results.h"

namespace ratings::io::testing {

// One line as protobuf reads it: the message's status, and the message.
inline absl::Status ProtobufJsonToMessage(std::string_view line, ratingd::v1::GameResult* message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(line.data(), line.size()), message, options);
  if (parsed.ok()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::string_view(parsed.message().data(), parsed.message().size()));
}

inline absl::StatusOr<ReadOutput> ReferenceParseJsonl(std::string_view content_view,
                                                      std::string_view filename_view,
                                                      const ResultLimits& limits) {
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  ReadOutput output;
  int64_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(content, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    ratingd::v1::GameResult message;
    const absl::Status parsed =
        ProtobufJsonToMessage(std::string_view(line.data(), line.size()), &message);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          filename, ":", line_number, ": invalid GameResult JSON: ", parsed.message()));
    }
    absl::StatusOr<ResultRecord> record = FromProto(message, limits);
    if (!record.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(filename, ":", line_number, ": ", record.status().message()));
    }
    record->line = line_number;
    output.records.push_back(*std::move(record));
  }
  return output;
}

// Doubles compared bit for bit (0 and -0 differ; messages print them differently).
inline bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Empty when the records are identical in every field, else what differs.
inline std::string RecordDifference(const ResultRecord& a, const ResultRecord& b) {
  if (a.pool != b.pool) return "pool";
  if (a.game_id != b.game_id) return "game_id";
  if (a.task != b.task) return "task";
  if (a.line != b.line) return absl::StrCat("line ", a.line, " vs ", b.line);
  if (a.event_time != b.event_time) return "event_time";
  if (!SameBits(a.result.weight, b.result.weight)) {
    return absl::StrCat("weight ", a.result.weight, " vs ", b.result.weight);
  }
  if (a.result.standings.size() != b.result.standings.size()) return "standings count";
  for (size_t i = 0; i < a.result.standings.size(); ++i) {
    const Standing& x = a.result.standings[i];
    const Standing& y = b.result.standings[i];
    if (x.agent != y.agent || x.rank != y.rank || x.score.has_value() != y.score.has_value() ||
        (x.score.has_value() && !SameBits(*x.score, *y.score))) {
      return absl::StrCat("standings[", i, "]");
    }
  }
  return "";
}

// Empty when both are the same error (code and message) or the same records, else what
// differs.
inline std::string OutputDifference(const absl::StatusOr<ReadOutput>& actual,
                                    const absl::StatusOr<ReadOutput>& expected) {
  if (actual.ok() != expected.ok() || (!actual.ok() && actual.status() != expected.status())) {
    return absl::StrCat("got ", actual.status().ToString(), "\nexpected ",
                        expected.status().ToString());
  }
  if (!actual.ok()) return "";
  if (actual->records.size() != expected->records.size() ||
      actual->skipped_votes != expected->skipped_votes) {
    return absl::StrCat(actual->records.size(), " records, expected ", expected->records.size());
  }
  for (size_t i = 0; i < actual->records.size(); ++i) {
    const std::string difference = RecordDifference(actual->records[i], expected->records[i]);
    if (!difference.empty()) return absl::StrCat("record ", i, ": ", difference);
  }
  return "";
}

}  // namespace ratings::io::testing
