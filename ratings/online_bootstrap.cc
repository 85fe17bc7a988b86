#include "ratings/online_bootstrap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "ratings/bounded_exp.h"
#include "ratings/sco_internal.h"
#include "ratings/status_macros.h"

namespace ratings {
namespace {

// Rows are padded to a multiple of 8 doubles: whole packets for SSE2, AVX and AVX-512, so
// every replica goes through the same vectorised code (no scalar tail computing the last
// replicas with other rounding).
constexpr size_t kPacket = 8;
// Replicas are updated in blocks of 16 while the row has them, then of 8: a wider block
// gives the CPU two independent chains of exponentials to overlap (the 16 replicas of the
// default took 27% less time than as two blocks of 8). Every operation is lane by lane, so
// a replica's result does not depend on its block's width, except for which blocks take
// the pairwise path (RelativeExps), a choice made per block.
constexpr size_t kWidePacket = 16;

using ConstRow = Eigen::Map<const Eigen::ArrayXd>;
// W replicas of one agent (unaligned in the rows).
template <int W>
using Block = Eigen::Array<double, W, 1>;
template <int W>
using FloatBlock = Eigen::Array<float, W, 1>;

// Calls block.template operator()<W>(lane) for the blocks of a row of `stride` replicas.
template <typename PerBlock>
void ForEachBlock(size_t stride, PerBlock&& block) {
  size_t lane = 0;
  for (; lane + kWidePacket <= stride; lane += kWidePacket) {
    block.template operator()<kWidePacket>(lane);
  }
  for (; lane < stride; lane += kPacket) block.template operator()<kPacket>(lane);
}

// Both models' pair terms are logistics of a rating difference, and each is computed here
// as a quotient of two exponentials, u / (u + v) with u / v = e^x, in single precision:
// four lanes per SSE packet and a shorter polynomial than double's make it faster, and the
// replicas need their spread, not the last bits (relative error ~1e-7 per term). Written
// as quotients, Elo's S - E and SCO's s(1 - s) keep that relative precision at both tails,
// with no 1 - E cancelling. The exponentials (BoundedExp, bounded_exp.h) come
//  - per pair, u = e^x clamped to |x| <= 80 and v = 1 (ClampedExp), or
//  - from k >= kPerAgentFrom agents on, per agent: u_i = e^(x_i - max_j x_j) (RelativeExps),
//    k exponentials for the k(k-1)/2 pairs: the same count at k = 3, a third at k = 7.
// 80 keeps every exponential a normal float (e^-88 is subnormal, and subnormals cost some
// 100 cycles each): e^-80 = 1.8e-35 stands for anything smaller, a difference no rating
// can show. One statement per precision: Eigen vectorises an expression only when all its
// parts share one packet size, and a cast between double and float does not.
constexpr double kExpClamp = kBoundedExpLimit;
constexpr size_t kPerAgentFrom = 3;

// Widened lane by lane, a loop GCC turns into cvtps2pd (Eigen 3.4's float-to-double cast of
// a fixed-size array came out half scalar, with store-forwarding stalls).
template <int W>
Block<W> ToDouble(const FloatBlock<W>& f) {
  Block<W> out;
  for (Eigen::Index l = 0; l < W; ++l) out[l] = f[l];
  return out;
}

template <int W>
FloatBlock<W> ClampedExp(const Block<W>& x) {
  constexpr auto kClamp = static_cast<float>(kExpClamp);
  const FloatBlock<W> f = x.template cast<float>();
  return BoundedExp<W>(f.max(-kClamp).min(kClamp));
}

// u_i = exp(x_i - max_j x_j) lane by lane, for the k blocks x(0..k-1), into u(0..k-1)
// (blocks of W floats from `out`). Each u is in [e^-80, 1], so no sum or quotient of them
// underflows. False when some lane spreads wider than kExpClamp: such results take the
// pairwise path, which clamps each pair as the models' logistics saturate.
template <int W, typename X>
bool RelativeExps(size_t k, const X& x, float* out) {
  const auto u = [&](size_t i) { return Eigen::Map<FloatBlock<W>>(out + i * W); };
  Block<W> top = x(0);
  for (size_t i = 1; i < k; ++i) top = top.max(x(i));
  for (size_t i = 0; i < k; ++i) {
    const Block<W> shifted = x(i) - top;
    if ((shifted < -kExpClamp).any()) return false;
    u(i) = shifted.template cast<float>();
  }
  for (size_t i = 0; i < k; ++i) u(i) = BoundedExp<W>(u(i));
  return true;
}

// ceil(P(X <= k) · 2^32) for X ~ Poisson(1), k = 0..11 (P(X <= 12) · 2^32 rounds to 2^32):
// u < T[0] gives 0, T[k-1] <= u < T[k] gives k. Checked against an independent computation
// in tests/ratings/online_bootstrap_test.cc.
constexpr std::array<uint64_t, 12> kPoissonThresholds = {
    1580030169u, 3160060338u, 3950075422u, 4213413784u, 4279248374u, 4292415292u,
    4294609778u, 4294923277u, 4294962464u, 4294966818u, 4294967253u, 4294967293u};

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

// By the top 8 bits of a draw: the count of every draw in that bucket, or, when a
// threshold falls inside the bucket (12 of the 256), the count at its start and a flag to
// compare further. A draw takes one table load 95% of the time.
struct PoissonBucket {
  uint8_t count = 0;
  bool split = false;
};
constexpr std::array<PoissonBucket, 256> MakePoissonBuckets() {
  std::array<PoissonBucket, 256> buckets;
  for (uint64_t b = 0; b < 256; ++b) {
    const uint64_t first = b << 24, last = ((b + 1) << 24) - 1;
    for (const uint64_t threshold : kPoissonThresholds) {
      if (threshold <= first) ++buckets[b].count;
      if (threshold > first && threshold <= last) buckets[b].split = true;
    }
  }
  return buckets;
}
constexpr std::array<PoissonBucket, 256> kPoissonBuckets = MakePoissonBuckets();

// step, its inverse and the grid's ends inside [min, max].
ReplicaGrid MakeGrid(double step, double min, double max) {
  ReplicaGrid grid{.step = step, .inverse = 1.0 / step};
  if (std::isfinite(min)) {
    grid.lowest = std::ceil(min * grid.inverse) * step;
    if (grid.lowest < min) grid.lowest += step;
  }
  if (std::isfinite(max)) {
    grid.highest = std::floor(max * grid.inverse) * step;
    if (grid.highest > max) grid.highest -= step;
  }
  return grid;
}

// Every replica is on its model's grid (ReplicaGrid): one block after its update.
template <int W>
Block<W> Snapped(const Block<W>& x, const ReplicaGrid& grid) {
  return ((x * grid.inverse).rint() * grid.step).max(grid.lowest).min(grid.highest);
}

}  // namespace

ReplicaGrid EloReplicaGrid(const EloOptions& options) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  return MakeGrid((options.k > 0 ? options.k : 1.0) / 1024, -kInf, kInf);
}

ReplicaGrid ScoReplicaGrid(const ScoOptions& options) {
  return MakeGrid(std::min(options.alpha / options.tau, options.max - options.min) / 1024,
                  options.min, options.max);
}

uint64_t NameSeed(absl::string_view name) {
  uint64_t hash = 0xCBF29CE484222325u;  // FNV-1a, 64-bit offset basis and prime
  for (const char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001B3u;
  }
  return hash;
}

uint32_t PoissonOne(uint32_t bits) {
  const PoissonBucket bucket = kPoissonBuckets[bits >> 24];
  uint32_t count = bucket.count;
  if (bucket.split) {
    while (count < kPoissonThresholds.size() && bits >= kPoissonThresholds[count]) ++count;
  }
  return count;
}

void DrawCounts(uint64_t seed, uint64_t index, absl::Span<uint32_t> counts) {
  // The stream of result `index` starts from a mix of both, so neighbouring indices and
  // seeds give unrelated streams.
  uint64_t mixer = index;
  uint64_t state = seed ^ SplitMix64(mixer);
  for (size_t r = 0; r < counts.size(); r += 2) {
    const uint64_t bits = SplitMix64(state);
    counts[r] = PoissonOne(static_cast<uint32_t>(bits));
    if (r + 1 < counts.size()) counts[r + 1] = PoissonOne(static_cast<uint32_t>(bits >> 32));
  }
}

OnlineBootstrap::OnlineBootstrap(const OnlineBootstrapOptions& options,
                                 const std::optional<EloOptions>& elo,
                                 const std::optional<ScoOptions>& sco)
    : options_(options),
      elo_options_(elo),
      sco_options_(sco),
      elo_grid_(elo ? EloReplicaGrid(*elo) : ReplicaGrid{}),
      sco_grid_(sco ? ScoReplicaGrid(*sco) : ReplicaGrid{}),
      stride_((options.replicas + kPacket - 1) / kPacket * kPacket),
      counts_(options.replicas),
      weights_(stride_, 0.0) {}

absl::StatusOr<OnlineBootstrap> OnlineBootstrap::Create(const OnlineBootstrapOptions& options,
                                                        const std::optional<EloOptions>& elo,
                                                        const std::optional<ScoOptions>& sco) {
  if (options.replicas < 2 || options.replicas > kMaxReplicas) {
    return absl::InvalidArgumentError(absl::StrCat("bootstrap: replicas must be in 2..",
                                                   kMaxReplicas, ", got ", options.replicas));
  }
  if (!elo && !sco) return absl::InvalidArgumentError("bootstrap: neither elo nor sco is on");
  if (elo) RETURN_IF_ERROR(Elo::Create(*elo).status());
  if (sco) RETURN_IF_ERROR(Sco::Create(*sco).status());
  return OnlineBootstrap(options, elo, sco);
}

void OnlineBootstrap::Resize(size_t n) {
  if (n <= size_) return;
  // Padding lanes start at the same value as the replicas; with weight 0 they never move.
  if (elo_options_) elo_.resize(n * stride_, elo_grid_.Snap(elo_options_->initial));
  if (sco_options_) {
    sco_.resize(n * stride_, sco_grid_.Snap((sco_options_->min + sco_options_->max) / 2));
  }
  size_ = n;
}

void OnlineBootstrap::Update(const IndexedResult& result, uint64_t index) {
  DrawCounts(options_.seed, index, absl::MakeSpan(counts_));
  for (size_t r = 0; r < counts_.size(); ++r) {
    weights_[r] = result.weight * static_cast<double>(counts_[r]);
  }
  moves_.resize(result.size() * kWidePacket);
  exps_.resize(result.size() * kWidePacket);
  if (elo_options_) UpdateElo(result);
  if (sco_options_) UpdateSco(result);
}

void OnlineBootstrap::Update(const Pool& pool) {
  Resize(pool.index().size());
  Update(pool.last_applied(), pool.results() - 1);
}

void OnlineBootstrap::UpdateElo(const IndexedResult& result) {
  // Elo::Update with replica r's weight, lane by lane: each pair moves by
  // K w_r / (k-1) · (S - E), E = 1 / (1 + 10^((r_j - r_i)/400)). With u_i / u_j =
  // 10^((r_j - r_i)/400) = e^((r_j - r_i) ln10/400): S - E = (S u_i - (1 - S) u_j) /
  // (u_i + u_j). One block of replicas at a time: fixed-size blocks compile to
  // straight-line SIMD code. (Elo::Update takes E from the lower-rated side for the same
  // precision; a per-lane choice of side would be a per-lane branch here, as Eigen 3.4's
  // select() is not vectorised.)
  const size_t k = result.size();
  const double step_scale = elo_options_->k / static_cast<double>(k - 1);
  const double scale = std::numbers::ln10 / 400.0;
  ForEachBlock(stride_, [&]<int W>(size_t lane) {
    const auto at = [&](size_t i) {
      return Eigen::Map<Block<W>>(elo_.data() + result.agents[i] * stride_ + lane);
    };
    const auto moved = [&](size_t i) { return Eigen::Map<Block<W>>(moves_.data() + i * W); };
    const auto u = [&](size_t i) { return Eigen::Map<FloatBlock<W>>(exps_.data() + i * W); };
    const Block<W> step = Eigen::Map<const Block<W>>(weights_.data() + lane) * step_scale;
    std::fill(moves_.begin(), moves_.end(), 0.0);
    const bool per_agent =
        k >= kPerAgentFrom &&
        RelativeExps<W>(
            k, [&](size_t i) -> Block<W> { return at(i) * -scale; }, exps_.data());
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = i + 1; j < k; ++j) {
        const float actual = result.ranks[i] < result.ranks[j]    ? 1.0f
                             : result.ranks[i] == result.ranks[j] ? 0.5f
                                                                  : 0.0f;
        const FloatBlock<W> ui =
            per_agent ? FloatBlock<W>(u(i)) : ClampedExp<W>((at(j) - at(i)) * scale);
        const FloatBlock<W> uj = per_agent ? FloatBlock<W>(u(j)) : FloatBlock<W>::Ones();
        const FloatBlock<W> surprise = (actual * ui - (1.0f - actual) * uj) / (ui + uj);  // S - E
        const Block<W> move = step * ToDouble<W>(surprise);
        moved(i) += move;
        moved(j) -= move;
      }
    }
    for (size_t i = 0; i < k; ++i) at(i) = Snapped<W>(at(i) + moved(i), elo_grid_);
  });
}

void OnlineBootstrap::UpdateSco(const IndexedResult& result) {
  // Sco::Update with replica r's weight: for a strictly above b, s = sigma((theta_b -
  // theta_a)/tau), theta_a += alpha w_r s(1-s)/tau, theta_b -= the same; then clip. With
  // u_a / u_b = e^((theta_a - theta_b)/tau): s = u_b / (u_a + u_b), 1 - s = u_a / (u_a + u_b).
  const ScoOptions& o = *sco_options_;
  const size_t k = result.size();
  const double rate_scale = o.alpha / o.tau;
  const double inverse_tau = 1.0 / o.tau;
  ForEachBlock(stride_, [&]<int W>(size_t lane) {
    const auto at = [&](size_t i) {
      return Eigen::Map<Block<W>>(sco_.data() + result.agents[i] * stride_ + lane);
    };
    const auto moved = [&](size_t i) { return Eigen::Map<Block<W>>(moves_.data() + i * W); };
    const auto u = [&](size_t i) { return Eigen::Map<FloatBlock<W>>(exps_.data() + i * W); };
    const Block<W> rate = Eigen::Map<const Block<W>>(weights_.data() + lane) * rate_scale;
    std::fill(moves_.begin(), moves_.end(), 0.0);
    const bool per_agent =
        k >= kPerAgentFrom &&
        RelativeExps<W>(
            k, [&](size_t i) -> Block<W> { return at(i) * inverse_tau; }, exps_.data());
    sco_internal::ForEachOrderedPair(result.ranks, [&](size_t a, size_t b) {
      const FloatBlock<W> ua =
          per_agent ? FloatBlock<W>(u(a)) : ClampedExp<W>((at(a) - at(b)) * inverse_tau);
      const FloatBlock<W> ub = per_agent ? FloatBlock<W>(u(b)) : FloatBlock<W>::Ones();
      const FloatBlock<W> inverse = (ua + ub).inverse();
      const FloatBlock<W> slope = (ua * inverse) * (ub * inverse);  // s (1 - s)
      const Block<W> move = rate * ToDouble<W>(slope);
      moved(a) += move;
      moved(b) -= move;
    });
    // Clipped to [min, max] as Sco::Update clips, by the snap to the grid's ends there.
    for (size_t i = 0; i < k; ++i) at(i) = Snapped<W>(at(i) + moved(i), sco_grid_);
  });
}

RatingInterval OnlineBootstrap::Interval(const std::vector<double>& replicas, AgentId a,
                                         double point, double min, double max) const {
  const auto r = static_cast<Eigen::Index>(options_.replicas);
  const ConstRow x(replicas.data() + a * stride_, r);
  const double mean = x.mean();
  const double sd = std::sqrt((x - mean).square().sum() / static_cast<double>(r - 1));
  return {.low = std::max(min, point - kZ95 * sd), .high = std::min(max, point + kZ95 * sd)};
}

std::vector<RatingInterval> OnlineBootstrap::EloIntervals(absl::Span<const double> point) const {
  std::vector<RatingInterval> out(size_);
  for (AgentId a = 0; a < size_; ++a) out[a] = EloInterval(a, point[a]);
  return out;
}

std::vector<RatingInterval> OnlineBootstrap::ScoIntervals(absl::Span<const double> point) const {
  std::vector<RatingInterval> out(size_);
  for (AgentId a = 0; a < size_; ++a) out[a] = ScoInterval(a, point[a]);
  return out;
}

RatingInterval OnlineBootstrap::EloInterval(AgentId a, double point) const {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  return Interval(elo_, a, point, -kInf, kInf);
}

RatingInterval OnlineBootstrap::ScoInterval(AgentId a, double point) const {
  return Interval(sco_, a, point, sco_options_->min, sco_options_->max);
}

absl::Span<const double> OnlineBootstrap::EloReplicas(AgentId a) const {
  return absl::MakeConstSpan(elo_).subspan(a * stride_, options_.replicas);
}

absl::Span<const double> OnlineBootstrap::ScoReplicas(AgentId a) const {
  return absl::MakeConstSpan(sco_).subspan(a * stride_, options_.replicas);
}

}  // namespace ratings
