// GameResult JSONL (docs/CONTRACTS.md §1.2): one GameResult per line in protobuf's JSON form.
// protobuf's JSON parser defines what a line means; reading every line through it costs
// some 9 µs, so lines of the plain kind are read with simdjson instead (jsonl_fast.h), and
// every other line, an invalid one included, still goes through protobuf. Both paths end
// in the same checks (ValidateRecord), so records and messages are protobuf's either way.
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "ratingd/v1/game_result.pb.h"
#include "ratings/io/game_result_proto.h"
#include "ratings/io/jsonl_fast.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/read_results.h"

namespace ratings::io {
namespace {

// One line through protobuf: its parser, unknown fields refused, then FromProto.
// `where` is "FILE:LINE: ".
absl::StatusOr<ResultRecord> ProtobufLineToRecord(absl::string_view line, absl::string_view where,
                                                  const ResultLimits& limits) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  ratingd::v1::GameResult message;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(line.data(), line.size()), &message, options);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "invalid GameResult JSON: ",
                     absl::string_view(parsed.message().data(), parsed.message().size())));
  }
  absl::StatusOr<ResultRecord> record = FromProto(message, limits);
  if (!record.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(where, record.status().message()));
  }
  return record;
}

// The GameResults of `content` whose first line is line `first_line` of the file, appended
// to `output` (a LinesParser, parallel_lines.h).
absl::Status ParseGameResultLines(absl::string_view content, absl::string_view filename,
                                  const ResultLimits& limits, int64_t first_line,
                                  ReadOutput& output) {
  FastGameResultReader fast;
  int64_t line_number = first_line - 1;
  for (absl::string_view line : absl::StrSplit(content, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    ResultRecord& record = output.records.emplace_back();
    absl::Status status;
    if (fast.Read(std::string_view(line.data(), line.size()), record)) {
      status = ValidateRecord(record, limits);
      if (!status.ok()) {
        status = absl::InvalidArgumentError(
            absl::StrCat(filename, ":", line_number, ": ", status.message()));
      }
    } else {
      absl::StatusOr<ResultRecord> slow =
          ProtobufLineToRecord(line, absl::StrCat(filename, ":", line_number, ": "), limits);
      if (slow.ok()) {
        record = *std::move(slow);
      } else {
        status = slow.status();
      }
    }
    if (!status.ok()) {
      output.records.pop_back();
      return status;
    }
    record.line = line_number;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ReadOutput> ParseJsonl(std::string_view content_view, std::string_view filename_view,
                                      const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  // Files from kParallelBytes on are read in two halves on two threads (parallel_lines.h).
  return ParseLinesInHalves(
      content, [&](absl::string_view part, int64_t first_line, ReadOutput& output) {
        return ParseGameResultLines(part, filename, limits, first_line, output);
      });
}

}  // namespace ratings::io
