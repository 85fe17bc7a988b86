#include "daemon/ratingctl/suggest.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "daemon/methods/method_registry.h"
#include "daemon/methods/online_methods.h"
#include "daemon/methods/read_input.h"
#include "ratings/model.h"
#include "ratings/pool.h"
#include "ratings/status_macros.h"

namespace ratingd {

absl::StatusOr<google::protobuf::Struct> RunSuggest(const SuggestConfig& config) {
  RETURN_IF_ERROR(ratings::active::CheckExploration(config.request.exploration));
  // The daemon's pool keeps every model; the suggestions read only the game counts and the
  // ml lottery, which do not depend on the other models.
  // --param sets the ml method's parameters, as `rate --method ml` takes them.
  RateConfig ml;
  ml.method = std::string(ratings::ModelName(ratings::Model::kMl));
  ml.params = config.params;
  ASSIGN_OR_RETURN(const std::unique_ptr<MethodRun> run, PrepareMethod(ml));
  ASSIGN_OR_RETURN(ratings::Pool pool, ratings::Pool::Create(*OnlineOptions(*run)));

  RateConfig read;
  read.input = config.input;
  read.format = config.format;
  read.pool = config.pool;
  ASSIGN_OR_RETURN(const PoolRecords input, ReadPoolRecords(read));
  std::string name = config.pool;
  if (name.empty() && !input.records.empty()) name = input.records.front().pool;
  for (const ratings::io::ResultRecord& record : input.records) {
    if (absl::Status applied = pool.Apply(record.result); !applied.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(config.input, ":", record.line, ": ", applied.message()));
    }
  }
  return SuggestForPool(name, pool, config.request);
}

}  // namespace ratingd
