// Appending protobuf wire-format fields by hand, where building the message first would copy
// every element (a delta batch's deltas, a snapshot's game ids). A field key is
// (number << 3) | wire type; type 2 is length-delimited (strings, bytes, messages), and its
// length is a base-128 varint. Parsers accept fields in any order; repeated fields keep the
// order in which they appear.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

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

}  // namespace ratingd::wire
