#include "ratings/online_bootstrap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "ratings/sco_internal.h"
#include "ratings/status_macros.h"

namespace ratings {
namespace {

// Rows are padded to a multiple of 8 doubles: whole packets for SSE2, AVX and AVX-512, so
// every replica goes through the same vectorised code (no scalar tail computing the last
// replicas with other rounding).
constexpr size_t kPacket = 8;

using ConstRow = Eigen::Map<const Eigen::ArrayXd>;
// kPacket replicas of one agent (unaligned in the rows).
using Block = Eigen::Array<double, kPacket, 1>;
using BlockMap = Eigen::Map<Block>;
using ConstBlockMap = Eigen::Map<const Block>;

// ceil(P(X <= k) · 2^32) for X ~ Poisson(1), k = 0..11 (P(X <= 12) · 2^32 rounds to 2^32):
// u < T[0] gives 0, T[k-1] <= u < T[k] gives k. Checked against an independent computation
// in tests/ratings/online_bootstrap_test.cc.
constexpr std::array<uint64_t, 12> kPoissonThresholds = {
    1580030169u, 3160060338u, 3950075422u, 4213413784u, 4279248374u, 4292415292u,
    4294609778u, 4294923277u, 4294962464u, 4294966818u, 4294967253u, 4294967293u};

// 1 / (1 + exp(x)) lane by lane, the logistic both models' expected scores are made of,
// evaluated in single precision: four lanes per SSE packet and a shorter polynomial than
// double's make it faster, and the replicas need their spread, not the last bits
// (the relative error, ~1e-7, moves an Elo replica by < 1e-5 per game).
Block InverseOnePlusExp(const Block& x) {
  // Clamped to |x| <= 80 so that exp stays a normal float (exp(-88) is subnormal, and
  // subnormals cost some 100 cycles each): 1/(1+e^80) = 1.8e-35 stands for anything
  // smaller, a difference no rating can show.
  // One statement per precision: Eigen vectorises an expression only when all its parts
  // share one packet size, and a cast between double and float does not.
  Eigen::Array<float, kPacket, 1> f = x.cast<float>();
  f = (1.0f + f.max(-80.0f).min(80.0f).exp()).inverse();
  return f.cast<double>();
}

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

}  // namespace

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
  if (elo_options_) elo_.resize(n * stride_, elo_options_->initial);
  if (sco_options_) sco_.resize(n * stride_, (sco_options_->min + sco_options_->max) / 2);
  size_ = n;
}

void OnlineBootstrap::Update(const IndexedResult& result, uint64_t index) {
  DrawCounts(options_.seed, index, absl::MakeSpan(counts_));
  for (size_t r = 0; r < counts_.size(); ++r) {
    weights_[r] = result.weight * static_cast<double>(counts_[r]);
  }
  moves_.resize(result.size() * kPacket);
  if (elo_options_) UpdateElo(result);
  if (sco_options_) UpdateSco(result);
}

void OnlineBootstrap::Update(const Result& result, const AgentIndex& agents, uint64_t index) {
  ids_.clear();
  ranks_.clear();
  for (const Standing& s : result.standings) {
    ids_.push_back(*agents.Find(s.agent));
    ranks_.push_back(s.rank);
  }
  Resize(agents.size());
  Update({ids_, ranks_, result.weight}, index);
}

void OnlineBootstrap::UpdateElo(const IndexedResult& result) {
  // Elo::Update with replica r's weight, lane by lane: each pair moves by
  // K w_r / (k-1) · (S - E), from the lower-rated side of each replica as Elo::Update does.
  // 10^(d/400) is computed as exp(d · ln10/400). One block of kPacket replicas at a time:
  // fixed-size blocks compile to straight-line SIMD code.
  const size_t k = result.size();
  const double step_scale = elo_options_->k / static_cast<double>(k - 1);
  const double scale = std::numbers::ln10 / 400.0;
  for (size_t lane = 0; lane < stride_; lane += kPacket) {
    const auto at = [&](AgentId a) { return BlockMap(elo_.data() + a * stride_ + lane); };
    const auto moved = [&](size_t i) { return BlockMap(moves_.data() + i * kPacket); };
    const Block step = ConstBlockMap(weights_.data() + lane) * step_scale;
    std::fill(moves_.begin(), moves_.end(), 0.0);
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = i + 1; j < k; ++j) {
        const double actual = result.ranks[i] < result.ranks[j]    ? 1.0
                              : result.ranks[i] == result.ranks[j] ? 0.5
                                                                   : 0.0;
        const Block d = at(result.agents[j]) - at(result.agents[i]);
        // The lower-rated side's expected score, the same expression whichever side it is.
        const Block expected = InverseOnePlusExp(d.abs() * scale);
        const Block move =
            (d < 0.0).select(-(step * ((1.0 - actual) - expected)), step * (actual - expected));
        moved(i) += move;
        moved(j) -= move;
      }
    }
    for (size_t i = 0; i < k; ++i) at(result.agents[i]) += moved(i);
  }
}

void OnlineBootstrap::UpdateSco(const IndexedResult& result) {
  // Sco::Update with replica r's weight: for a strictly above b, s = sigma((theta_b -
  // theta_a)/tau), theta_a += alpha w_r s(1-s)/tau, theta_b -= the same; then clip.
  const ScoOptions& o = *sco_options_;
  const double rate_scale = o.alpha / o.tau;
  const double inverse_tau = 1.0 / o.tau;
  for (size_t lane = 0; lane < stride_; lane += kPacket) {
    const auto at = [&](AgentId a) { return BlockMap(sco_.data() + a * stride_ + lane); };
    const auto moved = [&](size_t i) { return BlockMap(moves_.data() + i * kPacket); };
    const Block rate = ConstBlockMap(weights_.data() + lane) * rate_scale;
    std::fill(moves_.begin(), moves_.end(), 0.0);
    sco_internal::ForEachOrderedPair(result.ranks, [&](size_t a, size_t b) {
      const Block x = (at(result.agents[b]) - at(result.agents[a])) * inverse_tau;
      const Block s = InverseOnePlusExp(-x);
      const Block move = rate * s * (1.0 - s);
      moved(a) += move;
      moved(b) -= move;
    });
    for (size_t i = 0; i < result.size(); ++i) {
      BlockMap theta = at(result.agents[i]);
      theta = (theta + moved(i)).max(o.min).min(o.max);
    }
  }
}

std::vector<RatingInterval> OnlineBootstrap::Intervals(const std::vector<double>& replicas,
                                                       absl::Span<const double> point, double min,
                                                       double max) const {
  std::vector<RatingInterval> out(size_);
  const auto r = static_cast<Eigen::Index>(options_.replicas);
  for (size_t a = 0; a < size_; ++a) {
    const ConstRow x(replicas.data() + a * stride_, r);
    const double mean = x.mean();
    const double sd = std::sqrt((x - mean).square().sum() / static_cast<double>(r - 1));
    out[a].low = std::max(min, point[a] - kZ95 * sd);
    out[a].high = std::min(max, point[a] + kZ95 * sd);
  }
  return out;
}

std::vector<RatingInterval> OnlineBootstrap::EloIntervals(absl::Span<const double> point) const {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  return Intervals(elo_, point, -kInf, kInf);
}

std::vector<RatingInterval> OnlineBootstrap::ScoIntervals(absl::Span<const double> point) const {
  return Intervals(sco_, point, sco_options_->min, sco_options_->max);
}

absl::Span<const double> OnlineBootstrap::EloReplicas(AgentId a) const {
  return absl::MakeConstSpan(elo_).subspan(a * stride_, options_.replicas);
}

absl::Span<const double> OnlineBootstrap::ScoReplicas(AgentId a) const {
  return absl::MakeConstSpan(sco_).subspan(a * stride_, options_.replicas);
}

OnlineBootstrapState OnlineBootstrap::ExportState() const {
  OnlineBootstrapState state;
  state.replicas = options_.replicas;
  const auto compact = [&](const std::vector<double>& padded, std::vector<double>& out) {
    out.reserve(size_ * options_.replicas);
    for (size_t a = 0; a < size_; ++a) {
      out.insert(out.end(), padded.begin() + static_cast<std::ptrdiff_t>(a * stride_),
                 padded.begin() + static_cast<std::ptrdiff_t>(a * stride_ + options_.replicas));
    }
  };
  if (elo_options_) compact(elo_, state.elo);
  if (sco_options_) compact(sco_, state.sco);
  return state;
}

absl::Status OnlineBootstrap::RestoreModel(const char* model, const std::vector<double>& values,
                                           bool on, double min, double max,
                                           std::vector<double>& into) const {
  const size_t want = on ? size_ * options_.replicas : 0;
  if (values.size() != want) {
    return absl::InvalidArgumentError(
        absl::StrCat("bootstrap: ", model, ": ", values.size(), " replica ratings for ", want));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || values[i] < min || values[i] > max) {
      return absl::InvalidArgumentError(absl::StrCat("bootstrap: ", model, ": replica ",
                                                     i % options_.replicas, " of agent #",
                                                     i / options_.replicas, " is ", values[i]));
    }
  }
  for (size_t a = 0; a < size_ && on; ++a) {
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(a * options_.replicas),
                options_.replicas, into.begin() + static_cast<std::ptrdiff_t>(a * stride_));
  }
  return absl::OkStatus();
}

absl::Status OnlineBootstrap::Restore(const OnlineBootstrapState& state) {
  if (state.replicas != options_.replicas) {
    return absl::InvalidArgumentError(absl::StrCat("bootstrap: the state has ", state.replicas,
                                                   " replicas, this run ", options_.replicas));
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Checked into copies first, so a bad state leaves the replicas as they were.
  std::vector<double> elo = elo_;
  std::vector<double> sco = sco_;
  RETURN_IF_ERROR(RestoreModel("elo", state.elo, has_elo(), -kInf, kInf, elo));
  RETURN_IF_ERROR(RestoreModel("sco", state.sco, has_sco(), has_sco() ? sco_options_->min : 0,
                               has_sco() ? sco_options_->max : 0, sco));
  elo_ = std::move(elo);
  sco_ = std::move(sco);
  return absl::OkStatus();
}

absl::Status OnlineBootstrap::StartAtPoint(absl::Span<const double> elo,
                                           absl::Span<const double> sco) {
  OnlineBootstrapState state;
  state.replicas = options_.replicas;
  const auto spread = [&](absl::Span<const double> point, std::vector<double>& out) {
    for (const double rating : point) out.insert(out.end(), options_.replicas, rating);
  };
  spread(elo, state.elo);
  spread(sco, state.sco);
  return Restore(state);
}

}  // namespace ratings
