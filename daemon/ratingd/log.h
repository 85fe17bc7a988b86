// ratingd's log line on stderr (journald and container runtimes collect it).
#pragma once

#include <cstdio>
#include <string>

namespace ratingd {

inline void Log(const std::string& line) { std::fprintf(stderr, "ratingd: %s\n", line.c_str()); }

}  // namespace ratingd
