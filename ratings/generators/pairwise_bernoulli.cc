#include "ratings/generators/pairwise_bernoulli.h"

#include <algorithm>
#include <random>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ratings/seeded_draws.h"

namespace ratings {
namespace {

absl::Status CheckPair(const BernoulliPair& pair) {
  if (pair.first.empty() || pair.second.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("pair '", pair.first, ">", pair.second, "': an agent name is empty"));
  }
  if (pair.first == pair.second) {
    return absl::InvalidArgumentError(
        absl::StrCat("pair '", pair.first, ">", pair.second, "': an agent cannot play itself"));
  }
  if (!(pair.p >= 0 && pair.p <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat("pair '", pair.first, ">", pair.second, "': p ",
                                                   pair.p, " is outside [0, 1]"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<BernoulliPair>> ParseBernoulliPairs(absl::string_view text) {
  std::vector<BernoulliPair> pairs;
  for (absl::string_view entry : absl::StrSplit(text, ',')) {
    const size_t colon = entry.rfind(':');
    const size_t gt = entry.find('>');
    if (colon == absl::string_view::npos || gt == absl::string_view::npos || gt > colon) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", entry, "' is not FIRST>SECOND:P (e.g. A>B:0.75)"));
    }
    BernoulliPair pair{.first = std::string(entry.substr(0, gt)),
                       .second = std::string(entry.substr(gt + 1, colon - gt - 1)),
                       .p = 0};
    if (!absl::SimpleAtod(entry.substr(colon + 1), &pair.p)) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", entry, "': '", entry.substr(colon + 1), "' is not a number"));
    }
    if (pair.second.find('>') != std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("'", entry, "' names more than two agents"));
    }
    if (absl::Status s = CheckPair(pair); !s.ok()) return s;
    pairs.push_back(std::move(pair));
  }
  absl::flat_hash_set<std::pair<std::string, std::string>> seen;
  for (const BernoulliPair& pair : pairs) {
    const auto key = std::minmax(pair.first, pair.second);
    if (!seen.emplace(key.first, key.second).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("the pair of ", key.first, " and ", key.second, " is listed twice"));
    }
  }
  return pairs;
}

absl::StatusOr<PairwiseBernoulli> GeneratePairwiseBernoulli(
    const PairwiseBernoulliOptions& options) {
  if (options.pairs.empty()) return absl::InvalidArgumentError("pairs: no pair given");
  if (options.games < 1) {
    return absl::InvalidArgumentError(absl::StrCat("games: ", options.games, " is not >= 1"));
  }
  if (!(options.tie >= 0 && options.tie < 1)) {
    return absl::InvalidArgumentError(absl::StrCat("tie: ", options.tie, " is outside [0, 1)"));
  }
  PairwiseBernoulli out;
  absl::flat_hash_map<std::string, AgentId> ids;
  auto id_of = [&](const std::string& name) {
    const auto [it, inserted] = ids.try_emplace(name, static_cast<AgentId>(out.names.size()));
    if (inserted) out.names.push_back(name);
    return it->second;
  };
  std::mt19937_64 rng(options.seed);
  for (const BernoulliPair& pair : options.pairs) {
    if (absl::Status s = CheckPair(pair); !s.ok()) return s;
    const AgentId first = id_of(pair.first);
    const AgentId second = id_of(pair.second);
    for (int64_t g = 0; g < options.games; ++g) {
      PairwiseGame game{.first = first, .second = second};
      if (Uniform01(rng) < options.tie) {
        game.outcome = PairwiseGame::Outcome::kDraw;
      } else {
        game.outcome = Uniform01(rng) < pair.p ? PairwiseGame::Outcome::kFirstWins
                                               : PairwiseGame::Outcome::kSecondWins;
      }
      out.games.push_back(game);
    }
  }
  for (size_t i = out.games.size(); i > 1; --i) {
    std::swap(out.games[i - 1], out.games[UniformIndex(rng, i)]);
  }
  return out;
}

}  // namespace ratings
