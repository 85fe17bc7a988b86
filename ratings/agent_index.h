// Interning of agent ids: string <-> dense AgentId, in first-seen order.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"
#include "ratings/result.h"

namespace ratings {

// Not thread-safe; owned by one Pool. (absl::string_view, not std::: Debian's Abseil
// keeps its own string_view type, and the hash set looks up by it.) Ids are assigned 0, 1, 2, ...
// in the order agents are first seen, so the same input order gives the same ids (determinism).
//
// Each name is held once, in the names vector; the hash set holds only ids, hashed and
// compared through that vector (4 bytes a slot instead of a second copy of the name: a
// million agents intern in a table of 8 MB, not 80). The vector lives on the heap so that
// the set's functors, which point at it, stay valid when the index is moved; a copy builds
// its own set.
class AgentIndex {
 public:
  AgentIndex() : AgentIndex(std::make_unique<std::vector<std::string>>()) {}
  AgentIndex(const AgentIndex& other);
  AgentIndex& operator=(const AgentIndex& other);
  AgentIndex(AgentIndex&&) noexcept = default;
  AgentIndex& operator=(AgentIndex&&) noexcept = default;

  // The id of `name`, adding it if new.
  AgentId Intern(absl::string_view name);
  // Room for n agents in all, so that interning that many does not rehash.
  void Reserve(size_t n);
  // The id of `name`, or nullptr if never seen. The pointer is valid until the next Intern.
  const AgentId* Find(absl::string_view name) const;
  // Precondition: id < size().
  const std::string& Name(AgentId id) const { return (*names_)[id]; }
  size_t size() const { return names_->size(); }
  // Every name, by id.
  const std::vector<std::string>& names() const { return *names_; }

 private:
  // Hash and equality of an id by its name, and of a name looked up (heterogeneous lookup).
  struct ByName {
    using is_transparent = void;
    const std::vector<std::string>* names;
    absl::string_view Of(AgentId id) const { return (*names)[id]; }
    absl::string_view Of(absl::string_view name) const { return name; }
    template <typename A>
    size_t operator()(const A& a) const {
      return absl::Hash<absl::string_view>{}(Of(a));
    }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return Of(a) == Of(b);
    }
  };
  explicit AgentIndex(std::unique_ptr<std::vector<std::string>> names);

  std::unique_ptr<std::vector<std::string>> names_;
  absl::flat_hash_set<AgentId, ByName, ByName> ids_;
};

}  // namespace ratings
