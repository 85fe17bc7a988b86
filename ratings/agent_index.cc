#include "ratings/agent_index.h"

#include <utility>

namespace ratings {

AgentIndex::AgentIndex(std::unique_ptr<std::vector<std::string>> names)
    : names_(std::move(names)), ids_(0, ByName{names_.get()}, ByName{names_.get()}) {
  ids_.reserve(names_->size());
  for (size_t id = 0; id < names_->size(); ++id) ids_.insert(static_cast<AgentId>(id));
}

AgentIndex::AgentIndex(const AgentIndex& other)
    : AgentIndex(std::make_unique<std::vector<std::string>>(*other.names_)) {}

AgentIndex& AgentIndex::operator=(const AgentIndex& other) {
  if (this != &other) *this = AgentIndex(other);
  return *this;
}

AgentId AgentIndex::Intern(absl::string_view name) {
  const auto next = static_cast<AgentId>(names_->size());
  // One hash and probe: the slot is filled only for a new name, after its copy is kept.
  return *ids_.lazy_emplace(name, [&](const auto& construct) {
    names_->emplace_back(name);
    construct(next);
  });
}

void AgentIndex::Reserve(size_t n) {
  ids_.reserve(n);
  names_->reserve(n);
}

const AgentId* AgentIndex::Find(absl::string_view name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? nullptr : &*it;
}

}  // namespace ratings
