#include "daemon/rate_command.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "daemon/model_params.h"
#include "daemon/voting_methods.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/type_resolver_util.h"
#include "ratings/pool.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

Value Number(double x) {
  Value v;
  v.set_number_value(x);
  return v;
}

ratings::PoolOptions OptionsFor(const std::string& method) {
  ratings::PoolOptions options;
  options.elo = method == "elo";
  options.sco = method == "sco";
  options.ml = method == "ml";
  return options;
}

// Every parameter of the method with its effective value, for reproducibility.
Struct ParamsOf(const std::string& method, const ratings::PoolOptions& o) {
  Struct params;
  auto& f = *params.mutable_fields();
  if (method == "elo") {
    f["k"] = Number(o.elo_options.k);
    f["initial"] = Number(o.elo_options.initial);
  } else if (method == "sco") {
    f["alpha"] = Number(o.sco_options.alpha);
    f["tau"] = Number(o.sco_options.tau);
    f["min"] = Number(o.sco_options.min);
    f["max"] = Number(o.sco_options.max);
  } else if (method == "ml") {
    f["target"] = Number(o.ml_options.target_exploitability);
    f["support_threshold"] = Number(o.ml_options.support_threshold);
    f["max_iterations"] = Number(static_cast<double>(o.ml_options.max_iterations));
    f["iterations_per_result"] = Number(static_cast<double>(o.ml_options.iterations_per_result));
    f["max_agents"] = Number(static_cast<double>(o.ml_options.max_agents));
    f["variant"].set_string_value(std::string(VariantName(o.ml_options.variant)));
  }
  return params;
}

void AddRanking(const std::vector<ratings::RankedAgent>& ranked, const ratings::AgentIndex& index,
                v1::RatingReport& report) {
  for (const ratings::RankedAgent& r : ranked) {
    v1::RankedAgent* out = report.add_ranking();
    out->set_rank(r.rank);
    out->set_agent(index.Name(r.id));
    out->set_rating(r.rating);
  }
}

// The pool to rate: all records must belong to one pool, or config.pool picks one.
absl::StatusOr<std::string> ChoosePool(const RateConfig& config,
                                       const std::vector<ratings::io::ResultRecord>& records) {
  if (!config.pool.empty()) return config.pool;
  std::set<std::string> pools;
  for (const auto& r : records) pools.insert(r.pool);
  if (pools.size() <= 1) return pools.empty() ? std::string() : *pools.begin();
  std::vector<std::string> first(pools.begin(), pools.end());
  if (first.size() > 5) first.resize(5);
  return absl::InvalidArgumentError(absl::StrCat(
      config.input, ": holds results of ", pools.size(), " pools (", absl::StrJoin(first, ", "),
      pools.size() > 5 ? ", ..." : "", "); ratings never mix pools: choose one with --pool"));
}

}  // namespace

std::vector<std::string> RateMethods() {
  std::vector<std::string> methods = {"elo", "sco", "ml"};
  for (std::string& m : VotingMethods()) methods.push_back(std::move(m));
  return methods;
}

absl::StatusOr<v1::RatingReport> RunRate(const RateConfig& config) {
  const std::vector<std::string> methods = RateMethods();
  if (std::find(methods.begin(), methods.end(), config.method) == methods.end()) {
    return absl::InvalidArgumentError(absl::StrCat("--method: unknown method '", config.method,
                                                   "'; known: ", absl::StrJoin(methods, ", ")));
  }
  if (IsVotingMethod(config.method)) return RunVotingRate(config);
  ratings::PoolOptions options = OptionsFor(config.method);
  options.seed = config.seed;
  for (const std::string& p : config.params) {
    RETURN_IF_ERROR(ApplyModelParam(config.method, p, options));
  }
  ASSIGN_OR_RETURN(ratings::Pool pool, ratings::Pool::Create(options));

  ratings::io::Format format;
  if (config.format.has_value()) {
    format = *config.format;
  } else {
    ASSIGN_OR_RETURN(format, ratings::io::InferFormat(config.input));
  }
  ASSIGN_OR_RETURN(ratings::io::ReadOutput input,
                   ratings::io::ReadResultsFile(config.input, format, options.limits));
  ASSIGN_OR_RETURN(const std::string chosen, ChoosePool(config, input.records));

  for (const ratings::io::ResultRecord& record : input.records) {
    if (record.pool != chosen) continue;
    absl::Status applied = pool.Apply(record.result);
    if (!applied.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(config.input, ":", record.line, ": ", applied.message()));
    }
  }

  v1::RatingReport report;
  report.set_method(config.method);
  report.set_agents(static_cast<uint32_t>(pool.index().size()));
  report.set_results(static_cast<uint32_t>(pool.results()));
  auto& extra = *report.mutable_extra()->mutable_fields();
  *extra["params"].mutable_struct_value() = ParamsOf(config.method, options);
  extra["seed"] = Number(static_cast<double>(config.seed));
  extra["skipped_votes"] = Number(static_cast<double>(input.skipped_votes));

  if (const ratings::Elo* elo = pool.elo()) {
    AddRanking(ratings::RankByRating(elo->ratings(), pool.index()), pool.index(), report);
  } else if (const ratings::Sco* sco = pool.sco()) {
    AddRanking(ratings::RankByRating(sco->ratings(), pool.index()), pool.index(), report);
  } else {
    ratings::MaximalLottery& ml = *pool.mutable_ml();
    ASSIGN_OR_RETURN(const ratings::SolveStats stats, ml.Solve());
    const std::vector<double> lottery = ml.Lottery();
    const std::vector<double> rating = ml.Ratings();
    AddRanking(ratings::RankByProbabilityThenRating(lottery, rating, pool.index()), pool.index(),
               report);
    Struct& out = *extra["lottery"].mutable_struct_value();
    for (size_t a = 0; a < lottery.size(); ++a) {
      (*out.mutable_fields())[pool.index().Name(static_cast<ratings::AgentId>(a))] =
          Number(lottery[a]);
    }
    extra["exploitability"] = Number(ml.Exploitability());
    extra["iterations"] = Number(static_cast<double>(ml.iterations()));
    extra["converged"].set_bool_value(stats.converged);
  }
  return report;
}

absl::StatusOr<std::string> ReportToJson(const v1::RatingReport& report) {
  // Serialise deterministically (sorted map keys) and print from the bytes: the
  // message-based printer would walk Struct's hash map in a per-process order.
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    if (!report.SerializeToCodedStream(&coded)) {
      return absl::InternalError("cannot serialise the rating report");
    }
  }
  static google::protobuf::util::TypeResolver* const resolver =
      google::protobuf::util::NewTypeResolverForDescriptorPool(
          "type.googleapis.com", google::protobuf::DescriptorPool::generated_pool());
  google::protobuf::util::JsonPrintOptions json;
  json.always_print_primitive_fields = true;
  json.preserve_proto_field_names = true;
  std::string out;
  const auto status = google::protobuf::util::BinaryToJsonString(
      resolver, absl::StrCat("type.googleapis.com/", report.GetDescriptor()->full_name()), bytes,
      &out, json);
  if (!status.ok()) {
    return absl::InternalError(absl::StrCat("cannot print the report: ", status.ToString()));
  }
  return out;
}

std::string ReportToTable(const v1::RatingReport& report) {
  const bool ml = report.method() == "ml" || report.method() == "ml-exact";
  const auto& extra = report.extra().fields();
  size_t width = 5;
  for (const auto& r : report.ranking()) width = std::max(width, r.agent().size());
  std::string out = absl::StrFormat("%s: %u agents, %u results\n", report.method(), report.agents(),
                                    report.results());
  absl::StrAppendFormat(&out, "%4s  %-*s  %12s%s\n", "rank", static_cast<int>(width), "agent",
                        "rating", ml ? "  probability" : "");
  for (const auto& r : report.ranking()) {
    absl::StrAppendFormat(&out, "%4u  %-*s  %12.4f", r.rank(), static_cast<int>(width), r.agent(),
                          r.rating());
    if (ml) {
      const auto& lottery = extra.at("lottery").struct_value().fields();
      absl::StrAppendFormat(&out, "  %11.4f", lottery.at(r.agent()).number_value());
    }
    out += "\n";
  }
  if (ml && extra.count("iterations") == 0) {  // ml-exact: an LP, no iterations
    absl::StrAppendFormat(&out, "exploitability %.2e (exact)\n",
                          extra.at("exploitability").number_value());
  } else if (ml) {
    absl::StrAppendFormat(&out, "exploitability %.2e after %.0f iterations\n",
                          extra.at("exploitability").number_value(),
                          extra.at("iterations").number_value());
  }
  return out;
}

}  // namespace ratingd
