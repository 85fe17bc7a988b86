#include "daemon/ratingctl/generate.h"

#include <algorithm>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "daemon/deterministic_json.h"
#include "daemon/param_table.h"
#include "daemon/ratingctl/generate_bernoulli.h"
#include "daemon/ratingctl/generate_drift.h"
#include "daemon/ratingctl/generate_games.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "ratings/generators/generated_profile.h"
#include "ratings/io/game_result_proto.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

// Takes "matching=..." out of the params (the one non-numeric parameter).
absl::StatusOr<ratings::Matching> TakeMatching(std::vector<std::string>& params) {
  ratings::Matching matching = ratings::Matching::kUniform;
  for (auto it = params.begin(); it != params.end();) {
    absl::string_view value = *it;
    if (!absl::ConsumePrefix(&value, "matching=")) {
      ++it;
      continue;
    }
    if (value == "uniform") {
      matching = ratings::Matching::kUniform;
    } else if (value == "skill") {
      matching = ratings::Matching::kSkill;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("--param matching (tournament): '", value, "' is not uniform or skill"));
    }
    it = params.erase(it);
  }
  return matching;
}

absl::Status WriteFile(const std::string& path, const std::string& content) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return absl::PermissionDeniedError(absl::StrCat(path, ": cannot open for writing"));
  file << content;
  file.close();
  if (!file) return absl::DataLossError(absl::StrCat(path, ": write failed"));
  return absl::OkStatus();
}

}  // namespace

std::vector<std::string> GeneratorNames() {
  return {"mallows",    "plackett-luce",    "clones",    "cycle",
          "tournament", "king-of-the-hill", "bernoulli", "drift"};
}

std::string TruthPath(const std::string& output) {
  const size_t slash = output.find_last_of('/');
  const size_t dot = output.find_last_of('.');
  const bool has_extension =
      dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return absl::StrCat(has_extension ? output.substr(0, dot) : output, ".truth.json");
}

absl::StatusOr<std::string> ResultJsonLine(const ratings::io::ResultRecord& record) {
  std::string line;
  const google::protobuf::util::JsonPrintOptions json;  // camelCase, as producers write
  if (auto s =
          google::protobuf::util::MessageToJsonString(ratings::io::ToProto(record), &line, json);
      !s.ok()) {
    return absl::InternalError(absl::StrCat("cannot print a result: ", s.ToString()));
  }
  return absl::StrCat(line, "\n");
}

namespace {

// The profile's results as GameResult JSON lines (camelCase names, as producers write),
// one game id per result and, for task rankings, one task each.
absl::StatusOr<std::string> ProfileJsonl(const ratings::GeneratedProfile& profile,
                                         const GenerateConfig& config, bool task_rankings) {
  std::string jsonl;
  for (size_t i = 0; i < profile.orders.size(); ++i) {
    ratings::io::ResultRecord record;
    record.pool = config.pool;
    record.game_id = absl::StrCat(config.model, "-", i + 1);
    if (task_rankings) record.task = absl::StrCat("task-", i + 1);
    for (size_t place = 0; place < profile.orders[i].size(); ++place) {
      record.result.standings.push_back({.agent = profile.names[profile.orders[i][place]],
                                         .rank = static_cast<uint32_t>(place + 1),
                                         .score = std::nullopt});
    }
    ASSIGN_OR_RETURN(const std::string line, ResultJsonLine(record));
    jsonl += line;
  }
  return jsonl;
}

// The truth file's document: generator, seed, params (`params`, with the tournament's
// matching), counts, the true ranking and, where the model has them, true ratings.
google::protobuf::Struct TruthDocument(const ratings::GeneratedProfile& profile,
                                       const GenerateConfig& config,
                                       const google::protobuf::Struct& params,
                                       const ratings::TournamentOptions& tournament) {
  google::protobuf::Struct truth;
  auto& f = *truth.mutable_fields();
  f["generator"].set_string_value(config.model);
  f["seed"].set_number_value(static_cast<double>(config.seed));
  *f["params"].mutable_struct_value() = params;
  if (config.model == "tournament") {
    (*f["params"].mutable_struct_value()->mutable_fields())["matching"].set_string_value(
        tournament.matching == ratings::Matching::kSkill ? "skill" : "uniform");
  }
  f["results"].set_number_value(static_cast<double>(profile.orders.size()));
  f["agents"].set_number_value(static_cast<double>(profile.names.size()));
  auto& ranking = *f["ranking"].mutable_list_value();
  for (ratings::AgentId a : profile.truth) ranking.add_values()->set_string_value(profile.names[a]);
  if (!profile.truth_ratings.empty()) {
    auto& r = *f["ratings"].mutable_struct_value()->mutable_fields();
    for (size_t a = 0; a < profile.names.size(); ++a) {
      r[profile.names[a]].set_number_value(profile.truth_ratings[a]);
    }
  }
  return truth;
}

}  // namespace

absl::StatusOr<GeneratedFiles> Generate(const GenerateConfig& config) {
  if (config.model == "king-of-the-hill") return GenerateKingOfTheHill(config);
  if (config.model == "bernoulli") return GenerateBernoulli(config);
  if (config.model == "drift") return GenerateDriftFiles(config);
  std::vector<std::string> params = config.params;
  ratings::MallowsOptions mallows;
  ratings::PlackettLuceOptions pl;
  ratings::ClonesOptions clones;
  ratings::CycleOptions cycle;
  ratings::TournamentOptions tournament;
  ParamTable table(config.model);
  bool task_rankings = true;
  if (config.model == "mallows") {
    table.Add("agents", &mallows.agents)
        .Add("tasks", &mallows.tasks)
        .Add("dispersion", &mallows.dispersion);
  } else if (config.model == "plackett-luce") {
    table.Add("agents", &pl.agents)
        .Add("tasks", &pl.tasks)
        .Add("tau", &pl.tau)
        .Add("max_rating", &pl.max_rating);
  } else if (config.model == "clones") {
    table.Add("agents", &clones.base.agents)
        .Add("tasks", &clones.base.tasks)
        .Add("dispersion", &clones.base.dispersion)
        .Add("clones", &clones.clones);
  } else if (config.model == "cycle") {
    table.Add("agents", &cycle.agents).Add("tasks", &cycle.tasks);
  } else if (config.model == "tournament") {
    task_rankings = false;
    ASSIGN_OR_RETURN(tournament.matching, TakeMatching(params));
    table.Add("agents", &tournament.agents)
        .Add("players", &tournament.players)
        .Add("contests", &tournament.contests)
        .Add("skill_mean", &tournament.skill_mean)
        .Add("skill_std", &tournament.skill_std)
        .Add("noise_std", &tournament.noise_std)
        .Add("candidates", &tournament.candidates);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--model: unknown generator '", config.model,
                     "'; known: ", absl::StrJoin(GeneratorNames(), ", ")));
  }
  RETURN_IF_ERROR(table.Apply(params));
  mallows.seed = pl.seed = clones.base.seed = tournament.seed = config.seed;

  absl::StatusOr<ratings::GeneratedProfile> generated;
  if (config.model == "mallows") generated = ratings::GenerateMallows(mallows);
  if (config.model == "plackett-luce") generated = ratings::GeneratePlackettLuce(pl);
  if (config.model == "clones") generated = ratings::GenerateClones(clones);
  if (config.model == "cycle") generated = ratings::GenerateCycle(cycle);
  if (config.model == "tournament") generated = ratings::GenerateTournament(tournament);
  if (!generated.ok()) return generated.status();
  const ratings::GeneratedProfile& profile = *generated;
  GeneratedFiles files;
  ASSIGN_OR_RETURN(files.jsonl, ProfileJsonl(profile, config, task_rankings));
  ASSIGN_OR_RETURN(files.truth_json,
                   DeterministicJson(TruthDocument(profile, config, table.Values(), tournament)));
  files.truth_json += "\n";
  return files;
}

absl::Status RunGenerate(const GenerateConfig& config) {
  if (config.output.empty()) return absl::InvalidArgumentError("generate: --output is required");
  ASSIGN_OR_RETURN(const GeneratedFiles files, Generate(config));
  RETURN_IF_ERROR(WriteFile(config.output, files.jsonl));
  return WriteFile(TruthPath(config.output), files.truth_json);
}

}  // namespace ratingd
