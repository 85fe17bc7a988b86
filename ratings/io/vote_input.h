// The votes of a file read straight into the vote set of a batch run, by the readers that
// skip the records (preflib_votes.h, scores_votes.h).
#pragma once

#include <cstdint>

#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"

namespace ratings::io {

// The votes of a file with interned agent ids, for batch runs.
struct VoteInput {
  AgentIndex agents;  // interned in vote order, then standing order (as ToVoteSet interns)
  VoteSet votes;      // one vote of weight 1 per voter, in file order; num_agents() = agents.size()
  int64_t skipped_votes = 0;  // as ReadOutput::skipped_votes
};

}  // namespace ratings::io
