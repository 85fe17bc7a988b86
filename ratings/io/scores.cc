#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/read_results.h"
#include "ratings/io/scores_syntax.h"
#include "ratings/status_macros.h"

namespace ratings::io {
namespace {

using scores::Body;
using scores::ParseHeader;
using scores::ParseRows;
using scores::Ranks;
using scores::RankScratch;
using scores::RowParser;
using scores::RowsToReserve;

void AppendPart(ScoreTable& head, ScoreTable&& tail) {
  auto append = [](auto& to, auto& from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  append(head.tasks, tail.tasks);
  append(head.lines, tail.lines);
  append(head.means, tail.means);
  append(head.stds, tail.stds);
}

void AppendPart(ReadOutput& head, ReadOutput&& tail) {
  head.records.insert(head.records.end(), std::make_move_iterator(tail.records.begin()),
                      std::make_move_iterator(tail.records.end()));
}

// parse_part(part, first_line, output) over the data lines of `body`: in two halves on two
// threads when long enough (parallel_lines.h). Rows depend only on their line and the
// column header, so the halves' rows, appended, are the file's, and the first half's error
// is the first in the file.
template <typename Output, typename ParsePart>
absl::Status ParseBody(const Body& body, ParsePart parse_part, Output& output) {
  const std::optional<LineHalves> halves = SplitLines(body.text, body.first_line);
  if (!halves.has_value()) return parse_part(body.text, body.first_line, output);
  Output tail;
  absl::Status head_status;
  absl::Status tail_status;
  RunOnTwoThreads(
      [&] { head_status = parse_part(halves->first, body.first_line, output); },
      [&] { tail_status = parse_part(halves->second, halves->second_first_line, tail); });
  if (!head_status.ok()) return head_status;
  if (!tail_status.ok()) return tail_status;
  AppendPart(output, std::move(tail));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ScoreTable> ParseScoreTable(std::string_view content_view,
                                           std::string_view filename_view,
                                           const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  ASSIGN_OR_RETURN(const std::optional<Body> body, ParseHeader(content, filename, limits));
  ScoreTable table;
  if (!body.has_value()) return table;
  auto reserve = [&](absl::string_view text, ScoreTable& out) {
    const size_t rows = RowsToReserve(text, body->agents.size());
    out.tasks.reserve(rows);
    out.lines.reserve(rows);
    out.means.reserve(rows);
    out.stds.reserve(rows);
  };
  auto parse_part = [&](absl::string_view part, int64_t first_line, ScoreTable& out) {
    reserve(part, out);
    return ParseRows(part, first_line, *body, [&](const RowParser& row, int64_t line_number) {
      out.tasks.emplace_back(row.task());
      out.lines.push_back(line_number);
      out.means.push_back(row.means());
      out.stds.push_back(row.stds());
    });
  };
  // Room for the whole file in the first half's table (as in ParseScores).
  reserve(body->text, table);
  RETURN_IF_ERROR(ParseBody(*body, parse_part, table));
  table.agents = body->agents;
  return table;
}

absl::StatusOr<ReadOutput> ParseScores(std::string_view content_view,
                                       std::string_view filename_view, const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  ASSIGN_OR_RETURN(const std::optional<Body> body, ParseHeader(content, filename, limits));
  ReadOutput output;
  if (!body.has_value()) return output;
  // Each row becomes its record directly, without the table in between. Such a record
  // always passes ValidateResult, so it is not run: the column header has 2..max_standings
  // distinct, non-empty agents within max_agent_id_bytes, ranks start at 1, every score is
  // finite (ParseNumber) and the weight is 1.
  auto parse_part = [&](absl::string_view part, int64_t first_line, ReadOutput& out) {
    out.records.reserve(RowsToReserve(part, body->agents.size()));
    std::vector<uint32_t> ranks(body->agents.size());
    RankScratch scratch;
    return ParseRows(part, first_line, *body, [&](const RowParser& row, int64_t line_number) {
      Ranks(row.means(), ranks.data(), nullptr, scratch);
      ResultRecord& record = out.records.emplace_back();
      record.task = std::string(row.task());
      record.line = line_number;
      std::vector<Standing>& standings = record.result.standings;
      standings.resize(body->agents.size());
      for (size_t a = 0; a < standings.size(); ++a) {
        standings[a].agent = body->agents[a];
        standings[a].rank = ranks[a];
        standings[a].score = row.means()[a];
      }
    });
  };
  // Room for the whole file in the first half's output, so that the second half's records
  // are moved in after its own without moving those.
  output.records.reserve(RowsToReserve(body->text, body->agents.size()));
  RETURN_IF_ERROR(ParseBody(*body, parse_part, output));
  return output;
}

}  // namespace ratings::io
