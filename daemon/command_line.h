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

// Removes every "--NAME X" and "--NAME=X" from argv (up to a "--") and returns the values
// in order: repeatable flags, which Abseil flags are not. A trailing "--NAME" with no
// value gives "".
std::vector<std::string> TakeRepeatedFlag(int& argc, char** argv, const std::string& name);

// Rewrites "--results-topic=x" to "--results_topic=x" (flag names only, up to "=" and
// up to a "--"), so both spellings work with Abseil's underscore names.
void NormalizeFlagDashes(int argc, char** argv);

}  // namespace ratingd
