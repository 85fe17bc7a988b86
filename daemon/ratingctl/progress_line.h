// Progress of long ratingctl runs on stderr: a single updating line
// "label  42%" while stderr is a terminal; the caller decides (isatty) whether to use it.
#pragma once

#include <cstdio>
#include <string>

#include "ratings/progress.h"

namespace ratingd {

// A ProgressFn that redraws "\r<label> NN%" on `out` when the whole percentage changes and
// ends the line at 100%. Not thread-safe (one solver calls it).
ratings::ProgressFn TerminalProgress(std::string label, std::FILE* out = stderr);

}  // namespace ratingd
