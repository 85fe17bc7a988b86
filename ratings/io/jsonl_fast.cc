// Why the fast path may take a line: on JSON that simdjson accepts (strict syntax, valid
// UTF-8), protobuf's JSON parser gives the same strings (both decode the escapes of RFC 8259
// alike, and both refuse a surrogate without its pair), and the same double for a number
// written with a fraction or exponent (both convert correctly rounded). An integer protobuf
// reads as a 64-bit integer and then converts to the field's type; the fast path takes
// integers only where that conversion is exact (a uint32 in range, a double up to 2^53).
// Everything else, down to a key given twice or a null, is protobuf's to read. The claim is
// checked line by line against protobuf alone by tests/ratings/io/jsonl_fast_test.cc and
// tests/fuzz/jsonl_fuzz.cc.
#include "ratings/io/jsonl_fast.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/time/civil_time.h"
#include "simdjson.h"

namespace ratings::io {

struct FastGameResultReader::Parser {
  simdjson::dom::parser dom;
};

namespace {

using simdjson::SUCCESS;
using simdjson::dom::element;
using simdjson::dom::element_type;

// Integers of at most this magnitude are exact as doubles.
constexpr int64_t kMaxExactInteger = int64_t{1} << 53;

// The fields of GameResult and of Standing, as bits, to find a field given twice.
enum Field : unsigned {
  kUnknown = 0,
  kPool = 1u << 0,
  kGameId = 1u << 1,
  kEventTime = 1u << 2,
  kStandings = 1u << 3,
  kWeight = 1u << 4,
  kTask = 1u << 5,
  kAgent = 1u << 6,
  kRank = 1u << 7,
  kScore = 1u << 8,
};

// A GameResult key by its proto name or its JSON (lowerCamelCase) name.
Field GameResultField(std::string_view key) {
  if (key == "pool") return kPool;
  if (key == "gameId" || key == "game_id") return kGameId;
  if (key == "eventTime" || key == "event_time") return kEventTime;
  if (key == "standings") return kStandings;
  if (key == "weight") return kWeight;
  if (key == "task") return kTask;
  return kUnknown;
}

Field StandingField(std::string_view key) {
  if (key == "agent") return kAgent;
  if (key == "rank") return kRank;
  if (key == "score") return kScore;
  return kUnknown;
}

// Marks `field` seen; false when it is unknown or was seen before.
bool FirstTime(Field field, unsigned& seen) {
  if (field == kUnknown || (seen & field) != 0) return false;
  seen |= field;
  return true;
}

bool ReadString(element value, std::string& out) {
  std::string_view text;
  if (value.get_string().get(text) != SUCCESS) return false;
  out.assign(text.data(), text.size());
  return true;
}

// A double field. simdjson types a number written with a fraction or exponent DOUBLE (the
// case where protobuf too converts the text to a double, with the same correct rounding),
// an integer INT64 or UINT64; an integer is taken only where the double holds it exactly.
bool ReadDouble(element value, double& out) {
  switch (value.type()) {
    case element_type::DOUBLE:
      return value.get_double().get(out) == SUCCESS;
    case element_type::INT64: {
      int64_t integer = 0;
      if (value.get_int64().get(integer) != SUCCESS || integer > kMaxExactInteger ||
          integer < -kMaxExactInteger) {
        return false;
      }
      out = static_cast<double>(integer);
      return true;
    }
    default:
      return false;  // UINT64 (beyond 2^63), strings, null, ...
  }
}

// A uint32 field: an integer written as one ("-0" included, which both read as 0).
bool ReadUint32(element value, uint32_t& out) {
  int64_t integer = 0;
  if (value.type() != element_type::INT64 || value.get_int64().get(integer) != SUCCESS ||
      integer < 0 || integer > int64_t{std::numeric_limits<uint32_t>::max()}) {
    return false;
  }
  out = static_cast<uint32_t>(integer);
  return true;
}

bool ReadStanding(element value, Standing& standing) {
  simdjson::dom::object object;
  if (value.get_object().get(object) != SUCCESS) return false;
  unsigned seen = 0;
  for (const simdjson::dom::key_value_pair field : object) {
    const Field which = StandingField(field.key);
    if (!FirstTime(which, seen)) return false;
    bool ok = false;
    switch (which) {
      case kAgent:
        ok = ReadString(field.value, standing.agent);
        break;
      case kRank:
        ok = ReadUint32(field.value, standing.rank);
        break;
      case kScore: {
        double score = 0;
        ok = ReadDouble(field.value, score);
        standing.score = score;
        break;
      }
      default:
        break;
    }
    if (!ok) return false;
  }
  return true;
}

bool ReadStandings(element value, std::vector<Standing>& standings) {
  simdjson::dom::array array;
  if (value.get_array().get(array) != SUCCESS) return false;
  standings.reserve(array.size());
  for (const element item : array) {
    if (!ReadStanding(item, standings.emplace_back())) return false;
  }
  return true;
}

// The `digits` decimal digits at text[*pos] as a number, advancing *pos; -1 when they are
// not all digits.
int Digits(std::string_view text, size_t* pos, size_t digits) {
  if (text.size() - *pos < digits) return -1;
  int value = 0;
  for (size_t i = 0; i < digits; ++i) {
    const char c = text[*pos + i];
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  *pos += digits;
  return value;
}

// True when text[*pos] is `c`, advancing past it.
bool Expect(std::string_view text, size_t* pos, char c) {
  if (*pos >= text.size() || text[*pos] != c) return false;
  ++*pos;
  return true;
}

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 400 == 0 || (year % 4 == 0 && year % 100 != 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

std::optional<absl::Time> PlainTimestamp(std::string_view text) {
  size_t pos = 0;
  const int year = Digits(text, &pos, 4);
  if (year < 1 || !Expect(text, &pos, '-')) return std::nullopt;
  const int month = Digits(text, &pos, 2);
  if (month < 1 || month > 12 || !Expect(text, &pos, '-')) return std::nullopt;
  const int day = Digits(text, &pos, 2);
  if (day < 1 || day > DaysInMonth(year, month) || !Expect(text, &pos, 'T')) return std::nullopt;
  const int hour = Digits(text, &pos, 2);
  if (hour < 0 || hour > 23 || !Expect(text, &pos, ':')) return std::nullopt;
  const int minute = Digits(text, &pos, 2);
  if (minute < 0 || minute > 59 || !Expect(text, &pos, ':')) return std::nullopt;
  const int second = Digits(text, &pos, 2);
  if (second < 0 || second > 59) return std::nullopt;
  int64_t nanos = 0;
  if (Expect(text, &pos, '.')) {
    size_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 9) nanos = nanos * 10 + (text[pos] - '0');
      ++pos;
      ++digits;
    }
    if (digits < 1 || digits > 9) return std::nullopt;
    for (size_t i = digits; i < 9; ++i) nanos *= 10;
  }
  const absl::Time local =
      absl::FromCivil(absl::CivilSecond(year, month, day, hour, minute, second),
                      absl::UTCTimeZone()) +
      absl::Nanoseconds(nanos);
  if (Expect(text, &pos, 'Z')) {
    if (pos != text.size()) return std::nullopt;
    return local;
  }
  const bool east = Expect(text, &pos, '+');
  if (!east && !Expect(text, &pos, '-')) return std::nullopt;
  const int offset_hours = Digits(text, &pos, 2);
  if (offset_hours < 0 || offset_hours > 23 || !Expect(text, &pos, ':')) return std::nullopt;
  const int offset_minutes = Digits(text, &pos, 2);
  if (offset_minutes < 0 || offset_minutes > 59 || pos != text.size()) return std::nullopt;
  if ((offset_hours != 0 || offset_minutes != 0) && (year < 2 || year > 9998)) {
    return std::nullopt;
  }
  // Local time = UTC + offset.
  const absl::Duration offset = absl::Hours(offset_hours) + absl::Minutes(offset_minutes);
  return east ? local - offset : local + offset;
}

bool IsPlainTimestamp(std::string_view text) { return PlainTimestamp(text).has_value(); }

FastGameResultReader::FastGameResultReader() : parser_(std::make_unique<Parser>()) {}
FastGameResultReader::~FastGameResultReader() = default;

bool FastGameResultReader::Read(std::string_view line, ResultRecord& record) {
  element document;
  if (parser_->dom.parse(line.data(), line.size()).get(document) != SUCCESS) return false;
  simdjson::dom::object object;
  if (document.get_object().get(object) != SUCCESS) return false;
  unsigned seen = 0;
  for (const simdjson::dom::key_value_pair field : object) {
    const Field which = GameResultField(field.key);
    if (!FirstTime(which, seen)) return false;
    bool ok = false;
    switch (which) {
      case kPool:
        ok = ReadString(field.value, record.pool);
        break;
      case kGameId:
        ok = ReadString(field.value, record.game_id);
        break;
      case kTask:
        ok = ReadString(field.value, record.task);
        break;
      case kEventTime: {
        std::string_view text;
        if (field.value.get_string().get(text) == SUCCESS) {
          record.event_time = PlainTimestamp(text);
          ok = record.event_time.has_value();
        }
        break;
      }
      case kStandings:
        ok = ReadStandings(field.value, record.result.standings);
        break;
      case kWeight:
        ok = ReadDouble(field.value, record.result.weight);
        break;
      default:
        break;
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace ratings::io
