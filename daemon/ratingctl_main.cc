// ratingctl: the offline tool (DESIGN §6). Flags -> RateConfig -> RunRate.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "daemon/command_line.h"
#include "daemon/kafka_commands.h"
#include "daemon/kafka_util.h"
#include "daemon/rate_command.h"

ABSL_FLAG(std::string, method, "", "rating method: elo, sco or ml");
ABSL_FLAG(std::string, input, "",
          "results file (.jsonl, PrefLib .soc/.soi/.toc/.toi, scores .txt)");
ABSL_FLAG(std::string, format, "",
          "input format: jsonl, preflib or scores (default: from the extension)");
ABSL_FLAG(uint64_t, seed, 0, "seed of the pool's random generator");
ABSL_FLAG(std::string, pool, "",
          "JSONL input: rate only this pool (required if the file has several)");
ABSL_FLAG(std::string, output, "json", "json (DESIGN §6 document) or table (for people)");
// --param key=value is repeatable, which Abseil flags are not; main() collects it.
ABSL_FLAG(std::string, brokers, "127.0.0.1:9092", "produce/tail: Kafka bootstrap servers");
ABSL_FLAG(std::string, topic, "", "produce/tail: the topic");
ABSL_FLAG(double, rate, 0, "produce: records per second (0: as fast as possible)");
ABSL_FLAG(std::string, type, "",
          "tail: deltas, leaderboards, results or dlq (default: from the topic name)");
ABSL_FLAG(int64_t, count, 0, "tail: stop after this many records (0: no limit)");
ABSL_FLAG(absl::Duration, idle_timeout, absl::InfiniteDuration(),
          "tail: stop after this long without a record");
ABSL_FLAG(bool, from_end, false, "tail: only records that arrive after the start");
ABSL_FLAG(std::string, param, "", "model parameter key=value; repeat for several (see --help)");

namespace {

constexpr char kUsage[] =
    "ratingctl rate --method elo|sco|ml --input FILE [--format jsonl|preflib|scores]\n"
    "               [--param key=value]... [--seed N] [--pool P] [--output json|table]\n"
    "\n"
    "Replays the results of FILE in file order through one online model and prints the\n"
    "ranking as JSON on stdout. Parameters (defaults):\n"
    "  elo: k (32), initial (1500)\n"
    "  sco: alpha (0.1), tau (1), min (0), max (100)\n"
    "  ml:  target (1e-3, exploitability of the printed lottery), max_iterations (1000000),\n"
    "       iterations_per_result (0), variant (prm+|rm+|rm), max_agents (4096),\n"
    "       support_threshold (1e-3, pruning of leftover probability; 0 = off)\n"
    "Errors go to stderr naming the file, line and problem; the exit status is then 1.\n"
    "\n"
    "ratingctl produce --brokers B --topic T --input FILE [--format F] [--pool P] [--rate R]\n"
    "  Produces the file's results as GameResults (key = pool). PrefLib and score tables\n"
    "  carry no pool: name it with --pool. [--kafka key=value]... passes librdkafka settings.\n"
    "ratingctl tail --brokers B --topic T [--type deltas|leaderboards|results|dlq]\n"
    "               [--count N] [--idle_timeout 5s] [--from_end]\n"
    "  Prints ratingd's records as JSON lines.";

int Fail(const std::string& message) {
  std::cerr << "ratingctl: " << message << "\n";
  return 1;
}

int Rate(std::vector<std::string> params) {
  ratingd::RateConfig config;
  config.method = absl::GetFlag(FLAGS_method);
  config.input = absl::GetFlag(FLAGS_input);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.params = std::move(params);
  if (config.method.empty()) return Fail("rate: --method is required (elo, sco or ml)");
  if (config.input.empty()) return Fail("rate: --input FILE is required");
  const std::string output = absl::GetFlag(FLAGS_output);
  if (output != "json" && output != "table") {
    return Fail(absl::StrCat("--output: '", output, "' is not json or table"));
  }
  if (const std::string format = absl::GetFlag(FLAGS_format); !format.empty()) {
    auto parsed = ratings::io::ParseFormat(format);
    if (!parsed.ok()) return Fail(std::string(parsed.status().message()));
    config.format = *parsed;
  }
  auto report = ratingd::RunRate(config);
  if (!report.ok()) return Fail(std::string(report.status().message()));
  const auto& extra = report->extra().fields();
  if (auto it = extra.find("converged"); it != extra.end() && !it->second.bool_value()) {
    std::cerr << "ratingctl: warning: ml stopped at max_iterations with exploitability "
              << extra.at("exploitability").number_value() << " above the target\n";
  }
  if (output == "table") {
    std::cout << ratingd::ReportToTable(*report);
    return 0;
  }
  auto json = ratingd::ReportToJson(*report);
  if (!json.ok()) return Fail(std::string(json.status().message()));
  std::cout << *json << "\n";
  return 0;
}

int Produce(const std::vector<std::string>& kafka) {
  ratingd::ProduceConfig config;
  config.brokers = absl::GetFlag(FLAGS_brokers);
  config.topic = absl::GetFlag(FLAGS_topic);
  config.input = absl::GetFlag(FLAGS_input);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.rate = absl::GetFlag(FLAGS_rate);
  if (config.topic.empty()) return Fail("produce: --topic is required");
  if (config.input.empty()) return Fail("produce: --input FILE is required");
  if (const std::string format = absl::GetFlag(FLAGS_format); !format.empty()) {
    auto parsed = ratings::io::ParseFormat(format);
    if (!parsed.ok()) return Fail(std::string(parsed.status().message()));
    config.format = *parsed;
  }
  auto props = ratingd::ParseKafkaProperties(kafka, "");
  if (!props.ok()) return Fail(std::string(props.status().message()));
  config.kafka = *props;
  absl::Status s = ratingd::RunProduce(config);
  return s.ok() ? 0 : Fail(std::string(s.message()));
}

int Tail(const std::vector<std::string>& kafka) {
  ratingd::TailConfig config;
  config.brokers = absl::GetFlag(FLAGS_brokers);
  config.topic = absl::GetFlag(FLAGS_topic);
  config.type = absl::GetFlag(FLAGS_type);
  config.count = absl::GetFlag(FLAGS_count);
  config.idle_timeout = absl::GetFlag(FLAGS_idle_timeout);
  config.from_end = absl::GetFlag(FLAGS_from_end);
  if (config.topic.empty()) return Fail("tail: --topic is required");
  auto props = ratingd::ParseKafkaProperties(kafka, "");
  if (!props.ok()) return Fail(std::string(props.status().message()));
  config.kafka = *props;
  absl::Status s = ratingd::RunTail(config);
  return s.ok() ? 0 : Fail(std::string(s.message()));
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
  ratingd::NormalizeFlagDashes(argc, argv);
  std::vector<std::string> params = ratingd::TakeRepeatedFlag(argc, argv, "param");
  const std::vector<std::string> kafka = ratingd::TakeRepeatedFlag(argc, argv, "kafka");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() < 2) {
    return Fail(absl::StrCat("missing subcommand\nusage: ", kUsage));
  }
  const std::string command = positional[1];
  if (positional.size() > 2) {
    return Fail(absl::StrCat("unexpected argument '", positional[2], "'"));
  }
  if (command == "rate") return Rate(std::move(params));
  if (command == "produce") return Produce(kafka);
  if (command == "tail") return Tail(kafka);
  return Fail(absl::StrCat("unknown subcommand '", command,
                           "'; known: rate, produce, tail\nusage: ", kUsage));
}
