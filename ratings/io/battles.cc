// Battles (docs/CONTRACTS.md §2.4): pairwise comparisons in LMArena's conventions, one per
// JSONL line or CSV row, each becoming a 2-agent result.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "ratings/io/event_time.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/read_results.h"
#include "ratings/status_macros.h"
#include "simdjson.h"

namespace ratings::io {
namespace {

// Integers up to 2^53 are exact in the double a JSON number is parsed into.
constexpr double kMaxExactInteger = 9007199254740992.0;

// A byte-order mark, which spreadsheet programs put at the start of the CSV they write.
constexpr absl::string_view kUtf8Bom = "\xEF\xBB\xBF";

std::string Where(absl::string_view filename, int64_t line_number) {
  return absl::StrCat(filename, ":", line_number, ": ");
}

absl::Status WithWhere(const absl::Status& status, absl::string_view where) {
  return absl::Status(status.code(), absl::StrCat(where, status.message()));
}

absl::string_view BaseName(absl::string_view path) {
  const size_t slash = path.find_last_of('/');
  return slash == absl::string_view::npos ? path : path.substr(slash + 1);
}

// Ranks of (model_a, model_b) for a winner; nullopt for an unknown winner.
std::optional<std::pair<uint32_t, uint32_t>> RanksOf(absl::string_view winner) {
  if (winner == "model_a") return std::make_pair(1u, 2u);
  if (winner == "model_b") return std::make_pair(2u, 1u);
  if (winner == "tie" || winner == "tie (bothbad)") return std::make_pair(1u, 1u);
  return std::nullopt;
}

// A score in [-1, 1] whose sign agrees with the winner: > 0 for model_a, < 0 for model_b,
// 0 for a tie.
absl::Status CheckScore(double score, absl::string_view winner) {
  if (!(score >= -1 && score <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat("score ", score, " is outside [-1, 1]"));
  }
  const bool agrees = winner == "model_a"   ? score > 0
                      : winner == "model_b" ? score < 0
                                            : score == 0;
  if (agrees) return absl::OkStatus();
  const absl::string_view needed = winner == "model_a" ? "> 0" : winner == "model_b" ? "< 0" : "0";
  return absl::InvalidArgumentError(absl::StrCat("score ", score, " contradicts winner '", winner,
                                                 "' (which needs a score ", needed, ")"));
}

}  // namespace

absl::StatusOr<ResultRecord> BattleToRecord(Battle battle, const ResultLimits& limits) {
  if (!battle.model_a.has_value()) return absl::InvalidArgumentError("missing model_a");
  if (!battle.model_b.has_value()) return absl::InvalidArgumentError("missing model_b");
  if (!battle.winner.has_value()) return absl::InvalidArgumentError("missing winner");
  if (*battle.model_a == *battle.model_b) {
    return absl::InvalidArgumentError(
        absl::StrCat("model_a and model_b are both '", *battle.model_a, "'"));
  }
  const std::optional<std::pair<uint32_t, uint32_t>> ranks = RanksOf(*battle.winner);
  if (!ranks.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown winner '", *battle.winner, "'; expected model_a, model_b, tie or tie (bothbad)"));
  }
  ResultRecord record;
  record.result.standings = {Standing{*std::move(battle.model_a), ranks->first, std::nullopt},
                             Standing{*std::move(battle.model_b), ranks->second, std::nullopt}};
  if (battle.score.has_value()) {
    RETURN_IF_ERROR(CheckScore(*battle.score, *battle.winner));
    record.result.standings[0].score = *battle.score;
    record.result.standings[1].score = -*battle.score;
  }
  if (battle.tstamp.has_value()) {
    ASSIGN_OR_RETURN(record.event_time, EventTimeFromSeconds(*battle.tstamp, "tstamp"));
  }
  RETURN_IF_ERROR(ValidateResult(record.result, limits));
  record.task = std::move(battle.task).value_or("");
  return record;
}

namespace {

// Fills in where the record came from: game id "<file name>:<line>".
ResultRecord& Locate(ResultRecord& record, absl::string_view filename, int64_t line_number) {
  record.game_id = absl::StrCat(BaseName(filename), ":", line_number);
  record.line = line_number;
  return record;
}

// --- JSONL ---

absl::string_view KindName(simdjson::dom::element_type type) {
  switch (type) {
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
      return "a number";
    case simdjson::dom::element_type::STRING:
      return "a string";
    case simdjson::dom::element_type::BOOL:
      return "a boolean";
    case simdjson::dom::element_type::OBJECT:
      return "an object";
    case simdjson::dom::element_type::ARRAY:
      return "an array";
    case simdjson::dom::element_type::NULL_VALUE:
      break;
  }
  return "null";
}

bool IsNumber(simdjson::dom::element_type type) {
  return type == simdjson::dom::element_type::INT64 ||
         type == simdjson::dom::element_type::UINT64 || type == simdjson::dom::element_type::DOUBLE;
}

// The field `name` of `object`; nullopt when absent or null (a null field is absent).
std::optional<simdjson::dom::element> Field(const simdjson::dom::object& object, const char* name) {
  simdjson::dom::element value;
  if (object.at_key(name).get(value) != simdjson::SUCCESS || value.is_null()) return std::nullopt;
  return value;
}

absl::StatusOr<std::optional<std::string>> StringField(const simdjson::dom::object& object,
                                                       const char* name) {
  const std::optional<simdjson::dom::element> value = Field(object, name);
  if (!value.has_value()) return std::nullopt;
  std::string_view text;
  if (value->get_string().get(text) != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be a string, not ", KindName(value->type())));
  }
  return std::string(text);
}

// question_id and task: a string, or an integer written in decimal.
absl::StatusOr<std::optional<std::string>> IdField(const simdjson::dom::object& object,
                                                   const char* name) {
  const std::optional<simdjson::dom::element> value = Field(object, name);
  if (!value.has_value()) return std::nullopt;
  std::string_view text;
  if (value->get_string().get(text) == simdjson::SUCCESS) return std::string(text);
  if (!IsNumber(value->type())) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be a string or an integer, not ", KindName(value->type())));
  }
  int64_t integer = 0;
  if (value->get_int64().get(integer) == simdjson::SUCCESS &&
      std::fabs(static_cast<double>(integer)) <= kMaxExactInteger) {
    return absl::StrCat(integer);
  }
  double number = 0;
  if (value->get_double().get(number) != simdjson::SUCCESS) {
    return absl::InternalError(absl::StrCat(name, ": a number simdjson cannot read as double"));
  }
  if (number != std::floor(number)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " ", number, " must be a string or an integer"));
  }
  if (std::fabs(number) > kMaxExactInteger) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " ", number, " is an integer beyond 2^53, not kept exactly; write it as a string"));
  }
  return absl::StrCat(static_cast<int64_t>(number));
}

absl::StatusOr<std::optional<double>> ScoreField(const simdjson::dom::object& object) {
  const std::optional<simdjson::dom::element> value = Field(object, "score");
  if (!value.has_value()) return std::nullopt;
  double number = 0;
  if (!IsNumber(value->type()) || value->get_double().get(number) != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(
        absl::StrCat("score must be a number, not ", KindName(value->type())));
  }
  return number;
}

// tstamp when it is a number; a value of another type is not read (read_results.h).
std::optional<double> TstampField(const simdjson::dom::object& object) {
  const std::optional<simdjson::dom::element> value = Field(object, "tstamp");
  double number = 0;
  if (!value.has_value() || !IsNumber(value->type()) ||
      value->get_double().get(number) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  return number;
}

// The fields of one JSON object; judge, a tstamp that is not a number and unknown fields
// are not read.
absl::StatusOr<Battle> BattleFromJson(const simdjson::dom::object& object) {
  Battle battle;
  ASSIGN_OR_RETURN(battle.model_a, StringField(object, "model_a"));
  ASSIGN_OR_RETURN(battle.model_b, StringField(object, "model_b"));
  ASSIGN_OR_RETURN(battle.winner, StringField(object, "winner"));
  ASSIGN_OR_RETURN(std::optional<std::string> question_id, IdField(object, "question_id"));
  ASSIGN_OR_RETURN(std::optional<std::string> task, IdField(object, "task"));
  battle.task = question_id.has_value() ? std::move(question_id) : std::move(task);
  ASSIGN_OR_RETURN(battle.score, ScoreField(object));
  battle.tstamp = TstampField(object);
  return battle;
}

// simdjson refuses integers beyond 64 bits, which JSON allows (a nanosecond timestamp in an
// unread field, say). protobuf's parser reads every number as a double: rewrite the line
// through it, so such a number reads as the double it denotes, as it did before simdjson.
// False if protobuf refuses the line too. The rare path: only lines simdjson refused.
bool NormaliseNumbers(absl::string_view line, std::string& normalised) {
  google::protobuf::Struct object;
  return google::protobuf::util::JsonStringToMessage(
             google::protobuf::StringPiece(line.data(), line.size()), &object)
             .ok() &&
         google::protobuf::util::MessageToJsonString(object, &normalised).ok();
}

// Parses one line as a JSON object (simdjson validates all of it, unknown fields included)
// and reads its battle. `parser` holds the parsed line until its next use.
absl::StatusOr<ResultRecord> JsonLineToRecord(simdjson::dom::parser& parser, absl::string_view line,
                                              const ResultLimits& limits) {
  constexpr absl::string_view kInvalid = "invalid battle JSON (a line must be one JSON object): ";
  simdjson::dom::element document;
  simdjson::error_code error = parser.parse(line.data(), line.size()).get(document);
  std::string normalised;
  if (error == simdjson::NUMBER_ERROR && NormaliseNumbers(line, normalised)) {
    error = parser.parse(normalised).get(document);
  }
  if (error != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(absl::StrCat(kInvalid, simdjson::error_message(error)));
  }
  simdjson::dom::object object;
  if (document.get_object().get(object) != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(
        absl::StrCat(kInvalid, "the line is ", KindName(document.type())));
  }
  ASSIGN_OR_RETURN(Battle battle, BattleFromJson(object));
  return BattleToRecord(std::move(battle), limits);
}

// --- CSV ---

// One CSV record: its fields, unquoted, and the 1-based line it starts on.
struct CsvRow {
  std::vector<std::string> fields;
  int64_t line = 0;
};

// Splits RFC 4180 CSV into records: fields separated by ',', records by CRLF or LF; a field
// in double quotes may hold ',', CR, LF, and '"' written as '""'. Not thread-safe.
class CsvSplitter {
 public:
  explicit CsvSplitter(absl::string_view content) : text_(content) {}

  // The next record into `row`; false at the end of the content. On an error the row's
  // line is where the record starts.
  absl::StatusOr<bool> Next(CsvRow& row) {
    if (pos_ >= text_.size()) return false;
    row.fields.clear();
    row.line = line_;
    while (true) {
      std::string field;
      if (text_[pos_] == '"') {
        RETURN_IF_ERROR(QuotedField(field));
      } else {
        RETURN_IF_ERROR(PlainField(field));
      }
      row.fields.push_back(std::move(field));
      if (AtEnd()) return true;
      if (text_[pos_] == ',') {
        ++pos_;
        if (AtEnd()) {
          row.fields.emplace_back();  // "a,b," at the very end: an empty last field
          return true;
        }
        continue;
      }
      SkipRecordEnd();
      return true;
    }
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  // At CRLF, LF, or a CR that ends the content.
  bool AtRecordEnd() const {
    if (AtEnd() || text_[pos_] == '\n') return true;
    return text_[pos_] == '\r' && (pos_ + 1 == text_.size() || text_[pos_ + 1] == '\n');
  }
  void SkipRecordEnd() {
    if (!AtEnd() && text_[pos_] == '\r') ++pos_;
    if (!AtEnd() && text_[pos_] == '\n') ++pos_;
    ++line_;
  }

  absl::Status PlainField(std::string& field) {
    const size_t start = pos_;
    while (!AtEnd() && text_[pos_] != ',' && !AtRecordEnd()) {
      if (text_[pos_] == '"') {
        return absl::InvalidArgumentError("malformed row: '\"' inside an unquoted field");
      }
      ++pos_;
    }
    field.assign(text_.data() + start, pos_ - start);
    return absl::OkStatus();
  }

  absl::Status QuotedField(std::string& field) {
    ++pos_;  // the opening quote
    while (true) {
      if (AtEnd()) return absl::InvalidArgumentError("malformed row: unterminated quoted field");
      const char c = text_[pos_++];
      if (c == '"') {
        if (AtEnd() || text_[pos_] != '"') break;
        ++pos_;  // '""' is one '"'
      } else if (c == '\n') {
        ++line_;
      }
      field.push_back(c);
    }
    if (!AtEnd() && text_[pos_] != ',' && !AtRecordEnd()) {
      return absl::InvalidArgumentError("malformed row: text after the closing quote of a field");
    }
    return absl::OkStatus();
  }

  absl::string_view text_;
  size_t pos_ = 0;
  int64_t line_ = 1;
};

// A record of one blank field: an empty or all-blank line, skipped like blank JSONL lines.
bool IsBlank(const CsvRow& row) {
  return row.fields.size() == 1 && absl::StripAsciiWhitespace(row.fields[0]).empty();
}

// Where each column read is in a row; -1 when the header lacks it.
struct Columns {
  int model_a = -1;
  int model_b = -1;
  int winner = -1;
  int question_id = -1;
  int task = -1;
  int score = -1;
  int tstamp = -1;
  size_t count = 0;  // fields per row
};

absl::StatusOr<Columns> ParseHeader(const CsvRow& header) {
  Columns columns;
  columns.count = header.fields.size();
  absl::flat_hash_map<absl::string_view, size_t> seen;  // name -> 1-based column
  const std::pair<absl::string_view, int*> known[] = {
      {"model_a", &columns.model_a}, {"model_b", &columns.model_b},
      {"winner", &columns.winner},   {"question_id", &columns.question_id},
      {"task", &columns.task},       {"score", &columns.score},
      {"tstamp", &columns.tstamp}};
  for (size_t i = 0; i < header.fields.size(); ++i) {
    const absl::string_view name = header.fields[i];
    if (name.empty()) continue;  // an unnamed column (a spreadsheet's index): ignored
    const auto [it, inserted] = seen.try_emplace(name, i + 1);
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat("column '", name,
                                                     "' appears twice in the header (columns ",
                                                     it->second, " and ", i + 1, ")"));
    }
    for (const auto& [known_name, index] : known) {
      if (name == known_name) *index = static_cast<int>(i);
    }
  }
  for (const auto& [name, index] :
       {std::make_pair("model_a", columns.model_a), std::make_pair("model_b", columns.model_b),
        std::make_pair("winner", columns.winner)}) {
    if (index < 0) {
      return absl::InvalidArgumentError(absl::StrCat("the header lacks column '", name,
                                                     "' (it needs model_a, model_b and winner)"));
    }
  }
  return columns;
}

// The field at `index`; nullopt when the header lacks the column or the field is empty.
std::optional<std::string> CsvField(const CsvRow& row, int index) {
  if (index < 0 || row.fields[index].empty()) return std::nullopt;
  return row.fields[index];
}

absl::StatusOr<Battle> BattleFromRow(const CsvRow& row, const Columns& columns) {
  if (row.fields.size() != columns.count) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed row: ", row.fields.size(), " fields, header has ", columns.count));
  }
  Battle battle;
  battle.model_a = CsvField(row, columns.model_a);
  battle.model_b = CsvField(row, columns.model_b);
  battle.winner = CsvField(row, columns.winner);
  battle.task = CsvField(row, columns.question_id);
  if (!battle.task.has_value()) battle.task = CsvField(row, columns.task);
  if (const std::optional<std::string> score = CsvField(row, columns.score)) {
    double value = 0;
    if (!absl::SimpleAtod(*score, &value)) {
      return absl::InvalidArgumentError(absl::StrCat("score '", *score, "' is not a number"));
    }
    battle.score = value;
  }
  // As in JSONL, a tstamp that is not a number is not read.
  if (const std::optional<std::string> tstamp = CsvField(row, columns.tstamp)) {
    double value = 0;
    if (absl::SimpleAtod(*tstamp, &value)) battle.tstamp = value;
  }
  return battle;
}

// The battles of JSONL `content` whose first line is line `first_line` of the file, appended
// to `output` (a LinesParser, parallel_lines.h).
absl::Status ParseJsonLines(absl::string_view content, absl::string_view filename,
                            const ResultLimits& limits, int64_t first_line, ReadOutput& output) {
  simdjson::dom::parser parser;
  int64_t line_number = first_line - 1;
  for (absl::string_view line : absl::StrSplit(content, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::StatusOr<ResultRecord> record = JsonLineToRecord(parser, line, limits);
    if (!record.ok()) return WithWhere(record.status(), Where(filename, line_number));
    output.records.push_back(std::move(Locate(*record, filename, line_number)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ReadOutput> ParseBattles(std::string_view content_view,
                                        std::string_view filename_view,
                                        const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  // Files from kParallelBytes on are read in two halves on two threads (parallel_lines.h).
  return ParseLinesInHalves(content,
                            [&](absl::string_view part, int64_t first_line, ReadOutput& output) {
                              return ParseJsonLines(part, filename, limits, first_line, output);
                            });
}

absl::StatusOr<ReadOutput> ParseBattlesCsv(std::string_view content_view,
                                           std::string_view filename_view,
                                           const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  absl::ConsumePrefix(&content, kUtf8Bom);
  CsvSplitter splitter(content);
  ReadOutput output;
  std::optional<Columns> columns;  // set by the first non-blank row, the header
  CsvRow row;
  while (true) {
    absl::StatusOr<bool> more = splitter.Next(row);
    if (!more.ok()) return WithWhere(more.status(), Where(filename, row.line));
    if (!*more) break;
    if (IsBlank(row)) continue;
    if (!columns.has_value()) {
      absl::StatusOr<Columns> header = ParseHeader(row);
      if (!header.ok()) return WithWhere(header.status(), Where(filename, row.line));
      columns = *header;
      continue;
    }
    absl::StatusOr<Battle> battle = BattleFromRow(row, *columns);
    absl::StatusOr<ResultRecord> record =
        battle.ok() ? BattleToRecord(*std::move(battle), limits) : battle.status();
    if (!record.ok()) return WithWhere(record.status(), Where(filename, row.line));
    output.records.push_back(std::move(Locate(*record, filename, row.line)));
  }
  return output;
}

}  // namespace ratings::io
