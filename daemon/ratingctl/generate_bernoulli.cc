#include "daemon/ratingctl/generate_bernoulli.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/param_table.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "ratings/generators/pairwise_bernoulli.h"
#include "ratings/io/game_result_proto.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using google::protobuf::Struct;
using Outcome = ratings::PairwiseGame::Outcome;

absl::StatusOr<std::string> ResultLine(const GenerateConfig& config,
                                       const ratings::PairwiseBernoulli& generated, size_t i) {
  const ratings::PairwiseGame& game = generated.games[i];
  ratings::io::ResultRecord record;
  record.pool = config.pool;
  record.game_id = absl::StrCat(config.model, "-", i + 1);
  const uint32_t first_rank = game.outcome == Outcome::kSecondWins ? 2 : 1;
  const uint32_t second_rank = game.outcome == Outcome::kFirstWins ? 2 : 1;
  record.result.standings = {
      {.agent = generated.names[game.first], .rank = first_rank, .score = std::nullopt},
      {.agent = generated.names[game.second], .rank = second_rank, .score = std::nullopt}};
  return ResultJsonLine(record);
}

// One entry of the truth's "pairs": the pair, its probability and the outcomes drawn.
google::protobuf::Value PairCounts(const ratings::BernoulliPair& pair,
                                   const ratings::PairwiseBernoulli& generated) {
  int64_t counts[3] = {0, 0, 0};  // first wins, second wins, draws
  for (const ratings::PairwiseGame& game : generated.games) {
    if (generated.names[game.first] == pair.first && generated.names[game.second] == pair.second) {
      ++counts[static_cast<int>(game.outcome)];
    }
  }
  google::protobuf::Value out;
  auto& p = *out.mutable_struct_value()->mutable_fields();
  p["first"] = StringValue(pair.first);
  p["second"] = StringValue(pair.second);
  p["p"] = NumberValue(pair.p);
  p["first_wins"] = NumberValue(static_cast<double>(counts[0]));
  p["second_wins"] = NumberValue(static_cast<double>(counts[1]));
  p["draws"] = NumberValue(static_cast<double>(counts[2]));
  return out;
}

}  // namespace

absl::StatusOr<GeneratedFiles> GenerateBernoulli(const GenerateConfig& config) {
  ratings::PairwiseBernoulliOptions o;
  std::string pairs_text;
  ParamTable table(config.model);
  table
      .Add(
          "pairs",
          [&](absl::string_view v) -> absl::Status {
            absl::StatusOr<std::vector<ratings::BernoulliPair>> pairs =
                ratings::ParseBernoulliPairs(v);
            if (!pairs.ok()) return pairs.status();
            o.pairs = *std::move(pairs);
            pairs_text = std::string(v);
            return absl::OkStatus();
          },
          [&] { return pairs_text.empty() ? NullValue() : StringValue(pairs_text); })
      .Add("games", &o.games)
      .Add("tie", &o.tie);
  RETURN_IF_ERROR(table.Apply(config.params));
  if (o.pairs.empty()) {
    return absl::InvalidArgumentError(
        "--param pairs (bernoulli): required, e.g. --param pairs=A>B:0.75,B>C:0.51");
  }
  o.seed = config.seed;
  absl::StatusOr<ratings::PairwiseBernoulli> generated = ratings::GeneratePairwiseBernoulli(o);
  if (!generated.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--param ", generated.status().message(), " (", config.model, ")"));
  }
  GeneratedFiles files;
  for (size_t i = 0; i < generated->games.size(); ++i) {
    ASSIGN_OR_RETURN(const std::string line, ResultLine(config, *generated, i));
    files.jsonl += line;
  }
  Struct truth;
  auto& f = *truth.mutable_fields();
  f["generator"] = StringValue(config.model);
  f["seed"] = NumberValue(static_cast<double>(config.seed));
  *f["params"].mutable_struct_value() = table.Values();
  f["results"] = NumberValue(static_cast<double>(generated->games.size()));
  f["agents"] = NumberValue(static_cast<double>(generated->names.size()));
  auto& pairs = *f["pairs"].mutable_list_value();
  for (const ratings::BernoulliPair& pair : o.pairs) {
    *pairs.add_values() = PairCounts(pair, *generated);
  }
  ASSIGN_OR_RETURN(files.truth_json, DeterministicJson(truth));
  files.truth_json += "\n";
  return files;
}

}  // namespace ratingd
