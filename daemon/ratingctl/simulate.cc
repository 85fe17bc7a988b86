#include "daemon/ratingctl/simulate.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "daemon/deterministic_json.h"
#include "daemon/param_table.h"
#include "daemon/ratingctl/agent57_table.h"
#include "ratings/active/algorithms.h"
#include "ratings/active/score_generators.h"
#include "ratings/io/read_results.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using ratings::active::AlgorithmOptions;
using ratings::active::GeneratorKind;
using ratings::active::ScoreGeneratorOptions;
using ratings::active::SeedCurves;
using ratings::active::SimulationOptions;

ParamTable::Setter BoolSetter(bool* field) {
  return [field](absl::string_view v) {
    if (v != "0" && v != "1")
      return absl::InvalidArgumentError(absl::StrCat("'", v, "' is not 0 or 1"));
    *field = v == "1";
    return absl::OkStatus();
  };
}

// The generator named by --generator, with its parameter table bound to `options`.
absl::Status SetUpGenerator(const std::string& name, ScoreGeneratorOptions& options,
                            ParamTable& table) {
  auto sizes = [&] { table.Add("agents", &options.agents).Add("tasks", &options.tasks); };
  auto scores = [&] {
    table.Add("sigma", &options.sigma).Add("low", &options.low).Add("high", &options.high);
  };
  if (name == "mallows") {
    options.kind = GeneratorKind::kMallows;
    sizes();
    table.Add("phi", &options.phi);
    scores();
    return absl::OkStatus();
  }
  if (name == "plackett-luce") {
    options.kind = GeneratorKind::kPlackettLuce;
    sizes();
    table.Add("tau", &options.tau).Add("theta_max", &options.theta_max);
    scores();
    return absl::OkStatus();
  }
  if (name == "clones") {
    options.kind = GeneratorKind::kClones;
    sizes();
    table.Add("phi", &options.phi).Add("clones", &options.clones).Add("epsilon", &options.epsilon);
    scores();
    return absl::OkStatus();
  }
  std::string content;
  std::string filename;
  if (name == "atari-agent57") {
    content = Agent57Table();
    filename = "atari-agent57";
  } else if (absl::StartsWith(name, "table:") && name.size() > 6) {
    filename = name.substr(6);
    ASSIGN_OR_RETURN(content, ratings::io::ReadFileContent(filename));
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--generator: unknown generator '", name,
                     "'; known: mallows, plackett-luce, clones, atari-agent57, table:FILE"));
  }
  ASSIGN_OR_RETURN(ratings::io::ScoreTable score_table,
                   ratings::io::ParseScoreTable(content, filename, {}));
  if (score_table.tasks.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(filename, ": the table has no tasks"));
  }
  options.kind = GeneratorKind::kTable;
  options.table_agents = std::move(score_table.agents);
  options.table_means = std::move(score_table.means);
  options.table_stds = std::move(score_table.stds);
  return absl::OkStatus();
}

// The parameters of one algorithm, bound to `o`.
void BindAlgorithm(const std::string& name, AlgorithmOptions& o, ParamTable& table) {
  if (name == "basic-ucb") table.Add("c", &o.ucb_c);
  if (name == "online-elo") table.Add("k", &o.elo_k).Add("initial", &o.elo_initial);
  if (name == "online-sco") {
    table.Add("alpha", &o.sco.alpha)
        .Add("tau", &o.sco.tau)
        .Add("min", &o.sco.min)
        .Add("max", &o.sco.max);
  }
  const bool batch = absl::StartsWith(name, "batch-") || absl::StartsWith(name, "mean-model-") ||
                     name == "proportional-representation";
  if (batch) table.Add("burn_in", BoolSetter(&o.burn_in), [&o] { return NumberValue(o.burn_in); });
  if (name == "batch-elo") {
    table.Add("prior", &o.bradley_terry.prior)
        .Add("tolerance", &o.bradley_terry.tolerance)
        .Add("max_iterations", &o.bradley_terry.max_iterations);
  }
  if (name == "batch-sco") {
    table.Add("batch", &o.sco_batch)
        .Add("steps", &o.sco_steps)
        .Add("alpha", &o.sco_batch_alpha)
        .Add("tau", &o.sco.tau)
        .Add("min", &o.sco.min)
        .Add("max", &o.sco.max);
  }
  if (name == "batch-maximal-lotteries" || name == "batch-nash-averaging" ||
      name == "online-maximal-lotteries" || name == "online-nash-averaging") {
    table.Add("exploration", &o.exploration);
  }
  if (name == "proportional-representation") {
    table.Add("g", &o.prop_rep_g).Add("exploration", &o.exploration);
  }
}

struct Algorithm {
  std::string name;
  AlgorithmOptions options;
  google::protobuf::Struct params;  // the effective values
};

// Runs every seed of one algorithm on `threads` threads; the curves in seed order.
absl::StatusOr<std::vector<SeedCurves>> RunSeeds(const ScoreGeneratorOptions& generator,
                                                 const Algorithm& algorithm,
                                                 const SimulationOptions& sim, int threads,
                                                 const std::function<void()>& seed_done) {
  std::vector<absl::StatusOr<SeedCurves>> runs(static_cast<size_t>(sim.seeds),
                                               absl::UnknownError("not run"));
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t i = next++; i < sim.seeds; i = next++) {
      runs[static_cast<size_t>(i)] =
          ratings::active::RunSeed(generator, algorithm.name, algorithm.options, sim, i);
      seed_done();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  std::vector<SeedCurves> curves;
  for (absl::StatusOr<SeedCurves>& run : runs) {
    if (!run.ok()) return run.status();  // the first failing seed
    curves.push_back(*std::move(run));
  }
  return curves;
}

google::protobuf::Value ListValue(const std::vector<google::protobuf::Value>& items) {
  google::protobuf::Value v;
  for (const auto& item : items) *v.mutable_list_value()->add_values() = item;
  return v;
}

absl::Status CheckSimulateConfig(const SimulateConfig& config) {
  const SimulationOptions& sim = config.sim;
  if (sim.rounds < 1) return absl::InvalidArgumentError("--rounds must be >= 1");
  if (sim.seeds < 1) return absl::InvalidArgumentError("--seeds must be >= 1");
  if (sim.window < 1) return absl::InvalidArgumentError("--window must be >= 1");
  if (sim.k.empty()) return absl::InvalidArgumentError("--k needs at least one value");
  if (config.algorithms.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--algorithms is required; known: ",
                     absl::StrJoin(ratings::active::kAlgorithmNames, ", ")));
  }
  return absl::OkStatus();
}

// --param split into the generator's (unscoped) and each algorithm's ("A:key=value").
struct SplitParams {
  std::vector<std::string> generator;
  std::map<std::string, std::vector<std::string>> algorithms;
};

absl::StatusOr<SplitParams> SplitSimulateParams(const SimulateConfig& config) {
  SplitParams out;
  for (const std::string& p : config.params) {
    if (std::optional<ScopedParam> scoped = SplitScopedParam(p, ':'); scoped.has_value()) {
      if (std::find(config.algorithms.begin(), config.algorithms.end(), scoped->scope) ==
          config.algorithms.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--param ", p, ": '", scoped->scope, "' is not one of --algorithms"));
      }
      out.algorithms[scoped->scope].push_back(scoped->assignment);
    } else {
      out.generator.push_back(p);
    }
  }
  return out;
}

// The algorithms with their parameters applied; one evaluator of each is built on `first`,
// run 0's model, so a bad name or option fails before any run.
absl::StatusOr<std::vector<Algorithm>> PrepareAlgorithms(
    const SimulateConfig& config, std::map<std::string, std::vector<std::string>>& params,
    const ratings::active::ScoreModel& first) {
  std::vector<Algorithm> algorithms;
  for (const std::string& name : config.algorithms) {
    Algorithm algorithm;
    algorithm.name = name;
    ParamTable table(name);
    BindAlgorithm(name, algorithm.options, table);
    RETURN_IF_ERROR(table.Apply(params[name]));
    algorithm.params = table.Values();
    RETURN_IF_ERROR(
        ratings::active::MakeEvaluator(name, first.tasks(), first.agents(), algorithm.options, 0)
            .status());
    algorithms.push_back(std::move(algorithm));
  }
  return algorithms;
}

// The document's fields before its results: the generator and its parameters, the
// simulation's options and run 0's truth.
void AddSetUp(const SimulateConfig& config, const ParamTable& generator_table,
              const ratings::active::ScoreModel& first, google::protobuf::Struct& doc) {
  const SimulationOptions& sim = config.sim;
  auto& fields = *doc.mutable_fields();
  fields["generator"] = StringValue(config.generator);
  const google::protobuf::Struct generator_values = generator_table.Values();
  for (const auto& [key, value] : generator_values.fields()) fields[key] = value;
  fields["rounds"] = NumberValue(static_cast<double>(sim.rounds));
  fields["seeds"] = NumberValue(static_cast<double>(sim.seeds));
  std::vector<google::protobuf::Value> ks;
  for (size_t k : sim.k) ks.push_back(NumberValue(static_cast<double>(k)));
  fields["k"] = ListValue(ks);
  fields["window"] = NumberValue(static_cast<double>(sim.window));
  fields["seed"] = NumberValue(static_cast<double>(sim.seed));
  std::vector<google::protobuf::Value> truth;
  for (ratings::AgentId a : first.truth()) truth.push_back(StringValue(first.names()[a]));
  fields["truth"] = ListValue(truth);
}

// One row of "results" per k of the algorithm's summary, and its curves' CSV lines.
void AddSummaries(const Algorithm& algorithm,
                  const std::vector<ratings::active::Summary>& summaries,
                  std::vector<google::protobuf::Value>& results, std::string& curves_csv) {
  for (const ratings::active::Summary& s : summaries) {
    google::protobuf::Value row;
    auto& r = *row.mutable_struct_value()->mutable_fields();
    r["algorithm"] = StringValue(algorithm.name);
    *r["params"].mutable_struct_value() = algorithm.params;
    r["k"] = NumberValue(static_cast<double>(s.k));
    r["agre"] = NumberValue(s.agre);
    r["agre_ci95"] = NumberValue(s.agre_ci95);
    r["final_gre"] = NumberValue(s.final_gre);
    r["final_gre_zero_fraction"] = NumberValue(s.final_gre_zero_fraction);
    results.push_back(row);
    for (size_t t = 0; t < s.curve_mean.size(); ++t) {
      absl::StrAppendFormat(&curves_csv, "%s,%d,%d,%.17g,%.17g\n", algorithm.name, s.k, t + 1,
                            s.curve_mean[t], s.curve_ci95[t]);
    }
  }
}

}  // namespace

absl::StatusOr<SimulateOutput> RunSimulate(const SimulateConfig& config) {
  RETURN_IF_ERROR(CheckSimulateConfig(config));
  const SimulationOptions& sim = config.sim;
  ASSIGN_OR_RETURN(SplitParams params, SplitSimulateParams(config));
  ScoreGeneratorOptions generator;
  ParamTable generator_table(config.generator);
  RETURN_IF_ERROR(SetUpGenerator(config.generator, generator, generator_table));
  RETURN_IF_ERROR(generator_table.Apply(params.generator));
  // Run 0's model: its truth goes in the document, and its sizes build the test evaluators.
  ASSIGN_OR_RETURN(const ratings::active::ScoreModel first,
                   ratings::active::SeedModel(generator, sim, 0));
  ASSIGN_OR_RETURN(const std::vector<Algorithm> algorithms,
                   PrepareAlgorithms(config, params.algorithms, first));

  const int threads = config.threads > 0
                          ? config.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int64_t total = sim.seeds * static_cast<int64_t>(algorithms.size());
  int64_t done = 0;
  std::mutex progress_mutex;
  auto seed_done = [&] {
    std::lock_guard<std::mutex> lock(progress_mutex);
    ++done;
    if (config.progress) config.progress(done, total);
  };

  SimulateOutput out;
  AddSetUp(config, generator_table, first, out.document);
  std::vector<google::protobuf::Value> results;
  if (config.curves) out.curves_csv = "algorithm,k,round,gre_mean,gre_ci95\n";
  for (const Algorithm& algorithm : algorithms) {
    ASSIGN_OR_RETURN(std::vector<SeedCurves> seeds,
                     RunSeeds(generator, algorithm, sim, threads, seed_done));
    AddSummaries(algorithm, ratings::active::Summarise(seeds, sim, config.curves), results,
                 out.curves_csv);
  }
  (*out.document.mutable_fields())["results"] = ListValue(results);
  return out;
}

std::string SimulateTable(const google::protobuf::Struct& document) {
  std::string out = absl::StrFormat("%-30s %3s %10s %10s %10s %6s\n", "algorithm", "k", "AGRE",
                                    "±95%", "final GRE", "GRE=0");
  for (const google::protobuf::Value& row : document.fields().at("results").list_value().values()) {
    const auto& r = row.struct_value().fields();
    absl::StrAppendFormat(&out, "%-30s %3d %10.6f %10.6f %10.6f %5.0f%%\n",
                          r.at("algorithm").string_value(),
                          static_cast<int>(r.at("k").number_value()), r.at("agre").number_value(),
                          r.at("agre_ci95").number_value(), r.at("final_gre").number_value(),
                          100 * r.at("final_gre_zero_fraction").number_value());
  }
  return out;
}

}  // namespace ratingd
