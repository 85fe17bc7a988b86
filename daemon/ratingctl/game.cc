#include "daemon/ratingctl/game.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "Eigen/Core"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/game_params.h"
#include "daemon/param_table.h"
#include "google/protobuf/util/json_util.h"
#include "ratings/games/affinity_entropy.h"
#include "ratings/games/annealed_qre.h"
#include "ratings/games/max_entropy_cce.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

namespace games = ratings::games;
using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;

// A game with the names of its players and their actions, in the document's order.
struct NamedGame {
  std::vector<std::string> players = {};
  std::vector<std::vector<std::string>> actions = {};  // per player
  games::NormalFormGame game = {};
};

// The path of the value a scan stands in, e.g. "payoffs[0][3]" or "players[1].name".
struct Frame {
  bool object = false;
  std::string key = {};  // object: the current key, as written (escapes kept)
  size_t index = 0;      // array: the current element
};

std::string PathOf(const std::vector<Frame>& stack) {
  std::string path;
  for (size_t k = 0; k < stack.size(); ++k) {
    if (stack[k].object) {
      absl::StrAppend(&path, k == 0 ? "" : ".", stack[k].key);
    } else {
      absl::StrAppend(&path, "[", stack[k].index, "]");
    }
  }
  return path.empty() ? "(the document)" : path;
}

// Protobuf's parser rejects NaN, Infinity and numbers beyond a double's range (JSON has no
// non-finite numbers) with a message that shows the text but not the field. This scans the
// tokens of `json`, following objects and arrays, for the first such literal and names its
// path: "payoffs[0][3]: not finite (NaN is not a JSON number)". nullopt if there is none
// before the text stops being JSON; only used to explain a failed parse.
// The error for a literal `token` (at the path of `stack`) that is no finite JSON number:
// NaN, Infinity, or a number beyond the range of a double.
std::optional<std::string> NonFinite(absl::string_view token, const std::vector<Frame>& stack) {
  std::string word = absl::AsciiStrToLower(token);
  if (!word.empty() && (word[0] == '-' || word[0] == '+')) word.erase(0, 1);
  if (word == "nan" || word == "infinity" || word == "inf") {
    return absl::StrCat(PathOf(stack), ": not finite (", token, " is not a JSON number)");
  }
  double number = 0;
  if (absl::SimpleAtod(token, &number) && std::isinf(number)) {
    return absl::StrCat(PathOf(stack), ": not finite (", token,
                        " is beyond the range of a double)");
  }
  return std::nullopt;
}

std::optional<std::string> FindNonFiniteLiteral(absl::string_view json) {
  std::vector<Frame> stack;
  bool expect_key = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) continue;
    switch (c) {
      case '{':
        stack.push_back({.object = true});
        expect_key = true;
        break;
      case '[':
        stack.push_back({.object = false});
        break;
      case '}':
      case ']':
        if (stack.empty()) return std::nullopt;
        stack.pop_back();
        break;
      case ',':
        if (stack.empty()) return std::nullopt;
        if (stack.back().object) {
          expect_key = true;
        } else {
          ++stack.back().index;
        }
        break;
      case ':':
        expect_key = false;
        break;
      case '"': {
        size_t end = i + 1;
        while (end < json.size() && json[end] != '"') end += json[end] == '\\' ? 2 : 1;
        if (end >= json.size()) return std::nullopt;
        if (!stack.empty() && stack.back().object && expect_key) {
          stack.back().key = std::string(json.substr(i + 1, end - i - 1));
        }
        i = end;
        break;
      }
      default: {
        size_t end = i;
        while (end < json.size() && !absl::ascii_isspace(static_cast<unsigned char>(json[end])) &&
               absl::string_view(",:[]{}\"").find(json[end]) == absl::string_view::npos) {
          ++end;
        }
        if (std::optional<std::string> error = NonFinite(json.substr(i, end - i), stack)) {
          return error;
        }
        i = end - 1;
        break;
      }
    }
  }
  return std::nullopt;
}

// Protobuf's parse errors read "<reason>\n<up to 40 characters of the input>\n<caret>": this
// turns one into a single line "LINE:COLUMN: malformed JSON: <reason>" when the excerpt is
// found in the input, else the message with its line breaks replaced.
std::string DescribeParseError(absl::string_view json, absl::string_view message) {
  const size_t first = message.find('\n');
  const size_t last = message.rfind('\n');
  if (first != absl::string_view::npos && last > first) {
    const absl::string_view reason = message.substr(0, first);
    const absl::string_view excerpt = message.substr(first + 1, last - first - 1);
    const absl::string_view caret = message.substr(last + 1);
    // At the end of the input the excerpt is empty.
    const size_t at = excerpt.empty() ? json.size() : json.find(excerpt);
    if (!caret.empty() && caret.back() == '^' && at != absl::string_view::npos) {
      const size_t offset = std::min(at + caret.size() - 1, json.size());
      const absl::string_view before = json.substr(0, offset);
      const size_t line = 1 + static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
      const size_t line_start = before.rfind('\n');
      const size_t column =
          line_start == absl::string_view::npos ? offset + 1 : offset - line_start;
      return absl::StrCat(line, ":", column, ": malformed JSON: ", reason);
    }
  }
  std::string flat = absl::StrReplaceAll(message, {{"\n", " "}});
  return absl::StrCat("malformed JSON: ",
                      absl::StripAsciiWhitespace(absl::StripPrefix(flat, ": ")));
}

// InvalidArgument naming the first field of `object` (alphabetically) not in `known`.
absl::Status CheckFields(const Struct& object, const std::vector<std::string>& known,
                         const std::string& prefix) {
  std::vector<std::string> unknown;
  for (const auto& [key, value] : object.fields()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) unknown.push_back(key);
  }
  if (unknown.empty()) return absl::OkStatus();
  std::sort(unknown.begin(), unknown.end());
  return absl::InvalidArgumentError(absl::StrCat(
      prefix, unknown.front(), ": unknown field; known: ", absl::StrJoin(known, ", ")));
}

// The list at `key` of `object`, or InvalidArgument "<path>: missing" / "not a list".
absl::StatusOr<const ListValue*> ListField(const Struct& object, const std::string& key,
                                           const std::string& path) {
  const auto it = object.fields().find(key);
  if (it == object.fields().end()) return absl::InvalidArgumentError(path + ": missing");
  if (!it->second.has_list_value()) return absl::InvalidArgumentError(path + ": not a list");
  return &it->second.list_value();
}

// A non-empty string unique among `seen` (name -> path of its first use).
absl::StatusOr<std::string> UniqueName(const Value& value, const std::string& path,
                                       const char* what,
                                       absl::flat_hash_map<std::string, std::string>& seen) {
  if (!value.has_string_value()) return absl::InvalidArgumentError(path + ": not a string");
  const std::string& name = value.string_value();
  if (name.empty()) return absl::InvalidArgumentError(path + ": empty name");
  const auto [it, added] = seen.try_emplace(name, path);
  if (!added) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": duplicate ", what, " '", name, "' (also ", it->second, ")"));
  }
  return name;
}

absl::Status ParsePlayers(const Struct& doc, NamedGame& out) {
  ASSIGN_OR_RETURN(const ListValue* players, ListField(doc, "players", "players"));
  if (players->values().empty()) return absl::InvalidArgumentError("players: no player");
  absl::flat_hash_map<std::string, std::string> player_names;
  for (int i = 0; i < players->values_size(); ++i) {
    const std::string path = absl::StrCat("players[", i, "]");
    const Value& player = players->values(i);
    if (!player.has_struct_value()) return absl::InvalidArgumentError(path + ": not an object");
    const Struct& fields = player.struct_value();
    RETURN_IF_ERROR(CheckFields(fields, {"name", "actions"}, path + "."));
    const auto name = fields.fields().find("name");
    if (name == fields.fields().end()) return absl::InvalidArgumentError(path + ".name: missing");
    ASSIGN_OR_RETURN(std::string player_name,
                     UniqueName(name->second, path + ".name", "player", player_names));
    ASSIGN_OR_RETURN(const ListValue* actions, ListField(fields, "actions", path + ".actions"));
    if (actions->values().empty()) {
      return absl::InvalidArgumentError(path + ".actions: empty; a player needs an action");
    }
    absl::flat_hash_map<std::string, std::string> action_names;
    std::vector<std::string> names;
    for (int a = 0; a < actions->values_size(); ++a) {
      ASSIGN_OR_RETURN(std::string action,
                       UniqueName(actions->values(a), absl::StrCat(path, ".actions[", a, "]"),
                                  "action", action_names));
      names.push_back(std::move(action));
    }
    out.players.push_back(std::move(player_name));
    out.game.actions.push_back(names.size());
    out.actions.push_back(std::move(names));
  }
  return absl::OkStatus();
}

absl::Status ParsePayoffs(const Struct& doc, NamedGame& out) {
  ASSIGN_OR_RETURN(const ListValue* payoffs, ListField(doc, "payoffs", "payoffs"));
  if (static_cast<size_t>(payoffs->values_size()) != out.players.size()) {
    return absl::InvalidArgumentError(absl::StrCat("payoffs: ", payoffs->values_size(),
                                                   " arrays, expected ", out.players.size(),
                                                   " (one per player)"));
  }
  for (int i = 0; i < payoffs->values_size(); ++i) {
    const Value& tensor = payoffs->values(i);
    if (!tensor.has_list_value()) {
      return absl::InvalidArgumentError(absl::StrCat("payoffs[", i, "]: not a list"));
    }
    std::vector<double> values;
    values.reserve(static_cast<size_t>(tensor.list_value().values_size()));
    for (int k = 0; k < tensor.list_value().values_size(); ++k) {
      const Value& v = tensor.list_value().values(k);
      if (!v.has_number_value()) {
        return absl::InvalidArgumentError(absl::StrCat("payoffs[", i, "][", k, "]: not a number"));
      }
      if (!std::isfinite(v.number_value())) {  // in case a parser lets one through
        return absl::InvalidArgumentError(absl::StrCat("payoffs[", i, "][", k, "]: not finite"));
      }
      values.push_back(v.number_value());
    }
    out.game.payoffs.push_back(std::move(values));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::stringstream buffer;
  buffer << file.rdbuf();
  if (file.bad()) return absl::DataLossError(absl::StrCat(path, ": cannot read"));
  return buffer.str();
}

// One player's entry of the document.
Value PlayerEntry(const std::string& name, const std::vector<std::string>& actions,
                  const Eigen::VectorXd& probability, const Eigen::VectorXd& rating) {
  Value player;
  auto& fields = *player.mutable_struct_value()->mutable_fields();
  fields["name"] = StringValue(name);
  ListValue* list = fields["actions"].mutable_list_value();
  for (size_t a = 0; a < actions.size(); ++a) {
    const auto at = static_cast<Eigen::Index>(a);
    Value action;
    auto& f = *action.mutable_struct_value()->mutable_fields();
    f["action"] = StringValue(actions[a]);
    f["probability"] = NumberValue(probability[at]);
    f["rating"] = NumberValue(rating[at]);
    *list->add_values() = std::move(action);
  }
  return player;
}

bool AllFinite(const std::vector<Eigen::VectorXd>& vectors) {
  return std::all_of(vectors.begin(), vectors.end(),
                     [](const Eigen::VectorXd& v) { return v.allFinite(); });
}

// The game of a document (see RunGame), or InvalidArgument naming the field.
absl::StatusOr<NamedGame> ParseGameJson(absl::string_view json) {
  Struct doc;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), &doc);
  if (!parsed.ok()) {
    if (std::optional<std::string> where = FindNonFiniteLiteral(json)) {
      return absl::InvalidArgumentError(*where);
    }
    return absl::InvalidArgumentError(DescribeParseError(
        json, absl::string_view(parsed.message().data(), parsed.message().size())));
  }
  RETURN_IF_ERROR(CheckFields(doc, {"players", "payoffs"}, ""));
  NamedGame out;
  RETURN_IF_ERROR(ParsePlayers(doc, out));
  RETURN_IF_ERROR(ParsePayoffs(doc, out));
  // The counts, the lengths (product of the action counts) and the joint-action limit.
  RETURN_IF_ERROR(games::ValidateGame(out.game));
  return out;
}

}  // namespace

absl::StatusOr<Struct> RunGame(const GameConfig& config) {
  if (config.solver != "ne" && config.solver != "cce") {
    return absl::InvalidArgumentError(
        absl::StrCat("--solver: unknown solver '", config.solver, "'; known: ne, cce"));
  }
  const bool nash = config.solver == "ne";
  GameSolverParams params;
  ParamTable table = GameSolverParamTable(config.solver, nash, params);
  RETURN_IF_ERROR(table.Apply(config.params));
  ASSIGN_OR_RETURN(const std::string content, ReadFile(config.input));
  absl::StatusOr<NamedGame> named = ParseGameJson(content);
  if (!named.ok()) {
    // "FILE:LINE:COLUMN: malformed JSON: ..." like other input errors, else "FILE: field: ...".
    const absl::string_view message = named.status().message();
    const bool located =
        !message.empty() && absl::ascii_isdigit(static_cast<unsigned char>(message.front()));
    return absl::InvalidArgumentError(absl::StrCat(config.input, located ? ":" : ": ", message));
  }
  const games::NormalFormGame& game = named->game;
  const GameSolution solution = SolveGame(game, nash, params);
  const games::Profile& probabilities = solution.mass;
  const std::vector<Eigen::VectorXd>& ratings = solution.ratings;
  const double exploitability = solution.exploitability;

  Struct doc;
  auto& fields = *doc.mutable_fields();
  fields["solver"] = StringValue(config.solver);
  *fields["params"].mutable_struct_value() = table.Values();
  fields["steps"] = NumberValue(static_cast<double>(solution.steps));
  fields["converged"] = BoolValue(solution.converged);
  bool finite = std::isfinite(exploitability) && AllFinite(probabilities) && AllFinite(ratings);
  for (const auto& [name, value] : solution.figures) {
    fields[name] = NumberValue(value);
    finite = finite && std::isfinite(value);
  }
  if (!finite) {
    return absl::FailedPreconditionError(
        absl::StrCat(config.input, ": the ", config.solver,
                     " solve overflowed (a probability or rating is not finite); rescale the "
                     "payoffs to a smaller range"));
  }
  fields["exploitability"] = NumberValue(exploitability);
  ListValue* players = fields["players"].mutable_list_value();
  for (size_t i = 0; i < game.players(); ++i) {
    *players->add_values() =
        PlayerEntry(named->players[i], named->actions[i], probabilities[i], ratings[i]);
  }
  return doc;
}

}  // namespace ratingd
