// layernorm and rmsnorm collectives against the host reference: warp and block scope, striped
// and mma accumulator layouts, shared-memory tiles of 16-bit types, gamma / beta /
// zero-centred gamma, load chains, rows far from zero, saved statistics.
#include "collective_support.cuh"

namespace {

using ctest::row_op;
using ctest::tile_in;

/// Per-column parameters and a residual add on the load side, as a pre-norm block has them.
template <row_op Op> struct norm_chain {
  float const* gamma_host;
  float const* gamma_device;
  float const* beta_host;
  float const* beta_device;
  float const* residual_host;
  float const* residual_device;
  bool zero_centered = false;
  template <class L, class S>
  auto operator()(L const& load, S const& store, ctest::chain_site site) const {
    float const* gamma = (site.device ? gamma_device : gamma_host) + site.col0;
    float const* beta = (site.device ? beta_device : beta_host) + site.col0;
    float const* residual = (site.device ? residual_device : residual_host) + site.col0;
    long const ld = load.input.ld; // the tensor's row stride, on both sides
    auto const loaded = load | rf::scale(1.5f) | rf::add(residual, ld);
    if constexpr (Op == row_op::layernorm)
      return std::make_tuple(loaded, store, rf::affine(gamma, beta));
    else if (zero_centered)
      return std::make_tuple(loaded, store, rf::zero_centered_gamma(gamma));
    else
      return std::make_tuple(loaded, store, rf::affine(gamma));
  }
};

/// Columns' parameters and a residual for tensors up to `elements`, on both sides.
struct norm_operands {
  test::mirrored<float> gamma, beta, residual;
  explicit norm_operands(long elements, long cols, unsigned seed)
      : gamma(std::size_t(cols)), beta(std::size_t(cols)), residual(std::size_t(elements)) {
    std::mt19937 rng(seed);
    test::fill_uniform(gamma.host, rng, 0.5f, 1.5f);
    test::fill_uniform(beta.host, rng, -0.5f, 0.5f);
    test::fill_uniform(residual.host, rng, -1.0f, 1.0f);
    gamma.upload();
    beta.upload();
    residual.upload();
  }
  template <row_op Op> norm_chain<Op> chain(bool zero_centered = false) {
    return {gamma.h(), gamma.d(), beta.h(), beta.d(), residual.h(), residual.d(), zero_centered};
  }
};

template <row_op Op> void warp_layouts(unsigned seed) {
  {
    long const rows = 320, cols = 64;
    norm_operands operands(rows * cols, cols, seed);
    ctest::check<rfc::striped_layout<16, 64>, rfc::warp_scope, Op, tile_in::registers>(
        rows, cols, operands.chain<Op>(), seed);
    ctest::check<rfc::striped_layout<16, 64, 32, 16, 4>, rfc::warp_scope, Op, tile_in::registers>(
        rows, cols, operands.chain<Op>(true), seed + 1);
    ctest::check<rfc::mma_accumulator_layout<32, 64>, rfc::warp_scope, Op, tile_in::registers>(
        rows, cols, operands.chain<Op>(), seed + 2);
    ctest::check<rfc::striped_layout<16, 64>, rfc::warp_scope, Op, tile_in::shared_memory>(
        rows, cols, operands.chain<Op>(), seed + 3);
    ctest::check<rfc::striped_layout<16, 64>, rfc::warp_scope, Op, tile_in::shared_memory,
                 __nv_bfloat16, __nv_bfloat16, 72, true>(rows, cols, operands.chain<Op>(),
                                                         seed + 4);
    ctest::check<rfc::mma_accumulator_layout<16, 64>, rfc::warp_scope, Op, tile_in::shared_memory,
                 __half, float, 64>(rows, cols, operands.chain<Op>(), seed + 5);
  }
  {
    // Odd widths: packs of one, padding in every layout.
    long const rows = 40, cols = 37;
    norm_operands operands(rows * cols, cols, seed + 6);
    ctest::check<rfc::striped_layout<5, 37>, rfc::warp_scope, Op, tile_in::registers>(
        rows, cols, operands.chain<Op>(), seed + 7);
    ctest::check<rfc::striped_layout<8, 37, 32, 4>, rfc::warp_scope, Op, tile_in::shared_memory>(
        rows, cols, operands.chain<Op>(), seed + 8);
    ctest::check<rfc::striped_layout<40, 37>, rfc::warp_scope, Op, tile_in::registers>(
        rows, cols, ctest::plain{}, seed + 9);
  }
}

template <row_op Op> void block_layouts(unsigned seed) {
  {
    // Two rows over 256 threads: 128 threads (four warps) a row.
    long const rows = 8, cols = 2048;
    norm_operands operands(rows * cols, cols, seed);
    ctest::check<rfc::striped_layout<2, 2048, 256>, rfc::block_scope, Op, tile_in::registers>(
        rows, cols, operands.chain<Op>(), seed + 1);
    ctest::check<rfc::striped_layout<2, 2048, 256>, rfc::block_scope, Op, tile_in::shared_memory>(
        rows, cols, operands.chain<Op>(), seed + 2);
  }
  {
    // One row of 1000 over 128 threads; and 32 rows of 1000 at 8 threads a row.
    long const rows = 32, cols = 1000;
    norm_operands operands(rows * cols, cols, seed + 3);
    ctest::check<rfc::striped_layout<1, 1000, 128>, rfc::block_scope, Op, tile_in::registers>(
        rows, cols, operands.chain<Op>(), seed + 4);
    ctest::check<rfc::striped_layout<32, 1000, 256>, rfc::block_scope, Op, tile_in::registers>(
        rows, cols, operands.chain<Op>(), seed + 5);
  }
}

} // namespace

TEST_CASE("warp layernorm: striped, mma and shared-memory tiles, gamma and beta, odd widths") {
  warp_layouts<row_op::layernorm>(101);
}

TEST_CASE("warp rmsnorm: striped, mma and shared-memory tiles, gamma, zero-centred, odd widths") {
  warp_layouts<row_op::rmsnorm>(201);
}

TEST_CASE("block layernorm and rmsnorm: rows inside warps and across four warps") {
  block_layouts<row_op::layernorm>(301);
  block_layouts<row_op::rmsnorm>(401);
}

TEST_CASE("layernorm of rows far from zero keeps the spread (the mean as hi + lo)") {
  long const rows = 64, cols = 64;
  // Rows of mean 1e4 and spread 1: a plain fp32 mean would lose 5e-4 standard deviations.
  ctest::check<rfc::striped_layout<16, 64>, rfc::warp_scope, row_op::layernorm, tile_in::registers>(
      rows, cols, ctest::plain{}, 501, 9999.0f, 10001.0f);
  ctest::check<rfc::striped_layout<1, 64, 64>, rfc::block_scope, row_op::layernorm,
               tile_in::registers>(rows, cols, ctest::plain{}, 502, 9999.0f, 10001.0f);
}
