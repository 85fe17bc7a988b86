#include "daemon/ratingd/dead_letter.h"

#include <algorithm>

namespace ratingd {

size_t DeadLetterValueBytes(size_t value_bytes, const std::string& key,
                            const RdKafka::Headers& headers, size_t max_record_bytes) {
  // The x-ratingd-truncated header added when cutting: name plus up to 20 digits.
  size_t overhead = 64 + key.size() + std::string("x-ratingd-truncated").size() + 20;
  for (const RdKafka::Headers::Header& h : headers.get_all()) {
    overhead += 8 + h.key().size() + h.value_size();
  }
  if (overhead >= max_record_bytes) return 0;
  return std::min(value_bytes, max_record_bytes - overhead);
}

}  // namespace ratingd
