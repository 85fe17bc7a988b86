// What an event stream sends (event_stream.h) as views are published, and the view store's
// wait for a newer set. Expected events are the leaderboard and pool-list answers of the
// same views (view_answers.h, tested in views_test.cc) framed by hand; digests are FNV-1a's
// published test vectors.
#include "daemon/ratingd/event_stream.h"

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "daemon/ratingd/view_answers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/daemon/ratingd/held_pools.h"

namespace ratingd::testing {
namespace {

using ::ratings::Model;
using ::testing::Optional;

std::string LeaderboardEvent(const Views& views, const Query& q, uint64_t sequence) {
  return absl::StrCat("event: leaderboard\nid: ", sequence,
                      "\ndata: ", LeaderboardAnswer(views, q, Config()).body, "\n\n");
}

TEST(EventStreamTest, FramesEveryLineOfDataAndDigestsLikeFnv1a) {
  EXPECT_EQ(FormatEvent("pools", "7", "{}"), "event: pools\nid: 7\ndata: {}\n\n");
  EXPECT_EQ(FormatEvent("x", "1", "a\nb"), "event: x\nid: 1\ndata: a\ndata: b\n\n");
  EXPECT_EQ(DocumentDigest(""), "cbf29ce484222325");   // the offset basis
  EXPECT_EQ(DocumentDigest("a"), "af63dc4c8601ec8c");  // FNV-1a 64 test vector
}

TEST(EventStreamTest, LeaderboardEventsComeForNewerSequencesOnly) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess");
  p.Play(chess, "a", "b");
  p.Commit("chess", absl::FromUnixSeconds(1));
  const Query q = LeaderboardQuery("chess", Model::kElo, 1);
  EventStream stream(q, std::nullopt);
  EXPECT_THAT(stream.Next(*p.store.Get(), Config()),
              Optional(LeaderboardEvent(*p.store.Get(), q, 1)));
  EXPECT_EQ(stream.Next(*p.store.Get(), Config()), std::nullopt);  // nothing newer
  p.Hold(1, "go");
  p.Commit("go", absl::FromUnixSeconds(2));  // another pool changed
  EXPECT_EQ(stream.Next(*p.store.Get(), Config()), std::nullopt);
  p.Play(chess, "b", "a");
  p.Play(chess, "c", "a");
  p.Commit("chess", absl::FromUnixSeconds(3));
  EXPECT_THAT(stream.Next(*p.store.Get(), Config()),
              Optional(LeaderboardEvent(*p.store.Get(), q, 3)));
}

TEST(EventStreamTest, LastEventIdHoldsBackTheSameSequenceButNotAnOlderOne) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess");
  p.Play(chess, "a", "b");
  p.Play(chess, "a", "c");
  p.Commit("chess", absl::FromUnixSeconds(1));
  const Query q = LeaderboardQuery("chess", Model::kSco);
  EXPECT_EQ(EventStream(q, "2").Next(*p.store.Get(), Config()), std::nullopt);
  EXPECT_EQ(EventStream(q, "5").Next(*p.store.Get(), Config()), std::nullopt);
  EXPECT_THAT(EventStream(q, "1").Next(*p.store.Get(), Config()),
              Optional(LeaderboardEvent(*p.store.Get(), q, 2)));
  // An id that is not a sequence is no id.
  EXPECT_THAT(EventStream(q, "x").Next(*p.store.Get(), Config()),
              Optional(LeaderboardEvent(*p.store.Get(), q, 2)));
  EventStream held(q, "2");
  p.Play(chess, "c", "b");
  p.Commit("chess", absl::FromUnixSeconds(2));
  EXPECT_THAT(held.Next(*p.store.Get(), Config()),
              Optional(LeaderboardEvent(*p.store.Get(), q, 3)));
}

TEST(EventStreamTest, NothingWhileThePoolIsNotHeldOrTheModelIsOff) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess");  // ml off
  p.Play(chess, "a", "b");
  p.Commit("chess", absl::FromUnixSeconds(1));
  EXPECT_EQ(
      EventStream(LeaderboardQuery("go", Model::kElo), std::nullopt).Next(*p.store.Get(), Config()),
      std::nullopt);
  EXPECT_EQ(EventStream(LeaderboardQuery("chess", Model::kMl), std::nullopt)
                .Next(*p.store.Get(), Config()),
            std::nullopt);
  EventStream elo(LeaderboardQuery("chess", Model::kElo), std::nullopt);
  ASSERT_TRUE(elo.Next(*p.store.Get(), Config()).has_value());
  p.registry.Drop(0);  // revoked: silent, not closed
  p.builder.PublishHeld(p.registry);
  EXPECT_EQ(elo.Next(*p.store.Get(), Config()), std::nullopt);
}

TEST(EventStreamTest, PoolListEventsComeWhenTheListChanges) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess");
  p.Play(chess, "a", "b");
  p.Commit("chess", absl::FromUnixSeconds(1));
  const std::string first = PoolsAnswer(*p.store.Get()).body;
  EventStream stream(Query{}, std::nullopt);
  EXPECT_THAT(stream.Next(*p.store.Get(), Config()),
              Optional(FormatEvent("pools", DocumentDigest(first), first)));
  EXPECT_EQ(stream.Next(*p.store.Get(), Config()), std::nullopt);
  EXPECT_EQ(EventStream(Query{}, DocumentDigest(first)).Next(*p.store.Get(), Config()),
            std::nullopt);
  p.Play(chess, "b", "a");
  p.Commit("chess", absl::FromUnixSeconds(2));
  const std::string second = PoolsAnswer(*p.store.Get()).body;
  ASSERT_NE(second, first);
  EXPECT_THAT(stream.Next(*p.store.Get(), Config()),
              Optional(FormatEvent("pools", DocumentDigest(second), second)));
}

TEST(ViewStoreTest, WaitNewerReturnsAtTheDeadlineOrOnAPublish) {
  ViewStore store;
  EXPECT_EQ(store.generation(), 0u);
  const auto soon = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
  EXPECT_EQ(store.WaitNewer(0, soon), 0u);
  EXPECT_GE(std::chrono::steady_clock::now(), soon);
  std::thread publisher([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    store.Publish(std::make_shared<Views>());
  });
  EXPECT_EQ(store.WaitNewer(0, std::chrono::steady_clock::now() + std::chrono::seconds(30)), 1u);
  publisher.join();
  EXPECT_EQ(store.WaitNewer(0, std::chrono::steady_clock::now()), 1u);  // already newer
}

}  // namespace
}  // namespace ratingd::testing
