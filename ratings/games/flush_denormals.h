// Subnormal floating-point numbers flushed to zero on this thread for a scope: inputs read
// as zero (DAZ) and results that would be subnormal written as zero (FTZ). An operation on a
// subnormal costs a microcode assist, a hundred cycles or more on x86; a computation whose
// small values underflow (an RBF kernel's far entries, docs/GAMES.md §2) can run 50× slower
// for values below 2.2e-308 that change nothing it reports. Deterministic: the same inputs
// give the same results. The previous mode is restored at the end of the scope; threads
// keep their own mode. On targets other than x86-64 and AArch64 it does nothing.
//
//   { const ScopedFlushDenormals flush; /* the loop */ }
#pragma once

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif
#include <cstdint>

namespace ratings::games {

class ScopedFlushDenormals {
 public:
  ScopedFlushDenormals() : saved_(Get()) { Set(saved_ | kFlush); }
  ~ScopedFlushDenormals() { Set(saved_); }
  ScopedFlushDenormals(const ScopedFlushDenormals&) = delete;
  ScopedFlushDenormals& operator=(const ScopedFlushDenormals&) = delete;

 private:
#if defined(__x86_64__) || defined(_M_X64)
  static constexpr uint64_t kFlush = 0x8040;  // MXCSR: FTZ (bit 15) and DAZ (bit 6)
  static uint64_t Get() { return _mm_getcsr(); }
  static void Set(uint64_t mode) { _mm_setcsr(static_cast<unsigned>(mode)); }
#elif defined(__aarch64__)
  static constexpr uint64_t kFlush = uint64_t{1} << 24;  // FPCR.FZ
  static uint64_t Get() {
    uint64_t mode = 0;
    asm volatile("mrs %0, fpcr" : "=r"(mode));
    return mode;
  }
  static void Set(uint64_t mode) { asm volatile("msr fpcr, %0" : : "r"(mode)); }
#else
  static constexpr uint64_t kFlush = 0;
  static uint64_t Get() { return 0; }
  static void Set(uint64_t) {}
#endif
  uint64_t saved_;
};

}  // namespace ratings::games
