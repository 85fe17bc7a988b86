#include "daemon/ratingctl/generate_drift.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/param_table.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/generators/drift.h"
#include "ratings/status_macros.h"

namespace ratingd {

absl::StatusOr<GeneratedFiles> GenerateDriftFiles(const GenerateConfig& config) {
  ratings::DriftOptions o;
  ParamTable table(config.model);
  table.Add("agents", &o.agents)
      .Add("active", &o.active)
      .Add("results", &o.results)
      .Add("per_day", &o.per_day)
      .Add("walk", &o.walk)
      .Add("skill_std", &o.skill_std)
      .Add("churn", &o.churn);
  RETURN_IF_ERROR(table.Apply(config.params));
  o.seed = config.seed;
  absl::StatusOr<ratings::DriftStream> stream = ratings::GenerateDrift(o);
  if (!stream.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--param ", stream.status().message(), " (", config.model, ")"));
  }
  GeneratedFiles files;
  for (size_t i = 0; i < stream->games.size(); ++i) {
    const ratings::DriftGame& game = stream->games[i];
    ratings::io::ResultRecord record;
    record.pool = config.pool;
    record.game_id = absl::StrCat(config.model, "-", i + 1);
    record.result.standings = {
        {.agent = stream->names[game.winner], .rank = 1, .score = std::nullopt},
        {.agent = stream->names[game.loser], .rank = 2, .score = std::nullopt}};
    record.event_time = game.time;
    ASSIGN_OR_RETURN(const std::string line, ResultJsonLine(record));
    files.jsonl += line;
  }
  std::vector<size_t> order(stream->names.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (stream->skills[a] != stream->skills[b]) return stream->skills[a] > stream->skills[b];
    return stream->names[a] < stream->names[b];
  });
  google::protobuf::Struct truth;
  auto& f = *truth.mutable_fields();
  f["generator"] = StringValue(config.model);
  f["seed"] = NumberValue(static_cast<double>(config.seed));
  *f["params"].mutable_struct_value() = table.Values();
  f["results"] = NumberValue(static_cast<double>(stream->games.size()));
  f["agents"] = NumberValue(static_cast<double>(stream->names.size()));
  auto& ranking = *f["ranking"].mutable_list_value();
  auto& ratings = *f["ratings"].mutable_struct_value()->mutable_fields();
  for (size_t a : order) {
    ranking.add_values()->set_string_value(stream->names[a]);
    ratings[stream->names[a]] = NumberValue(stream->skills[a]);
  }
  ASSIGN_OR_RETURN(files.truth_json, DeterministicJson(truth));
  files.truth_json += "\n";
  return files;
}

}  // namespace ratingd
