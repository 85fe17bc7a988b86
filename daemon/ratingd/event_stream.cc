#include "daemon/ratingd/event_stream.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "daemon/ratingd/view_answers.h"

namespace ratingd {

std::optional<std::string> EventStream::Next(const Views& views, const DaemonConfig& config,
                                             AnswerCache* cache) {
  if (query_.kind == Query::Kind::kPools) {
    const QueryReply reply = PoolsAnswer(views);
    std::string id = DocumentDigest(reply.body);
    if (last_id_ == id) return std::nullopt;
    last_id_ = id;
    return FormatEvent("pools", id, reply.body);
  }
  const BoardRef found = FindBoard(views, query_.pool, query_.model);
  if (found.board == nullptr || found.ml_refused()) return std::nullopt;
  const v1::Leaderboard* board = found.board;
  uint64_t last = 0;
  if (last_id_.has_value() && absl::SimpleAtoi(*last_id_, &last) && board->sequence() <= last) {
    return std::nullopt;
  }
  const QueryReply reply = LeaderboardAnswer(views, query_, config, cache);
  if (reply.status != 200) return std::nullopt;
  last_id_ = absl::StrCat(board->sequence());
  return FormatEvent("leaderboard", *last_id_, reply.body);
}

std::string FormatEvent(const std::string& name, const std::string& id, const std::string& data) {
  std::string out = absl::StrCat("event: ", name, "\nid: ", id, "\n");
  for (const absl::string_view line : absl::StrSplit(data, '\n')) {
    absl::StrAppend(&out, "data: ", line, "\n");
  }
  out += "\n";
  return out;
}

std::string DocumentDigest(const std::string& document) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a offset basis
  for (const unsigned char c : document) {
    hash ^= c;
    hash *= 1099511628211ull;  // FNV prime
  }
  return absl::StrCat(absl::Hex(hash, absl::kZeroPad16));
}

}  // namespace ratingd
