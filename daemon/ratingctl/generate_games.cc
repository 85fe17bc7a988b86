#include "daemon/ratingctl/generate_games.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/param_table.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/games/skill_game.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using google::protobuf::Struct;

// Sampled battles carry no score, as arena data do: the winner is the judgement.
absl::StatusOr<std::string> BattleLine(const ratings::games::Judgement& j, bool with_score) {
  Struct line;
  auto& f = *line.mutable_fields();
  f["question_id"] = StringValue(j.prompt);
  f["model_a"] = StringValue(j.model_a);
  f["model_b"] = StringValue(j.model_b);
  f["winner"] = StringValue(j.value > 0 ? "model_a" : j.value < 0 ? "model_b" : "tie");
  if (with_score) f["score"] = NumberValue(j.value);
  ASSIGN_OR_RETURN(std::string json, DeterministicJson(line));
  return absl::StrCat(json, "\n");
}

// The truth: mean p·(m_a - m_b) of each model against all models over the original prompts.
std::vector<double> MeanAdvantages(const ratings::games::SkillGame& game) {
  const size_t models = game.model_skills.size();
  std::vector<double> mean(models, 0.0);
  for (const Eigen::VectorXd& p : game.prompt_skills) {
    for (size_t a = 0; a < models; ++a) {
      for (size_t b = 0; b < models; ++b) {
        mean[a] += p.dot(game.model_skills[a] - game.model_skills[b]);
      }
    }
  }
  for (double& m : mean) m /= static_cast<double>(game.prompt_skills.size() * models);
  return mean;
}

}  // namespace

absl::StatusOr<GeneratedFiles> GenerateKingOfTheHill(const GenerateConfig& config) {
  ratings::games::SkillGameOptions o;
  ParamTable table(config.model);
  table.Add("prompts", &o.prompts)
      .Add("models", &o.models)
      .Add("skills", &o.skills)
      .Add("copies", &o.copies)
      .Add("lambda", &o.lambda)
      .Add(
          "target",
          [&o](absl::string_view v) {
            o.target = std::string(v);
            return absl::OkStatus();
          },
          [&o] { return StringValue(o.target); })
      .Add("noise", &o.noise)
      .Add("sampled", &o.sampled)
      .Add("ties", &o.ties);
  RETURN_IF_ERROR(table.Apply(config.params));
  o.seed = config.seed;
  absl::StatusOr<ratings::games::SkillGame> game = ratings::games::GenerateSkillGame(o);
  if (!game.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--param ", game.status().message(), " (", config.model, ")"));
  }
  GeneratedFiles files;
  for (const ratings::games::Judgement& j : game->judgements) {
    ASSIGN_OR_RETURN(const std::string line, BattleLine(j, o.sampled == 0));
    files.jsonl += line;
  }
  const size_t models = game->model_skills.size();
  const std::vector<double> mean = MeanAdvantages(*game);
  std::vector<size_t> order(models);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return mean[a] > mean[b]; });
  Struct truth;
  auto& f = *truth.mutable_fields();
  f["generator"] = StringValue(config.model);
  f["seed"] = NumberValue(static_cast<double>(config.seed));
  *f["params"].mutable_struct_value() = table.Values();
  f["results"] = NumberValue(static_cast<double>(game->judgements.size()));
  f["agents"] = NumberValue(static_cast<double>(models));
  f["target"] = game->target.empty() ? NullValue() : StringValue(game->target);
  auto& ranking = *f["ranking"].mutable_list_value();
  auto& ratings = *f["ratings"].mutable_struct_value()->mutable_fields();
  for (size_t m : order) {
    const std::string name = absl::StrCat("m", m + 1);
    ranking.add_values()->set_string_value(name);
    ratings[name] = NumberValue(mean[m]);
  }
  ASSIGN_OR_RETURN(files.truth_json, DeterministicJson(truth));
  files.truth_json += "\n";
  return files;
}

}  // namespace ratingd
