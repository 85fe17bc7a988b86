// `ratingctl generate` (docs/CONTRACTS.md §2.3): flags into a GenerateConfig, then RunGenerate.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "daemon/ratingctl/command_line.h"
#include "daemon/ratingctl/commands.h"
#include "daemon/ratingctl/generate.h"

ABSL_FLAG(std::string, model, "",
          "generate: mallows, plackett-luce, clones, cycle, tournament, king-of-the-hill, "
          "bernoulli, drift");
ABSL_FLAG(std::string, out, "", "generate: the JSONL file to write (truth beside it)");

namespace ratingd {

int GenerateCommand(std::vector<std::string> params) {
  GenerateConfig config;
  config.model = absl::GetFlag(FLAGS_model);
  config.output = absl::GetFlag(FLAGS_out);
  config.params = std::move(params);
  config.seed = absl::GetFlag(FLAGS_seed);
  if (const std::string pool = absl::GetFlag(FLAGS_pool); !pool.empty()) config.pool = pool;
  if (config.model.empty()) return Fail("generate: --model is required (see --help)");
  if (config.output.empty()) return Fail("generate: --out FILE.jsonl is required");
  if (absl::Status s = RunGenerate(config); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  return 0;
}

}  // namespace ratingd
