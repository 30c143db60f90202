// rf::dropout's draw_warp, which the register engine calls where a warp's lanes hold consecutive
// single elements: for every lane and step, the same decision as draw<1> at that element (the
// host's, which the reference and every other engine path use). Random rows past 2^32 elements,
// odd widths, first columns and strides, each number of steps a word can hold, and a drop
// probability that keeps both outcomes common.
#include <cstdint>

#include "support.cuh"

namespace {

struct warp_case {
  long row, warp_col0, stride, cols;
};

constexpr int cases = 64;

/// One warp a case: bit s of words[case * 32 + lane] is the warp's draw for the lane's element at
/// step s. Every lane calls draw_warp, as the engine's do.
template <int Steps>
__global__ void draw_by_warp(rf::dropout_node node, warp_case const* in, std::uint32_t* words) {
  int const lane = int(threadIdx.x);
  warp_case const c = in[blockIdx.x];
  words[blockIdx.x * 32 + lane] =
      node.template draw_warp<Steps>(c.row, c.warp_col0, c.stride, c.cols, lane);
}

template <int Steps> void check_steps(rf::dropout_node const& node, std::mt19937& rng) {
  test::mirrored<warp_case> in(cases);
  std::uniform_int_distribution<long> cols_of(33, 200000);
  std::uniform_int_distribution<long> row_of(0, (1L << 40) / 200000);
  long const strides[] = {32, 64, 96, 160, 1024, 16384};
  for (warp_case& c : in.host) {
    c.cols = cols_of(rng) | 1; // odd: the rows start at every offset of a Philox block
    c.row = row_of(rng);
    c.stride = strides[rng() % std::size(strides)];
    c.warp_col0 = long(rng() % 64) * 32 + long(rng() % 8);
  }
  in.upload();
  test::mirrored<std::uint32_t> words(cases * 32);
  std::fill(words.host.begin(), words.host.end(), 0xa5a5a5a5u); // poison
  words.upload();
  draw_by_warp<Steps><<<cases, 32>>>(node, in.d(), words.d());
  test::sync_and_check();
  auto const got = words.download();
  long wrong = 0, kept = 0;
  for (int k = 0; k < cases; ++k) {
    warp_case const& c = in.host[k];
    for (int lane = 0; lane < 32; ++lane) {
      std::uint32_t expected = 0;
      for (int s = 0; s < Steps; ++s)
        expected |= node.draw<1>(c.row, c.warp_col0 + s * c.stride + lane, c.cols) << s;
      wrong += got[k * 32 + lane] != expected;
      kept += __builtin_popcount(expected);
    }
  }
  CHECK_MESSAGE(wrong == 0, Steps, " steps: ", wrong, " of ", cases * 32, " lanes' words differ");
  // Both outcomes occur (p = 0.4): a word of all ones or all zeros would pass for no reason.
  long const drawn = long(cases) * 32 * Steps;
  CHECK(kept > drawn / 4);
  CHECK(kept < drawn * 3 / 4 + 1);
}

} // namespace

TEST_CASE("dropout: a warp's draws of single elements are draw<1>'s, at every step count") {
  std::mt19937 rng(2026);
  auto const node = rf::dropout(0.4f, 0x1234'5678'9abcULL, 977).bind("test", 1, 1);
  check_steps<1>(node, rng);
  check_steps<5>(node, rng);
  check_steps<6>(node, rng);
  check_steps<7>(node, rng);
  check_steps<16>(node, rng);
  check_steps<31>(node, rng);
  check_steps<32>(node, rng);
}
