// ratingd._core: the method table, the readers and `ratingctl rate`'s runners for Python
// (docs/PYTHON.md). Thin: records in, the report's JSON document out; the Python side
// (ratingd/) turns data into records and documents into Leaderboards. The GIL is released
// while C++ reads or rates.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/method_registry.h"
#include "daemon/methods/run_rate.h"
#include "python/src/records.h"
#include "ratings/io/read_results.h"

namespace ratingd::python {
namespace {

RateConfig Config(const std::string& method, std::vector<std::string> params, uint64_t seed,
                  const std::string& pool, uint32_t bootstrap_replicas,
                  uint64_t provisional_games) {
  RateConfig config;
  config.method = method;
  config.params = std::move(params);
  config.seed = seed;
  config.pool = pool;
  config.bootstrap_replicas = bootstrap_replicas;
  config.provisional_games = provisional_games;
  return config;
}

std::optional<ratings::io::Format> Format(const std::optional<std::string>& name) {
  if (!name.has_value()) return std::nullopt;
  absl::StatusOr<ratings::io::Format> format = ratings::io::ParseFormat(*name);
  if (!format.ok()) Raise(format.status());
  return *format;
}

// `ratingctl rate --input path`: the same reading (direct vote readers included) and report.
std::string RateFile(const std::string& path, const std::optional<std::string>& format,
                     const std::string& method, std::vector<std::string> params, uint64_t seed,
                     const std::string& pool, uint32_t bootstrap_replicas,
                     uint64_t provisional_games) {
  RateConfig config =
      Config(method, std::move(params), seed, pool, bootstrap_replicas, provisional_games);
  config.input = path;
  config.format = Format(format);
  absl::StatusOr<v1::RatingReport> report;
  {
    nb::gil_scoped_release release;
    report = RunRate(config);
  }
  if (!report.ok()) Raise(report.status());
  return Json(*report);
}

// RateRecords on records built in memory (`where` names them in messages, as a file would).
std::string RateRecordsJson(const Records& records, const std::string& method,
                            std::vector<std::string> params, uint64_t seed, const std::string& pool,
                            uint32_t bootstrap_replicas, uint64_t provisional_games,
                            const std::string& where) {
  RateConfig config =
      Config(method, std::move(params), seed, pool, bootstrap_replicas, provisional_games);
  config.input = where;
  absl::StatusOr<v1::RatingReport> report;
  {
    nb::gil_scoped_release release;
    report = RateRecords(config, records.records, records.skipped_votes);
  }
  if (!report.ok()) Raise(report.status());
  return Json(*report);
}

Records ReadFile(const std::string& path, const std::optional<std::string>& format_name) {
  std::optional<ratings::io::Format> format = Format(format_name);
  if (!format.has_value()) {
    absl::StatusOr<ratings::io::Format> inferred = ratings::io::InferFormat(path);
    if (!inferred.ok()) Raise(inferred.status());
    format = *inferred;
  }
  absl::StatusOr<ratings::io::ReadOutput> read;
  {
    nb::gil_scoped_release release;
    read = ratings::io::ReadResultsFile(path, *format, ratings::ResultLimits{});
  }
  if (!read.ok()) Raise(read.status());
  return Records{.records = std::move(read->records), .skipped_votes = read->skipped_votes};
}

// Results in columns: result r holds standings [starts[r], starts[r + 1]) of the standing
// columns (agent: index into `agents`; rank; score, NaN = none); weight, task (index into
// `tasks`, -1 = none) and game_id per result. Each result passes ValidateResult.
Records FromResults(const std::vector<std::string>& agents, Column<int64_t> starts,
                    Column<int64_t> agent, Column<int64_t> rank, Column<double> score,
                    Column<double> weight, const std::vector<std::string>& tasks,
                    Column<int64_t> task, const std::vector<std::string>& game_ids) {
  const size_t n = weight.shape(0);
  if (starts.shape(0) != n + 1 || task.shape(0) != n ||
      (!game_ids.empty() && game_ids.size() != n) || agent.shape(0) != rank.shape(0) ||
      agent.shape(0) != score.shape(0)) {
    throw nb::value_error("internal: result columns of different lengths");
  }
  Records out;
  out.records.reserve(n);
  const ratings::ResultLimits limits;
  for (size_t r = 0; r < n; ++r) {
    ratings::io::ResultRecord record;
    const int64_t begin = starts(r), end = starts(r + 1);
    if (begin < 0 || end < begin || end > static_cast<int64_t>(agent.shape(0))) {
      throw nb::value_error("internal: bad result offsets");
    }
    for (int64_t s = begin; s < end; ++s) {
      if (agent(s) < 0 || agent(s) >= static_cast<int64_t>(agents.size())) {
        throw nb::value_error("internal: agent code out of range");
      }
      if (rank(s) < 0 || rank(s) > UINT32_MAX) {
        RaiseAtRow(r, absl::InvalidArgumentError(absl::StrCat("rank ", rank(s), " is not >= 1")));
      }
      record.result.standings.push_back(
          {agents[agent(s)], static_cast<uint32_t>(rank(s)),
           std::isnan(score(s)) ? std::nullopt : std::optional<double>(score(s))});
    }
    record.result.weight = weight(r);
    if (absl::Status s = ratings::ValidateResult(record.result, limits); !s.ok()) RaiseAtRow(r, s);
    if (task(r) >= 0) {
      if (task(r) >= static_cast<int64_t>(tasks.size())) {
        throw nb::value_error("internal: task code out of range");
      }
      record.task = tasks[task(r)];
    }
    if (!game_ids.empty()) record.game_id = game_ids[r];
    record.line = static_cast<int64_t>(r) + 1;
    out.records.push_back(std::move(record));
  }
  return out;
}

// Battles in columns: names[a[i]], names[b[i]], winners[winner[i]], tasks[task[i]] (-1 =
// none), score[i] and tstamp[i] (NaN = none); each as the battles reader takes a line
// (BattleToRecord).
Records FromBattles(const std::vector<std::string>& names, Column<int64_t> a, Column<int64_t> b,
                    const std::vector<std::string>& winners, Column<int64_t> winner,
                    const std::vector<std::string>& tasks, Column<int64_t> task,
                    Column<double> score, Column<double> tstamp) {
  const size_t n = a.shape(0);
  if (b.shape(0) != n || winner.shape(0) != n || task.shape(0) != n || score.shape(0) != n ||
      tstamp.shape(0) != n) {
    throw nb::value_error("internal: battle columns of different lengths");
  }
  const auto at = [](const std::vector<std::string>& values,
                     int64_t code) -> std::optional<std::string> {
    if (code < 0) return std::nullopt;
    if (code >= static_cast<int64_t>(values.size())) {
      throw nb::value_error("internal: code out of range");
    }
    return values[code];
  };
  Records out;
  out.records.reserve(n);
  const ratings::ResultLimits limits;
  for (size_t i = 0; i < n; ++i) {
    ratings::io::Battle battle{
        .model_a = at(names, a(i)),
        .model_b = at(names, b(i)),
        .winner = at(winners, winner(i)),
        .task = at(tasks, task(i)),
        .score = std::isnan(score(i)) ? std::nullopt : std::optional<double>(score(i)),
        .tstamp = std::isnan(tstamp(i)) ? std::nullopt : std::optional<double>(tstamp(i))};
    absl::StatusOr<ratings::io::ResultRecord> record =
        ratings::io::BattleToRecord(std::move(battle), limits);
    if (!record.ok()) RaiseAtRow(i, record.status());
    record->line = static_cast<int64_t>(i) + 1;
    out.records.push_back(*std::move(record));
  }
  return out;
}

// The records as columns, one row per standing: result (0-based), pool, game_id, task,
// weight, agent, rank, score (NaN = none).
nb::dict Columns(const Records& records) {
  std::vector<int64_t> result, rank;
  std::vector<std::string> pool, game_id, task, agent;
  std::vector<double> weight, score;
  for (size_t r = 0; r < records.records.size(); ++r) {
    const ratings::io::ResultRecord& record = records.records[r];
    for (const ratings::Standing& s : record.result.standings) {
      result.push_back(static_cast<int64_t>(r));
      pool.push_back(record.pool);
      game_id.push_back(record.game_id);
      task.push_back(record.task);
      weight.push_back(record.result.weight);
      agent.push_back(s.agent);
      rank.push_back(s.rank);
      score.push_back(s.score.value_or(std::nan("")));
    }
  }
  nb::dict out;
  out["result"] = nb::cast(result);
  out["pool"] = nb::cast(pool);
  out["game_id"] = nb::cast(game_id);
  out["task"] = nb::cast(task);
  out["weight"] = nb::cast(weight);
  out["agent"] = nb::cast(agent);
  out["rank"] = nb::cast(rank);
  out["score"] = nb::cast(score);
  return out;
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "ratingd's C++ core: the method table, the readers and the rating methods.";
  nb::class_<Records>(m, "Records")
      .def("__len__", [](const Records& r) { return r.records.size(); })
      .def_ro("skipped_votes", &Records::skipped_votes)
      .def("columns", &Columns);
  m.def("methods_json", [] { return Json(MethodsDocument()); });
  m.def("methods_help", &MethodsHelp);
  m.def("rate_file", &RateFile);
  m.def("rate_records", &RateRecordsJson);
  m.def("read_file", &ReadFile);
  m.def("records_from_results", &FromResults);
  m.def("records_from_battles", &FromBattles);
  BindOnlinePool(m);
  BindCommands(m);
  BindBattleVotes(m);
  BindFactorize(m);
}

}  // namespace ratingd::python
