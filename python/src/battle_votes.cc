// rate() on a battles DataFrame for the methods that rate votes (batch fits and voting
// rules): the battles go straight from their codes into a VoteSet, without a ResultRecord
// per battle. The set is the one ToVoteSet builds from the same battles read as records
// (ratings/io/records_to_votes.h): agents interned in battle order, model_a before model_b;
// so the report is the same. The Python side (ratingd/_rate.py) takes this path only for
// battles the battles reader would accept; any other frame goes through the records.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/methods/method_registry.h"
#include "python/src/records.h"
#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"
#include "ratings/status_macros.h"

namespace ratingd::python {
namespace {

// outcome[i]: 0 model_a won, 1 model_b won, 2 a tie.
enum Outcome : int8_t { kFirstWins = 0, kSecondWins = 1, kTie = 2 };

// The votes of n battles: vote i ranks a[i] and b[i] as its outcome says.
absl::StatusOr<ratings::VoteSet> BattleVotes(size_t agents, Column<int64_t> a, Column<int64_t> b,
                                             Column<int8_t> outcome) {
  const size_t n = a.shape(0);
  ratings::VoteSet::Arrays arrays;
  arrays.offsets.resize(n + 1);
  arrays.agents.resize(2 * n);
  arrays.ranks.resize(2 * n);
  bool best_first = true;  // no vote ranks its second agent first
  for (size_t i = 0; i < n; ++i) {
    if (a(i) < 0 || b(i) < 0 || static_cast<size_t>(a(i)) >= agents ||
        static_cast<size_t>(b(i)) >= agents || a(i) == b(i) || outcome(i) < kFirstWins ||
        outcome(i) > kTie) {
      return absl::InternalError(absl::StrCat("battle #", i, ": codes out of range"));
    }
    arrays.offsets[i] = 2 * i;
    arrays.agents[2 * i] = static_cast<ratings::AgentId>(a(i));
    arrays.agents[2 * i + 1] = static_cast<ratings::AgentId>(b(i));
    arrays.ranks[2 * i] = outcome(i) == kSecondWins ? 2 : 1;
    arrays.ranks[2 * i + 1] = outcome(i) == kFirstWins ? 2 : 1;
    best_first = best_first && outcome(i) != kSecondWins;
  }
  arrays.offsets[n] = 2 * n;
  if (!best_first) {  // then every vote's best-first view, with dense ranks
    arrays.best_first_agents.resize(2 * n);
    arrays.dense_ranks.resize(2 * n);
    for (size_t i = 0; i < n; ++i) {
      const bool swap = outcome(i) == kSecondWins;
      arrays.best_first_agents[2 * i] = arrays.agents[2 * i + (swap ? 1 : 0)];
      arrays.best_first_agents[2 * i + 1] = arrays.agents[2 * i + (swap ? 0 : 1)];
      arrays.dense_ranks[2 * i] = 1;
      arrays.dense_ranks[2 * i + 1] = outcome(i) == kTie ? 1 : 2;
    }
  }
  return ratings::VoteSet::FromArrays(std::move(arrays), agents);
}

// names: the agents in id order (each code's name); a, b, outcome as BattleVotes takes them.
std::string RateBattleVotes(const std::vector<std::string>& names, Column<int64_t> a,
                            Column<int64_t> b, Column<int8_t> outcome, const std::string& method,
                            std::vector<std::string> params, uint64_t seed) {
  if (b.shape(0) != a.shape(0) || outcome.shape(0) != a.shape(0)) {
    throw nb::value_error("internal: battle columns of different lengths");
  }
  RateConfig config;
  config.method = method;
  config.params = std::move(params);
  config.seed = seed;
  config.input = "DataFrame";
  absl::StatusOr<v1::RatingReport> report;
  {
    nb::gil_scoped_release release;
    report = [&]() -> absl::StatusOr<v1::RatingReport> {
      ASSIGN_OR_RETURN(const MethodInfo* info, FindMethod(method));
      if (info->input != MethodInput::kVotes) {
        return absl::InternalError(absl::StrCat(method, " does not rate votes"));
      }
      ASSIGN_OR_RETURN(const std::unique_ptr<MethodRun> run, PrepareMethod(config));
      ratings::AgentIndex index;
      index.Reserve(names.size());
      for (const std::string& name : names) index.Intern(name);
      if (index.size() != names.size()) return absl::InternalError("repeated agent names");
      ASSIGN_OR_RETURN(const ratings::VoteSet votes, BattleVotes(names.size(), a, b, outcome));
      return run->RateVotes(config, index, votes, 0);
    }();
  }
  if (!report.ok()) Raise(report.status());
  return Json(*report);
}

}  // namespace

void BindBattleVotes(nb::module_& m) { m.def("rate_battle_votes", &RateBattleVotes); }

}  // namespace ratingd::python
