#include "daemon/ratingctl/predict.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/online_methods.h"
#include "daemon/methods/read_input.h"
#include "daemon/param_table.h"
#include "ratings/agent_index.h"
#include "ratings/elo.h"
#include "ratings/glicko2.h"
#include "ratings/sco.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

// Probabilities are kept this far from 0 and 1 in the log-loss, so that a certain
// prediction that fails costs a finite -ln(1e-15) ≈ 34.5.
constexpr double kClamp = 1e-15;

// One online model as a forecaster: its win probability for a pair, then the result.
class Forecaster {
 public:
  virtual ~Forecaster() = default;
  virtual void Resize(size_t agents) = 0;
  // P(a beats b) before the result at `time`.
  virtual double WinProbability(ratings::AgentId a, ratings::AgentId b,
                                std::optional<absl::Time> time) const = 0;
  virtual void Apply(const ratings::IndexedResult& result, std::optional<absl::Time> time) = 0;
};

// Elo's logistic on its own scale: 1/(1 + 10^((r_b − r_a)/400)) (MODELS.md §2).
class EloForecaster : public Forecaster {
 public:
  explicit EloForecaster(ratings::Elo elo) : elo_(std::move(elo)) {}
  void Resize(size_t agents) override { elo_.Resize(agents); }
  double WinProbability(ratings::AgentId a, ratings::AgentId b,
                        std::optional<absl::Time>) const override {
    return ratings::Elo::Expected(elo_.Rating(a), elo_.Rating(b));
  }
  void Apply(const ratings::IndexedResult& result, std::optional<absl::Time>) override {
    elo_.Update(result);
  }

 private:
  ratings::Elo elo_;
};

// SCO's own sigmoid, σ((θ_a − θ_b)/τ): one minus its loss for "a above b" ([SCO] Eq. 5).
class ScoForecaster : public Forecaster {
 public:
  explicit ScoForecaster(ratings::Sco sco) : sco_(std::move(sco)) {}
  void Resize(size_t agents) override { sco_.Resize(agents); }
  double WinProbability(ratings::AgentId a, ratings::AgentId b,
                        std::optional<absl::Time>) const override {
    return 1.0 / (1.0 + std::exp(-(sco_.Rating(a) - sco_.Rating(b)) / sco_.options().tau));
  }
  void Apply(const ratings::IndexedResult& result, std::optional<absl::Time>) override {
    sco_.Update(result);
  }

 private:
  ratings::Sco sco_;
};

// Glickman's expected score, both deviations grown to the result's time (MODELS.md §10).
class Glicko2Forecaster : public Forecaster {
 public:
  explicit Glicko2Forecaster(ratings::Glicko2 glicko2) : glicko2_(std::move(glicko2)) {}
  void Resize(size_t agents) override { glicko2_.Resize(agents); }
  double WinProbability(ratings::AgentId a, ratings::AgentId b,
                        std::optional<absl::Time> time) const override {
    return glicko2_.Expected(a, b, time);
  }
  void Apply(const ratings::IndexedResult& result, std::optional<absl::Time> time) override {
    glicko2_.Update(result, time);
  }

 private:
  ratings::Glicko2 glicko2_;
};

absl::StatusOr<std::unique_ptr<Forecaster>> MakeForecaster(const std::string& method,
                                                           std::vector<std::string> params) {
  ASSIGN_OR_RETURN(const std::unique_ptr<MethodRun> run,
                   PrepareMethod({.method = method, .params = std::move(params)}));
  const ratings::PoolOptions* pool = OnlineOptions(*run);
  if (pool != nullptr && pool->ml) {
    return absl::InvalidArgumentError(
        "eval --predict: ml gives a lottery, not a win probability for a pair; leave it out");
  }
  if (pool != nullptr && pool->glicko2) {
    ASSIGN_OR_RETURN(ratings::Glicko2 model, ratings::Glicko2::Create(pool->glicko2_options));
    return std::make_unique<Glicko2Forecaster>(std::move(model));
  }
  if (pool != nullptr && pool->elo) {
    ASSIGN_OR_RETURN(ratings::Elo model, ratings::Elo::Create(pool->elo_options));
    return std::make_unique<EloForecaster>(std::move(model));
  }
  if (pool != nullptr && pool->sco) {
    ASSIGN_OR_RETURN(ratings::Sco model, ratings::Sco::Create(pool->sco_options));
    return std::make_unique<ScoForecaster>(std::move(model));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "eval --predict: '", method, "' is not an online model; use elo, glicko2 or sco"));
}

// The sums of one stretch of scored pairs.
struct Score {
  double log_loss = 0;
  double accuracy = 0;
  int64_t pairs = 0;
  void Add(double p, double outcome) {
    const double q = std::clamp(p, kClamp, 1.0 - kClamp);
    log_loss -= outcome * std::log(q) + (1.0 - outcome) * std::log(1.0 - q);
    accuracy += (p == 0.5 || outcome == 0.5) ? 0.5 : ((p > 0.5) == (outcome == 1.0) ? 1.0 : 0.0);
    ++pairs;
  }
  void Add(const Score& other) {
    log_loss += other.log_loss;
    accuracy += other.accuracy;
    pairs += other.pairs;
  }
  Value Document() const {
    Value out;
    auto& f = *out.mutable_struct_value()->mutable_fields();
    f["log_loss"] = pairs > 0 ? NumberValue(log_loss / static_cast<double>(pairs)) : NullValue();
    f["accuracy"] = pairs > 0 ? NumberValue(accuracy / static_cast<double>(pairs)) : NullValue();
    f["n"] = NumberValue(static_cast<double>(pairs));
    return out;
  }
};

// The parameters of config.params scoped to `method` ("M:key=value").
absl::StatusOr<std::vector<std::string>> ParamsOf(const PredictConfig& config,
                                                  const std::string& method) {
  std::vector<std::string> out;
  for (const std::string& p : config.params) {
    const std::optional<ScopedParam> scoped = SplitScopedParam(p, ':');
    if (!scoped.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat("eval --predict: --param '", p,
                                                     "' names no method; write METHOD:key=value"));
    }
    if (std::find(config.methods.begin(), config.methods.end(), scoped->scope) ==
        config.methods.end()) {
      return absl::InvalidArgumentError(absl::StrCat("eval --predict: --param '", p, "' is for '",
                                                     scoped->scope, "', not one of --methods ",
                                                     absl::StrJoin(config.methods, ",")));
    }
    if (scoped->scope == method) out.push_back(scoped->assignment);
  }
  return out;
}

}  // namespace

absl::StatusOr<Struct> RunPredict(const PredictConfig& config) {
  if (config.methods.empty()) {
    return absl::InvalidArgumentError("eval --predict: --methods is required (elo,glicko2,sco)");
  }
  if (config.burn_in < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("eval --predict: --burn-in must be >= 0, got ", config.burn_in));
  }
  std::vector<std::unique_ptr<Forecaster>> models;
  for (const std::string& method : config.methods) {
    ASSIGN_OR_RETURN(std::vector<std::string> params, ParamsOf(config, method));
    ASSIGN_OR_RETURN(std::unique_ptr<Forecaster> model, MakeForecaster(method, std::move(params)));
    models.push_back(std::move(model));
  }
  ASSIGN_OR_RETURN(
      const PoolRecords input,
      ReadPoolRecords({.input = config.input, .format = config.format, .pool = config.pool}));
  ratings::AgentIndex index;
  std::vector<ratings::AgentId> ids;
  std::vector<uint32_t> ranks;
  // Per model, the sums of each scored result, in order.
  std::vector<std::vector<Score>> scored(models.size());
  for (size_t r = 0; r < input.records.size(); ++r) {
    const ratings::io::ResultRecord& record = input.records[r];
    ids.clear();
    ranks.clear();
    for (const ratings::Standing& s : record.result.standings) {
      ids.push_back(index.Intern(s.agent));
      ranks.push_back(s.rank);
    }
    const ratings::IndexedResult result{ids, ranks, record.result.weight};
    for (size_t m = 0; m < models.size(); ++m) {
      models[m]->Resize(index.size());
      if (static_cast<int64_t>(r) >= config.burn_in) {
        Score score;
        for (size_t i = 0; i < ids.size(); ++i) {
          for (size_t j = i + 1; j < ids.size(); ++j) {
            const double outcome = ranks[i] < ranks[j] ? 1.0 : ranks[i] == ranks[j] ? 0.5 : 0.0;
            score.Add(models[m]->WinProbability(ids[i], ids[j], record.event_time), outcome);
          }
        }
        scored[m].push_back(score);
      }
      models[m]->Apply(result, record.event_time);
    }
  }
  Struct doc;
  auto& methods = *(*doc.mutable_fields())["methods"].mutable_struct_value()->mutable_fields();
  for (size_t m = 0; m < models.size(); ++m) {
    const size_t n = scored[m].size();
    Score total;
    Value tenths;
    for (size_t j = 0; j < 10; ++j) {
      Score tenth;
      for (size_t k = j * n / 10; k < (j + 1) * n / 10; ++k) tenth.Add(scored[m][k]);
      total.Add(tenth);
      *tenths.mutable_list_value()->add_values() = tenth.Document();
    }
    Value entry = total.Document();
    (*entry.mutable_struct_value()->mutable_fields())["tenths"] = tenths;
    methods[config.methods[m]] = entry;
  }
  return doc;
}

}  // namespace ratingd
