#include "daemon/ratingctl/eval.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/read_input.h"
#include "daemon/methods/run_rate.h"
#include "daemon/param_table.h"
#include "google/protobuf/util/json_util.h"
#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/measures/condorcet.h"
#include "ratings/measures/held_out.h"
#include "ratings/measures/kendall_tau.h"
#include "ratings/measures/top_k_error.h"
#include "ratings/pair_count.h"
#include "ratings/status_macros.h"
#include "ratings/voting/batch_tally.h"

namespace ratingd {
namespace {

using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;

// The parameters of config.params that apply to `method`: "M:key=value" scoped to M,
// unscoped ones to the ranking method only.
std::vector<std::string> ParamsFor(const EvalConfig& config, const std::string& method) {
  std::vector<std::string> out;
  for (const std::string& p : config.params) {
    if (std::optional<ScopedParam> scoped = SplitScopedParam(p, ':')) {
      if (scoped->scope == method) out.push_back(scoped->assignment);
    } else if (method == config.method) {
      out.push_back(p);
    }
  }
  return out;
}

// Rates records with one method; the ranking's agent names, best first.
absl::StatusOr<std::vector<std::string>> RankWith(
    const EvalConfig& config, const std::string& method,
    absl::Span<const ratings::io::ResultRecord> records, const std::string& label) {
  RateConfig rate;
  rate.method = method;
  rate.input = config.input;
  rate.params = ParamsFor(config, method);
  rate.seed = config.seed;
  if (config.progress) rate.progress = config.progress(label);
  ASSIGN_OR_RETURN(const v1::RatingReport report, RateRecords(rate, records, 0));
  std::vector<std::string> names;
  for (const v1::RankedAgent& r : report.ranking()) names.push_back(r.agent());
  return names;
}

// Names -> ids, interning unseen names; InvalidArgument on a repeated name.
absl::StatusOr<std::vector<ratings::AgentId>> ToIds(const std::vector<std::string>& names,
                                                    const std::string& source,
                                                    ratings::AgentIndex& index) {
  std::vector<ratings::AgentId> ids;
  absl::flat_hash_set<ratings::AgentId> seen;
  for (const std::string& name : names) {
    const ratings::AgentId id = index.Intern(name);
    if (!seen.insert(id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ": agent '", name, "' appears twice in the ranking"));
    }
    ids.push_back(id);
  }
  return ids;
}

// `order` restricted to the agents of `keep` (flags by id), order kept.
std::vector<ratings::AgentId> Restrict(absl::Span<const ratings::AgentId> order,
                                       const std::vector<bool>& keep) {
  std::vector<ratings::AgentId> out;
  for (ratings::AgentId a : order) {
    if (a < keep.size() && keep[a]) out.push_back(a);
  }
  return out;
}

ListValue NamesList(absl::Span<const ratings::AgentId> ids, const ratings::AgentIndex& index) {
  ListValue list;
  for (ratings::AgentId a : ids) *list.add_values() = StringValue(index.Name(a));
  return list;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ReadRankingFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string content = buffer.str();
  std::vector<std::string> names;
  if (absl::StripLeadingAsciiWhitespace(content).substr(0, 1) == "{") {
    Struct doc;
    if (auto s = google::protobuf::util::JsonStringToMessage(content, &doc); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": not JSON: ", s.ToString()));
    }
    auto it = doc.fields().find("ranking");
    if (it == doc.fields().end() || !it->second.has_list_value()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": no \"ranking\" list"));
    }
    const auto& values = it->second.list_value().values();
    for (int i = 0; i < values.size(); ++i) {
      const Value& v = values[i];
      if (v.has_string_value()) {
        names.push_back(v.string_value());
      } else if (v.has_struct_value() && v.struct_value().fields().contains("agent") &&
                 v.struct_value().fields().at("agent").has_string_value()) {
        names.push_back(v.struct_value().fields().at("agent").string_value());
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ": ranking[", i, "] is neither an agent name nor an object with \"agent\""));
      }
    }
  } else {
    for (absl::string_view line : absl::StrSplit(content, '\n')) {
      line = absl::StripAsciiWhitespace(line);
      if (line.empty() || line[0] == '#') continue;
      names.emplace_back(line);
    }
  }
  if (names.empty()) return absl::InvalidArgumentError(absl::StrCat(path, ": empty ranking"));
  return names;
}

namespace {

// What eval reads once: the votes of the input (over `agents`, which rankings and truths
// extend with names of their own) and, when a method will rate them, its records.
struct EvalInput {
  PoolRecords records;
  ratings::io::VoteInput votes;
  std::vector<ratings::PairCount> pairs;   // the shared batch tally (sparse)
  std::optional<ratings::AgentId> winner;  // the Condorcet winner of the results
};

absl::Status CheckEvalConfig(const EvalConfig& config) {
  if (config.k < 1) {
    return absl::InvalidArgumentError(absl::StrCat("--k must be >= 1, got ", config.k));
  }
  if (config.splits < 1 || config.splits > 100000) {
    return absl::InvalidArgumentError(
        absl::StrCat("--splits must be in [1, 100000], got ", config.splits));
  }
  if (!(config.test_fraction > 0 && config.test_fraction < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--test_fraction must be in (0, 1), got ", config.test_fraction));
  }
  if (config.agre_steps < 0 || (config.agre_steps > 0 && config.method.empty())) {
    return absl::InvalidArgumentError("--agre_steps needs --method and must be >= 0");
  }
  return absl::OkStatus();
}

absl::StatusOr<EvalInput> ReadEvalInput(const EvalConfig& config) {
  RateConfig read;
  read.input = config.input;
  read.format = config.format;
  read.pool = config.pool;
  // The records are rated only by a method (the ranking's, AGRE's prefixes, the held-out
  // splits); without one a PrefLib file is read straight into votes and no record is kept.
  EvalInput in;
  if (config.method.empty() && config.methods.empty()) {
    ASSIGN_OR_RETURN(in.votes, ReadPoolVotes(read));
  } else {
    ASSIGN_OR_RETURN(in.records, ReadPoolRecords(read));
    ASSIGN_OR_RETURN(in.votes.votes,
                     ratings::io::ToVoteSet(in.records.records, config.input, in.votes.agents));
  }
  // The shared batch tally (sparse), as elo-bt reads it.
  in.pairs = ratings::voting::TallyPairs(in.votes.votes);
  in.winner = ratings::CondorcetWinner(in.votes.agents.size(), in.pairs);
  return in;
}

// "ranking": the ranking under evaluation (a file, or config.method on the records), and
// how it fares against the results. Returns its agents best first.
absl::StatusOr<std::vector<ratings::AgentId>> RankingSection(const EvalConfig& config,
                                                             EvalInput& in, Struct& doc) {
  ratings::AgentIndex& index = in.votes.agents;
  const ratings::VoteSet& votes = in.votes.votes;
  std::vector<std::string> names;
  std::string source;
  if (!config.ranking.empty()) {
    ASSIGN_OR_RETURN(names, ReadRankingFile(config.ranking));
    source = config.ranking;
  } else {
    ASSIGN_OR_RETURN(names, RankWith(config, config.method, in.records.records, config.method));
    source = absl::StrCat("method ", config.method);
  }
  ASSIGN_OR_RETURN(std::vector<ratings::AgentId> ranking, ToIds(names, source, index));
  Struct& r = *(*doc.mutable_fields())["ranking"].mutable_struct_value();
  auto& f = *r.mutable_fields();
  f["source"] = StringValue(source);
  f["agents"] = NumberValue(static_cast<double>(ranking.size()));
  f["top"] = StringValue(index.Name(ranking[0]));
  f["top_is_condorcet_winner"] = BoolValue(in.winner.has_value() && ranking[0] == *in.winner);
  const std::vector<uint32_t> position = ratings::Positions(ranking, index.size());
  std::vector<size_t> all(votes.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (!all.empty()) {
    absl::StatusOr<double> mean = ratings::MeanVoteKendallTau(votes, all, position);
    if (!mean.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ": does not rank every agent of ", config.input));
    }
    f["ktd_to_results_mean"] = NumberValue(*mean);
  }
  return ranking;
}

// AGRE ([AE] Def. 3.3) over rankings of growing prefixes of the input; agents a prefix has
// not seen yet go last, by id (first seen first). `ranked` flags the agents of the ranking.
absl::StatusOr<double> Agre(const EvalConfig& config, const EvalInput& in,
                            const std::vector<bool>& ranked,
                            const std::vector<ratings::AgentId>& sub_truth, size_t k) {
  const ratings::AgentIndex& index = in.votes.agents;
  const std::vector<ratings::io::ResultRecord>& records = in.records.records;
  std::vector<std::vector<ratings::AgentId>> rounds;
  for (int64_t step = 1; step <= config.agre_steps; ++step) {
    const size_t count = static_cast<size_t>(
        std::ceil(static_cast<double>(records.size()) * step / config.agre_steps));
    ASSIGN_OR_RETURN(const std::vector<std::string> prefix_names,
                     RankWith(config, config.method, absl::MakeConstSpan(records).first(count),
                              absl::StrCat("agre ", step, "/", config.agre_steps)));
    std::vector<bool> placed(index.size(), false);
    std::vector<ratings::AgentId> order;
    for (const std::string& name : prefix_names) {
      const ratings::AgentId a = *index.Find(name);
      if (ranked[a]) {
        order.push_back(a);
        placed[a] = true;
      }
    }
    for (size_t a = 0; a < index.size(); ++a) {
      if (ranked[a] && !placed[a]) order.push_back(static_cast<ratings::AgentId>(a));
    }
    rounds.push_back(std::move(order));
  }
  return ratings::AverageGeneralizedTopKError(rounds, sub_truth, k);
}

// "truth": the ranking against the ground truth (KTD, top-k errors, AGRE).
absl::Status TruthSection(const EvalConfig& config, EvalInput& in,
                          const std::vector<ratings::AgentId>& ranking, Struct& doc) {
  ratings::AgentIndex& index = in.votes.agents;
  ASSIGN_OR_RETURN(const std::vector<std::string> names, ReadRankingFile(config.truth));
  ASSIGN_OR_RETURN(const std::vector<ratings::AgentId> truth, ToIds(names, config.truth, index));
  Struct& t = *(*doc.mutable_fields())["truth"].mutable_struct_value();
  auto& f = *t.mutable_fields();
  f["source"] = StringValue(config.truth);
  f["agents"] = NumberValue(static_cast<double>(truth.size()));
  f["top_is_condorcet_winner"] = BoolValue(in.winner.has_value() && truth[0] == *in.winner);
  if (ranking.empty()) return absl::OkStatus();
  absl::StatusOr<int64_t> ktd = ratings::KendallTauDistance(ranking, truth);
  if (!ktd.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(config.truth, ": the ranking holds agents the truth does not"));
  }
  ASSIGN_OR_RETURN(const double kn, ratings::NormalisedKendallTau(ranking, truth));
  f["agents_compared"] = NumberValue(static_cast<double>(ranking.size()));
  f["ktd"] = NumberValue(static_cast<double>(*ktd));
  f["ktd_normalised"] = NumberValue(kn);
  // IDE and GRE need one agent set: the truth restricted to the ranked agents.
  std::vector<bool> ranked(index.size(), false);
  for (ratings::AgentId a : ranking) ranked[a] = true;
  const std::vector<ratings::AgentId> sub_truth = Restrict(truth, ranked);
  const size_t k = std::min<size_t>(static_cast<size_t>(config.k), sub_truth.size());
  f["k"] = NumberValue(static_cast<double>(k));
  ASSIGN_OR_RETURN(const double ide, ratings::TopKIdentificationError(ranking, sub_truth, k));
  ASSIGN_OR_RETURN(const double gre, ratings::GeneralizedTopKError(ranking, sub_truth, k));
  f["identification_error"] = NumberValue(ide);
  f["gre"] = NumberValue(gre);
  if (config.agre_steps > 0) {
    ASSIGN_OR_RETURN(const double agre, Agre(config, in, ranked, sub_truth, k));
    f["agre"] = NumberValue(agre);
    f["agre_steps"] = NumberValue(static_cast<double>(config.agre_steps));
  }
  return absl::OkStatus();
}

// The same splits for every method ([SCO] §4.4), drawn from one seeded stream; their test
// sizes go to `sizes`.
absl::StatusOr<std::vector<ratings::TrainTestSplit>> Splits(const EvalConfig& config,
                                                            const ratings::VoteSet& votes,
                                                            ListValue& sizes) {
  std::mt19937_64 rng(config.seed);
  const size_t asked =
      std::max<size_t>(1, static_cast<size_t>(std::llround(config.test_fraction * votes.size())));
  std::vector<ratings::TrainTestSplit> splits;
  for (int64_t s = 0; s < config.splits; ++s) {
    splits.push_back(ratings::SplitTrainTest(votes, asked, rng));
    *sizes.add_values() = NumberValue(static_cast<double>(splits.back().test.size()));
    if (splits.back().test.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(config.input, ": split ", s + 1,
                       " has no test result whose agents all appear in "
                       "training; too few results for held-out evaluation"));
    }
  }
  return splits;
}

// One method's KTD_test per split, with their mean and sample standard deviation.
absl::StatusOr<Struct> HeldOutMethod(const EvalConfig& config, const EvalInput& in,
                                     const std::string& method,
                                     const std::vector<ratings::TrainTestSplit>& splits) {
  const ratings::AgentIndex& index = in.votes.agents;
  std::vector<double> values;
  for (size_t s = 0; s < splits.size(); ++s) {
    std::vector<ratings::io::ResultRecord> train;
    train.reserve(splits[s].train.size());
    for (size_t i : splits[s].train) train.push_back(in.records.records[i]);
    ASSIGN_OR_RETURN(const std::vector<std::string> names,
                     RankWith(config, method, train,
                              absl::StrCat(method, " split ", s + 1, "/", splits.size())));
    std::vector<ratings::AgentId> order;
    for (const std::string& name : names) order.push_back(*index.Find(name));
    const std::vector<uint32_t> position = ratings::Positions(order, index.size());
    ASSIGN_OR_RETURN(const double ktd,
                     ratings::MeanVoteKendallTau(in.votes.votes, splits[s].test, position));
    values.push_back(ktd);
  }
  double mean = 0.0, variance = 0.0;
  for (double v : values) mean += v / static_cast<double>(values.size());
  for (double v : values) variance += (v - mean) * (v - mean);
  const double std_dev =
      values.size() > 1 ? std::sqrt(variance / static_cast<double>(values.size() - 1)) : 0.0;
  Struct m;
  ListValue& list = *(*m.mutable_fields())["ktd_test"].mutable_list_value();
  for (double v : values) *list.add_values() = NumberValue(v);
  (*m.mutable_fields())["ktd_test_mean"] = NumberValue(mean);
  (*m.mutable_fields())["ktd_test_std"] = NumberValue(std_dev);
  return m;
}

// "held_out": KTD_test of each of config.methods over the same splits.
absl::Status HeldOutSection(const EvalConfig& config, const EvalInput& in, Struct& doc) {
  Struct& h = *(*doc.mutable_fields())["held_out"].mutable_struct_value();
  auto& f = *h.mutable_fields();
  f["splits"] = NumberValue(static_cast<double>(config.splits));
  f["test_fraction"] = NumberValue(config.test_fraction);
  ASSIGN_OR_RETURN(const std::vector<ratings::TrainTestSplit> splits,
                   Splits(config, in.votes.votes, *f["test_results"].mutable_list_value()));
  Struct& per_method = *f["methods"].mutable_struct_value();
  for (const std::string& method : config.methods) {
    ASSIGN_OR_RETURN(Struct scores, HeldOutMethod(config, in, method, splits));
    *(*per_method.mutable_fields())[method].mutable_struct_value() = std::move(scores);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Struct> RunEval(const EvalConfig& config) {
  RETURN_IF_ERROR(CheckEvalConfig(config));
  ASSIGN_OR_RETURN(EvalInput in, ReadEvalInput(config));
  const ratings::AgentIndex& index = in.votes.agents;
  Struct doc;
  auto& out = *doc.mutable_fields();
  out["input"] = StringValue(config.input);
  out["agents"] = NumberValue(static_cast<double>(index.size()));
  out["results"] = NumberValue(static_cast<double>(in.votes.votes.size()));
  out["condorcet_winner"] = in.winner ? StringValue(index.Name(*in.winner)) : NullValue();
  *out["weak_condorcet_winners"].mutable_list_value() =
      NamesList(ratings::WeakCondorcetWinners(index.size(), in.pairs), index);
  std::vector<ratings::AgentId> ranking;
  if (!config.ranking.empty() || !config.method.empty()) {
    ASSIGN_OR_RETURN(ranking, RankingSection(config, in, doc));
  }
  if (!config.truth.empty()) RETURN_IF_ERROR(TruthSection(config, in, ranking, doc));
  if (!config.methods.empty()) RETURN_IF_ERROR(HeldOutSection(config, in, doc));
  return doc;
}

}  // namespace ratingd
