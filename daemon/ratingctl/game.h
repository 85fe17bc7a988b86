// `ratingctl game` (docs/CONTRACTS.md §2.3): any small N-player normal-form game read from
// JSON, solved for a Nash equilibrium by annealed QRE ([RE] §3.2, Eq. 3-4) or for the
// maximum-entropy coarse correlated equilibrium ([RE] §3.2, Eq. 8), each player's target
// chosen by affinity entropy ([RE] §3.3) or uniform, and every action rated by its regret
// ([RE] §3).
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/struct.pb.h"

namespace ratingd {

struct GameConfig {
  std::string input = {};                // path of the game JSON
  std::string solver = {};               // ne | cce
  std::vector<std::string> params = {};  // "key=value", see game_params.h
};

// Reads config.input and solves it with config.solver and config.params (checked before the
// file is read). The input, parsed with protobuf's JSON parser into google.protobuf.Struct:
//   {"players": [{"name": "row", "actions": ["R", "P", "S"]}, ...],
//    "payoffs": [[...], ...]}
// one flat payoff array per player, row-major over the players' actions in order (the last
// player's action varies fastest).
//
// Errors, InvalidArgument naming the field after the file: "FILE: payoffs[0][3]: not
// finite" (also for the literals NaN and Infinity and for numbers beyond a double's range
// such as 1e999, which protobuf's parser rejects without naming the field), an unknown
// field, a missing or mistyped one, no players, an empty or duplicate name
// ("players[1].actions[2]: duplicate action 'R' (also players[1].actions[0])"), no actions,
// a payoff count or length that does not fit, a non-numeric payoff, more than
// kMaxJointActions joint actions; malformed JSON as "FILE:LINE:COLUMN: malformed JSON:
// <protobuf's reason>". Also: unknown solver or parameter; an unreadable file; a solve whose
// result is not finite (payoffs too large).
//
// The document (keys sorted when printed): solver, exploitability (the largest rating),
// steps, converged, params (every parameter with its effective value), players [{name,
// actions: [{action, probability, rating}]}] in the input's order, where probability is
// the player's strategy (ne) or marginal of the joint (cce) and rating its regret
// u_i(a, x_-i) - u_i(x); ne adds tau, loss and forced_decays, cce slackness.
absl::StatusOr<google::protobuf::Struct> RunGame(const GameConfig& config);

}  // namespace ratingd
