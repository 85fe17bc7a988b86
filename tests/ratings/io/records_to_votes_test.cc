#include "ratings/io/records_to_votes.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;

ResultRecord Record(std::vector<Standing> standings, int64_t line, double weight = 1.0) {
  ResultRecord record;
  record.result.standings = std::move(standings);
  record.result.weight = weight;
  record.line = line;
  return record;
}

// Records {b: 2, a: 1} (weight 2) and {c: 1, a: 2}, over an index already holding z:
// z 0, then interned in record order, standing order: b 1, a 2, c 3.
TEST(RecordsToVotesTest, InternsInRecordThenStandingOrder) {
  AgentIndex index;
  index.Intern("z");
  const std::vector<ResultRecord> records = {
      Record({{"b", 2, {}}, {"a", 1, {}}}, 1, 2.0),
      Record({{"c", 1, {}}, {"a", 2, {}}}, 2),
  };
  absl::StatusOr<VoteSet> votes = ToVoteSet(records, "in.jsonl", index);
  ASSERT_THAT(votes, IsOk()) << votes.status();
  ASSERT_EQ(index.size(), 4u);
  EXPECT_EQ(index.Name(1), "b");
  EXPECT_EQ(index.Name(2), "a");
  EXPECT_EQ(index.Name(3), "c");
  // Every agent of the index counts, z too.
  EXPECT_EQ(votes->num_agents(), 4u);
  ASSERT_EQ(votes->size(), 2u);
  EXPECT_THAT((*votes)[0].agents, ElementsAre(1, 2));
  EXPECT_THAT((*votes)[0].ranks, ElementsAre(2, 1));
  EXPECT_EQ((*votes)[0].weight, 2.0);
  EXPECT_THAT(votes->BestFirst(0).agents, ElementsAre(2, 1));
  EXPECT_THAT((*votes)[1].agents, ElementsAre(3, 2));
  EXPECT_THAT((*votes)[1].ranks, ElementsAre(1, 2));
  EXPECT_EQ(votes->TotalWeight(), 3.0);
}

TEST(RecordsToVotesTest, NoRecordsGiveTheIndexsAgentsAndNoVotes) {
  AgentIndex index;
  index.Intern("a");
  index.Intern("b");
  absl::StatusOr<VoteSet> votes = ToVoteSet({}, "in.jsonl", index);
  ASSERT_THAT(votes, IsOk());
  EXPECT_EQ(votes->size(), 0u);
  EXPECT_EQ(votes->num_agents(), 2u);
}

TEST(RecordsToVotesTest, AnInvalidResultIsNamedByInputAndLine) {
  AgentIndex index;
  const std::vector<ResultRecord> records = {
      Record({{"a", 1, {}}, {"b", 2, {}}}, 3),
      Record({{"a", 1, {}}, {"a", 2, {}}}, 7),
  };
  EXPECT_THAT(ToVoteSet(records, "in.jsonl", index),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "in.jsonl:7: standings[1]: agent 'a' appears twice"));
}

}  // namespace
}  // namespace ratings::io
