// A finite N-player game in normal form with dense payoff tensors ([RE] §2), and the tensor
// contractions every solver of this directory is built from (docs/GAMES.md §1).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "absl/status/status.h"
#include "absl/types/span.h"

namespace ratings::games {

// payoffs[i] holds u_i over the joint actions, row-major over the players in order: the
// last player's action varies fastest, so joint (a_0, ..., a_{N-1}) sits at
// sum_j a_j * prod_{k>j} actions[k].
struct NormalFormGame {
  std::vector<size_t> actions = {};
  std::vector<std::vector<double>> payoffs = {};

  size_t players() const { return actions.size(); }
};

// The largest joint action space accepted: 2^26 joint actions (512 MiB of payoffs for three
// players); a bound on memory, not on the method.
inline constexpr size_t kMaxJointActions = size_t{1} << 26;

// OK, or InvalidArgument naming the problem: no player, a player without actions, more
// than kMaxJointActions joint actions, a payoff tensor of the wrong size, a non-finite
// payoff ("payoffs[1][7]: not finite").
absl::Status ValidateGame(const NormalFormGame& game);

// prod_i actions[i].
size_t JointActions(const NormalFormGame& game);

// One mixed strategy per player (non-negative, summing to 1).
using Profile = std::vector<Eigen::VectorXd>;

// The uniform strategy of every player.
Profile UniformProfile(const NormalFormGame& game);

// A column vector of T: the solvers contract in double, or in float where speed matters
// more than the last digits (annealed_qre.h).
template <typename T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

// Contracts slot `slot` of the tensor `in` of shape `dims` with `w`, into `out` (resized),
// whose shape is `dims` without that slot. Cost O(tensor size). T is float or double.
template <typename T>
void ContractSlot(const T* in, absl::Span<const size_t> dims, size_t slot, const Vector<T>& w,
                  Vector<T>& out);

// Contracts a tensor of shape `actions` with one vector per slot, every slot but `free`:
// result(a) = sum over the other slots' indices of tensor(.., a, ..) * prod_j weights[j](a_j).
// weights[free] is not read. Cost O(tensor size).
Eigen::VectorXd Contract(absl::Span<const double> tensor, absl::Span<const size_t> actions,
                         const Profile& weights, size_t free);

// Contract() on a raw tensor, reusing its buffers between calls (the solvers' inner loops).
template <typename T>
class BasicContractor {
 public:
  // The result stays valid until the next call. weights[s] is read for s < dims.size().
  const Vector<T>& Run(const T* tensor, absl::Span<const size_t> dims,
                       const std::vector<Vector<T>>& weights, size_t free);

 private:
  std::vector<size_t> dims_;
  Vector<T> a_;
  Vector<T> b_;
};
using Contractor = BasicContractor<double>;

// u_i(a_i, x_{-i}) for every action a_i of `player`: what each of its actions earns against
// the others' mixed strategies.
Eigen::VectorXd DeviationPayoffs(const NormalFormGame& game, size_t player, const Profile& x);

// A joint distribution's marginal for `player`.
Eigen::VectorXd Marginal(absl::Span<const double> joint, absl::Span<const size_t> actions,
                         size_t player);

}  // namespace ratings::games
