#include "ratings/agent_index.h"

#include <string>
#include <utility>

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

// A copy and a move keep every id and name, and each index interns on its own afterwards
// (the hash set reaches the names through the index's own vector).
TEST(AgentIndexTest, CopiesAndMovesKeepTheIds) {
  AgentIndex index;
  for (int i = 0; i < 1000; ++i) index.Intern(std::to_string(i * 7));
  AgentIndex copy = index;
  AgentIndex moved = std::move(index);
  EXPECT_EQ(copy.Intern("new in copy"), 1000u);
  EXPECT_EQ(moved.Intern("new in moved"), 1000u);
  EXPECT_EQ(moved.Intern("new in copy"), 1001u);
  for (const AgentIndex* x : {&copy, &moved}) {
    for (int i = 0; i < 1000; ++i) {
      const AgentId* id = x->Find(std::to_string(i * 7));
      ASSERT_NE(id, nullptr);
      EXPECT_EQ(*id, static_cast<AgentId>(i));
      EXPECT_EQ(x->Name(*id), std::to_string(i * 7));
    }
  }
  EXPECT_EQ(copy.Find("new in moved"), nullptr);
  AgentIndex assigned;
  assigned.Intern("x");
  assigned = moved;
  EXPECT_EQ(assigned.size(), 1002u);
  EXPECT_EQ(*assigned.Find("new in moved"), 1000u);
}

}  // namespace
}  // namespace ratings
