// The fast path of ParseJsonl (read_results.h): GameResult lines read with simdjson instead
// of protobuf's JSON parser, for the lines whose reading by protobuf is certain. Every other
// line goes to protobuf, so the records and error messages are protobuf's
// (docs/CONTRACTS.md §1.2).
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "absl/time/time.h"
#include "ratings/io/read_results.h"

namespace ratings::io {

// Reads one line of GameResult JSON when it is of the plain kind this reader knows for
// certain: one JSON object (as simdjson validates it: strict JSON, valid UTF-8) whose keys
// are GameResult fields by either of the names protobuf accepts (`game_id` or `gameId`,
// `event_time` or `eventTime`), each at most once, with
//   - pool, game_id, task: strings;
//   - standings: an array of objects whose keys are agent (a string), rank (an integer in
//     0..2^32-1 written without fraction or exponent) and score, each at most once;
//   - weight, score: numbers with a fraction or an exponent, or integers of magnitude up to
//     2^53 (exact as doubles);
//   - event_time: a string of the form YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)
//     with every field in range (see IsPlainTimestamp).
// Anything else (an unknown key, null, a number as a string, a key twice, ...) is left to
// protobuf. Not thread-safe: one reader per thread (it keeps simdjson's buffers).
class FastGameResultReader {
 public:
  FastGameResultReader();
  ~FastGameResultReader();
  FastGameResultReader(const FastGameResultReader&) = delete;
  FastGameResultReader& operator=(const FastGameResultReader&) = delete;

  // True: `record` (which must be default-constructed) holds the pool, game id, task,
  // standings, weight and event time that JsonStringToMessage and RecordFromProto would give, and
  // protobuf would accept the line; nothing is validated and the line number is not set.
  // False: the line is outside the plain kind; `record` is then unspecified.
  bool Read(std::string_view line, ResultRecord& record);

 private:
  struct Parser;
  std::unique_ptr<Parser> parser_;
};

// True when `text` is an RFC 3339 timestamp of the plain kind: four-digit year 0001-9999,
// two-digit month, day (checked against the month, leap years included), hour 00-23,
// minute and second 00-59, an optional '.' with 1 to 9 digits, and 'Z' or an offset
// +HH:MM / -HH:MM (hours 00-23); a non-zero offset only in years 0002-9998, so that the
// instant stays inside the range a google.protobuf.Timestamp holds. protobuf accepts each
// of these; it accepts some other forms too, which the fast path leaves to it.
bool IsPlainTimestamp(std::string_view text);
// The instant of a plain timestamp (as protobuf reads it: the local time minus the offset,
// to the nanosecond); nullopt when it is not of the plain kind.
std::optional<absl::Time> PlainTimestamp(std::string_view text);

}  // namespace ratings::io
