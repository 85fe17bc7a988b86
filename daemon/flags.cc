#include "daemon/flags.h"

#include <cstring>
#include <string>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"

namespace ratingd {

ArgvCopy::ArgvCopy(int argc, char** argv) : strings_(argv, argv + argc), argc_(argc) {
  for (std::string& s : strings_) pointers_.push_back(s.data());
  pointers_.push_back(nullptr);
}

CommandLine ParseCommandLine(int argc, char** argv, const char* usage, const char* flags_folder) {
  absl::SetProgramUsageMessage(usage);
  // --help lists the flags defined in the program's own folder. (Abseil's default looks for
  // a file named after the program, e.g. ratingd_main.cc, which daemon/ratingd/main.cc is
  // not.)
  absl::FlagsUsageConfig help;
  help.contains_helpshort_flags = [folder = std::string(flags_folder)](absl::string_view path) {
    return absl::StrContains(path, folder);
  };
  help.contains_help_flags = help.contains_helpshort_flags;
  help.normalize_filename = [](absl::string_view path) {  // "daemon/ratingd/main.cc"
    const size_t at = path.rfind("daemon/");
    return std::string(at == absl::string_view::npos ? path : path.substr(at));
  };
  absl::SetFlagsUsageConfig(help);
  ArgvCopy args(argc, argv);  // leaves the process's own argv as typed (ps, pkill -f)
  NormalizeFlagDashes(args.argc(), args.argv());
  CommandLine out;
  out.params = TakeRepeatedFlag(args.argc(), args.argv(), "param");
  out.kafka = TakeRepeatedFlag(args.argc(), args.argv(), "kafka");
  for (char* arg : absl::ParseCommandLine(args.argc(), args.argv()))
    out.positional.emplace_back(arg);
  return out;
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
