// rf::dropout's draw_warp, which the register engine calls where a warp's lanes hold consecutive
// packs (single elements; packs of a phased row): for every lane and step, the same decisions as
// draw<N> at that pack (the host's, which the reference and every other engine path use). Random
// rows past 2^32 elements, odd widths, first columns on and off a Philox block, strides, each
// number of steps a word can hold, and a drop probability that keeps both outcomes common.
#include <cstdint>

#include "support.cuh"

namespace {

struct warp_case {
  long row, warp_col0, stride, cols;
};

constexpr int cases = 64;

/// One warp a case: bits s * N .. s * N + N - 1 of words[case * 32 + lane] are the warp's draws
/// for the lane's pack at step s. Every lane calls draw_warp, as the engine's do.
template <int N, int Steps>
__global__ void draw_by_warp(rf::dropout_node node, warp_case const* in, std::uint64_t* words) {
  int const lane = int(threadIdx.x);
  warp_case const c = in[blockIdx.x];
  words[blockIdx.x * 32 + lane] =
      node.template draw_warp<N, Steps>(c.row, c.warp_col0, c.stride, c.cols, lane);
}

/// `cols_parity`: 1 for odd widths (rows start at every offset of a Philox block), 0 for widths
/// that are multiples of 8 with first columns on a block (the aligned rows' shortcut), -1 for
/// either.
template <int N, int Steps>
void check_steps(rf::dropout_node const& node, std::mt19937& rng, int cols_parity = 1) {
  test::mirrored<warp_case> in(cases);
  std::uniform_int_distribution<long> cols_of(33, 200000);
  std::uniform_int_distribution<long> row_of(0, (1L << 40) / 200000);
  // The engines' strides in packs: a row of whole warps or a block or cluster of them.
  long const strides[] = {32, 64, 96, 160, 1024, 16384};
  for (warp_case& c : in.host) {
    c.cols = cols_of(rng);
    bool const aligned = cols_parity == 0 || (cols_parity < 0 && rng() % 2 == 0);
    c.cols = aligned ? c.cols / 8 * 8 + 8 : c.cols | 1;
    c.row = row_of(rng);
    c.stride = strides[rng() % std::size(strides)] * N;
    c.warp_col0 = long(rng() % 64) * 32 * N + (aligned ? 0 : long(rng() % 8));
  }
  in.upload();
  test::mirrored<std::uint64_t> words(cases * 32);
  std::fill(words.host.begin(), words.host.end(), 0xa5a5a5a5a5a5a5a5ull); // poison
  words.upload();
  draw_by_warp<N, Steps><<<cases, 32>>>(node, in.d(), words.d());
  test::sync_and_check();
  auto const got = words.download();
  long wrong = 0, kept = 0;
  for (int k = 0; k < cases; ++k) {
    warp_case const& c = in.host[k];
    for (int lane = 0; lane < 32; ++lane) {
      std::uint64_t expected = 0;
      for (int s = 0; s < Steps; ++s)
        expected |=
            std::uint64_t(node.draw<N>(c.row, c.warp_col0 + s * c.stride + lane * N, c.cols))
            << (s * N);
      wrong += got[k * 32 + lane] != expected;
      kept += __builtin_popcountll(expected);
    }
  }
  CHECK_MESSAGE(wrong == 0, "packs of ", N, ", ", Steps, " steps: ", wrong, " of ", cases * 32,
                " lanes' words differ");
  // Both outcomes occur (p = 0.4): a word of all ones or all zeros would pass for no reason.
  long const drawn = long(cases) * 32 * Steps * N;
  CHECK(kept > drawn / 4);
  CHECK(kept < drawn * 3 / 4 + 1);
}

} // namespace

TEST_CASE("dropout: a warp's draws of single elements are draw<1>'s, at every step count") {
  std::mt19937 rng(2026);
  auto const node = rf::dropout(0.4f, 0x1234'5678'9abcULL, 977).bind("test", 1, 1);
  check_steps<1, 1>(node, rng);
  check_steps<1, 5>(node, rng);
  check_steps<1, 6>(node, rng);
  check_steps<1, 7>(node, rng);
  check_steps<1, 16>(node, rng);
  check_steps<1, 31>(node, rng);
  check_steps<1, 32>(node, rng);
}

TEST_CASE("dropout: a warp's draws of packs of 8 are draw<8>'s, on and off a Philox block") {
  std::mt19937 rng(2027);
  auto const node = rf::dropout(0.4f, 0x0fed'cba9'8765ULL, 31).bind("test", 1, 1);
  for (int parity : {1, 0, -1}) {
    CAPTURE(parity);
    check_steps<8, 1>(node, rng, parity);
    check_steps<8, 3>(node, rng, parity);
    check_steps<8, 4>(node, rng, parity);
    check_steps<8, 5>(node, rng, parity);
    check_steps<8, 6>(node, rng, parity);
    check_steps<8, 8>(node, rng, parity);
  }
}
