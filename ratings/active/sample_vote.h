// A sample as a two-agent result ([AE] §4.2): the higher score ranks first, equal scores
// tie. Holds its own arrays, so the IndexedResult view lives as long as this object.
#pragma once

#include <array>
#include <cstdint>

#include "ratings/active/evaluator.h"
#include "ratings/result.h"

namespace ratings::active {

class SampleVote {
 public:
  explicit SampleVote(const Sample& s)
      : agents_{s.a, s.b},
        ranks_{s.score_a >= s.score_b ? 1u : 2u, s.score_b >= s.score_a ? 1u : 2u} {}
  IndexedResult view() const { return {agents_, ranks_, 1.0}; }
  bool tie() const { return ranks_[0] == ranks_[1]; }

 private:
  std::array<AgentId, 2> agents_;
  std::array<uint32_t, 2> ranks_;
};

}  // namespace ratings::active
