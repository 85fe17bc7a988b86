#include "ratings/pool.h"

#include "ratings/status_macros.h"

namespace ratings {

absl::StatusOr<Pool> Pool::Create(const PoolOptions& options) {
  Pool pool(options);
  if (options.elo) {
    ASSIGN_OR_RETURN(Elo elo, Elo::Create(options.elo_options));
    pool.elo_.emplace(std::move(elo));
  }
  if (options.sco) {
    ASSIGN_OR_RETURN(Sco sco, Sco::Create(options.sco_options));
    pool.sco_.emplace(std::move(sco));
  }
  if (options.ml) {
    ASSIGN_OR_RETURN(MaximalLottery ml, MaximalLottery::Create(options.ml_options));
    pool.ml_.emplace(std::move(ml));
  }
  return pool;
}

absl::Status Pool::Apply(const Result& result) {
  RETURN_IF_ERROR(ValidateResult(result, options_.limits));
  ids_.clear();
  ranks_.clear();
  for (const Standing& s : result.standings) {
    ids_.push_back(index_.Intern(s.agent));
    ranks_.push_back(s.rank);
  }
  const size_t n = index_.size();
  const IndexedResult indexed{ids_, ranks_, result.weight};
  if (elo_) {
    elo_->Resize(n);
    elo_->Update(indexed);
  }
  if (sco_) {
    sco_->Resize(n);
    sco_->Update(indexed);
  }
  if (ml_) {
    ml_->Resize(n);
    ml_->Update(indexed);
    if (options_.ml_options.iterations_per_result > 0 && !ml_->refused()) {
      RETURN_IF_ERROR(ml_->Solve(options_.ml_options.iterations_per_result).status());
    }
  }
  ++results_;
  return absl::OkStatus();
}

}  // namespace ratings
