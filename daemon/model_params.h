// `--param key=value` for the online models (docs/MODELS.md §2-4, docs/CONTRACTS.md §2): the
// one place that maps parameter names to PoolOptions fields, shared by ratingctl and (later)
// ratingd.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/pool.h"

namespace ratingd {

// Sets one parameter of `method` ("elo", "sco" or "ml") from "key=value". InvalidArgument
// naming the key and listing the known ones, or naming the value that does not parse.
//   elo: k (32), initial (1500)
//   sco: alpha (0.1), tau (1), min (0), max (100)
//   ml:  target (1e-3), support_threshold (1e-3), max_iterations (1000000), iterations_per_result
//   (0),
//        variant (prm+ | rm+ | rm), max_agents (4096)
// Options are validated later, by Pool::Create.
absl::Status ApplyModelParam(absl::string_view method, absl::string_view assignment,
                             ratings::PoolOptions& options);

// The known parameter names of `method`, in the order above; empty if the method is unknown.
std::vector<std::string> ModelParamNames(absl::string_view method);

// The name of a regret-matching variant as ApplyModelParam accepts it.
absl::string_view VariantName(ratings::RegretVariant variant);

// Every parameter of `method` with its effective value, for reports (reproducibility);
// an empty Struct for a method other than elo, sco and ml.
google::protobuf::Struct ModelParamsStruct(absl::string_view method,
                                           const ratings::PoolOptions& options);

}  // namespace ratingd
