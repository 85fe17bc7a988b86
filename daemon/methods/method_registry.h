// The one table of `ratingctl rate`'s methods (docs/CONTRACTS.md §2.5): each method's name,
// family, the input it needs, its parameters (type, default, bounds, help) and its runner.
// `rate`, `eval`, `elo-sweep` (elo's parameters), `suggest`, `--help` and `ratingctl methods`
// learn the methods here; adding a method touches this table and the method's own files only.
//
//   ASSIGN_OR_RETURN(std::unique_ptr<MethodRun> run, PrepareMethod(config));
//   // config.params applied and checked; nothing read yet
//   return run->RateRecords(config, records, skipped_votes);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "daemon/methods/rate_config.h"
#include "daemon/param_table.h"
#include "google/protobuf/struct.pb.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"
#include "ratings/io/read_results.h"

namespace ratingd {

// online: elo, sco, ml, glicko2 (file order, as ratingd); batch: whole-profile fits; voting: voting
// rules and the exact lotteries; nash: Nash averaging of agents against tasks; game: the
// king-of-the-hill game of models against prompts.
enum class MethodFamily { kOnline, kBatch, kVoting, kNash, kGame };
// What a method reads of a file: results in order; votes (any order: PrefLib files and
// score tables are read straight into them); scores per task; pairwise battles on prompts.
enum class MethodInput { kResults, kVotes, kScores, kBattles };

absl::string_view FamilyName(MethodFamily family);  // "online", "batch", ...
absl::string_view InputName(MethodInput input);     // "results", "votes", ...

// One run of a method: the values of its parameters (a ParamTable over fields the run
// owns, at their defaults until config.params are applied) and how it rates. Not
// thread-safe.
class MethodRun {
 public:
  virtual ~MethodRun() = default;
  MethodRun(const MethodRun&) = delete;
  MethodRun& operator=(const MethodRun&) = delete;

  ParamTable& params() { return params_; }
  const ParamTable& params() const { return params_; }

  // What the parameter table's own checks cannot see: combinations of parameters and the
  // solver's validation of its options. Called once config.params are applied.
  virtual absl::Status Check() const { return absl::OkStatus(); }

  // Rates records (all of one pool; config.input names the file in messages).
  virtual absl::StatusOr<v1::RatingReport> RateRecords(
      const RateConfig& config, absl::Span<const ratings::io::ResultRecord> records,
      int64_t skipped_votes) const = 0;

  // Methods of input kVotes also rate votes read straight from a PrefLib file or a score
  // table (ratings/io/preflib_votes.h, scores_votes.h) over `index`'s agents: the same
  // report as on the records they come from. The others: Internal.
  virtual absl::StatusOr<v1::RatingReport> RateVotes(const RateConfig& config,
                                                     const ratings::AgentIndex& index,
                                                     const ratings::VoteSet& votes,
                                                     int64_t skipped_votes) const;

 protected:
  explicit MethodRun(std::string name) : params_(std::move(name)) {}

  // What every report's extra holds (docs/CONTRACTS.md §2.2): params (every parameter with
  // its effective value), seed (config.seed as given) and skipped_votes.
  void AddCommonExtra(const RateConfig& config, int64_t skipped_votes,
                      v1::RatingReport& report) const;

  ParamTable params_;  // over fields of the derived run
};

struct MethodInfo {
  absl::string_view name;
  MethodFamily family;
  MethodInput input;
  std::unique_ptr<MethodRun> (*make)();  // a run with every parameter at its default
  // Takes --bootstrap-replicas (ratingd's live replicas: elo, sco and ml).
  bool replicas = false;
};

// Every method, in the order `--help` and the unknown-method error list them.
absl::Span<const MethodInfo> Methods();
std::vector<std::string> MethodNames();

// InvalidArgument "--method: unknown method 'M'; known: elo, sco, ..." for a name not in
// the table.
absl::StatusOr<const MethodInfo*> FindMethod(absl::string_view name);

// A run of config.method with config.params applied (in order) and checked: the errors of
// FindMethod, ParamTable::Apply and MethodRun::Check, before anything is read.
absl::StatusOr<std::unique_ptr<MethodRun>> PrepareMethod(const RateConfig& config);

// `ratingctl methods`: [{name, family, input, params: [{name, type, default, min, max,
// min_exclusive, max_exclusive, help}]}] in table order, bounds null where there is none.
google::protobuf::ListValue MethodsDocument();

// The "Parameters (defaults)" lines of `ratingctl --help`: one block per method, its
// parameters with their defaults, wrapped at 92 columns.
std::string MethodsHelp();

}  // namespace ratingd
