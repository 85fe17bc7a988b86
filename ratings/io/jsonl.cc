#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "ratingd/v1/game_result.pb.h"
#include "ratings/io/game_result_proto.h"
#include "ratings/io/read_results.h"

namespace ratings::io {

absl::StatusOr<ReadOutput> ParseJsonl(std::string_view content_view, std::string_view filename_view,
                                      const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  ReadOutput output;
  int64_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(content, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    ratingd::v1::GameResult message;
    const auto parsed = google::protobuf::util::JsonStringToMessage(
        google::protobuf::StringPiece(line.data(), line.size()), &message, options);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(filename, ":", line_number, ": invalid GameResult JSON: ",
                       absl::string_view(parsed.message().data(), parsed.message().size())));
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

}  // namespace ratings::io
