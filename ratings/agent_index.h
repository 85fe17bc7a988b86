// Interning of agent ids: string <-> dense AgentId, in first-seen order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "ratings/result.h"

namespace ratings {

// Not thread-safe; owned by one Pool. (absl::string_view, not std::: Debian's Abseil
// keeps its own string_view type, and the hash map looks up by it.) Ids are assigned 0, 1, 2, ...
// in the order agents are first seen, so the same input order gives the same ids (determinism).
class AgentIndex {
 public:
  // The id of `name`, adding it if new.
  AgentId Intern(absl::string_view name);
  // Room for n agents in all, so that interning that many does not rehash.
  void Reserve(size_t n);
  // The id of `name`, or nullptr if never seen. The pointer is valid until the next Intern.
  const AgentId* Find(absl::string_view name) const;
  // Precondition: id < size().
  const std::string& Name(AgentId id) const { return names_[id]; }
  size_t size() const { return names_.size(); }
  // Every name, by id.
  const std::vector<std::string>& names() const { return names_; }

 private:
  absl::flat_hash_map<std::string, AgentId> ids_;
  std::vector<std::string> names_;
};

}  // namespace ratings
