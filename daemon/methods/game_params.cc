#include "daemon/methods/game_params.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"

namespace ratingd {
namespace {

// A number in the open interval (low, high), or (low, high] when `closed_high`.
ParamTable& AddInRange(ParamTable& table, absl::string_view key, double* field, double low,
                       double high, bool closed_high = false) {
  return table
      .Add(
          key,
          [=](absl::string_view v) {
            double parsed = 0;
            const bool ok = absl::SimpleAtod(v, &parsed) && std::isfinite(parsed) && parsed > low &&
                            (closed_high ? parsed <= high : parsed < high);
            if (!ok) {
              return absl::InvalidArgumentError(absl::StrCat("'", v, "' is not a number in (", low,
                                                             ", ", high, closed_high ? "]" : ")"));
            }
            *field = parsed;
            return absl::OkStatus();
          },
          [field] { return NumberValue(*field); })
      .Type(ParamType::kNumber)
      .Bounds(low, std::isfinite(high) ? std::optional<double>(high) : std::nullopt,
              /*min_exclusive=*/true, /*max_exclusive=*/!closed_high);
}

ParamTable& AddPositive(ParamTable& table, absl::string_view key, double* field) {
  return AddInRange(table, key, field, 0, HUGE_VAL);
}

ParamTable& AddCount(ParamTable& table, absl::string_view key, int64_t* field) {
  return table
      .Add(
          key,
          [field](absl::string_view v) {
            int64_t parsed = 0;
            if (!absl::SimpleAtoi(v, &parsed) || parsed < 1) {
              return absl::InvalidArgumentError(
                  absl::StrCat("'", v, "' is not a positive integer"));
            }
            *field = parsed;
            return absl::OkStatus();
          },
          [field] { return NumberValue(static_cast<double>(*field)); })
      .Type(ParamType::kInteger)
      .Bounds(1, std::nullopt);
}

}  // namespace

ParamTable GameSolverParamTable(std::string method, bool nash, GameSolverParams& p) {
  using ratings::games::Selection;
  ParamTable table(std::move(method));
  Selection* selection = &p.targets.selection;
  table
      .Add(
          "selection",
          [selection](absl::string_view v) {
            if (v == "affinity") {
              *selection = Selection::kAffinity;
            } else if (v == "shannon") {
              *selection = Selection::kShannon;
            } else {
              return absl::InvalidArgumentError(
                  absl::StrCat("'", v, "' is not affinity or shannon"));
            }
            return absl::OkStatus();
          },
          [selection] {
            return StringValue(*selection == Selection::kAffinity ? "affinity" : "shannon");
          })
      .Help("equilibrium selection: affinity (the paper's affinity entropy) or shannon");
  AddPositive(table, "kernel_variance", &p.targets.kernel_variance)
      .Help("variance of the affinity kernel between actions' payoff vectors");
  AddInRange(table, "p", &p.targets.p, 0, 1, /*closed_high=*/true)
      .Help("order of the affinity entropy");
  double* epsilon = nash ? &p.anneal.epsilon : &p.cce.epsilon;
  double* learning_rate = nash ? &p.anneal.learning_rate : &p.cce.learning_rate;
  int64_t* max_steps = nash ? &p.anneal.max_steps : &p.cce.max_steps;
  AddPositive(table, "epsilon", epsilon).Help("target exploitability of the solution");
  AddPositive(table, "learning_rate", learning_rate).Help("step size of the gradient steps");
  AddCount(table, "max_steps", max_steps).Help("cap on gradient steps");
  if (nash) {
    AddPositive(table, "tau0", &p.anneal.tau0).Help("initial temperature of the QRE");
    AddInRange(table, "decay", &p.anneal.decay, 0, 1).Help("factor of each temperature decay");
    AddCount(table, "steps_per_decay", &p.anneal.steps_per_decay)
        .Help("steps between temperature decays");
    AddPositive(table, "anneal_threshold", &p.anneal.anneal_threshold)
        .Help("decay the temperature once the QRE loss is below this");
    AddPositive(table, "tau_min", &p.anneal.tau_min).Help("lowest temperature");
    AddCount(table, "patience", &p.anneal.patience)
        .Help("decays without progress before a forced decay");
    table.Add("threads", &p.anneal.threads, 1, 64).Help("threads of the gradient");
  } else {
    AddPositive(table, "slackness", &p.cce.slackness)
        .Help("target slackness of the CCE constraints");
    AddPositive(table, "initial_dual", &p.cce.initial_dual)
        .Help("initial value of the dual variables");
    AddInRange(table, "beta2", &p.cce.beta2, 0, 1)
        .Help("Adam's decay of its average of squared gradients");
    table.Add("threads", &p.cce.threads, 1, 64).Help("threads of the gradient");
  }
  return table;
}

GameSolution SolveGame(const ratings::games::NormalFormGame& game, bool nash,
                       const GameSolverParams& p) {
  namespace games = ratings::games;
  const games::Profile targets = games::Targets(game, p.targets);
  if (nash) {
    games::NashResult r = games::SolveAnnealedQre(game, targets, p.anneal);
    return {std::move(r.strategies),
            std::move(r.ratings),
            r.exploitability,
            r.steps,
            r.converged,
            {{"tau", r.tau},
             {"loss", r.loss},
             {"forced_decays", static_cast<double>(r.forced_decays)}}};
  }
  games::CceResult r = games::SolveMaxEntropyCce(game, targets, p.cce);
  return {std::move(r.marginals),      std::move(r.ratings), r.exploitability, r.steps, r.converged,
          {{"slackness", r.slackness}}};
}

}  // namespace ratingd
