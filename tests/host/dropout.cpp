// rf::dropout on the host: the keep decision compares 16-bit half i % 2 of word (i % 8) / 2 of
// Philox block i / 8 (i = row * cols + col) of the stream (seed, offset) with round(p * 65536),
// independently of how the row is cut into packs; kept values are scaled by 1 / (1 - p), dropped
// ones are 0; the keep mask output matches; bad p is an error.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <rowfuse/expr.hpp>
#include <rowfuse/reference.hpp>

namespace rf = rowfuse;

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using rf::index_t;

/// The 8 16-bit numbers of Philox block b of the stream (seed, offset), in element order: low
/// then high half of words 0, 1, 2, 3 of
/// philox4x32_10({lo(b), hi(b), lo(offset), hi(offset)}, {lo(seed), hi(seed)}). Recomputed from
/// philox4x32_10 itself, not from philox_quad or the node.
std::array<u32, 8> block_halves(u64 seed, u64 offset, u64 b) {
  rf::detail::philox_u32x4 const counter{{u32(b), u32(b >> 32), u32(offset), u32(offset >> 32)}};
  rf::detail::philox_key const key{{u32(seed), u32(seed >> 32)}};
  rf::detail::philox_u32x4 const w = rf::detail::philox4x32_10(counter, key);
  std::array<u32, 8> halves;
  for (int k = 0; k < 4; ++k) {
    halves[std::size_t(2 * k)] = w.v[k] & 0xffffu;
    halves[std::size_t(2 * k + 1)] = w.v[k] >> 16;
  }
  return halves;
}

/// The threshold the documentation promises: p * 65536 rounded to nearest, ties up.
u32 expected_threshold(float p) {
  return u32(std::lround(double(p) * 65536.0));
}

/// The decision the documentation promises: element i is kept iff half i % 8 of block i / 8 is
/// >= round(p * 65536).
bool expected_keep(float p, u64 seed, u64 offset, u64 i) {
  return block_halves(seed, offset, i / 8)[i % 8] >= expected_threshold(p);
}

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
  std::vector<double> x(n);
  for (double& v : x) {
    do
      v = uniform(rng);
    while (v == 0.0); // a kept 0 would look dropped
  }
  return x;
}

/// Runs the bound node's apply<N> over x[0..N) = elements (row, col0 .. col0 + N).
template <int N, class V>
void apply_pack(rf::dropout_node const& node, V* x, index_t row, index_t col0, index_t cols) {
  V pack[N];
  for (int j = 0; j < N; ++j)
    pack[j] = x[j];
  rf::store_context<V> context{cols, V(0)};
  node.template apply<N>(pack, row, col0, context);
  for (int j = 0; j < N; ++j)
    x[j] = pack[j];
}

constexpr std::uint8_t poison_byte = 0x7F;

} // namespace

TEST_CASE("dropout keeps 1 - p of 10^6 elements, scales kept values by exactly 1/(1-p), zeroes "
          "the rest, and writes a matching keep mask") {
  index_t const rows = 1000, cols = 1000, n = rows * cols;
  std::vector<double> const x = random_values(std::size_t(n), 1);
  // Each p through another pack width (cols is a multiple of 8: the fast paths for 4 and 8).
  auto run = [&]<int N>(float p, std::integral_constant<int, N>) {
    CAPTURE(p);
    CAPTURE(N);
    std::vector<std::uint8_t> mask(std::size_t(n), poison_byte);
    auto const node =
        rf::dropout(p, 0xfeedface12345678ull, 77, mask.data()).bind("test", rows, cols);
    std::vector<double> y = x;
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; c += N)
        apply_pack<N>(node, &y[std::size_t(r * cols + c)], r, c, cols);
    double const scale = 1.0 / (1.0 - double(p)); // the host reference scales in double
    long kept = 0;
    for (std::size_t i = 0; i < std::size_t(n); ++i) {
      REQUIRE((mask[i] == 0 || mask[i] == 1)); // every byte written, and only 0 / 1
      REQUIRE(mask[i] == std::uint8_t(expected_keep(p, 0xfeedface12345678ull, 77, i)));
      if (mask[i]) {
        ++kept;
        REQUIRE(y[i] == x[i] * scale);
      } else {
        REQUIRE(y[i] == 0.0);
      }
    }
    // Binomial(n, 1 - p): 4 standard deviations (a false alarm about once in 16000 runs, but
    // the seed is fixed, so the test is deterministic). Quantizing p to 2^-16 moves the mean by
    // at most n * 2^-17 < 8, against sd >= 300.
    double const mean = double(n) * (1.0 - p), sd = std::sqrt(double(n) * p * (1.0 - p));
    CAPTURE(kept);
    CHECK(std::abs(double(kept) - mean) <= 4.0 * sd);
  };
  run(0.1f, std::integral_constant<int, 4>{});
  run(0.5f, std::integral_constant<int, 8>{});
  run(0.9f, std::integral_constant<int, 1>{});
}

TEST_CASE("bind sets the threshold round(p * 65536) and the float keep scale 1 / (1 - p)") {
  auto threshold = [](float p) { return rf::dropout(p, 1).bind("test", 1, 1).threshold; };
  CHECK(threshold(0.0f) == 0u);
  CHECK(threshold(0.1f) == 6554u); // 6553.6
  CHECK(threshold(0.25f) == 16384u);
  CHECK(threshold(0.5f) == 32768u);
  CHECK(threshold(0.9999f) == 65529u);                    // 65529.45
  CHECK(threshold(0x1p-17f) == 1u);                       // 0.5: ties round up
  CHECK(threshold(0x1.8p-16f) == 2u);                     // 1.5
  CHECK(threshold(0x1.4p-15f) == 3u);                     // 2.5: up, not to even
  CHECK(threshold(0x1p-18f) == 0u);                       // 0.25
  CHECK(threshold(std::nextafter(1.0f, 0.0f)) == 65536u); // drops every element
  CHECK(rf::dropout(0.5f, 1).bind("test", 1, 1).keep_scale == 2.0f);
  // The drop probability threshold / 65536 is within 2^-17 of p, for any p in [0, 1).
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (int t = 0; t < 10000; ++t) {
    float const p = uniform(rng);
    CAPTURE(p);
    auto const node = rf::dropout(p, 1, 2).bind("test", 3, 4);
    REQUIRE(node.threshold == expected_threshold(p));
    REQUIRE(node.threshold <= 65536u);
    REQUIRE(std::abs(double(node.threshold) / 65536.0 - double(p)) <= 0x1p-17);
    REQUIRE(node.keep_scale == float(1.0 / (1.0 - double(p))));
  }
}

TEST_CASE("the 8 elements of a block of 8 take the 8 16-bit halves of one Philox call, in order") {
  // For each element, the threshold equal to its half keeps it and the threshold one above drops
  // it: that pins the element's 16-bit number exactly. Blocks are chosen to start at and off a
  // row start, and the 8 elements are visited in packs of 1, 2, 4 and 8 (fast and general paths).
  u64 const seed = 0x9e3779b97f4a7c15ull, offset = 0xc0ffee0000000001ull;
  index_t const rows = 4, cols = 12; // blocks 0 .. 5; blocks 1, 4 cross a row boundary
  std::vector<double> const x = random_values(std::size_t(rows * cols), 21);
  int checked = 0;
  for (u64 b = 0; b < u64(rows * cols) / 8; ++b) {
    std::array<u32, 8> const halves = block_halves(seed, offset, b);
    CAPTURE(b);
    for (int k = 0; k < 8; ++k) {
      if (halves[std::size_t(k)] == 0xffffu)
        continue; // the threshold one above would need p = 1
      for (u32 t : {halves[std::size_t(k)], halves[std::size_t(k)] + 1}) {
        float const p = float(t) / 65536.0f; // exact
        CAPTURE(k);
        CAPTURE(t);
        std::vector<std::uint8_t> mask(std::size_t(rows * cols), poison_byte);
        auto const node = rf::dropout(p, seed, offset, mask.data()).bind("test", rows, cols);
        REQUIRE(node.threshold == t);
        bool const keep = t == halves[std::size_t(k)];
        u64 const i = 8 * b + u64(k);
        index_t const row = index_t(i) / cols, col = index_t(i) % cols;
        // A pack of 1 at the element, and the widest pack holding it that stays in the row.
        double y1[1] = {x[i]};
        apply_pack<1>(node, y1, row, col, cols);
        REQUIRE(y1[0] == (keep ? x[i] * (1.0 / (1.0 - double(p))) : 0.0));
        REQUIRE(mask[i] == std::uint8_t(keep));
        auto in_pack = [&]<int N>(std::integral_constant<int, N>) {
          index_t const col0 = col / N * N; // cols is a multiple of 4, not of 8
          if (col0 + N > cols)
            return;
          float y[N];
          for (int j = 0; j < N; ++j)
            y[j] = float(x[std::size_t(row * cols + col0 + j)]);
          mask[i] = poison_byte;
          apply_pack<N>(node, y, row, col0, cols);
          float const value = float(x[i]);
          REQUIRE(y[col - col0] == (keep ? value * node.keep_scale : 0.0f));
          REQUIRE(mask[i] == std::uint8_t(keep));
        };
        in_pack(std::integral_constant<int, 2>{});
        in_pack(std::integral_constant<int, 4>{});
        in_pack(std::integral_constant<int, 8>{});
        ++checked;
      }
    }
  }
  CHECK(checked > 80);
}

TEST_CASE("each element's decision is the documented Philox word, for odd shapes and 64-bit "
          "seeds and offsets") {
  struct shape {
    index_t rows, cols;
  };
  std::mt19937_64 rng(2024);
  for (shape s :
       {shape{1, 1}, shape{3, 7}, shape{5, 13}, shape{4, 4}, shape{2, 33}, shape{7, 64}}) {
    u64 const seed = rng(), offset = rng(); // both with nonzero high words
    float const p = 0.3f;
    CAPTURE(s.rows);
    CAPTURE(s.cols);
    std::vector<double> y = random_values(std::size_t(s.rows * s.cols), 5);
    std::vector<double> const x = y;
    auto const node = rf::dropout(p, seed, offset).bind("test", s.rows, s.cols);
    int kept = 0;
    for (index_t r = 0; r < s.rows; ++r)
      for (index_t c = 0; c < s.cols; ++c) {
        std::size_t const i = std::size_t(r * s.cols + c);
        apply_pack<1>(node, &y[i], r, c, s.cols);
        bool const keep = expected_keep(p, seed, offset, i);
        kept += keep;
        REQUIRE(y[i] == (keep ? x[i] * (1.0 / (1.0 - double(p))) : 0.0));
      }
    if (s.rows * s.cols >= 64) { // not a constant decision
      CHECK(kept > 0);
      CHECK(kept < s.rows * s.cols);
    }
  }
}

TEST_CASE("the decision does not depend on the pack width or the pack's alignment in the row") {
  // For every width N in {1, 2, 3, 4, 5, 8, 16}, every row and every col0 with col0 + N <= cols
  // (so the pack's first index takes every residue mod 8, and cols is not a multiple of 8 in most
  // shapes), each element of the pack gets the documented decision and value, and the keep mask
  // gets it too.
  u64 const seed = 0x0123456789abcdefull, offset = 0xfedcba9876543210ull;
  float const p = 0.4f;
  for (index_t cols :
       {index_t(13), index_t(6), index_t(9), index_t(16), index_t(20), index_t(37)}) {
    index_t const rows = 5;
    CAPTURE(cols);
    std::vector<double> const x = random_values(std::size_t(rows * cols), 11);
    auto check_width = [&]<int N>(std::integral_constant<int, N>) {
      CAPTURE(N);
      for (index_t r = 0; r < rows; ++r)
        for (index_t col0 = 0; col0 + N <= cols; ++col0) {
          std::vector<std::uint8_t> mask(std::size_t(rows * cols), poison_byte);
          auto const node = rf::dropout(p, seed, offset, mask.data()).bind("test", rows, cols);
          double yd[N];
          float yf[N];
          for (int j = 0; j < N; ++j) {
            yd[j] = x[std::size_t(r * cols + col0 + j)];
            yf[j] = float(yd[j]);
          }
          apply_pack<N>(node, yd, r, col0, cols);
          apply_pack<N>(node, yf, r, col0, cols); // the kernels' float path
          for (int j = 0; j < N; ++j) {
            u64 const i = u64(r * cols + col0 + j);
            bool const keep = expected_keep(p, seed, offset, i);
            CAPTURE(col0);
            CAPTURE(j);
            REQUIRE(yd[j] == (keep ? x[i] * (1.0 / (1.0 - double(p))) : 0.0));
            REQUIRE(yf[j] == (keep ? float(x[i]) * node.keep_scale : 0.0f));
            REQUIRE(mask[i] == std::uint8_t(keep));
          }
          // Nothing outside the pack was written.
          for (index_t k = 0; k < rows * cols; ++k)
            if (k < r * cols + col0 || k >= r * cols + col0 + N)
              REQUIRE(mask[std::size_t(k)] == poison_byte);
        }
    };
    check_width(std::integral_constant<int, 1>{});
    check_width(std::integral_constant<int, 2>{});
    check_width(std::integral_constant<int, 3>{});
    check_width(std::integral_constant<int, 4>{});
    check_width(std::integral_constant<int, 5>{});
    check_width(std::integral_constant<int, 8>{});
    check_width(std::integral_constant<int, 16>{});
  }
}

TEST_CASE("draw<N> gives the documented decisions as bits, for widths 1-32 at every residue") {
  // The kernels draw ahead (draw<N>, then apply with the bits) where the reference and the
  // engines that do not draw ahead call apply alone: both must give the documented decision.
  u64 const seed = 0x9e3779b97f4a7c15ull, offset = 77;
  float const p = 0.3f;
  index_t const rows = 3, cols = 45;
  std::vector<double> const x = random_values(std::size_t(rows * cols), 5);
  auto const node = rf::dropout(p, seed, offset).bind("test", rows, cols);
  auto check_width = [&]<int N>(std::integral_constant<int, N>) {
    CAPTURE(N);
    for (index_t r = 0; r < rows; ++r)
      for (index_t col0 = 0; col0 + N <= cols; ++col0) {
        CAPTURE(r);
        CAPTURE(col0);
        std::uint32_t const bits = node.draw<N>(r, col0, cols);
        if constexpr (N < 32)
          REQUIRE((bits >> N) == 0u); // nothing past the pack
        float drawn[N], direct[N];
        for (int j = 0; j < N; ++j) {
          u64 const i = u64(r * cols + col0 + j);
          REQUIRE(((bits >> j) & 1u) == u32(expected_keep(p, seed, offset, i)));
          drawn[j] = direct[j] = float(x[std::size_t(i)]);
        }
        rf::store_context<float> context{cols, 0.0f};
        node.apply<N>(drawn, r, col0, context, bits);
        node.apply<N>(direct, r, col0, context);
        for (int j = 0; j < N; ++j)
          REQUIRE(drawn[j] == direct[j]);
      }
  };
  check_width(std::integral_constant<int, 1>{});
  check_width(std::integral_constant<int, 3>{});
  check_width(std::integral_constant<int, 4>{});
  check_width(std::integral_constant<int, 8>{});
  check_width(std::integral_constant<int, 12>{});
  check_width(std::integral_constant<int, 16>{});
  check_width(std::integral_constant<int, 18>{});
  check_width(std::integral_constant<int, 32>{});
}

TEST_CASE("apply without draws on packs of zeros gives the drawn decisions' bits") {
  // A pack of +0 skips the generator (both decisions give +0); -0 does not (kept it stays -0,
  // dropped it becomes +0), nor a pack with one nonzero element, nor a pack with a mask to write.
  u64 const seed = 11, offset = 3;
  index_t const rows = 4, cols = 64;
  auto const node = rf::dropout(0.5f, seed, offset).bind("test", rows, cols);
  std::vector<std::uint8_t> mask(std::size_t(rows * cols), poison_byte);
  auto const masked = rf::dropout(0.5f, seed, offset, mask.data()).bind("test", rows, cols);
  auto const bits_of = [](float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  };
  int negative_zeros_dropped = 0;
  for (index_t r = 0; r < rows; ++r)
    for (index_t col0 = 0; col0 < cols; col0 += 8)
      for (int pattern = 0; pattern < 3; ++pattern) {
        CAPTURE(r);
        CAPTURE(col0);
        CAPTURE(pattern);
        float drawn[8], direct[8], with_mask[8];
        for (int j = 0; j < 8; ++j)
          drawn[j] = pattern == 0 ? 0.0f : pattern == 1 ? -0.0f : (j == 5 ? 2.5f : 0.0f);
        std::memcpy(direct, drawn, sizeof drawn);
        std::memcpy(with_mask, drawn, sizeof drawn);
        std::uint32_t const keep = node.draw<8>(r, col0, cols);
        rf::store_context<float> context{cols, 0.0f};
        node.apply<8>(drawn, r, col0, context, keep);
        node.apply<8>(direct, r, col0, context);
        masked.apply<8>(with_mask, r, col0, context);
        for (int j = 0; j < 8; ++j) {
          REQUIRE(bits_of(direct[j]) == bits_of(drawn[j]));
          REQUIRE(bits_of(with_mask[j]) == bits_of(drawn[j]));
          REQUIRE(mask[std::size_t(r * cols + col0 + j)] == ((keep >> j) & 1u));
          negative_zeros_dropped += pattern == 1 && ((keep >> j) & 1u) == 0;
        }
      }
  CHECK(negative_zeros_dropped > 0); // the -0 packs did reach decisions that change their bits
}

TEST_CASE("element indices past 2^35 (block index past 2^32) use the full 64-bit counter") {
  // 8.4e10 elements: nothing is allocated. cols is a multiple of 8, so packs of 8 at col0 % 8 == 0
  // take the aligned path and col0 % 8 == 4 the general one; packs of 4 take the half-block path.
  index_t const rows = index_t(1) << 24, cols = 5000;
  u64 const seed = 5, offset = 6;
  float const p = 0.5f;
  auto const node = rf::dropout(p, seed, offset).bind("test", rows, cols);
  std::vector<double> const x = random_values(72, 3);
  int disagreements_with_truncated_block = 0;
  auto check = [&]<int N>(index_t row, index_t col0, std::integral_constant<int, N>) {
    double y[N];
    for (int j = 0; j < N; ++j)
      y[j] = x[std::size_t(col0 + j)];
    apply_pack<N>(node, y, row, col0, cols);
    for (int j = 0; j < N; ++j) {
      u64 const i = u64(row) * u64(cols) + u64(col0 + j);
      REQUIRE(i / 8 > 0xffffffffull);
      bool const keep = expected_keep(p, seed, offset, i);
      REQUIRE(y[j] == (keep ? x[std::size_t(col0 + j)] * 2.0 : 0.0));
      u64 const truncated = (i / 8 & 0xffffffffu) * 8 + i % 8; // block index cut to 32 bits
      disagreements_with_truncated_block += keep != expected_keep(p, seed, offset, truncated);
    }
  };
  for (index_t row : {index_t(16000000), index_t(16777215)}) {
    for (index_t col0 = 0; col0 < 64; col0 += 8) {
      check(row, col0, std::integral_constant<int, 8>{});
      check(row, col0 + 4, std::integral_constant<int, 8>{});
      check(row, col0, std::integral_constant<int, 4>{});
      check(row, col0 + 4, std::integral_constant<int, 4>{});
      check(row, col0 + 1, std::integral_constant<int, 3>{});
    }
  }
  CHECK(disagreements_with_truncated_block > 0); // the test can tell the two apart
}

TEST_CASE("same (seed, offset) gives the same mask; another seed or offset gives another") {
  index_t const rows = 16, cols = 256;
  float const p = 0.5f;
  auto mask_of = [&](u64 seed, u64 offset) {
    std::vector<std::uint8_t> mask(std::size_t(rows * cols), poison_byte);
    auto const node = rf::dropout(p, seed, offset, mask.data()).bind("test", rows, cols);
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; c += 4) {
        double y[4] = {1, 2, 3, 4};
        apply_pack<4>(node, y, r, c, cols);
      }
    return mask;
  };
  auto differing = [](auto const& a, auto const& b) {
    double n = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      n += a[i] != b[i];
    return n / double(a.size());
  };
  u64 const seed = 1234, offset = 0;
  auto const base = mask_of(seed, offset);
  CHECK(mask_of(seed, offset) == base);
  // Two independent p = 0.5 masks differ in half their 4096 elements (sd 0.008).
  for (auto [s, o] : {std::pair<u64, u64>{seed + 1, offset},
                      {seed + (u64{1} << 32), offset},
                      {seed, offset + 1},
                      {seed, offset + (u64{1} << 32)}}) {
    CAPTURE(s);
    CAPTURE(o);
    double const d = differing(mask_of(s, o), base);
    CHECK(d > 0.45);
    CHECK(d < 0.55);
  }
}

TEST_CASE("p = 0 keeps every element unchanged") {
  index_t const rows = 3, cols = 17;
  std::vector<double> const x = random_values(std::size_t(rows * cols), 8);
  std::vector<double> y = x;
  std::vector<std::uint8_t> mask(std::size_t(rows * cols), poison_byte);
  auto const node = rf::dropout(0.0f, 99, 1, mask.data()).bind("test", rows, cols);
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c)
      apply_pack<1>(node, &y[std::size_t(r * cols + c)], r, c, cols);
  CHECK(y == x);
  for (std::uint8_t m : mask)
    REQUIRE(m == 1);
}

TEST_CASE("the keep mask honours its ld and leaves the padding alone") {
  index_t const rows = 4, cols = 6, ld = 9;
  float const p = 0.5f;
  std::vector<std::uint8_t> mask(std::size_t(rows * ld), poison_byte);
  auto const node = rf::dropout(p, 42, 43, mask.data(), ld).bind("test", rows, cols);
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; c += 2) {
      double y[2] = {1, 1};
      apply_pack<2>(node, y, r, c, cols);
    }
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < ld; ++c) {
      std::uint8_t const m = mask[std::size_t(r * ld + c)];
      if (c < cols)
        REQUIRE(m == std::uint8_t(expected_keep(p, 42, 43, u64(r * cols + c))));
      else
        REQUIRE(m == poison_byte);
    }
}

TEST_CASE("dropout through a store expression and through the host reference softmax") {
  index_t const rows = 6, cols = 11; // odd cols: rows do not start on a block of 8
  std::vector<float> x(std::size_t(rows * cols));
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
  for (float& v : x)
    v = uniform(rng);
  float const p = 0.35f;
  u64 const seed = 0xabcdef0123ull, offset = 9;
  double const scale = 1.0 / (1.0 - double(p));

  SUBCASE("rf::reference::softmax with store | dropout(p, seed, offset, mask)") {
    std::vector<float> plain(x.size()), dropped(x.size(), std::nanf(""));
    std::vector<std::uint8_t> mask(x.size(), poison_byte);
    auto const s = rf::reference::softmax(rf::load(x.data(), rows, cols), rf::store(plain.data()));
    auto const d = rf::reference::softmax(rf::load(x.data(), rows, cols),
                                          rf::store(dropped.data()) |
                                              rf::dropout(p, seed, offset, mask.data()));
    int kept = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      bool const keep = expected_keep(p, seed, offset, i);
      kept += keep;
      REQUIRE(mask[i] == std::uint8_t(keep));
      REQUIRE(d[i] == (keep ? s[i] * scale : 0.0));
      REQUIRE(dropped[i] == float(d[i])); // the written output is the rounded value
    }
    CHECK(kept > 0);
    CHECK(kept < rows * cols);
  }
  SUBCASE("store_expr::store<N> with an fp16 output, packs of 1 and of 2") {
    std::vector<__half> out(x.size(), __float2half_rn(std::nanf("")));
    auto const store =
        rf::detail::bind(rf::store(out.data()) | rf::dropout(p, seed, offset), "test", rows, cols);
    rf::store_context<float> context{cols, 0.0f};
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; ++c) {
        if (c + 1 < cols && c % 2 == 0) {
          float y[2] = {x[std::size_t(r * cols + c)], x[std::size_t(r * cols + c + 1)]};
          store.store<2>(r, c, y, context);
          ++c;
        } else {
          float y[1] = {x[std::size_t(r * cols + c)]};
          store.store<1>(r, c, y, context);
        }
      }
    for (std::size_t i = 0; i < x.size(); ++i) {
      bool const keep = expected_keep(p, seed, offset, i);
      float const expected = keep ? x[i] * float(1.0 / (1.0 - double(p))) : 0.0f;
      REQUIRE(__half2float(out[i]) == __half2float(__float2half_rn(expected)));
    }
  }
}

TEST_CASE("p outside [0, 1) raises rowfuse::error naming 'dropout p' and the value") {
  struct bad {
    float p;
    char const* text;
  };
  float const inf = std::numeric_limits<float>::infinity();
  for (bad b : {bad{-0.1f, "-0.1"}, bad{1.0f, "= 1 "}, bad{1.5f, "1.5"},
                bad{std::numeric_limits<float>::quiet_NaN(), "nan"}, bad{inf, "inf"},
                bad{-1e-7f, "-1e-07"}}) {
    CAPTURE(b.text);
    bool thrown = false;
    try {
      (void)rf::dropout(b.p, 1, 2).bind("rf::softmax", 2, 3);
    } catch (rf::error const& e) {
      thrown = true;
      std::string const what = e.what();
      CAPTURE(what);
      CHECK(what.find("dropout p") != std::string::npos);
      CHECK(what.find(b.text) != std::string::npos);
      CHECK(what.find("rf::softmax") != std::string::npos);
    }
    CHECK(thrown);
    // And through an op, before anything is written.
    float x[6] = {1, 2, 3, 4, 5, 6}, y[6];
    std::memset(y, 0x7F, sizeof y);
    CHECK_THROWS_AS(rf::reference::softmax(rf::load(x, 2, 3), rf::store(y) | rf::dropout(b.p, 1)),
                    rf::error);
    for (float v : y)
      CHECK(std::memcmp(&v, "\x7F\x7F\x7F\x7F", 4) == 0);
  }
  // The largest float below 1 is fine.
  CHECK_NOTHROW((void)rf::dropout(std::nextafter(1.0f, 0.0f), 1).bind("test", 1, 1));
}

TEST_CASE(
    "load-side dropout: bias -> dropout -> + residual -> layernorm, tee of the pre-norm sum") {
  // The residual branch of a transformer block. The tee'd h must be x + bias, dropped and scaled
  // by the documented decision for (seed, offset, row, col), plus the residual; the keep mask is
  // written once; the element index is the same as the store side's (row * cols + col).
  index_t const rows = 7, cols = 37;
  float const p = 0.25f;
  u64 const seed = 31, offset = 9;
  std::vector<float> x(std::size_t(rows * cols)), residual(x.size()), bias(std::size_t{37});
  std::vector<float> h(x.size(), -1.0f), y(x.size(), -1.0f);
  std::vector<std::uint8_t> mask(x.size(), poison_byte);
  std::vector<double> const rx = random_values(x.size(), 7), rr = random_values(x.size(), 8),
                            rb = random_values(bias.size(), 9);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = float(rx[i]);
    residual[i] = float(rr[i]);
  }
  for (std::size_t i = 0; i < bias.size(); ++i)
    bias[i] = float(rb[i]);
  auto const load = rf::load(static_cast<float const*>(x.data()), rows, cols) |
                    rf::bias(static_cast<float const*>(bias.data())) |
                    rf::dropout(p, seed, offset, mask.data()) |
                    rf::add(static_cast<float const*>(residual.data())) | rf::tee(h.data());
  rf::reference::layernorm(load, rf::store(y.data()), rf::no_affine, 1e-5f);
  double const scale = 1.0 / (1.0 - double(p));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      std::size_t const i = std::size_t(r * cols + c);
      bool const keep = expected_keep(p, seed, offset, u64(i));
      REQUIRE(mask[i] == std::uint8_t(keep));
      double const dropped = keep ? (double(x[i]) + double(bias[std::size_t(c)])) * scale : 0.0;
      CHECK(h[i] == rf::detail::narrow<float>(dropped + double(residual[i])));
      CHECK(!std::isnan(y[i]));
    }
}
