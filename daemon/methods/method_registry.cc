#include "daemon/methods/method_registry.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/batch_methods.h"
#include "daemon/methods/game_methods.h"
#include "daemon/methods/online_methods.h"
#include "daemon/methods/voting_methods.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using google::protobuf::Value;

constexpr MethodFamily kOnline = MethodFamily::kOnline;
constexpr MethodFamily kBatch = MethodFamily::kBatch;
constexpr MethodFamily kVoting = MethodFamily::kVoting;

// The table. Its order is the order of --help and of the unknown-method error.
const MethodInfo kMethods[] = {
    {"elo", kOnline, MethodInput::kResults, [] { return MakeOnlineRun(ratings::Model::kElo); },
     /*replicas=*/true},
    {"sco", kOnline, MethodInput::kResults, [] { return MakeOnlineRun(ratings::Model::kSco); },
     /*replicas=*/true},
    {"ml", kOnline, MethodInput::kResults, [] { return MakeOnlineRun(ratings::Model::kMl); },
     /*replicas=*/true},
    {"glicko2", kOnline, MethodInput::kResults,
     [] { return MakeOnlineRun(ratings::Model::kGlicko2); }},
    {"elo-bt", kBatch, MethodInput::kVotes, MakeEloBtRun},
    {"sco-batch", kBatch, MethodInput::kVotes, MakeScoBatchRun},
    {"sco-fy", kBatch, MethodInput::kVotes, MakeScoFyRun},
    {"ml-exact", kVoting, MethodInput::kVotes, MakeMlExactRun},
    {"iml", kVoting, MethodInput::kVotes, MakeImlRun},
    {"approval", kVoting, MethodInput::kVotes, MakeApprovalRun},
    {"plurality", kVoting, MethodInput::kVotes, MakePluralityRun},
    {"borda", kVoting, MethodInput::kVotes, MakeBordaRun},
    {"stv", kVoting, MethodInput::kVotes, MakeStvRun},
    {"copeland", kVoting, MethodInput::kVotes, MakeCopelandRun},
    {"kemeny", kVoting, MethodInput::kVotes, MakeKemenyRun},
    {"ranked-pairs", kVoting, MethodInput::kVotes, MakeRankedPairsRun},
    {"schulze", kVoting, MethodInput::kVotes, MakeSchulzeRun},
    {"nash-avg", MethodFamily::kNash, MethodInput::kScores, MakeNashAvgRun},
    {"gt-ne", MethodFamily::kGame, MethodInput::kBattles, MakeGtNeRun},
    {"gt-cce", MethodFamily::kGame, MethodInput::kBattles, MakeGtCceRun},
};

Value Bound(const std::optional<double>& bound) {
  return bound.has_value() ? NumberValue(*bound) : NullValue();
}

Value ParamDocument(const ParamSpec& spec) {
  Value out;
  auto& f = *out.mutable_struct_value()->mutable_fields();
  f["name"] = StringValue(spec.name);
  f["type"] = StringValue(std::string(ParamTypeName(spec.type)));
  f["default"] = StringValue(spec.default_value);
  f["min"] = Bound(spec.min);
  f["max"] = Bound(spec.max);
  f["min_exclusive"] = BoolValue(spec.min_exclusive);
  f["max_exclusive"] = BoolValue(spec.max_exclusive);
  f["help"] = StringValue(spec.help);
  return out;
}

// "name (default)" items of one method, joined and wrapped under a "  method: " label.
std::string HelpBlock(const MethodInfo& method) {
  const std::vector<ParamSpec> specs = method.make()->params().Specs();
  const std::string label = absl::StrCat("  ", method.name, ": ");
  std::string out = label;
  size_t column = label.size();
  if (specs.empty()) return absl::StrCat(out, "none\n");
  for (size_t i = 0; i < specs.size(); ++i) {
    std::string item = absl::StrCat(specs[i].name, " (", specs[i].default_value, ")",
                                    i + 1 < specs.size() ? "," : "");
    if (column > label.size() && column + 1 + item.size() > 92) {
      absl::StrAppend(&out, "\n", std::string(label.size(), ' '));
      column = label.size();
    } else if (column > label.size()) {
      out += ' ';
      ++column;
    }
    absl::StrAppend(&out, item);
    column += item.size();
  }
  return absl::StrCat(out, "\n");
}

}  // namespace

absl::string_view FamilyName(MethodFamily family) {
  switch (family) {
    case MethodFamily::kOnline:
      return "online";
    case MethodFamily::kBatch:
      return "batch";
    case MethodFamily::kVoting:
      return "voting";
    case MethodFamily::kNash:
      return "nash";
    case MethodFamily::kGame:
      return "game";
  }
  return "?";
}

absl::string_view InputName(MethodInput input) {
  switch (input) {
    case MethodInput::kResults:
      return "results";
    case MethodInput::kVotes:
      return "votes";
    case MethodInput::kScores:
      return "scores";
    case MethodInput::kBattles:
      return "battles";
  }
  return "?";
}

absl::StatusOr<v1::RatingReport> MethodRun::RateVotes(const RateConfig& config,
                                                      const ratings::AgentIndex&,
                                                      const ratings::VoteSet&, int64_t) const {
  return absl::InternalError(absl::StrCat("--method '", config.method, "' does not rate votes"));
}

void MethodRun::AddCommonExtra(const RateConfig& config, int64_t skipped_votes,
                               v1::RatingReport& report) const {
  auto& extra = *report.mutable_extra()->mutable_fields();
  *extra["params"].mutable_struct_value() = params_.Values();
  extra["seed"] = NumberValue(static_cast<double>(config.seed));
  extra["skipped_votes"] = NumberValue(static_cast<double>(skipped_votes));
}

absl::Span<const MethodInfo> Methods() { return kMethods; }

std::vector<std::string> MethodNames() {
  std::vector<std::string> names;
  for (const MethodInfo& m : kMethods) names.emplace_back(m.name);
  return names;
}

absl::StatusOr<const MethodInfo*> FindMethod(absl::string_view name) {
  for (const MethodInfo& m : kMethods) {
    if (m.name == name) return &m;
  }
  return absl::InvalidArgumentError(absl::StrCat("--method: unknown method '", name,
                                                 "'; known: ", absl::StrJoin(MethodNames(), ", ")));
}

absl::StatusOr<std::unique_ptr<MethodRun>> PrepareMethod(const RateConfig& config) {
  ASSIGN_OR_RETURN(const MethodInfo* method, FindMethod(config.method));
  std::unique_ptr<MethodRun> run = method->make();
  RETURN_IF_ERROR(run->params().Apply(config.params));
  RETURN_IF_ERROR(run->Check());
  return run;
}

google::protobuf::ListValue MethodsDocument() {
  google::protobuf::ListValue out;
  for (const MethodInfo& m : kMethods) {
    auto& f = *out.add_values()->mutable_struct_value()->mutable_fields();
    f["name"] = StringValue(std::string(m.name));
    f["family"] = StringValue(std::string(FamilyName(m.family)));
    f["input"] = StringValue(std::string(InputName(m.input)));
    auto& params = *f["params"].mutable_list_value();
    for (const ParamSpec& spec : m.make()->params().Specs()) {
      *params.add_values() = ParamDocument(spec);
    }
  }
  return out;
}

std::string MethodsHelp() {
  std::string out;
  for (const MethodInfo& m : kMethods) out += HelpBlock(m);
  return out;
}

}  // namespace ratingd
