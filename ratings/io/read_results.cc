#include "ratings/io/read_results.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace ratings::io {
namespace {

// Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
absl::string_view AsAbsl(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// Closes the file on every return path.
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

absl::StatusOr<Format> ParseFormat(std::string_view name) {
  if (name == "jsonl") return Format::kJsonl;
  if (name == "preflib") return Format::kPreflib;
  if (name == "scores") return Format::kScores;
  if (name == "battles") return Format::kBattles;
  if (name == "battles-csv") return Format::kBattlesCsv;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown format '", AsAbsl(name),
                   "'; expected jsonl, preflib, scores, battles or battles-csv"));
}

absl::StatusOr<Format> InferFormat(std::string_view path) {
  // The extension belongs to the last path component only ("dir.v2/file" has none).
  const size_t slash = path.find_last_of('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  const std::string ext =
      dot == std::string_view::npos ? "" : absl::AsciiStrToLower(AsAbsl(base.substr(dot + 1)));
  if (ext == "jsonl" || ext == "json") return Format::kJsonl;
  if (ext == "soc" || ext == "soi" || ext == "toc" || ext == "toi") return Format::kPreflib;
  if (ext == "txt" || ext == "tsv" || ext == "scores") return Format::kScores;
  // The only CSV format. Battles in JSONL share .jsonl with GameResults: --format battles.
  if (ext == "csv") return Format::kBattlesCsv;
  return absl::InvalidArgumentError(absl::StrCat(
      "cannot infer the format of '", AsAbsl(path),
      "' from its extension; expected .jsonl/.json (jsonl), .soc/.soi/.toc/.toi (preflib), "
      ".txt/.tsv/.scores (scores) or .csv (battles-csv)"));
}

absl::StatusOr<std::string> ReadFileContent(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", path));
  // Read straight into a buffer of the file's size (no copies as a string grows), then on
  // until the end in case the file grew; a pipe or special file reports size 0.
  struct stat info {};
  const size_t expected = fstat(fileno(file.get()), &info) == 0 && info.st_size > 0
                              ? static_cast<size_t>(info.st_size)
                              : 0;
  std::string content(expected + (1 << 16), '\0');
  size_t size = 0;
  while (true) {
    if (content.size() - size < (1 << 16)) content.resize(content.size() * 2);
    errno = 0;
    const size_t want = content.size() - size;
    const size_t n = std::fread(content.data() + size, 1, want, file.get());
    const int read_errno = errno;
    // A directory opens fine on Linux; reading it fails with EISDIR.
    if (std::ferror(file.get())) {
      return absl::ErrnoToStatus(read_errno, absl::StrCat("cannot read ", path));
    }
    size += n;
    if (n < want) break;
  }
  content.resize(size);
  return content;
}

absl::StatusOr<ReadOutput> ReadResultsFile(const std::string& path, Format format,
                                           const ResultLimits& limits) {
  absl::StatusOr<std::string> content = ReadFileContent(path);
  if (!content.ok()) return content.status();
  return ParseResults(*content, path, format, limits);
}

absl::StatusOr<ReadOutput> ParseResults(std::string_view content, std::string_view filename,
                                        Format format, const ResultLimits& limits) {
  switch (format) {
    case Format::kJsonl:
      return ParseJsonl(content, filename, limits);
    case Format::kPreflib:
      return ParsePreflib(content, filename, limits);
    case Format::kScores:
      return ParseScores(content, filename, limits);
    case Format::kBattles:
      // `--format battles` names the conventions; the extension picks JSONL or CSV.
      if (absl::EndsWithIgnoreCase(AsAbsl(filename), ".csv")) {
        return ParseBattlesCsv(content, filename, limits);
      }
      return ParseBattles(content, filename, limits);
    case Format::kBattlesCsv:
      return ParseBattlesCsv(content, filename, limits);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown format value ", static_cast<int>(format)));
}

}  // namespace ratings::io
