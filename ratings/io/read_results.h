// Readers of result files (docs/CONTRACTS.md §2): JSONL of GameResult, PrefLib .soc/.soi/.toc/.toi,
// agent-vs-task score tables, and pairwise battles (JSONL or CSV). Every error names the file,
// the line and the problem: "FILE:LINE: problem".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "ratings/result.h"

namespace ratings::io {

// kBattles reads JSONL, or CSV when the file name ends in .csv; kBattlesCsv always CSV.
enum class Format { kJsonl, kPreflib, kScores, kBattles, kBattlesCsv };

// One validated result with where it came from.
struct ResultRecord {
  Result result;
  std::string pool;     // JSONL: the GameResult's pool; empty for other formats
  std::string game_id;  // JSONL: the GameResult's game id; battles: "<file name>:<line>";
                        // empty for other formats
  std::string task;     // JSONL: the task field; scores: the task (first column); battles:
                        // question_id, else task
  int64_t line = 0;     // 1-based line of the file it came from (CSV: where the row starts)
  // JSONL: the GameResult's event_time; battles: tstamp, when it is a number (seconds since
  // the Unix epoch). nullopt when absent, and for the other formats.
  std::optional<absl::Time> event_time;
};

struct ReadOutput {
  std::vector<ResultRecord> records;  // in file order
  // Voters whose votes carry no pairwise information and so become no results: the
  // count of every PrefLib line ranking fewer than two alternatives (a line with count 0
  // adds 0). Counted, not errors.
  int64_t skipped_votes = 0;
};

// "jsonl", "preflib", "scores", "battles" or "battles-csv"; InvalidArgument otherwise.
absl::StatusOr<Format> ParseFormat(std::string_view name);
// From the extension: .jsonl/.json -> JSONL; .soc/.soi/.toc/.toi -> PrefLib;
// .txt/.tsv/.scores -> scores; .csv -> battles CSV. InvalidArgument naming the path otherwise.
absl::StatusOr<Format> InferFormat(std::string_view path);

// The whole content of a file. NotFound / PermissionDenied etc. name the path.
absl::StatusOr<std::string> ReadFileContent(const std::string& path);

// Reads and parses a whole file. NotFound / PermissionDenied etc. name the path.
absl::StatusOr<ReadOutput> ReadResultsFile(const std::string& path, Format format,
                                           const ResultLimits& limits);

// Parse `content` as if read from a file named `filename` (used in messages, in battles'
// game ids, and to pick CSV for kBattles).
absl::StatusOr<ReadOutput> ParseResults(std::string_view content, std::string_view filename,
                                        Format format, const ResultLimits& limits);

// One parser per format; ParseResults dispatches to them.
//
// JSONL: one GameResult per line in protobuf's JSON form, read exactly as protobuf's JSON
// utilities read it (unknown fields are errors): plain lines by a simdjson fast path
// (jsonl_fast.h), every other line by protobuf itself; blank lines are skipped; content from
// 1 MiB on is read in two halves on two threads (parallel_lines.h). Each record must have
// a pool and a game id, and pass ValidateResult.
absl::StatusOr<ReadOutput> ParseJsonl(std::string_view content, std::string_view filename,
                                      const ResultLimits& limits);
// PrefLib (format: tests/data/preflib/README.md): `# KEY: value` header lines, then
// `count: a,b,{c,d},e` lines; braces tie. A line becomes `count` results of weight 1 in
// file order; agent ids are the ALTERNATIVE NAMEs (or the numbers "1".."N" for every
// alternative of the file when some name is empty, over-long or repeated). The vote lines
// after the header are read in two halves on two threads from 1 MiB on (parallel_lines.h).
// A record per voter is what the online models replay; where the votes end up in a
// VoteSet anyway (batch methods, voting rules), ParsePreflibVotes (preflib_votes.h) reads
// the same file straight into one, with the same syntax and errors (preflib_syntax.h).
absl::StatusOr<ReadOutput> ParsePreflib(std::string_view content, std::string_view filename,
                                        const ResultLimits& limits);
// Score tables (examples: tests/data/atari/): `#` comment lines, the last of which names the
// columns (`# game agent1 agent2 ...`); then per task: its name and one score per agent.
// Thousands separators are allowed (1,486.5); `mean±std` uses the mean. Higher scores
// rank higher; equal scores tie. Each line becomes one result of weight 1. The rows after
// the header are read in two halves on two threads from 1 MiB on (parallel_lines.h).
// Where the rows end up in a VoteSet anyway, ParseScoresVotes (scores_votes.h) reads the
// same file straight into one, with the same syntax and errors (scores_syntax.h).
absl::StatusOr<ReadOutput> ParseScores(std::string_view content, std::string_view filename,
                                       const ResultLimits& limits);
// Battles (docs/CONTRACTS.md §2.4), LMArena's pairwise comparisons: per line one JSON object
// (parsed and fully validated by simdjson; unknown fields of any type are ignored, blank
// lines skipped) with model_a, model_b (strings), winner (model_a, model_b,
// tie or tie (bothbad)), optional question_id or task (string or integer), score (a number
// in [-1, 1] whose sign agrees with winner), tstamp (a number of seconds since the Unix
// epoch, the record's event time; a value of another type is not read) and judge (not
// read); null = absent.
// Each line becomes the result {model_a, model_b} with ranks 1/2, 2/1 or 1/1 and weight 1,
// the score as model_a's score and its negation as model_b's; game id "<file name>:<line>".
absl::StatusOr<ReadOutput> ParseBattles(std::string_view content, std::string_view filename,
                                        const ResultLimits& limits);
// One battle's fields, before the checks of BattleToRecord; nullopt = absent.
struct Battle {
  std::optional<std::string> model_a;
  std::optional<std::string> model_b;
  std::optional<std::string> winner;
  std::optional<std::string> task;  // question_id if present, else task
  std::optional<double> score;
  std::optional<double> tstamp;  // seconds since the Unix epoch
};
// What ParseBattles makes of one battle's fields, with its checks and their messages (the
// file and line aside): model_a, model_b and winner present, the models different, a known
// winner, a score in [-1, 1] that agrees with it, a tstamp inside the range of a
// google.protobuf.Timestamp (years 1 to 9999), then ValidateResult. game_id and line are
// left empty. Other front ends (the Python package's DataFrames) share it.
absl::StatusOr<ResultRecord> BattleToRecord(Battle battle, const ResultLimits& limits);

// The same fields as RFC 4180 CSV: a header line naming the columns (model_a, model_b and
// winner required; a name twice is an error; unnamed and unknown columns are ignored), then
// one battle per row with as many fields as the header; an empty field is absent. Quoted
// fields may hold ',', '""' and line breaks; a record's line is the line it starts on.
absl::StatusOr<ReadOutput> ParseBattlesCsv(std::string_view content, std::string_view filename,
                                           const ResultLimits& limits);

// A score table with the spreads ParseScores drops: the per-task means and standard
// deviations ([AE] §5.2.1 draws S_{v,a} = N(mean, std) from them). Same syntax and errors
// as ParseScores, plus: a std must be >= 0. A cell without `±std` has std 0.
struct ScoreTable {
  std::vector<std::string> agents;         // the column header's agents
  std::vector<std::string> tasks;          // first column, in file order
  std::vector<int64_t> lines;              // 1-based line of each task
  std::vector<std::vector<double>> means;  // [task][agent]
  std::vector<std::vector<double>> stds;   // [task][agent], 0 where none was given
};
absl::StatusOr<ScoreTable> ParseScoreTable(std::string_view content, std::string_view filename,
                                           const ResultLimits& limits);

}  // namespace ratings::io
