// Philox-4x32-10 (rowfuse::detail::philox4x32_10, philox_quad): the published Random123
// known-answer vectors, an independent implementation written from the paper, the layout of
// philox_quad's counter and key, and the generator's basic statistical sanity.
#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <random>

#include <rowfuse/detail/philox.hpp>

namespace {

using rowfuse::detail::philox4x32_10;
using rowfuse::detail::philox_key;
using rowfuse::detail::philox_quad;
using rowfuse::detail::philox_u32x4;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

std::array<u32, 4> words(philox_u32x4 x) {
  return {x.v[0], x.v[1], x.v[2], x.v[3]};
}

/// Philox-4x32-R written from Salmon et al. (SC'11) Section 5 independently of the header: the
/// key is bumped *before* every round but the first (Random123's own order), the 64-bit
/// products come from one multiplication each, and the S-box permutation is spelled out.
std::array<u32, 4> independent_philox(std::array<u32, 4> c, std::array<u32, 2> k, int rounds) {
  constexpr u64 m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;
  constexpr u32 w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
  for (int r = 0; r < rounds; ++r) {
    if (r > 0) {
      k[0] += w0;
      k[1] += w1;
    }
    u64 const p0 = m0 * c[0];
    u64 const p1 = m1 * c[2];
    std::array<u32, 4> next;
    next[0] = u32(p1 >> 32) ^ c[1] ^ k[0];
    next[1] = u32(p1);
    next[2] = u32(p0 >> 32) ^ c[3] ^ k[1];
    next[3] = u32(p0);
    c = next;
  }
  return c;
}

struct kat {
  std::array<u32, 4> counter;
  std::array<u32, 2> key;
  std::array<u32, 4> expected;
};

// Random123 tests/kat_vectors, the three "philox4x32 10" lines (columns: counter[4], key[2],
// expected[4]). Checked against copies of that file found with the code search; they agree.
constexpr kat philox4x32_10_kats[] = {
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000},
     {0x00000000, 0x00000000},
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

// The same file's "philox4x32 7" lines: they check the independent implementation's round
// structure at a second round count (the header's is fixed at 10).
constexpr kat philox4x32_7_kats[] = {
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000},
     {0x00000000, 0x00000000},
     {0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}},
};

philox_u32x4 counter_of(std::array<u32, 4> c) {
  return {{c[0], c[1], c[2], c[3]}};
}
philox_key key_of(std::array<u32, 2> k) {
  return {{k[0], k[1]}};
}

u64 join(u32 lo, u32 hi) {
  return u64(hi) << 32 | lo;
}

} // namespace

TEST_CASE("philox4x32_10 reproduces the Random123 known-answer vectors") {
  for (kat const& v : philox4x32_10_kats) {
    CAPTURE(v.counter[0]);
    CHECK(words(philox4x32_10(counter_of(v.counter), key_of(v.key))) == v.expected);
  }
}

TEST_CASE("the independent Philox used below also reproduces the known answers (10 and 7 rounds)") {
  for (kat const& v : philox4x32_10_kats)
    CHECK(independent_philox(v.counter, v.key, 10) == v.expected);
  for (kat const& v : philox4x32_7_kats)
    CHECK(independent_philox(v.counter, v.key, 7) == v.expected);
}

TEST_CASE("philox4x32_10 agrees with the independent implementation on random counters and keys") {
  std::mt19937 rng(20240611);
  for (int i = 0; i < 20000; ++i) {
    std::array<u32, 4> const c{u32(rng()), u32(rng()), u32(rng()), u32(rng())};
    std::array<u32, 2> const k{u32(rng()), u32(rng())};
    REQUIRE(words(philox4x32_10(counter_of(c), key_of(k))) == independent_philox(c, k, 10));
  }
}

TEST_CASE("mul_wide_u32 is the 64-bit product of two words") {
  using rowfuse::detail::mul_wide_u32;
  auto const product = [](u32 a, u32 b) {
    auto const p = mul_wide_u32(a, b);
    return u64(p.hi) << 32 | p.lo;
  };
  CHECK(product(0xffffffffu, 0xffffffffu) == 0xfffffffe00000001ull);
  CHECK(product(0x80000000u, 2u) == 0x100000000ull);
  CHECK(product(0x7fffffffu, 2u) == 0xfffffffeull);
  CHECK(product(0u, 0xffffffffu) == 0u);
  std::mt19937 rng(7);
  for (int i = 0; i < 10000; ++i) {
    u32 const a = u32(rng()), b = u32(rng());
    // Schoolbook product of 16-bit halves: no 64-bit product of full words on this side.
    u64 const lo = u64(a) * (b & 0xffffu), hi = u64(a) * (b >> 16);
    REQUIRE(product(a, b) == (hi << 16) + lo);
  }
}

TEST_CASE("philox_quad puts the quad in counter words 0-1, the offset in words 2-3, the seed in "
          "the key") {
  SUBCASE("known answers through philox_quad") {
    // Counter {lo(quad), hi(quad), lo(offset), hi(offset)}, key {lo(seed), hi(seed)}.
    CHECK(words(philox_quad(0, 0, 0)) == philox4x32_10_kats[0].expected);
    CHECK(words(philox_quad(~u64{0}, ~u64{0}, ~u64{0})) == philox4x32_10_kats[1].expected);
    kat const& pi = philox4x32_10_kats[2];
    u64 const quad = join(pi.counter[0], pi.counter[1]);   // 0x85a308d3'243f6a88
    u64 const offset = join(pi.counter[2], pi.counter[3]); // 0x03707344'13198a2e
    u64 const seed = join(pi.key[0], pi.key[1]);           // 0x299f31d0'a4093822
    CHECK(quad == 0x85a308d3243f6a88ull);
    CHECK(words(philox_quad(seed, offset, quad)) == pi.expected);
    // Any other arrangement of the same three numbers gives other bits.
    CHECK(words(philox_quad(seed, quad, offset)) != pi.expected);
    CHECK(words(philox_quad(quad, offset, seed)) != pi.expected);
  }
  SUBCASE("random seeds, offsets and quads") {
    std::mt19937_64 rng(99);
    for (int i = 0; i < 5000; ++i) {
      u64 const seed = rng(), offset = rng(), quad = rng();
      std::array<u32, 4> const c{u32(quad), u32(quad >> 32), u32(offset), u32(offset >> 32)};
      std::array<u32, 2> const k{u32(seed), u32(seed >> 32)};
      REQUIRE(words(philox_quad(seed, offset, quad)) == independent_philox(c, k, 10));
    }
  }
  SUBCASE("with the key schedule computed ahead (what rf::dropout's kernels use)") {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 5000; ++i) {
      u64 const seed = i < 2 ? u64(i) * ~u64{0} : rng(), offset = rng(), quad = rng();
      std::array<u32, 4> const c{u32(quad), u32(quad >> 32), u32(offset), u32(offset >> 32)};
      std::array<u32, 2> const k{u32(seed), u32(seed >> 32)};
      auto const keys = rowfuse::detail::philox_key_schedule(seed);
      REQUIRE(words(philox_quad(keys, offset, quad)) == independent_philox(c, k, 10));
    }
  }
  SUBCASE("the high words matter") {
    // A 32-bit truncation of any argument would make these equal.
    CHECK(words(philox_quad(1, 2, 3)) != words(philox_quad(1, 2, 3 + (u64{1} << 32))));
    CHECK(words(philox_quad(1, 2, 3)) != words(philox_quad(1, 2 + (u64{1} << 32), 3)));
    CHECK(words(philox_quad(1, 2, 3)) != words(philox_quad(1 + (u64{1} << 32), 2, 3)));
  }
}

TEST_CASE("philox4x32_10 avalanches: one flipped input bit changes about half the output bits") {
  // 192 input bits x 16 base inputs = 3072 flips. Each output bit flips with probability 1/2,
  // so the mean Hamming distance is 64 with standard error sqrt(128 / 4 / 3072) ~ 0.1; the
  // window [62, 66] is 20 standard errors wide and fails for any real diffusion defect.
  std::mt19937 rng(31337);
  double total = 0;
  int flips = 0;
  for (int base = 0; base < 16; ++base) {
    std::array<u32, 4> c{u32(rng()), u32(rng()), u32(rng()), u32(rng())};
    std::array<u32, 2> k{u32(rng()), u32(rng())};
    auto const reference = words(philox4x32_10(counter_of(c), key_of(k)));
    for (int bit = 0; bit < 192; ++bit) {
      auto c2 = c;
      auto k2 = k;
      if (bit < 128)
        c2[bit / 32] ^= u32{1} << (bit % 32);
      else
        k2[(bit - 128) / 32] ^= u32{1} << (bit % 32);
      auto const out = words(philox4x32_10(counter_of(c2), key_of(k2)));
      int distance = 0;
      for (int w = 0; w < 4; ++w)
        distance += std::popcount(out[w] ^ reference[w]);
      REQUIRE(distance > 0);
      total += distance;
      ++flips;
    }
  }
  double const mean = total / flips;
  CHECK(mean > 62.0);
  CHECK(mean < 66.0);
}

TEST_CASE("consecutive quads of one stream are uniform in their top 4 bits") {
  // 2^16 quads x 4 words = 262144 samples in 16 bins: chi-square with 15 degrees of freedom
  // has mean 15 and exceeds 50 with probability below 1e-5.
  std::array<long, 16> bins{};
  for (u64 q = 0; q < (u64{1} << 16); ++q) {
    auto const u = philox_quad(0x1234567890abcdefull, 42, q);
    for (u32 w : u.v)
      ++bins[w >> 28];
  }
  double const expected = 262144.0 / 16;
  double chi2 = 0;
  for (long b : bins)
    chi2 += (b - expected) * (b - expected) / expected;
  CAPTURE(chi2);
  CHECK(chi2 < 50.0);
}
