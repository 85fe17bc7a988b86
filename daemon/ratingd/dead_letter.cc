#include "daemon/ratingd/dead_letter.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace ratingd {

size_t DeadLetterValueBytes(size_t value_bytes, const std::string& key,
                            const RecordHeaders& headers, size_t max_record_bytes) {
  // The x-ratingd-truncated header added when cutting: name plus up to 20 digits.
  size_t overhead = 64 + key.size() + std::string("x-ratingd-truncated").size() + 20;
  for (const auto& [name, value] : headers) overhead += 8 + name.size() + value.size();
  if (overhead >= max_record_bytes) return 0;
  return std::min(value_bytes, max_record_bytes - overhead);
}

DeadLetterRecord MakeDeadLetter(const RecordOrigin& origin, std::optional<absl::string_view> key,
                                absl::string_view value, const std::string& reason,
                                const std::string& why, absl::string_view version,
                                size_t max_record_bytes) {
  DeadLetterRecord letter;
  letter.headers = {{"x-ratingd-reason", reason},
                    {"x-ratingd-error", why},
                    {"x-src-topic", std::string(origin.topic)},
                    {"x-src-partition", absl::StrCat(origin.partition)},
                    {"x-src-offset", absl::StrCat(origin.offset)},
                    {"x-ratingd-version", std::string(version)}};
  if (key.has_value()) letter.key = std::string(*key);
  if (letter.key.size() > kDeadLetterMaxKeyBytes) {
    letter.headers.emplace_back("x-ratingd-key-truncated", absl::StrCat(letter.key.size()));
    letter.key.resize(kDeadLetterMaxKeyBytes);
  }
  const size_t keep =
      DeadLetterValueBytes(value.size(), letter.key, letter.headers, max_record_bytes);
  if (keep < value.size()) {
    letter.headers.emplace_back("x-ratingd-truncated", absl::StrCat(value.size()));
  }
  letter.value = std::string(value.substr(0, keep));
  return letter;
}

}  // namespace ratingd
