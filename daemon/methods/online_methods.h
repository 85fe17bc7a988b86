// The online models as methods of `ratingctl rate` (docs/MODELS.md §2-4): elo, sco and ml
// replayed in file order through ratings::Pool, as ratingd applies them, with ratingd's
// bootstrap replicas on request (--bootstrap-replicas, docs/MODELS.md §5.6).
#pragma once

#include <memory>

#include "daemon/methods/method_registry.h"
#include "ratings/model.h"
#include "ratings/pool.h"

namespace ratingd {

// A run of `model` alone, its parameters those of ModelParamTable (daemon/model_params.h).
// Check: Pool::Create's validation of the options. The report: PoolReport of the pool after
// every record (docs/CONTRACTS.md §2), extra.skipped_votes, and with
// config.bootstrap_replicas the uncertainty fields of AddUncertainty.
std::unique_ptr<MethodRun> MakeOnlineRun(ratings::Model model);

// The pool options a prepared run of an online method holds (suggest builds its pool from
// them); nullptr for a run of another family.
const ratings::PoolOptions* OnlineOptions(const MethodRun& run);

}  // namespace ratingd
