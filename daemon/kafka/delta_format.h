// The two formats of the deltas topic (docs/CONTRACTS.md §1): version 1, one RankingDelta per
// record; version 2, one RankingDeltaBatch per (pool, model) and transaction, marked by a
// record header. Shared by ratingd (which writes either) and `ratingctl tail` (reads both).
#pragma once

namespace ratingd {

inline constexpr char kSchemaHeader[] = "x-ratingd-schema";
inline constexpr char kDeltaBatchSchema[] = "ratingd.v1.RankingDeltaBatch";

}  // namespace ratingd
