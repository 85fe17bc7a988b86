#include "daemon/ratingctl/elo_sweep.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/read_input.h"
#include "ratings/agent_index.h"
#include "ratings/batch/permuted_elo.h"
#include "ratings/batch/vote_set.h"
#include "ratings/pair_count.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"
#include "ratings/voting/batch_tally.h"

namespace ratingd {
namespace {

using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;
using NamePair = std::pair<std::string, std::string>;

// Pairs of agents that share at least one result, as (lower id, higher id).
absl::flat_hash_set<std::pair<ratings::AgentId, ratings::AgentId>> ComparedPairs(
    const ratings::VoteSet& votes) {
  absl::flat_hash_set<std::pair<ratings::AgentId, ratings::AgentId>> compared;
  for (size_t v = 0; v < votes.size(); ++v) {
    const absl::Span<const ratings::AgentId> agents = votes[v].agents;
    for (size_t i = 0; i < agents.size(); ++i) {
      for (size_t j = i + 1; j < agents.size(); ++j) {
        compared.insert(std::minmax(agents[i], agents[j]));
      }
    }
  }
  return compared;
}

Value PairValue(const NamePair& pair) {
  Value value;
  ListValue& list = *value.mutable_list_value();
  *list.add_values() = StringValue(pair.first);
  *list.add_values() = StringValue(pair.second);
  return value;
}

Value PairList(std::vector<NamePair> pairs) {
  std::sort(pairs.begin(), pairs.end());
  Value value;
  ListValue& list = *value.mutable_list_value();
  for (const NamePair& pair : pairs) *list.add_values() = PairValue(pair);
  return value;
}

NamePair ByName(const ratings::AgentIndex& index, ratings::AgentId a, ratings::AgentId b) {
  return std::minmax(index.Name(a), index.Name(b));
}

absl::Status CheckConfig(const EloSweepConfig& config) {
  if (config.k.empty()) return absl::InvalidArgumentError("elo-sweep: --k lists no K-factor");
  if (config.permutations.empty()) {
    return absl::InvalidArgumentError("elo-sweep: --permutations lists no count");
  }
  for (int64_t p : config.permutations) {
    if (p < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("elo-sweep: --permutations: ", p, " is not >= 1"));
    }
  }
  return absl::OkStatus();
}

// [EU] Eq. 7: pairs [winner, loser] whose head-to-head majority the ranking contradicts
// (`position`: each agent's place), sorted.
std::vector<NamePair> Contradictions(const std::vector<ratings::PairCount>& tallies,
                                     const std::vector<size_t>& position,
                                     const ratings::AgentIndex& index) {
  std::vector<NamePair> contradictions;
  for (const ratings::PairCount& t : tallies) {
    if (t.n_ab == t.n_ba) continue;  // no majority
    const auto [winner, loser] = t.n_ab > t.n_ba ? std::pair(t.a, t.b) : std::pair(t.b, t.a);
    if (position[winner] > position[loser]) {
      contradictions.emplace_back(index.Name(winner), index.Name(loser));
    }
  }
  std::sort(contradictions.begin(), contradictions.end());
  return contradictions;
}

// One configuration's entry of "configurations": K, the permutation count, the mean ranking
// and its contradictions. `position` receives each agent's place.
absl::StatusOr<Value> Configuration(const EloSweepConfig& config, double k, int64_t permutations,
                                    const ratings::io::VoteInput& read,
                                    const std::vector<ratings::PairCount>& tallies,
                                    std::vector<size_t>& position) {
  const ratings::AgentIndex& index = read.agents;
  const ratings::VoteSet& votes = read.votes;
  ratings::PermutedEloOptions options{.permutations = permutations,
                                      .elo = {.k = k, .initial = config.initial},
                                      .seed = config.seed,
                                      .shuffle = permutations > 1};
  absl::StatusOr<std::vector<std::vector<double>>> finals =
      ratings::PermutedEloFinals(votes, options, config.input.progress);
  if (!finals.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("elo-sweep: K ", k, ": ", finals.status().message()));
  }
  const ratings::PermutationSummary summary = ratings::SummarizePermutations(*finals);
  const std::vector<ratings::RankedAgent> ranked = ratings::RankByRating(summary.mean, index);
  Value entry;
  auto& c = *entry.mutable_struct_value()->mutable_fields();
  c["k"] = NumberValue(k);
  c["permutations"] = NumberValue(static_cast<double>(permutations));
  ListValue& ranking = *c["ranking"].mutable_list_value();
  for (size_t place = 0; place < ranked.size(); ++place) {
    const ratings::AgentId a = ranked[place].id;
    position[a] = place;
    auto& agent = *ranking.add_values()->mutable_struct_value()->mutable_fields();
    agent["agent"] = StringValue(index.Name(a));
    agent["mean"] = NumberValue(summary.mean[a]);
    agent["sem"] = NumberValue(summary.sem[a]);
  }
  ListValue& list = *c["contradictions"].mutable_list_value();
  for (const NamePair& pair : Contradictions(tallies, position, index)) {
    *list.add_values() = PairValue(pair);
  }
  return entry;
}

// "never_compared" (pairs in no common result) and "stability" (every other pair, and
// whether its order is the same in every configuration's `positions`).
void AddPairLists(const ratings::VoteSet& votes, const ratings::AgentIndex& index,
                  const std::vector<std::vector<size_t>>& positions, Struct& doc) {
  const auto compared = ComparedPairs(votes);
  const size_t n = index.size();
  auto& fields = *doc.mutable_fields();
  std::vector<NamePair> never_compared;
  std::vector<std::pair<NamePair, bool>> stability;
  for (ratings::AgentId a = 0; a < n; ++a) {
    for (ratings::AgentId b = a + 1; b < n; ++b) {
      if (!compared.contains({a, b})) {
        never_compared.push_back(ByName(index, a, b));
        continue;
      }
      const bool a_first = positions.front()[a] < positions.front()[b];
      const bool stable = std::all_of(positions.begin(), positions.end(),
                                      [&](const auto& p) { return (p[a] < p[b]) == a_first; });
      stability.emplace_back(ByName(index, a, b), stable);
    }
  }
  fields["never_compared"] = PairList(std::move(never_compared));
  std::sort(stability.begin(), stability.end());
  ListValue& stable_list = *fields["stability"].mutable_list_value();
  for (const auto& [pair, stable] : stability) {
    auto& entry = *stable_list.add_values()->mutable_struct_value()->mutable_fields();
    entry["pair"] = PairValue(pair);
    entry["stable"].set_bool_value(stable);
  }
}

}  // namespace

absl::StatusOr<Struct> RunEloSweep(const EloSweepConfig& config) {
  RETURN_IF_ERROR(CheckConfig(config));
  ASSIGN_OR_RETURN(const ratings::io::VoteInput read, ReadPoolVotes(config.input));
  const ratings::AgentIndex& index = read.agents;
  const ratings::VoteSet& votes = read.votes;
  const size_t n = index.size();
  if (n > kEloSweepMaxAgents) {
    return absl::InvalidArgumentError(absl::StrCat("elo-sweep: ", config.input.input, " has ", n,
                                                   " agents; at most ", kEloSweepMaxAgents,
                                                   " (the pair lists grow with their square)"));
  }
  const std::vector<ratings::PairCount> tallies = ratings::voting::TallyPairs(votes);

  Struct doc;
  auto& fields = *doc.mutable_fields();
  ListValue& configurations = *fields["configurations"].mutable_list_value();
  // position[c][agent]: the agent's place in configuration c's ranking.
  std::vector<std::vector<size_t>> positions;
  for (double k : config.k) {
    for (int64_t permutations : config.permutations) {
      std::vector<size_t>& position = positions.emplace_back(n);
      ASSIGN_OR_RETURN(*configurations.add_values(),
                       Configuration(config, k, permutations, read, tallies, position));
    }
  }
  AddPairLists(votes, index, positions, doc);
  fields["initial"] = NumberValue(config.initial);
  fields["seed"] = NumberValue(static_cast<double>(config.seed));
  return doc;
}

}  // namespace ratingd
