// ratingd._core's eval, simulate and game: `ratingctl eval`, `simulate` and `game` without
// their command lines (daemon/ratingctl/{eval,simulate,game}.h), the same documents. The
// Python side (ratingd/_commands.py) maps keywords to these arguments.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingctl/eval.h"
#include "daemon/ratingctl/game.h"
#include "daemon/ratingctl/simulate.h"
#include "python/src/records.h"

namespace ratingd::python {
namespace {

std::string Eval(const std::string& input, const std::optional<std::string>& format,
                 const std::string& pool, const std::string& ranking, const std::string& method,
                 const std::string& truth, std::vector<std::string> params,
                 std::vector<std::string> methods, int64_t splits, double test_fraction, int64_t k,
                 int64_t agre_steps, uint64_t seed) {
  EvalConfig config;
  config.input = input;
  if (format.has_value()) {
    absl::StatusOr<ratings::io::Format> parsed = ratings::io::ParseFormat(*format);
    if (!parsed.ok()) Raise(parsed.status());
    config.format = *parsed;
  }
  config.pool = pool;
  config.ranking = ranking;
  config.method = method;
  config.truth = truth;
  config.params = std::move(params);
  config.methods = std::move(methods);
  config.splits = splits;
  config.test_fraction = test_fraction;
  config.k = k;
  config.agre_steps = agre_steps;
  config.seed = seed;
  if (!config.ranking.empty() && !config.method.empty()) {
    throw nb::value_error("give ranking or method, not both");
  }
  absl::StatusOr<google::protobuf::Struct> document;
  {
    nb::gil_scoped_release release;
    document = RunEval(config);
  }
  if (!document.ok()) Raise(document.status());
  return Json(*document);
}

// (document JSON, curves CSV).
std::pair<std::string, std::string> Simulate(const std::string& generator,
                                             std::vector<std::string> algorithms,
                                             std::vector<std::string> params, int64_t rounds,
                                             int64_t seeds, std::vector<int64_t> k, int64_t window,
                                             uint64_t seed, int threads) {
  SimulateConfig config;
  config.generator = generator;
  config.algorithms = std::move(algorithms);
  config.params = std::move(params);
  config.sim.rounds = rounds;
  config.sim.seeds = seeds;
  config.sim.window = window;
  config.sim.seed = seed;
  config.sim.k.clear();
  for (const int64_t v : k) {
    if (v < 1) throw nb::value_error(absl::StrCat("k: ", v, " is not an integer >= 1").c_str());
    config.sim.k.push_back(static_cast<size_t>(v));
  }
  if (threads < 0) throw nb::value_error("threads must be >= 0");
  config.threads = threads;
  config.curves = true;
  absl::StatusOr<SimulateOutput> output;
  {
    nb::gil_scoped_release release;
    output = RunSimulate(config);
  }
  if (!output.ok()) Raise(output.status());
  return {Json(output->document), std::move(output->curves_csv)};
}

std::string Game(const std::string& input, const std::string& solver,
                 std::vector<std::string> params) {
  GameConfig config{.input = input, .solver = solver, .params = std::move(params)};
  absl::StatusOr<google::protobuf::Struct> document;
  {
    nb::gil_scoped_release release;
    document = RunGame(config);
  }
  if (!document.ok()) Raise(document.status());
  return Json(*document);
}

}  // namespace

void BindCommands(nb::module_& m) {
  m.def("eval", &Eval);
  m.def("simulate", &Simulate);
  m.def("game", &Game);
}

}  // namespace ratingd::python
