// RETURN_IF_ERROR and ASSIGN_OR_RETURN: Debian's Abseil (20220623) ships neither.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define RATINGD_CONCAT_INNER(a, b) a##b
#define RATINGD_CONCAT(a, b) RATINGD_CONCAT_INNER(a, b)

// Evaluates `expr` (an absl::Status) and returns it from the enclosing function if not OK.
#define RETURN_IF_ERROR(expr)                                           \
  do {                                                                  \
    if (absl::Status ratingd_status_ = (expr); !ratingd_status_.ok()) { \
      return ratingd_status_;                                           \
    }                                                                   \
  } while (false)

// Evaluates `rexpr` (an absl::StatusOr<T>); returns its status if not OK, else moves the
// value into `lhs` (which may be a declaration: ASSIGN_OR_RETURN(auto x, F());).
#define ASSIGN_OR_RETURN(lhs, rexpr) \
  RATINGD_ASSIGN_OR_RETURN_IMPL(RATINGD_CONCAT(ratingd_statusor_, __LINE__), lhs, rexpr)

#define RATINGD_ASSIGN_OR_RETURN_IMPL(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                  \
  if (!statusor.ok()) return std::move(statusor).status();  \
  lhs = *std::move(statusor)
