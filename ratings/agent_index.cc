#include "ratings/agent_index.h"

namespace ratings {

AgentId AgentIndex::Intern(absl::string_view name) {
  auto [it, inserted] = ids_.try_emplace(name, static_cast<AgentId>(names_.size()));
  if (inserted) names_.emplace_back(name);
  return it->second;
}

void AgentIndex::Reserve(size_t n) {
  ids_.reserve(n);
  names_.reserve(n);
}

const AgentId* AgentIndex::Find(absl::string_view name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? nullptr : &it->second;
}

}  // namespace ratings
