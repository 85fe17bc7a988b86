// Glicko-2 as a method of `ratingctl rate` (docs/MODELS.md §10, docs/CONTRACTS.md §2.2): the
// results replayed in file order through ratings::Glicko2, each at its event time.
#pragma once

#include <memory>

#include "daemon/methods/method_registry.h"
#include "ratings/glicko2.h"

namespace ratingd {

// Parameters initial, rd, volatility, tau and period (a duration: "24h", "90m", "0").
// Entries: rating, rd, volatility, last_played, ci_low/ci_high = rating ± 1.96·rd, the rank
// interval of those intervals, games (results the agent is in) and provisional (rd >
// config.provisional_rd or games < config.provisional_games); extra.latest_event_time.
std::unique_ptr<MethodRun> MakeGlicko2Run();

// The model options a prepared run of glicko2 holds (`eval --predict` builds its model from
// them); nullptr for a run of another method.
const ratings::Glicko2Options* Glicko2RunOptions(const MethodRun& run);

}  // namespace ratingd
