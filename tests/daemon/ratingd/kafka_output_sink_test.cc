// OutputPartition (kafka_output_sink.h): the partition of the deltas or leaderboards topic that
// a pool's records go to. Expected values by hand from docs/CONTRACTS.md §1.1: the pool's
// results partition number, modulo the output topic's partition count.
#include "daemon/ratingd/kafka_output_sink.h"

#include "gtest/gtest.h"

namespace ratingd {
namespace {

TEST(OutputPartitionTest, IsTheResultsPartitionModuloTheOutputTopicsCount) {
  EXPECT_EQ(OutputPartition(0, 6), 0);
  EXPECT_EQ(OutputPartition(5, 6), 5);   // as many partitions: the same number
  EXPECT_EQ(OutputPartition(4, 12), 4);  // more: the extra ones stay empty
  EXPECT_EQ(OutputPartition(7, 3), 1);   // fewer: 1, 4 and 7 share partition 1
  EXPECT_EQ(OutputPartition(4, 3), 1);
  EXPECT_EQ(OutputPartition(2, 1), 0);
  EXPECT_EQ(OutputPartition(3, 0), 3);  // a count not known: the number itself
}

}  // namespace
}  // namespace ratingd
