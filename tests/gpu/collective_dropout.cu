// Dropout inside a collective keeps and drops exactly the elements rf::softmax keeps and drops
// on the same tensor: the bits are a function of (seed, offset, row, col) alone, and the
// collective runs the same rf::dropout node at the tile's tensor coordinates. Each case runs
// rf::softmax on a [rows, cols] tensor of scores and the collective over tiles covering the same
// tensor, with the same chains and a keep mask written by both, and compares the masks byte for
// byte, the zeros of the outputs, and both outputs with the host reference.
#include "collective_support.cuh"

namespace {

using ctest::row_op;
using ctest::tile_in;

constexpr float drop_probability = 0.3f;
constexpr std::uint64_t seed = 0x5eed'1234'abcdull;
constexpr std::uint64_t offset = 77;

template <class Layout, class Scope, tile_in Where> void check_dropout(long rows, long cols) {
  CAPTURE(rows);
  CAPTURE(cols);
  CAPTURE(Layout::threads_per_row);
  CAPTURE(Layout::pack);
  CAPTURE(Where == tile_in::shared_memory);
  REQUIRE(cols == Layout::cols); // the tile's row is the softmax's row
  long const q_len = std::min(rows, 24L);
  std::mt19937 rng(unsigned(rows * 131 + cols));
  test::mirrored<float> scores(std::size_t(rows * cols));
  test::mirrored<float> whole(std::size_t(rows * cols)), tiled(std::size_t(rows * cols));
  test::mirrored<std::uint8_t> whole_keep(std::size_t(rows * cols)),
      tiled_keep(std::size_t(rows * cols));
  std::vector<float> reference_out(scores.host.size());
  std::vector<std::uint8_t> reference_keep(scores.host.size());
  test::fill_uniform(scores.host, rng);
  scores.upload();
  for (auto* buffer : {&whole, &tiled}) {
    test::poison(buffer->host);
    buffer->upload();
  }
  for (auto* buffer : {&whole_keep, &tiled_keep}) {
    std::fill(buffer->host.begin(), buffer->host.end(), std::uint8_t(0xEE));
    buffer->upload();
  }

  // The whole-tensor op.
  rf::softmax(rf::load(static_cast<float const*>(scores.d()), rows, cols) | rf::scale(0.4f) |
                  rf::causal_mask(q_len, cols - q_len),
              rf::store(whole.d()) | rf::dropout(drop_probability, seed, offset, whole_keep.d()));
  // The host reference of the same expressions.
  auto const exact = rf::reference::softmax(
      rf::load(scores.h(), rows, cols) | rf::scale(0.4f) | rf::causal_mask(q_len, cols - q_len),
      rf::store(reference_out.data()) |
          rf::dropout(drop_probability, seed, offset, reference_keep.data()));
  // The collective, tile by tile.
  auto const in = rfc::bind(rfc::tile_load(rows, cols) | rf::scale(0.4f) |
                            rf::causal_mask(q_len, cols - q_len));
  auto const out = rfc::bind(rfc::tile_store(rows, cols) |
                             rf::dropout(drop_probability, seed, offset, tiled_keep.d()));
  ctest::op_arguments<decltype(in)::expr_type, decltype(out)::expr_type, rf::no_affine_t> const
      arguments{in, out, {}, 0.0f, {}};
  long const tiles = rows / Layout::rows;
  if constexpr (Where == tile_in::shared_memory) {
    ctest::shared_kernel<Layout, Scope, row_op::softmax, float, float, Layout::cols, true>
        <<<unsigned(tiles), Layout::threads>>>(scores.d(), tiled.d(), cols, 1, arguments);
  } else {
    ctest::registers_kernel<Layout, Scope, row_op::softmax, float>
        <<<unsigned(tiles), Layout::threads>>>(scores.d(), tiled.d(), cols, tiles, 1, arguments);
  }
  test::sync_and_check();

  auto const whole_mask = whole_keep.download(), tiled_mask = tiled_keep.download();
  auto const whole_p = whole.download(), tiled_p = tiled.download();
  long mask_mismatches = 0, zero_mismatches = 0, dropped = 0;
  for (std::size_t i = 0; i < whole_mask.size(); ++i) {
    mask_mismatches += whole_mask[i] != reference_keep[i] || tiled_mask[i] != whole_mask[i];
    dropped += whole_mask[i] == 0;
    // Kept elements are exp(...) / sum > 0 unless masked by the causal mask; dropped are 0.
    zero_mismatches += (tiled_p[i] == 0.0f) != (whole_p[i] == 0.0f);
  }
  CHECK(mask_mismatches == 0);
  CHECK(zero_mismatches == 0);
  // About drop_probability of the elements: far from none and from all.
  CHECK(dropped > long(0.2 * double(whole_mask.size())));
  CHECK(dropped < long(0.4 * double(whole_mask.size())));
  CHECK_MATCHES(test::compare(whole_p, exact, rows, cols, cols, 0));
  CHECK_MATCHES(test::compare(tiled_p, exact, rows, cols, cols, 0));
}

} // namespace

TEST_CASE("dropout bits of warp collectives equal rf::softmax's: mma and striped layouts") {
  // Packs of 2 (four lanes draw each Philox block), 8 (one call a block), 1 (one a column).
  check_dropout<rfc::mma_accumulator_layout<16, 16>, rfc::warp_scope, tile_in::registers>(480, 16);
  check_dropout<rfc::mma_accumulator_layout<32, 64>, rfc::warp_scope, tile_in::registers>(192, 64);
  check_dropout<rfc::striped_layout<16, 16>, rfc::warp_scope, tile_in::registers>(480, 16);
  check_dropout<rfc::striped_layout<16, 16, 32, 16>, rfc::warp_scope, tile_in::registers>(480, 16);
  // Odd widths: Philox blocks straddle rows, packs start anywhere in a block.
  check_dropout<rfc::striped_layout<5, 37>, rfc::warp_scope, tile_in::registers>(200, 37);
  check_dropout<rfc::striped_layout<8, 12, 32, 4, 4>, rfc::warp_scope, tile_in::registers>(200, 12);
  check_dropout<rfc::striped_layout<16, 16>, rfc::warp_scope, tile_in::shared_memory>(480, 16);
}

TEST_CASE("dropout bits of block collectives equal rf::softmax's") {
  check_dropout<rfc::striped_layout<2, 1000, 256>, rfc::block_scope, tile_in::registers>(40, 1000);
  check_dropout<rfc::striped_layout<1, 333, 128>, rfc::block_scope, tile_in::shared_memory>(24,
                                                                                            333);
}
