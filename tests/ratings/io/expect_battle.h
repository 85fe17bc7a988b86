// The check shared by the battles reader's tests: the agents, ranks and weight of a 2-agent
// record (docs/CONTRACTS.md §2.4).
#pragma once

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "ratings/io/read_results.h"

namespace ratings::io {

// The two agents, their ranks and scores of a 2-agent record.
inline void ExpectBattle(const ResultRecord& record, const std::string& a, uint32_t rank_a,
                         const std::string& b, uint32_t rank_b) {
  ASSERT_EQ(record.result.standings.size(), 2u);
  EXPECT_EQ(record.result.standings[0].agent, a);
  EXPECT_EQ(record.result.standings[0].rank, rank_a);
  EXPECT_EQ(record.result.standings[1].agent, b);
  EXPECT_EQ(record.result.standings[1].rank, rank_b);
  EXPECT_EQ(record.result.weight, 1.0);
  EXPECT_EQ(record.pool, "");
}

}  // namespace ratings::io
