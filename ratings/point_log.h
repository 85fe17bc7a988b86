// History points staged in arrival order and handed over agent by agent (docs/MODELS.md
// §11.2). PoolHistory writes each new point here, one after the other, and moves them into
// the agents' histories in bursts, each agent's points together: one agent's buffer is then
// written many points at a time instead of one point at a time in whatever order the results
// name the agents, which on a pool of thousands of agents made every point a cache miss. The
// log asks to be drained once it holds a few points per agent of its pool, while the points
// are still in the processor's cache; a log of 1 MB drained only at a commit had been evicted
// by the other pools' work by then.
//
//   PointLog log;
//   log.Append(a) = point;                         // a point of agent a
//   if (log.full()) log.Drain([&](AgentId a, const HistoryPoint& p) { histories[a].Add(p); });
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ratings/rating_history.h"
#include "ratings/result.h"

namespace ratings {

class PointLog {
 public:
  // Points held before the owner should drain: kPointsPerAgent for each agent of the pool
  // (ids below the highest seen), at least kMinPoints, at most kCapacity (16,384: 1 MB).
  static constexpr size_t kCapacity = size_t{1} << 14;
  static constexpr size_t kMinPoints = 256;
  static constexpr size_t kPointsPerAgent = 4;

  size_t drain_at() const {
    return std::min(kCapacity, std::max(kMinPoints, kPointsPerAgent * tail_.size()));
  }
  bool full() const { return entries_.size() >= drain_at(); }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  // A point of agent a, after a's earlier ones, for the caller to write every field of.
  HistoryPoint& Append(AgentId a) {
    if (tail_.size() <= a) {
      head_.resize(a + 1, kNone);
      tail_.resize(a + 1, kNone);
    }
    const auto e = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
    entries_.back().next = kNone;
    if (tail_[a] == kNone) {
      head_[a] = e;
      touched_.push_back(a);
    } else {
      entries_[tail_[a]].next = e;
    }
    tail_[a] = e;
    return entries_.back().point;
  }

  // visit(a, point) for every point held: agent by agent in the order they first appeared,
  // each agent's points in the order they came. Then holds none (keeping its memory).
  template <typename Visit>
  void Drain(const Visit& visit) {
    for (const AgentId a : touched_) {
      for (uint32_t e = head_[a]; e != kNone; e = entries_[e].next) visit(a, entries_[e].point);
      head_[a] = kNone;
      tail_[a] = kNone;
    }
    touched_.clear();
    entries_.clear();
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Entry {
    HistoryPoint point;
    uint32_t next;  // the agent's next entry, or kNone
  };

  std::vector<Entry> entries_;
  std::vector<uint32_t> head_;  // by agent: its first and last entry, or kNone
  std::vector<uint32_t> tail_;
  std::vector<AgentId> touched_;  // agents with entries, in order of their first
};

}  // namespace ratings
