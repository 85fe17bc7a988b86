#include "ratings/games/normal_form_game.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"

namespace ratings::games {
namespace {

template <typename T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

template <typename T>
void ContractSlot(const T* in, absl::Span<const size_t> dims, size_t slot, const Vector<T>& w,
                  Vector<T>& out) {
  size_t outer = 1;
  size_t inner = 1;
  for (size_t j = 0; j < slot; ++j) outer *= dims[j];
  for (size_t j = slot + 1; j < dims.size(); ++j) inner *= dims[j];
  const auto n = static_cast<Eigen::Index>(dims[slot]);
  out.resize(static_cast<Eigen::Index>(outer * inner));
  if (inner == 1) {
    out.noalias() = Eigen::Map<const RowMajor<T>>(in, static_cast<Eigen::Index>(outer), n) * w;
    return;
  }
  const auto cols = static_cast<Eigen::Index>(inner);
  for (size_t o = 0; o < outer; ++o) {
    Eigen::Map<const RowMajor<T>> block(in + o * dims[slot] * inner, n, cols);
    out.segment(static_cast<Eigen::Index>(o * inner), cols).noalias() = block.transpose() * w;
  }
}

absl::Status ValidateGame(const NormalFormGame& game) {
  if (game.actions.empty()) return absl::InvalidArgumentError("players: no player");
  size_t joint = 1;
  for (size_t i = 0; i < game.actions.size(); ++i) {
    if (game.actions[i] == 0) {
      return absl::InvalidArgumentError(absl::StrCat("players[", i, "]: no action"));
    }
    if (joint > kMaxJointActions / game.actions[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("players: more than ", kMaxJointActions, " joint actions"));
    }
    joint *= game.actions[i];
  }
  if (game.payoffs.size() != game.actions.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "payoffs: ", game.payoffs.size(), " tensors for ", game.actions.size(), " players"));
  }
  for (size_t i = 0; i < game.payoffs.size(); ++i) {
    if (game.payoffs[i].size() != joint) {
      return absl::InvalidArgumentError(absl::StrCat("payoffs[", i, "]: ", game.payoffs[i].size(),
                                                     " values, expected ", joint,
                                                     " (the product of the action counts)"));
    }
    for (size_t a = 0; a < joint; ++a) {
      if (!std::isfinite(game.payoffs[i][a])) {
        return absl::InvalidArgumentError(absl::StrCat("payoffs[", i, "][", a, "]: not finite"));
      }
    }
  }
  return absl::OkStatus();
}

size_t JointActions(const NormalFormGame& game) {
  size_t joint = 1;
  for (size_t n : game.actions) joint *= n;
  return joint;
}

Profile UniformProfile(const NormalFormGame& game) {
  Profile x;
  for (size_t n : game.actions) {
    const auto size = static_cast<Eigen::Index>(n);
    x.push_back(Eigen::VectorXd::Constant(size, 1.0 / static_cast<double>(n)));
  }
  return x;
}

template <typename T>
const Vector<T>& BasicContractor<T>::Run(const T* tensor, absl::Span<const size_t> dims,
                                         const std::vector<Vector<T>>& weights, size_t free) {
  dims_.assign(dims.begin(), dims.end());
  const T* data = tensor;
  Vector<T>* current = &a_;
  Vector<T>* next = &b_;
  // From the last slot to the first, skipping `free`: the first contraction reads the whole
  // tensor, the later ones only what is left of it.
  for (size_t s = dims_.size(); s-- > 0;) {
    if (s == free) continue;
    ContractSlot(data, dims_, s, weights[s], *next);
    dims_.erase(dims_.begin() + static_cast<std::ptrdiff_t>(s));
    std::swap(current, next);
    data = current->data();
  }
  if (data == tensor) {  // nothing to contract: a copy
    *current = Eigen::Map<const Vector<T>>(tensor, static_cast<Eigen::Index>(dims_[0]));
  }
  return *current;
}

template void ContractSlot<float>(const float*, absl::Span<const size_t>, size_t,
                                  const Vector<float>&, Vector<float>&);
template void ContractSlot<double>(const double*, absl::Span<const size_t>, size_t,
                                   const Vector<double>&, Vector<double>&);
template class BasicContractor<float>;
template class BasicContractor<double>;

Eigen::VectorXd Contract(absl::Span<const double> tensor, absl::Span<const size_t> actions,
                         const Profile& weights, size_t free) {
  Contractor contractor;
  return contractor.Run(tensor.data(), actions, weights, free);
}

Eigen::VectorXd DeviationPayoffs(const NormalFormGame& game, size_t player, const Profile& x) {
  return Contract(game.payoffs[player], game.actions, x, player);
}

Eigen::VectorXd Marginal(absl::Span<const double> joint, absl::Span<const size_t> actions,
                         size_t player) {
  size_t outer = 1;
  size_t inner = 1;
  for (size_t j = 0; j < player; ++j) outer *= actions[j];
  for (size_t j = player + 1; j < actions.size(); ++j) inner *= actions[j];
  const size_t n = actions[player];
  Eigen::VectorXd marginal = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
  for (size_t o = 0; o < outer; ++o) {
    for (size_t a = 0; a < n; ++a) {
      const double* row = joint.data() + (o * n + a) * inner;
      double sum = 0;
      for (size_t r = 0; r < inner; ++r) sum += row[r];
      marginal[static_cast<Eigen::Index>(a)] += sum;
    }
  }
  return marginal;
}

}  // namespace ratings::games
