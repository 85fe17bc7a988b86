#include "daemon/ratingctl/command_line.h"

#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"

ABSL_FLAG(std::string, method, "",
          "rating method (rate, eval): one of `ratingctl methods` (see --help)");
ABSL_FLAG(std::string, input, "",
          "results file (.jsonl, PrefLib .soc/.soi/.toc/.toi, scores .txt, battles .csv)");
ABSL_FLAG(std::string, format, "",
          "input format: jsonl, preflib, scores, battles (pairwise comparisons; JSONL, or CSV "
          "for a .csv file) or battles-csv (default: from the extension)");
ABSL_FLAG(uint64_t, seed, 0, "seed of the pool's random generator");
ABSL_FLAG(std::string, pool, "",
          "JSONL input: rate only this pool (required if the file has several)");
ABSL_FLAG(std::string, output, "json",
          "json (the document of docs/CONTRACTS.md §2) or table (for people)");
// A string because the subcommands differ: eval takes one integer, simulate a list.
ABSL_FLAG(std::string, k, "",
          "eval: k of the top-k identification error and GRE (one integer, default 3); "
          "simulate: the k of GRE, comma-separated (default 3,8); elo-sweep: the K-factors, "
          "comma-separated (default 1,8,16,32,64)");
// --param key=value is repeatable, which Abseil flags are not; main() collects it.
ABSL_FLAG(std::string, param, "", "model parameter key=value; repeat for several (see --help)");

namespace ratingd {

int Fail(const std::string& message) {
  std::cerr << "ratingctl: " << message << "\n";
  return 1;
}

// Sets `format` from --format when it is given (else the file's extension decides).
absl::Status FormatFlag(std::optional<ratings::io::Format>& format) {
  const std::string name = absl::GetFlag(FLAGS_format);
  if (name.empty()) return absl::OkStatus();
  absl::StatusOr<ratings::io::Format> parsed = ratings::io::ParseFormat(name);
  if (!parsed.ok()) return parsed.status();
  format = *parsed;
  return absl::OkStatus();
}

absl::StatusOr<bool> TableOutput() {
  const std::string output = absl::GetFlag(FLAGS_output);
  if (output != "json" && output != "table") {
    return absl::InvalidArgumentError(
        absl::StrCat("--output: '", output, "' is not json or table"));
  }
  return output == "table";
}

int PrintJson(const google::protobuf::Message& document) {
  auto json = DeterministicJson(document);
  if (!json.ok()) return Fail(std::string(json.status().message()));
  std::cout << *json << "\n";
  return 0;
}

}  // namespace ratingd
