// Appending protobuf wire-format fields by hand, where building the message first would copy
// every element (a delta batch's deltas, a snapshot's game ids). A field key is
// (number << 3) | wire type; type 2 is length-delimited (strings, bytes, messages), and its
// length is a base-128 varint. Parsers accept fields in any order; repeated fields keep the
// order in which they appear.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace ratingd::wire {

inline void AppendVarint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

inline size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// The key of length-delimited field `field`.
inline void AppendLengthDelimitedKey(uint32_t field, std::string& out) {
  AppendVarint((static_cast<uint64_t>(field) << 3) | 2, out);
}

inline void AppendLengthDelimited(uint32_t field, absl::string_view bytes, std::string& out) {
  AppendLengthDelimitedKey(field, out);
  AppendVarint(bytes.size(), out);
  out.append(bytes.data(), bytes.size());
}

// Bytes AppendLengthDelimited writes for a field number below 16 (a one-byte key).
inline size_t LengthDelimitedSize(size_t bytes) { return 1 + VarintSize(bytes) + bytes; }

// A packed repeated double field (proto3's default for repeated scalars): the values as
// little-endian 64-bit words, nothing if there are none (as protobuf writes an empty one).
inline void AppendPackedDoubles(uint32_t field, absl::Span<const double> values, std::string& out) {
  static_assert(std::endian::native == std::endian::little, "fixed64 is little-endian");
  if (values.empty()) return;
  AppendLengthDelimitedKey(field, out);
  AppendVarint(values.size() * sizeof(double), out);
  const size_t at = out.size();
  out.resize(at + values.size() * sizeof(double));
  std::memcpy(out.data() + at, values.data(), values.size() * sizeof(double));
}

// A packed repeated uint64 field: base-128 varints; nothing if there are none.
inline void AppendPackedVarints(uint32_t field, absl::Span<const uint64_t> values,
                                std::string& out) {
  if (values.empty()) return;
  size_t bytes = 0;
  for (uint64_t v : values) bytes += VarintSize(v);
  AppendLengthDelimitedKey(field, out);
  AppendVarint(bytes, out);
  for (uint64_t v : values) AppendVarint(v, out);
}

// sint64's ZigZag form, so that small negative values stay short varints.
inline uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

// The varints of a packed sint64 field's values, appended to `payload`; the caller wraps
// the payload with AppendLengthDelimited once complete.
inline void AppendSint64s(absl::Span<const int64_t> values, std::string& payload) {
  for (int64_t v : values) AppendVarint(ZigZag(v), payload);
}

// The number of varints in a packed field's payload, or -1 if it is not a sequence of
// varints (it ends inside one, or one is longer than the 10 bytes of a 64-bit value).
inline int64_t CountVarints(absl::string_view payload) {
  int64_t count = 0;
  size_t length = 0;  // bytes of the varint being read
  for (const char c : payload) {
    if (++length > 10) return -1;
    if ((static_cast<unsigned char>(c) & 0x80) == 0) {
      ++count;
      length = 0;
    }
  }
  return length == 0 ? count : -1;
}

// Reads the sint64 values of a payload CountVarints accepted, one per Next() (no more
// calls than it counted).
class Sint64Reader {
 public:
  explicit Sint64Reader(absl::string_view payload) : p_(payload.data()) {}
  int64_t Next() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<unsigned char>(*p_++);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);  // ZigZag back
  }
  // The next out.size() values.
  void Read(absl::Span<int64_t> out) {
    for (int64_t& value : out) value = Next();
  }

 private:
  const char* p_;
};

}  // namespace ratingd::wire
