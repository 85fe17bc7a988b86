// What the extension's files share (core.cc, online_pool.cc): records built from Python data
// or read from a file, and the errors Python sees.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "google/protobuf/message.h"
#include "ratings/io/read_results.h"

namespace ratingd::python {

namespace nb = nanobind;

template <typename T>
using Column = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// The records a front end built or a file held, in order; opaque to Python but for its
// size and its columns (read()).
struct Records {
  std::vector<ratings::io::ResultRecord> records;
  int64_t skipped_votes = 0;
};

[[noreturn]] inline void Raise(const absl::Status& status) {
  throw nb::value_error(std::string(status.message()).c_str());
}

// A row's problem, for the Python side to name the row by its label: "#<row>: <problem>".
[[noreturn]] inline void RaiseAtRow(size_t row, const absl::Status& status) {
  throw nb::value_error(absl::StrCat("#", row, ": ", status.message()).c_str());
}

inline std::string Json(const google::protobuf::Message& message) {
  absl::StatusOr<std::string> json = DeterministicJson(message);
  if (!json.ok()) Raise(json.status());
  return *std::move(json);
}

// Binds OnlinePool (online_pool.cc).
void BindOnlinePool(nb::module_& m);
// Binds eval, simulate and game (commands.cc).
void BindCommands(nb::module_& m);
// Binds rate_battle_votes (battle_votes.cc).
void BindBattleVotes(nb::module_& m);
// Binds factorize_rows (factorize.cc).
void BindFactorize(nb::module_& m);

}  // namespace ratingd::python
