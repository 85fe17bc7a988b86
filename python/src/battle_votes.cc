// rate() on a battles DataFrame for the methods that rate votes (batch fits and voting
// rules): the battles go straight from their codes into a VoteSet, without a ResultRecord
// per battle. The set is the one ToVoteSet builds from the same battles read as records
// (ratings/io/records_to_votes.h): agents interned in battle order, model_a before model_b;
// so the report is the same. The Python side (ratingd/_rate.py) takes this path only for
// battles the battles reader would accept; any other frame goes through the records.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "daemon/methods/method_registry.h"
#include "python/src/records.h"
#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"
#include "ratings/status_macros.h"

namespace ratingd::python {
namespace {

// outcome[i]: 0 model_a won, 1 model_b won, 2 a tie.
enum Outcome : int8_t { kFirstWins = 0, kSecondWins = 1, kTie = 2 };

// The votes of n battles: vote i ranks a[i] and b[i] as its outcome says.
absl::StatusOr<ratings::VoteSet> BattleVotes(size_t agents, Column<int64_t> a, Column<int64_t> b,
                                             Column<int8_t> outcome) {
  const size_t n = a.shape(0);
  ratings::VoteSet::Arrays arrays;
  arrays.offsets.resize(n + 1);
  arrays.agents.resize(2 * n);
  arrays.ranks.resize(2 * n);
  bool best_first = true;  // no vote ranks its second agent first
  for (size_t i = 0; i < n; ++i) {
    if (a(i) < 0 || b(i) < 0 || static_cast<size_t>(a(i)) >= agents ||
        static_cast<size_t>(b(i)) >= agents || a(i) == b(i) || outcome(i) < kFirstWins ||
        outcome(i) > kTie) {
      return absl::InternalError(absl::StrCat("battle #", i, ": codes out of range"));
    }
    arrays.offsets[i] = 2 * i;
    arrays.agents[2 * i] = static_cast<ratings::AgentId>(a(i));
    arrays.agents[2 * i + 1] = static_cast<ratings::AgentId>(b(i));
    arrays.ranks[2 * i] = outcome(i) == kSecondWins ? 2 : 1;
    arrays.ranks[2 * i + 1] = outcome(i) == kFirstWins ? 2 : 1;
    best_first = best_first && outcome(i) != kSecondWins;
  }
  arrays.offsets[n] = 2 * n;
  if (!best_first) {  // then every vote's best-first view, with dense ranks
    arrays.best_first_agents.resize(2 * n);
    arrays.dense_ranks.resize(2 * n);
    for (size_t i = 0; i < n; ++i) {
      const bool swap = outcome(i) == kSecondWins;
      arrays.best_first_agents[2 * i] = arrays.agents[2 * i + (swap ? 1 : 0)];
      arrays.best_first_agents[2 * i + 1] = arrays.agents[2 * i + (swap ? 0 : 1)];
      arrays.dense_ranks[2 * i] = 1;
      arrays.dense_ranks[2 * i + 1] = outcome(i) == kTie ? 1 : 2;
    }
  }
  return ratings::VoteSet::FromArrays(std::move(arrays), agents);
}

// names: the agents in id order (each code's name); a, b, outcome as BattleVotes takes them.
std::string RateBattleVotes(const std::vector<std::string>& names, Column<int64_t> a,
                            Column<int64_t> b, Column<int8_t> outcome, const std::string& method,
                            std::vector<std::string> params, uint64_t seed) {
  if (b.shape(0) != a.shape(0) || outcome.shape(0) != a.shape(0)) {
    throw nb::value_error("internal: battle columns of different lengths");
  }
  RateConfig config;
  config.method = method;
  config.params = std::move(params);
  config.seed = seed;
  config.input = "DataFrame";
  absl::StatusOr<v1::RatingReport> report;
  {
    nb::gil_scoped_release release;
    report = [&]() -> absl::StatusOr<v1::RatingReport> {
      ASSIGN_OR_RETURN(const MethodInfo* info, FindMethod(method));
      if (info->input != MethodInput::kVotes) {
        return absl::InternalError(absl::StrCat(method, " does not rate votes"));
      }
      ASSIGN_OR_RETURN(const std::unique_ptr<MethodRun> run, PrepareMethod(config));
      ratings::AgentIndex index;
      index.Reserve(names.size());
      for (const std::string& name : names) index.Intern(name);
      if (index.size() != names.size()) return absl::InternalError("repeated agent names");
      ASSIGN_OR_RETURN(const ratings::VoteSet votes, BattleVotes(names.size(), a, b, outcome));
      return run->RateVotes(config, index, votes, 0);
    }();
  }
  if (!report.ok()) Raise(report.status());
  return Json(*report);
}

// The objects of a 1-D numpy object array (its buffer: PyObject pointers, strided as a
// DataFrame column's view may be). Holds a view of the array while it lives.
class ObjectColumn {
 public:
  explicit ObjectColumn(nb::handle array) {
    if (PyObject_GetBuffer(array.ptr(), &view_, PyBUF_FORMAT | PyBUF_STRIDES) != 0) {
      throw nb::python_error();
    }
    held_ = true;
    if (view_.ndim != 1 || view_.itemsize != sizeof(PyObject*) || view_.format == nullptr ||
        std::string(view_.format) != "O") {
      throw nb::type_error("internal: expected a 1-D numpy array of objects");
    }
    stride_ = view_.strides[0];
  }
  ~ObjectColumn() {
    if (held_) PyBuffer_Release(&view_);
  }
  ObjectColumn(const ObjectColumn&) = delete;
  ObjectColumn& operator=(const ObjectColumn&) = delete;
  size_t size() const { return static_cast<size_t>(view_.shape[0]); }
  PyObject* operator[](size_t i) const {
    return *reinterpret_cast<PyObject* const*>(static_cast<const char*>(view_.buf) +
                                               static_cast<Py_ssize_t>(i) * stride_);
  }

 private:
  Py_buffer view_{};
  bool held_ = false;
  Py_ssize_t stride_ = 0;
};

// pd.factorize of the columns read row by row (row 0 of each column, then row 1, ...), for
// str values only: (codes, uniques in order of first appearance), code -1 for any value
// that is not a str. What pandas does, without Python's per-element cost.
nb::tuple FactorizeRows(const nb::list& columns) {
  std::vector<std::unique_ptr<ObjectColumn>> cols;
  for (nb::handle c : columns) cols.push_back(std::make_unique<ObjectColumn>(c));
  const size_t n = cols.empty() ? 0 : cols[0]->size();
  for (const auto& c : cols) {
    if (c->size() != n) throw nb::value_error("internal: columns of different lengths");
  }
  std::vector<int64_t>* codes = new std::vector<int64_t>(n * cols.size());
  nb::capsule owner(codes, [](void* p) noexcept { delete static_cast<std::vector<int64_t>*>(p); });
  absl::flat_hash_map<std::string_view, int64_t> index;
  nb::list uniques;
  PyObject* last = nullptr;  // the same object again: the same code, without a lookup
  int64_t last_code = -1;
  // Each value is its own allocation, so the loop waits on memory: fetch ahead.
  constexpr size_t kAhead = 16;
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < cols.size(); ++c) {
      if (i + kAhead < n) {
        const char* ahead = reinterpret_cast<const char*>((*cols[c])[i + kAhead]);
        __builtin_prefetch(ahead);
        __builtin_prefetch(ahead + 64);
      }
      PyObject* value = (*cols[c])[i];
      int64_t code = -1;
      if (value == last) {
        code = last_code;
      } else if (PyUnicode_Check(value)) {
        Py_ssize_t size = 0;
        const char* utf8 = PyUnicode_AsUTF8AndSize(value, &size);
        if (utf8 == nullptr) {
          PyErr_Clear();  // a lone surrogate: not a name the readers take
        } else {
          const auto [it, added] =
              index.try_emplace(std::string_view(utf8, static_cast<size_t>(size)),
                                static_cast<int64_t>(index.size()));
          if (added) uniques.append(nb::handle(value));
          code = it->second;
        }
        last = value;
        last_code = code;
      }
      (*codes)[i * cols.size() + c] = code;
    }
  }
  return nb::make_tuple(
      nb::ndarray<nb::numpy, int64_t, nb::ndim<1>>(codes->data(), {codes->size()}, owner), uniques);
}

}  // namespace

void BindBattleVotes(nb::module_& m) {
  m.def("rate_battle_votes", &RateBattleVotes);
  m.def("factorize_rows", &FactorizeRows);
}

}  // namespace ratingd::python
