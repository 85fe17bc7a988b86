// `--param key=value` for the online models (docs/MODELS.md §2-4, docs/CONTRACTS.md §2): the
// one place that maps parameter names to PoolOptions fields, shared by ratingctl and ratingd.
// Parameters and defaults (the Options structs of ratings/ hold the defaults):
//   elo: k (32), initial (1500)
//   sco: alpha (0.1), tau (1), min (0), max (100)
//   ml:  target (1e-3), support_threshold (1e-3), max_iterations (1000000),
//        iterations_per_result (0), variant (prm+ | rm+ | rm), max_agents (4096)
//   glicko2: initial (1500), rd (350), volatility (0.06), tau (0.5), period (24h, a duration)
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "daemon/param_table.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/model.h"
#include "ratings/pool.h"

namespace ratingd {

// The parameter table of `model` over `options` (borrowed), in the order above.
ParamTable ModelParamTable(ratings::Model model, ratings::PoolOptions& options);

// Sets one parameter of `method` ("elo", "sco", "ml" or "glicko2") from "key=value".
// InvalidArgument naming the key and listing the known ones (none for a method that is not a
// model), or naming the value that does not parse. Options are validated later, by Pool::Create.
absl::Status ApplyModelParam(absl::string_view method, absl::string_view assignment,
                             ratings::PoolOptions& options);

// ratingd's --param MODEL.KEY=VALUE items, applied in order. InvalidArgument "--param 'ITEM':
// expected MODEL.KEY=VALUE, e.g. elo.k=24", or "--param: " and ApplyModelParam's message.
absl::Status ApplyScopedModelParams(const std::vector<std::string>& params,
                                    ratings::PoolOptions& options);

// ratingd's --models list ("elo,sco,ml,glicko2"): exactly those models on. InvalidArgument naming
// an unknown model, or an empty list.
absl::Status ApplyModelList(const std::string& list, ratings::PoolOptions& options);

// Glicko-2's parameters over `options` (borrowed): the glicko2 rows of ModelParamTable, for
// `ratingctl rate --method glicko2`, which keeps a Glicko2 of its own.
void AddGlicko2Params(ratings::Glicko2Options& options, ParamTable& table);

// The known parameter names of `method`, in the order above; empty if the method is unknown.
std::vector<std::string> ModelParamNames(absl::string_view method);

// The name of a regret-matching variant as ApplyModelParam accepts it.
absl::string_view VariantName(ratings::RegretVariant variant);

// Every parameter of `method` with its effective value, for reports (reproducibility);
// an empty Struct for a method other than elo, sco, ml and glicko2.
google::protobuf::Struct ModelParamsStruct(absl::string_view method,
                                           const ratings::PoolOptions& options);

}  // namespace ratingd
