#include "daemon/ratingctl/progress_line.h"

#include <memory>

namespace ratingd {

ratings::ProgressFn TerminalProgress(std::string label, std::FILE* out) {
  auto last = std::make_shared<int>(-1);
  return [label = std::move(label), out, last](int64_t done, int64_t total) {
    const int percent = total > 0 ? static_cast<int>(100 * done / total) : 100;
    if (percent == *last) return;
    *last = percent;
    std::fprintf(out, "\r%s %3d%%%s", label.c_str(), percent, percent >= 100 ? "\n" : "");
    std::fflush(out);
  };
}

}  // namespace ratingd
