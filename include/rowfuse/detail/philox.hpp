// Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), the
// counter-based generator behind rf::dropout. Counter-based means the numbers are a pure
// function of (key, counter): any thread, any engine, any launch shape and the host reference
// draw the same bits for the same element.
#pragma once

#include <cstdint>

#include "config.hpp"

namespace rowfuse::detail {

struct philox_u32x4 {
  std::uint32_t v[4];
};

struct philox_key {
  std::uint32_t v[2];
};

namespace philox_constants {
// The multipliers and Weyl increments of the paper's Philox-4x32 (Table 2 and Section 5.2).
inline constexpr std::uint32_t multiplier0 = 0xD2511F53u;
inline constexpr std::uint32_t multiplier1 = 0xCD9E8D57u;
inline constexpr std::uint32_t weyl0 = 0x9E3779B9u; // golden ratio
inline constexpr std::uint32_t weyl1 = 0xBB67AE85u; // sqrt(3) - 1
inline constexpr int rounds = 10;
} // namespace philox_constants

/// The 64-bit product of two 32-bit words as {high, low}: one mul.wide.u32 (one IMAD.WIDE.U32)
/// gives both the word a Philox round XORs and the word it passes on. On the device the halves
/// are taken apart by a register-pair move (no shift or conversion for ptxas to remove).
struct wide_product {
  std::uint32_t hi, lo;
};
ROWFUSE_HD wide_product mul_wide_u32(std::uint32_t a, std::uint32_t b) {
#ifdef __CUDA_ARCH__
  wide_product p;
  asm("{\n\t.reg .b64 product;\n\tmul.wide.u32 product, %2, %3;\n\tmov.b64 {%1, %0}, product;"
      "\n\t}"
      : "=r"(p.hi), "=r"(p.lo)
      : "r"(a), "r"(b));
  return p;
#else
  std::uint64_t const product = std::uint64_t{a} * b;
  return {static_cast<std::uint32_t>(product >> 32), static_cast<std::uint32_t>(product)};
#endif
}

/// The round keys of philox4x32_10 for one key: round r uses key + r * (weyl0, weyl1). Computed
/// once on the host (rf::dropout's bind), they reach a kernel as launch parameters, which the
/// rounds' XORs read straight from the constant bank: computed in the kernel, they took 20
/// registers a thread wherever the compiler did not keep them in uniform registers.
struct philox_schedule {
  std::uint32_t k[philox_constants::rounds][2];
};

ROWFUSE_HD philox_schedule philox_key_schedule(philox_key key) {
  philox_schedule keys{};
  ROWFUSE_UNROLL
  for (int round = 0; round < philox_constants::rounds; ++round) {
    keys.k[round][0] = key.v[0];
    keys.k[round][1] = key.v[1];
    key.v[0] += philox_constants::weyl0;
    key.v[1] += philox_constants::weyl1;
  }
  return keys;
}

/// The key of a 64-bit seed: {lo(seed), hi(seed)}.
ROWFUSE_HD philox_schedule philox_key_schedule(std::uint64_t seed) {
  return philox_key_schedule(
      philox_key{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}});
}

/// philox4x32_10 with the key schedule computed ahead.
ROWFUSE_HD philox_u32x4 philox4x32_10(philox_u32x4 counter, philox_schedule const& keys) {
  using namespace philox_constants;
  ROWFUSE_UNROLL
  for (int round = 0; round < rounds; ++round) {
    wide_product const p0 = mul_wide_u32(multiplier0, counter.v[0]);
    wide_product const p1 = mul_wide_u32(multiplier1, counter.v[2]);
    counter = {{p1.hi ^ counter.v[1] ^ keys.k[round][0], p1.lo,
                p0.hi ^ counter.v[3] ^ keys.k[round][1], p0.lo}};
  }
  return counter;
}

ROWFUSE_HD philox_u32x4 philox4x32_10(philox_u32x4 counter, philox_key key) {
  return philox4x32_10(counter, philox_key_schedule(key));
}

/// The four 32-bit words of block q of a stream (q in counter words 0-1, the caller's offset in
/// words 2-3), with the seed's key schedule computed ahead (philox_key_schedule(seed)).
/// rf::dropout reads them as eight 16-bit numbers, one per element: element i takes half i % 2
/// of word (i % 8) / 2 of block i / 8.
ROWFUSE_HD philox_u32x4 philox_quad(philox_schedule const& keys, std::uint64_t offset,
                                    std::uint64_t quad) {
  philox_u32x4 counter{{static_cast<std::uint32_t>(quad), static_cast<std::uint32_t>(quad >> 32),
                        static_cast<std::uint32_t>(offset),
                        static_cast<std::uint32_t>(offset >> 32)}};
  return philox4x32_10(counter, keys);
}

/// The same with the seed as key.
ROWFUSE_HD philox_u32x4 philox_quad(std::uint64_t seed, std::uint64_t offset, std::uint64_t quad) {
  return philox_quad(philox_key_schedule(seed), offset, quad);
}

} // namespace rowfuse::detail
