// ratingctl, the offline and topic tool (docs/CONTRACTS.md §2): flags into the config of one
// subcommand (methods, rate, eval, generate, elo-sweep, simulate, suggest, game, produce, tail),
// then that subcommand's Run function.
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "daemon/deterministic_json.h"
#include "daemon/flags.h"
#include "daemon/kafka/client_config.h"
#include "daemon/methods/method_registry.h"
#include "daemon/methods/report_text.h"
#include "daemon/methods/run_rate.h"
#include "daemon/ratingctl/elo_sweep.h"
#include "daemon/ratingctl/eval.h"
#include "daemon/ratingctl/game.h"
#include "daemon/ratingctl/generate.h"
#include "daemon/ratingctl/produce.h"
#include "daemon/ratingctl/progress_line.h"
#include "daemon/ratingctl/simulate.h"
#include "daemon/ratingctl/suggest.h"
#include "daemon/ratingctl/tail.h"

ABSL_FLAG(std::string, method, "",
          "rating method: elo, sco, ml, elo-bt, sco-batch, sco-fy, approval, plurality, borda, "
          "stv, copeland, kemeny, ranked-pairs, schulze, ml-exact, iml, nash-avg, gt-ne, gt-cce "
          "(see --help)");
ABSL_FLAG(std::string, input, "",
          "results file (.jsonl, PrefLib .soc/.soi/.toc/.toi, scores .txt, battles .csv)");
ABSL_FLAG(std::string, format, "",
          "input format: jsonl, preflib, scores, battles (pairwise comparisons; JSONL, or CSV "
          "for a .csv file) or battles-csv (default: from the extension)");
ABSL_FLAG(uint64_t, seed, 0, "seed of the pool's random generator");
ABSL_FLAG(std::string, pool, "",
          "JSONL input: rate only this pool (required if the file has several)");
ABSL_FLAG(uint32_t, bootstrap_replicas, 0,
          "rate, online models: add ratingd's games, provisional and (elo, sco) intervals from "
          "this many bootstrap replicas seeded by the pool's name (0 = none, else 2..256)");
ABSL_FLAG(uint64_t, provisional_games, 20,
          "rate with --bootstrap-replicas: agents in fewer results are provisional");
ABSL_FLAG(std::string, output, "json",
          "json (the document of docs/CONTRACTS.md §2) or table (for people)");
// eval.
ABSL_FLAG(std::string, ranking, "",
          "eval: the ranking to evaluate (rate JSON, truth JSON or one agent per line)");
ABSL_FLAG(std::string, truth, "", "eval: the ground-truth ranking (same formats)");
ABSL_FLAG(std::string, methods, "", "eval: comma-separated methods for held-out KTD_test");
ABSL_FLAG(int64_t, splits, 10, "eval: number of random train/test splits");
ABSL_FLAG(double, test_fraction, 0.1, "eval: share of results asked for each test set");
// A string because the subcommands differ: eval takes one integer, simulate a list.
ABSL_FLAG(std::string, k, "",
          "eval: k of the top-k identification error and GRE (one integer, default 3); "
          "simulate: the k of GRE, comma-separated (default 3,8); elo-sweep: the K-factors, "
          "comma-separated (default 1,8,16,32,64)");
ABSL_FLAG(int64_t, agre_steps, 0, "eval: AGRE over this many growing prefixes (needs --method)");
// elo-sweep.
ABSL_FLAG(std::string, permutations, "",
          "elo-sweep: permutation counts, comma-separated (default 1,100; 1 = the file's order)");
ABSL_FLAG(double, initial, 1500, "elo-sweep: every agent's initial Elo rating");
// generate.
ABSL_FLAG(std::string, model, "",
          "generate: mallows, plackett-luce, clones, cycle, tournament, king-of-the-hill, "
          "bernoulli");
ABSL_FLAG(std::string, out, "", "generate: the JSONL file to write (truth beside it)");
// simulate.
ABSL_FLAG(std::string, generator, "",
          "simulate: mallows, plackett-luce, clones, atari-agent57 or table:FILE");
ABSL_FLAG(std::string, algorithms, "", "simulate: comma-separated algorithms (see --help)");
ABSL_FLAG(int64_t, rounds, 10000, "simulate: rounds T of Algorithm 1");
ABSL_FLAG(int64_t, seeds, 100, "simulate: independent runs");
ABSL_FLAG(int64_t, window, 250, "simulate: sliding window of the --curves");
ABSL_FLAG(int32_t, threads, 0, "simulate: threads running seeds (0: every core)");
ABSL_FLAG(std::string, curves, "", "simulate: write the windowed GRE curves to this CSV file");
// suggest.
ABSL_FLAG(std::string, strategy, "", "suggest: uniform, ucb or ml");
ABSL_FLAG(int64_t, n, 10, "suggest: pairs to suggest (at most 1000; more are clamped)");
ABSL_FLAG(double, exploration, 0.1, "suggest: uniform mass mixed into the ml lottery, in [0, 1]");
// game.
ABSL_FLAG(std::string, solver, "",
          "game: ne (Nash equilibrium, annealed QRE) or cce (maximum-entropy coarse correlated "
          "equilibrium)");
// produce and tail.
ABSL_FLAG(std::string, brokers, "127.0.0.1:9092", "produce/tail: Kafka bootstrap servers");
ABSL_FLAG(std::string, topic, "", "produce/tail: the topic");
ABSL_FLAG(double, rate, 0, "produce: records per second (0: as fast as possible)");
ABSL_FLAG(std::string, type, "",
          "tail: deltas, leaderboards, results or dlq (default: from the topic name)");
ABSL_FLAG(int64_t, count, 0,
          "tail: stop after this many documents, a delta batch counting its deltas (0: no limit)");
ABSL_FLAG(absl::Duration, idle_timeout, absl::InfiniteDuration(),
          "tail: stop after this long without a record");
ABSL_FLAG(bool, from_end, false, "tail: only records that arrive after the start");
ABSL_FLAG(bool, lag, false,
          "tail of deltas: print '<model> <ms>' per delta, its arrival minus its event time, "
          "instead of its document");
// --param key=value is repeatable, which Abseil flags are not; main() collects it.
ABSL_FLAG(std::string, param, "", "model parameter key=value; repeat for several (see --help)");

namespace {

constexpr char kUsage[] =
    "ratingctl methods\n"
    "  Prints every method of `rate` with its family, input and parameters as JSON.\n"
    "\n"
    "ratingctl rate --method M --input FILE\n"
    "               [--format jsonl|preflib|scores|battles|battles-csv]\n"
    "               [--param key=value]... [--seed N] [--pool P] [--output json|table]\n"
    "               [--bootstrap-replicas R [--provisional-games 20]]\n"
    "\n"
    "Rates the results of FILE with method M and prints the ranking as JSON on stdout.\n"
    "Online models (file order): elo, sco, ml; with R replicas each agent also gets what\n"
    "ratingd publishes: games, provisional and (elo, sco) its interval. Batch: elo-bt, sco-batch, "
    "sco-fy. Voting\n"
    "rules: approval (k = 3), plurality, borda, stv (winners), copeland, kemeny\n"
    "(max_agents), ranked-pairs, schulze, ml-exact and iml (max_agents, tolerance).\n"
    "Agents vs tasks: nash-avg (tolerance), Nash averaging; needs scores per task (a score\n"
    "table, or JSONL with task and scores), each task's scores mapped to [0, 1].\n"
    "Models vs prompts: gt-ne, gt-cce, the king's ratings in [RE]'s king-of-the-hill game\n"
    "(battles with question_id or task; parameters as for `ratingctl game`, plus\n"
    "tie_tolerance (1e-4)).\n"
    "Parameters (defaults; `ratingctl methods` prints them as JSON with their ranges and\n"
    "help):\n"
    "@METHODS@"
    "\n"
    "ratingctl eval --input FILE [--ranking FILE | --method M] [--truth FILE] [--k 3]\n"
    "               [--methods M1,M2 --splits 10 --test_fraction 0.1] [--agre_steps N]\n"
    "               [--param key=value | --param M:key=value]... [--seed N]\n"
    "  Condorcet winner, KTD to the results, KTD / normalised KTD / top-k error / GRE\n"
    "  against a truth, held-out KTD_test per method; one JSON document on stdout.\n"
    "\n"
    "ratingctl generate --model mallows|plackett-luce|clones|cycle|tournament|king-of-the-hill\n"
    "                   |bernoulli --out FILE.jsonl"
    " [--param key=value]... [--seed N] [--pool P]\n"
    "  Writes FILE.jsonl (GameResult JSON lines) and FILE.truth.json. Parameters:\n"
    "  mallows: agents (8), tasks (50), dispersion (0.5); plackett-luce: agents, tasks,\n"
    "  tau (1), max_rating (10); clones: agents, tasks, dispersion, clones (8); cycle:\n"
    "  agents (3), tasks (30); tournament: agents (20), players (4), contests (50),\n"
    "  matching (uniform|skill), skill_mean (100), skill_std (30), noise_std (5), candidates (3);\n"
    "  king-of-the-hill (battles, not GameResults): prompts (40), models (6), skills (3),\n"
    "  copies (0), lambda (10), target (best model), noise (0); bernoulli: pairs (required,\n"
    "  A>B:0.75,B>C:0.51: A beats B with probability 0.75 unless they draw), games (1000 per\n"
    "  pair), tie (0, the draw probability)\n"
    "\n"
    "ratingctl elo-sweep --input FILE [--format F] [--pool P] [--k 1,8,16,32,64]\n"
    "                    [--permutations 1,100] [--initial 1500] [--seed N]\n"
    "  Online Elo under every K and permutation count ([EU]; 1 = the file's order): each\n"
    "  configuration's ranking with mean and SEM, and pairs ranked against their\n"
    "  head-to-head majority; pairs never compared; pairs whose order depends on the\n"
    "  configuration. One JSON document on stdout.\n"
    "\n"
    "ratingctl simulate --generator mallows|plackett-luce|clones|atari-agent57|table:FILE\n"
    "                   --algorithms A1,A2 [--param key=value | --param A:key=value]...\n"
    "                   [--rounds 10000] [--seeds 100] [--k 3,8] [--window 250] [--seed N]\n"
    "                   [--threads N] [--curves FILE.csv] [--output json|table]\n"
    "  Active evaluation ([AE] Alg. 1): AGRE (mean and 95% interval over seeds), final GRE\n"
    "  and its zero fraction per algorithm and k, as one JSON document; byte-identical for\n"
    "  any --threads. Algorithms: uniform-averaging, basic-ucb (c), online-elo (k 1,\n"
    "  initial), online-sco (alpha, tau, min, max), batch-elo (prior, tolerance,\n"
    "  max_iterations), batch-copeland, batch-ranked-pairs, batch-maximal-lotteries\n"
    "  (exploration 0.1), batch-sco (batch 32, steps 1, alpha 0.01, tau, min, max),\n"
    "  batch-nash-averaging (exploration), mean-model-copeland, mean-model-ranked-pairs,\n"
    "  mean-model-max-lot, proportional-representation (g 5, exploration), kemeny-el,\n"
    "  online-maximal-lotteries and online-nash-averaging (exploration); every batch-*,\n"
    "  mean-model-* and proportional-representation takes burn_in (1).\n"
    "  Generator parameters: agents (8), tasks (50), phi\n"
    "  (0.3; mallows, clones), tau (1) and theta_max (10) (plackett-luce), clones (8) and\n"
    "  epsilon (0.1) (clones), sigma (20), low (0), high (100); tables take none.\n"
    "\n"
    "ratingctl suggest --input FILE --strategy uniform|ucb|ml [--format F] [--n 10]\n"
    "                  [--exploration 0.1] [--seed N] [--pool P] [--param key=value]...\n"
    "  The next matches ratingd's /v1/pools/{pool}/suggest answers for a pool holding the\n"
    "  file's results (same JSON, same pairs for the same seed); --param sets ml parameters.\n"
    "\n"
    "ratingctl game --input GAME.json --solver ne|cce [--param key=value]...\n"
    "  Solves an N-player normal-form game ({\"players\": [{\"name\", \"actions\"}, ...],\n"
    "  \"payoffs\": one flat array per player, the last player's action fastest}) and rates\n"
    "  each action by its regret ([RE] §3). Parameters: selection (affinity|shannon),\n"
    "  kernel_variance (1e-6), p (1), epsilon (1e-3), learning_rate (1e-2), max_steps\n"
    "  (1000000); ne: tau0 (1), decay (0.95), steps_per_decay (250), anneal_threshold\n"
    "  (1e-5), tau_min (1e-4), patience (20); cce: slackness (1e-5), initial_dual (1e-3).\n"
    "\n"
    "ratingctl produce --brokers B --topic T --input FILE [--format F] [--pool P] [--rate R]\n"
    "  Produces the file's results as GameResults (key = pool). PrefLib, score tables and\n"
    "  battles carry no pool: name it with --pool (battles' game ids: <file name>:<line>).\n"
    "  [--kafka key=value]... passes librdkafka settings.\n"
    "ratingctl tail --brokers B --topic T [--type deltas|leaderboards|results|dlq]\n"
    "               [--count N] [--idle_timeout 5s] [--from_end] [--lag]\n"
    "  Prints ratingd's records as JSON lines.\n"
    "\n"
    "Long runs show progress on stderr when it is a terminal.\n"
    "Errors go to stderr naming the file, line and problem; the exit status is then 1.";

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

int Rate(std::vector<std::string> params) {
  ratingd::RateConfig config;
  config.method = absl::GetFlag(FLAGS_method);
  config.input = absl::GetFlag(FLAGS_input);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.params = std::move(params);
  config.bootstrap_replicas = absl::GetFlag(FLAGS_bootstrap_replicas);
  config.provisional_games = absl::GetFlag(FLAGS_provisional_games);
  if (config.method.empty()) return Fail("rate: --method is required (see --help)");
  if (isatty(STDERR_FILENO)) config.progress = ratingd::TerminalProgress(config.method);
  if (config.input.empty()) return Fail("rate: --input FILE is required");
  const std::string output = absl::GetFlag(FLAGS_output);
  if (output != "json" && output != "table") {
    return Fail(absl::StrCat("--output: '", output, "' is not json or table"));
  }
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
  auto report = ratingd::RunRate(config);
  if (!report.ok()) return Fail(std::string(report.status().message()));
  const auto& extra = report->extra().fields();
  if (auto it = extra.find("converged");
      extra.contains("last_change") && it != extra.end() && !it->second.bool_value()) {
    // elo-bt's MM fit, whose progress is a rating change, not an exploitability.
    std::cerr << "ratingctl: warning: " << config.method
              << " stopped at max_iterations; the last iteration still moved a rating by "
              << extra.at("last_change").number_value() << " Elo points\n";
  } else if (it != extra.end() && !it->second.bool_value()) {
    // ml (max_iterations) and gt-ne / gt-cce (max_steps) report their exploitability.
    std::cerr << "ratingctl: warning: " << config.method
              << " stopped at its iteration cap with exploitability "
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

int Methods() {
  auto json = ratingd::DeterministicJson(ratingd::MethodsDocument());
  if (!json.ok()) return Fail(std::string(json.status().message()));
  std::cout << *json << "\n";
  return 0;
}

int Eval(std::vector<std::string> params) {
  ratingd::EvalConfig config;
  config.input = absl::GetFlag(FLAGS_input);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.ranking = absl::GetFlag(FLAGS_ranking);
  config.truth = absl::GetFlag(FLAGS_truth);
  config.method = absl::GetFlag(FLAGS_method);
  config.params = std::move(params);
  for (absl::string_view m : absl::StrSplit(absl::GetFlag(FLAGS_methods), ',', absl::SkipEmpty())) {
    config.methods.emplace_back(m);
  }
  config.splits = absl::GetFlag(FLAGS_splits);
  config.test_fraction = absl::GetFlag(FLAGS_test_fraction);
  if (const std::string k = absl::GetFlag(FLAGS_k); !k.empty() && !absl::SimpleAtoi(k, &config.k)) {
    return Fail(absl::StrCat("eval: --k '", k, "' is not an integer"));
  }
  config.agre_steps = absl::GetFlag(FLAGS_agre_steps);
  config.seed = absl::GetFlag(FLAGS_seed);
  if (config.input.empty()) return Fail("eval: --input FILE is required");
  if (!config.ranking.empty() && !config.method.empty()) {
    return Fail("eval: give --ranking or --method, not both");
  }
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
  if (isatty(STDERR_FILENO)) {
    config.progress = [](const std::string& label) { return ratingd::TerminalProgress(label); };
  }
  auto doc = ratingd::RunEval(config);
  if (!doc.ok()) return Fail(std::string(doc.status().message()));
  auto json = ratingd::DeterministicJson(*doc);
  if (!json.ok()) return Fail(std::string(json.status().message()));
  std::cout << *json << "\n";
  return 0;
}

int Simulate(std::vector<std::string> params) {
  ratingd::SimulateConfig config;
  config.generator = absl::GetFlag(FLAGS_generator);
  for (absl::string_view a :
       absl::StrSplit(absl::GetFlag(FLAGS_algorithms), ',', absl::SkipEmpty())) {
    config.algorithms.emplace_back(a);
  }
  config.params = std::move(params);
  config.sim.rounds = absl::GetFlag(FLAGS_rounds);
  config.sim.seeds = absl::GetFlag(FLAGS_seeds);
  config.sim.window = absl::GetFlag(FLAGS_window);
  config.sim.seed = absl::GetFlag(FLAGS_seed);
  config.threads = absl::GetFlag(FLAGS_threads);
  if (config.generator.empty()) return Fail("simulate: --generator is required (see --help)");
  if (const std::string k = absl::GetFlag(FLAGS_k); !k.empty()) {
    config.sim.k.clear();
    for (absl::string_view item : absl::StrSplit(k, ',')) {
      size_t value = 0;
      if (!absl::SimpleAtoi(item, &value) || value < 1) {
        return Fail(absl::StrCat("simulate: --k '", k, "': '", item, "' is not an integer >= 1"));
      }
      config.sim.k.push_back(value);
    }
  }
  const std::string curves = absl::GetFlag(FLAGS_curves);
  config.curves = !curves.empty();
  const std::string output = absl::GetFlag(FLAGS_output);
  if (output != "json" && output != "table") {
    return Fail(absl::StrCat("--output: '", output, "' is not json or table"));
  }
  if (config.threads < 0) return Fail("simulate: --threads must be >= 0");
  if (isatty(STDERR_FILENO)) config.progress = ratingd::TerminalProgress("simulate");
  auto result = ratingd::RunSimulate(config);
  if (!result.ok()) return Fail(std::string(result.status().message()));
  if (config.curves) {
    std::FILE* file = std::fopen(curves.c_str(), "w");
    if (file == nullptr) return Fail(absl::StrCat("cannot write ", curves));
    const size_t written =
        std::fwrite(result->curves_csv.data(), 1, result->curves_csv.size(), file);
    if (std::fclose(file) != 0 || written != result->curves_csv.size()) {
      return Fail(absl::StrCat("cannot write ", curves));
    }
  }
  if (output == "table") {
    std::cout << ratingd::SimulateTable(result->document);
    return 0;
  }
  auto json = ratingd::DeterministicJson(result->document);
  if (!json.ok()) return Fail(std::string(json.status().message()));
  std::cout << *json << "\n";
  return 0;
}

int Suggest(std::vector<std::string> params) {
  ratingd::SuggestConfig config;
  config.input = absl::GetFlag(FLAGS_input);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.params = std::move(params);
  const std::string strategy = absl::GetFlag(FLAGS_strategy);
  const auto parsed = ratings::active::ParseSuggestStrategy(strategy);
  if (!parsed.has_value()) {
    return Fail(
        absl::StrCat("suggest: --strategy must be uniform, ucb or ml (got '", strategy, "')"));
  }
  config.request.strategy = *parsed;
  const int64_t n = absl::GetFlag(FLAGS_n);
  if (n < 1) return Fail(absl::StrCat("suggest: --n must be >= 1 (got ", n, ")"));
  config.request.n = static_cast<size_t>(n);
  config.request.exploration = absl::GetFlag(FLAGS_exploration);
  config.request.seed = absl::GetFlag(FLAGS_seed);
  if (config.input.empty()) return Fail("suggest: --input FILE is required");
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
  auto doc = ratingd::RunSuggest(config);
  if (!doc.ok()) return Fail(absl::StrCat("suggest: ", doc.status().message()));
  auto json = ratingd::DeterministicJson(*doc);
  if (!json.ok()) return Fail(std::string(json.status().message()));
  std::cout << *json << "\n";
  return 0;
}

int Game(std::vector<std::string> params) {
  ratingd::GameConfig config;
  config.input = absl::GetFlag(FLAGS_input);
  config.solver = absl::GetFlag(FLAGS_solver);
  config.params = std::move(params);
  if (config.solver.empty()) return Fail("game: --solver ne|cce is required");
  if (config.input.empty()) return Fail("game: --input GAME.json is required");
  auto doc = ratingd::RunGame(config);
  if (!doc.ok()) return Fail(absl::StrCat("game: ", doc.status().message()));
  const auto& fields = doc->fields();
  if (!fields.at("converged").bool_value()) {
    const auto& used = fields.at("params").struct_value().fields();
    std::string warning =
        absl::StrCat("ratingctl: warning: game: ", config.solver, " did not converge in ",
                     static_cast<int64_t>(fields.at("steps").number_value()),
                     " steps: exploitability ", fields.at("exploitability").number_value(),
                     " (epsilon ", used.at("epsilon").number_value(), ")");
    if (config.solver == "cce") {
      absl::StrAppend(&warning, ", slackness ", fields.at("slackness").number_value(), " (target ",
                      used.at("slackness").number_value(), ")");
    }
    std::cerr << warning << "\n";
  }
  auto json = ratingd::DeterministicJson(*doc);
  if (!json.ok()) return Fail(std::string(json.status().message()));
  std::cout << *json << "\n";
  return 0;
}

int Generate(std::vector<std::string> params) {
  ratingd::GenerateConfig config;
  config.model = absl::GetFlag(FLAGS_model);
  config.output = absl::GetFlag(FLAGS_out);
  config.params = std::move(params);
  config.seed = absl::GetFlag(FLAGS_seed);
  if (const std::string pool = absl::GetFlag(FLAGS_pool); !pool.empty()) config.pool = pool;
  if (config.model.empty()) return Fail("generate: --model is required (see --help)");
  if (config.output.empty()) return Fail("generate: --out FILE.jsonl is required");
  if (absl::Status s = ratingd::RunGenerate(config); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  return 0;
}

// "1,8,16" -> {1, 8, 16}; `parse` reads one item. An error names the flag and the item.
template <typename T, typename Parse>
absl::StatusOr<std::vector<T>> ParseList(const std::string& flag, const std::string& text,
                                         const char* what, Parse parse) {
  std::vector<T> items;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    T value{};
    if (!parse(item, &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("elo-sweep: --", flag, " '", text, "': '", item, "' is not ", what));
    }
    items.push_back(value);
  }
  return items;
}

int EloSweep(const std::vector<std::string>& params) {
  if (!params.empty()) return Fail("elo-sweep: takes no --param (see --help)");
  ratingd::EloSweepConfig config;
  config.input.input = absl::GetFlag(FLAGS_input);
  config.input.pool = absl::GetFlag(FLAGS_pool);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.initial = absl::GetFlag(FLAGS_initial);
  if (config.input.input.empty()) return Fail("elo-sweep: --input FILE is required");
  if (absl::Status s = FormatFlag(config.input.format); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  if (const std::string k = absl::GetFlag(FLAGS_k); !k.empty()) {
    auto parsed = ParseList<double>("k", k, "a number", [](absl::string_view v, double* out) {
      return absl::SimpleAtod(v, out);
    });
    if (!parsed.ok()) return Fail(std::string(parsed.status().message()));
    config.k = *std::move(parsed);
  }
  if (const std::string p = absl::GetFlag(FLAGS_permutations); !p.empty()) {
    auto parsed = ParseList<int64_t>(
        "permutations", p, "an integer",
        [](absl::string_view v, int64_t* out) { return absl::SimpleAtoi(v, out); });
    if (!parsed.ok()) return Fail(std::string(parsed.status().message()));
    config.permutations = *std::move(parsed);
  }
  if (isatty(STDERR_FILENO)) config.input.progress = ratingd::TerminalProgress("elo-sweep");
  auto doc = ratingd::RunEloSweep(config);
  if (!doc.ok()) return Fail(std::string(doc.status().message()));
  auto json = ratingd::DeterministicJson(*doc);
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
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
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
  config.lag = absl::GetFlag(FLAGS_lag);
  if (config.topic.empty()) return Fail("tail: --topic is required");
  auto props = ratingd::ParseKafkaProperties(kafka, "");
  if (!props.ok()) return Fail(std::string(props.status().message()));
  config.kafka = *props;
  absl::Status s = ratingd::RunTail(config);
  return s.ok() ? 0 : Fail(std::string(s.message()));
}

}  // namespace

int main(int argc, char** argv) {
  // The batch solvers (Clp above all) allocate and free large blocks every solve; glibc's
  // default trims the heap back after each, and the page faults of growing it again cost
  // more than the solves: `simulate` with batch-maximal-lotteries ran 2.4x faster with a
  // pad (docs/BENCHMARKS.md, "ratingctl simulate").
  mallopt(M_TOP_PAD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  const std::string usage = absl::StrReplaceAll(kUsage, {{"@METHODS@", ratingd::MethodsHelp()}});
  ratingd::CommandLine line = ratingd::ParseCommandLine(argc, argv, usage.c_str());
  std::vector<std::string>& params = line.params;
  const std::vector<std::string>& kafka = line.kafka;
  const std::vector<std::string>& positional = line.positional;
  if (positional.size() < 2) {
    return Fail(absl::StrCat("missing subcommand\nusage: ", usage));
  }
  const std::string command = positional[1];
  if (positional.size() > 2) {
    return Fail(absl::StrCat("unexpected argument '", positional[2], "'"));
  }
  if (command == "methods") return Methods();
  if (command == "rate") return Rate(std::move(params));
  if (command == "eval") return Eval(std::move(params));
  if (command == "generate") return Generate(std::move(params));
  if (command == "elo-sweep") return EloSweep(params);
  if (command == "simulate") return Simulate(std::move(params));
  if (command == "suggest") return Suggest(std::move(params));
  if (command == "game") return Game(std::move(params));
  if (command == "produce") return Produce(kafka);
  if (command == "tail") return Tail(kafka);
  return Fail(absl::StrCat(
      "unknown subcommand '", command,
      "'; known: methods, rate, eval, generate, elo-sweep, simulate, suggest, game, produce, "
      "tail\nusage: ",
      usage));
}
