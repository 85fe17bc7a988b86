#include "daemon/methods/history_csv.h"

#include <charconv>
#include <cmath>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "google/protobuf/util/time_util.h"
#include "ratings/io/game_result_proto.h"

namespace ratingd {
namespace {

void AppendNumber(double x, std::string& out) {
  if (std::isnan(x)) return;
  char buffer[32];
  const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof(buffer), x);
  out.append(buffer, r.ptr);
}

void AppendField(const std::string& text, std::string& out) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) {
    out += text;
    return;
  }
  absl::StrAppend(&out, "\"", absl::StrReplaceAll(text, {{"\"", "\"\""}}), "\"");
}

}  // namespace

std::string HistoryCsv(const ratings::PoolHistory& history, const ratings::AgentIndex& index) {
  std::string out = "agent,sequence,time,rating,ci_low,ci_high\n";
  for (ratings::AgentId a = 0; a < index.size(); ++a) {
    for (const ratings::HistoryPoint& p : history.Of(a)) {
      AppendField(index.Name(a), out);
      absl::StrAppend(&out, ",", p.sequence, ",");
      if (p.time.has_value()) {
        out += google::protobuf::util::TimeUtil::ToString(ratings::io::TimestampOf(*p.time));
      }
      for (const double x : {p.rating, p.ci_low, p.ci_high}) {
        out += ',';
        AppendNumber(x, out);
      }
      out += '\n';
    }
  }
  return out;
}

absl::Status WriteHistoryCsv(const std::string& path, const ratings::PoolHistory& history,
                             const ratings::AgentIndex& index) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << HistoryCsv(history, index);
  file.close();
  if (!file) return absl::InvalidArgumentError(absl::StrCat("--history: cannot write ", path));
  return absl::OkStatus();
}

}  // namespace ratingd
