// Command-line helpers shared by ratingd and ratingctl, on top of Abseil flags.
#pragma once

#include <string>
#include <vector>

namespace ratingd {

// A private, writable copy of argv, so that the helpers below never rewrite the process's
// own argument strings (which `ps` and `pkill -f` show).
class ArgvCopy {
 public:
  ArgvCopy(int argc, char** argv);
  int& argc() { return argc_; }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
  int argc_;
};

// What both binaries' main() start with: sets the usage text (and makes --help list the
// flags defined in the program's own folder, `flags_folder`, e.g. "daemon/ratingd/"), then
// on a copy of argv
// normalises dashes, takes the repeatable --param and --kafka, and runs Abseil's parser
// (which exits on --help or an unknown flag).
struct CommandLine {
  std::vector<std::string> params;      // --param values, in order
  std::vector<std::string> kafka;       // --kafka values, in order
  std::vector<std::string> positional;  // argv[0] and the non-flag arguments
};
CommandLine ParseCommandLine(int argc, char** argv, const char* usage, const char* flags_folder);

// Removes every "--NAME X" and "--NAME=X" from argv (up to a "--") and returns the values
// in order: repeatable flags, which Abseil flags are not. A trailing "--NAME" with no
// value gives "".
std::vector<std::string> TakeRepeatedFlag(int& argc, char** argv, const std::string& name);

// Rewrites "--results-topic=x" to "--results_topic=x" (flag names only, up to "=" and
// up to a "--"), so both spellings work with Abseil's underscore names.
void NormalizeFlagDashes(int argc, char** argv);

}  // namespace ratingd
