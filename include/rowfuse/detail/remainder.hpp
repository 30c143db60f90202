// The remainder of a division by a divisor known before the launch, by multiplication: Lemire,
// Kaser and Kurz, "Faster remainder by direct computation" (2019), Theorem 1 with N = 32 and
// F = 64: for every 32-bit a and 32-bit d > 0, with M = ceil(2^64 / d),
//   a % d = high 64 bits of ((M * a mod 2^64) * d),
// exactly. On the device that is four integer multiply-adds, where the compiler's 32-bit
// remainder takes about 18 instructions (a float reciprocal, a multiply-high, two corrections).
#pragma once

#include <cstdint>

#include "config.hpp"

namespace rowfuse::detail {

struct u32_remainder {
  std::uint64_t reciprocal = 0; // ceil(2^64 / divisor) mod 2^64: 0 for the divisor 1
  std::uint32_t divisor = 1;

  /// The remainder of a division by d, 0 < d < 2^32 (checked by the caller).
  static constexpr u32_remainder by(std::uint32_t d) { return {~std::uint64_t{0} / d + 1, d}; }

  ROWFUSE_HD std::uint32_t of(std::uint32_t a) const {
    // M * a mod 2^64 from 32-bit halves: the high half of M contributes to the high word alone.
    std::uint64_t const scaled = std::uint64_t(std::uint32_t(reciprocal)) * a +
                                 (std::uint64_t(std::uint32_t(reciprocal >> 32) * a) << 32);
    // The high 64 bits of scaled * d, d 32-bit: two 32 x 32 -> 64 multiplies.
    std::uint64_t const low = std::uint64_t(std::uint32_t(scaled)) * divisor;
    std::uint64_t const high = std::uint64_t(std::uint32_t(scaled >> 32)) * divisor + (low >> 32);
    return std::uint32_t(high >> 32);
  }
};

} // namespace rowfuse::detail
