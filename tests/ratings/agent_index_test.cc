#include "ratings/agent_index.h"

#include "gtest/gtest.h"

namespace ratings {
namespace {

TEST(AgentIndexTest, AssignsDenseIdsInFirstSeenOrder) {
  AgentIndex index;
  EXPECT_EQ(index.Intern("carol"), 0u);
  EXPECT_EQ(index.Intern("alice"), 1u);
  EXPECT_EQ(index.Intern("carol"), 0u);
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.Name(1), "alice");
  ASSERT_NE(index.Find("alice"), nullptr);
  EXPECT_EQ(*index.Find("alice"), 1u);
  EXPECT_EQ(index.Find("bob"), nullptr);
}

TEST(AgentIndexTest, IdsAreBytesNotNormalisedText) {
  AgentIndex index;
  // PrefLib 00065-00000003.soi has names differing only in the apostrophe.
  EXPECT_NE(index.Intern("Crazy Cat's Eyes"), index.Intern("Crazy Cat\u2019s Eyes"));
  EXPECT_NE(index.Intern("a"), index.Intern("A"));
}

}  // namespace
}  // namespace ratings
