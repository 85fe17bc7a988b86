// Fuzzes the daemon's per-record path (the daemon never crashes on input, docs/CONTRACTS.md §1):
// DecodeResult on arbitrary bytes and keys, then LivePool::Apply on what it accepts. A
// rejection must carry a listed reason; an accepted record must apply.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/result_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<ratingd::LivePool> pool;
  static int applied = 0;
  if (!pool || applied > 2000) {  // bound the state the fuzzer accumulates
    ratingd::LivePoolConfig config;
    config.ml_solve_every = 0;
    config.dedup_window = 64;
    config.options.glicko2 = true;  // the one model that reads event_time
    config.options.limits.max_standings = 16;
    config.options.limits.max_agent_id_bytes = 32;
    pool = *ratingd::LivePool::Create("fuzz", config);
    applied = 0;
  }
  if (size == 0) return 0;
  // First byte: key length (as a prefix of the rest); the remainder is the value.
  const size_t key_len = std::min<size_t>(data[0] % 8, size - 1);
  const std::string key(reinterpret_cast<const char*>(data) + 1, key_len);
  const std::string value(reinterpret_cast<const char*>(data) + 1 + key_len, size - 1 - key_len);
  ratings::ResultLimits limits;
  limits.max_standings = 16;
  limits.max_agent_id_bytes = 32;
  auto decoded = ratingd::DecodeResult(key, value, limits);
  if (auto* rejection = std::get_if<ratingd::Rejection>(&decoded)) {
    const auto& reasons = ratingd::RejectionReasons();
    if (std::find(reasons.begin(), reasons.end(), rejection->reason) == reasons.end()) {
      std::abort();
    }
    return 0;
  }
  const ratingd::DecodedResult& d = std::get<ratingd::DecodedResult>(decoded);
  std::vector<ratingd::v1::RankingDelta> deltas;
  std::optional<ratingd::MlJob> job;
  if (!pool->Apply(d.record.result, d.record.game_id, d.record.event_time ? &d.event_time : nullptr,
                   -1, &deltas, &job)
           .ok()) {
    std::abort();
  }
  ++applied;
  return 0;
}
