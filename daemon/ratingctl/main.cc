// ratingctl, the offline and topic tool (docs/CONTRACTS.md §2): parses the command line and
// dispatches to one subcommand (commands.h), which reads its own flags.
#include <malloc.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "daemon/flags.h"
#include "daemon/ratingctl/command_line.h"
#include "daemon/ratingctl/commands.h"

namespace {

using Params = std::vector<std::string>;

struct Subcommand {
  const char* name;
  int (*run)(Params params, Params kafka);
};

// In the order of the usage text.
constexpr Subcommand kSubcommands[] = {
    {"methods", [](Params, Params) { return ratingd::MethodsCommand(); }},
    {"rate", [](Params p, Params) { return ratingd::RateCommand(std::move(p)); }},
    {"eval", [](Params p, Params) { return ratingd::EvalCommand(std::move(p)); }},
    {"generate", [](Params p, Params) { return ratingd::GenerateCommand(std::move(p)); }},
    {"elo-sweep", [](Params p, Params) { return ratingd::EloSweepCommand(p); }},
    {"simulate", [](Params p, Params) { return ratingd::SimulateCommand(std::move(p)); }},
    {"suggest", [](Params p, Params) { return ratingd::SuggestCommand(std::move(p)); }},
    {"game", [](Params p, Params) { return ratingd::GameCommand(std::move(p)); }},
    {"produce", [](Params, Params k) { return ratingd::ProduceCommand(k); }},
    {"tail", [](Params, Params k) { return ratingd::TailCommand(k); }},
};

}  // namespace

int main(int argc, char** argv) {
  // The batch solvers (Clp above all) allocate and free large blocks every solve; glibc's
  // default trims the heap back after each, and the page faults of growing it again cost
  // more than the solves: `simulate` with batch-maximal-lotteries ran 2.4x faster with a
  // pad (docs/BENCHMARKS.md, "ratingctl simulate").
  mallopt(M_TOP_PAD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  const std::string usage = ratingd::Usage();
  ratingd::CommandLine line =
      ratingd::ParseCommandLine(argc, argv, usage.c_str(), "daemon/ratingctl/");
  const std::vector<std::string>& positional = line.positional;
  if (positional.size() < 2) {
    return ratingd::Fail(absl::StrCat("missing subcommand\nusage: ", usage));
  }
  if (positional.size() > 2) {
    return ratingd::Fail(absl::StrCat("unexpected argument '", positional[2], "'"));
  }
  std::vector<std::string> names;
  for (const Subcommand& s : kSubcommands) {
    if (positional[1] == s.name) return s.run(std::move(line.params), std::move(line.kafka));
    names.emplace_back(s.name);
  }
  return ratingd::Fail(absl::StrCat("unknown subcommand '", positional[1],
                                    "'; known: ", absl::StrJoin(names, ", "), "\nusage: ", usage));
}
