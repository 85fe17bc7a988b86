// What ratingctl's subcommands share of the command line (docs/CONTRACTS.md §2): the
// flags more than one of them reads, and the way each reports an error or prints its
// JSON document. Each subcommand's own flags live in its *_command.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/status.h"
#include "google/protobuf/message.h"
#include "ratings/io/read_results.h"

ABSL_DECLARE_FLAG(std::string, method);
ABSL_DECLARE_FLAG(std::string, input);
ABSL_DECLARE_FLAG(std::string, format);
ABSL_DECLARE_FLAG(uint64_t, seed);
ABSL_DECLARE_FLAG(std::string, pool);
ABSL_DECLARE_FLAG(std::string, output);
ABSL_DECLARE_FLAG(std::string, k);

namespace ratingd {

// Prints "ratingctl: <message>" on stderr; returns the exit status 1.
int Fail(const std::string& message);

// Sets `format` from --format when it is given (else the file's extension decides).
absl::Status FormatFlag(std::optional<ratings::io::Format>& format);

// --output: json (false) or table (true); InvalidArgument for anything else.
absl::StatusOr<bool> TableOutput();

// Prints `document` as one line of deterministic JSON on stdout; returns the exit status.
int PrintJson(const google::protobuf::Message& document);

}  // namespace ratingd
