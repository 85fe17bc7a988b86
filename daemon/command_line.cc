#include "daemon/command_line.h"

#include <cstring>

namespace ratingd {

ArgvCopy::ArgvCopy(int argc, char** argv) : strings_(argv, argv + argc), argc_(argc) {
  for (std::string& s : strings_) pointers_.push_back(s.data());
  pointers_.push_back(nullptr);
}

std::vector<std::string> TakeRepeatedFlag(int& argc, char** argv, const std::string& name) {
  std::vector<std::string> values;
  const std::string bare = "--" + name, single = "-" + name, with_value = bare + "=";
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (std::strcmp(arg, "--") == 0) {
      while (i < argc) argv[out++] = argv[i++];
      break;
    }
    if (arg == bare || arg == single) {
      values.emplace_back(i + 1 < argc ? argv[++i] : "");
      continue;
    }
    if (std::strncmp(arg, with_value.c_str(), with_value.size()) == 0) {
      values.emplace_back(arg + with_value.size());
      continue;
    }
    argv[out++] = argv[i];
  }
  argc = out;
  argv[argc] = nullptr;
  return values;
}

void NormalizeFlagDashes(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    char* arg = argv[i];
    if (std::strcmp(arg, "--") == 0) return;
    if (arg[0] != '-') continue;
    char* p = arg;
    while (*p == '-') ++p;  // leading dashes stay
    for (; *p != '\0' && *p != '='; ++p) {
      if (*p == '-') *p = '_';
    }
  }
}

}  // namespace ratingd
