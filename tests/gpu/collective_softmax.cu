// softmax and log-softmax collectives against the host reference: warp and block scope, striped
// and mma.sync accumulator register layouts, shared-memory tiles, odd shapes, masks addressed by
// the tile's origin, fully masked rows, 16-bit and fp8 outputs.
#include <cuda_fp16.h>

#include "collective_support.cuh"

namespace {

using ctest::row_op;
using ctest::tile_in;
constexpr float inf = std::numeric_limits<float>::infinity();

/// Attention's load chain: scale, then the causal mask of q_len-row query blocks.
struct scaled_causal {
  float factor;
  long q_len;
  long offset = 0;
  template <class L, class S>
  auto operator()(L const& load, S const& store, ctest::chain_site site) const {
    // The reference sees a column block starting at site.col0 as columns 0..: shift the
    // diagonal by as much.
    return std::make_tuple(load | rf::scale(factor) | rf::causal_mask(q_len, offset - site.col0),
                           store, rf::no_affine_t{});
  }
};

template <row_op Op> void attention_shapes(unsigned seed) {
  scaled_causal const chain{0.3f, 16};
  // Two lanes a row, packs of 8: the default for 16 x 16.
  ctest::check<rfc::striped_layout<16, 16>, rfc::warp_scope, Op, tile_in::registers>(640, 16, chain,
                                                                                     seed);
  // Sixteen lanes a row, two rows per instruction (the issue's shape).
  ctest::check<rfc::striped_layout<16, 16, 32, 16>, rfc::warp_scope, Op, tile_in::registers>(
      640, 16, chain, seed + 1);
  // Four lanes a row, packs of 4, two slots.
  ctest::check<rfc::striped_layout<16, 64, 32, 4, 4>, rfc::warp_scope, Op, tile_in::registers>(
      320, 64, scaled_causal{0.3f, 64}, seed + 2);
  // The mma.sync accumulator layout, filled by its formula (the mma test below fills it with
  // mma.sync itself): two m-fragments, eight n-fragments.
  ctest::check<rfc::mma_accumulator_layout<32, 64>, rfc::warp_scope, Op, tile_in::registers>(
      320, 64, scaled_causal{0.3f, 64}, seed + 3);
}

} // namespace

TEST_CASE("warp softmax in registers: striped and mma layouts, scale and causal mask") {
  attention_shapes<row_op::softmax>(1);
}

TEST_CASE("warp log-softmax in registers: striped and mma layouts, scale and causal mask") {
  attention_shapes<row_op::log_softmax>(11);
}

TEST_CASE("odd tile shapes: widths and row counts that leave padding in every layout") {
  for (row_op op : {row_op::softmax, row_op::log_softmax}) {
    auto const run = [&](auto op_constant) {
      constexpr row_op Op = decltype(op_constant)::value;
      ctest::plain const plain;
      ctest::check<rfc::striped_layout<5, 37>, rfc::warp_scope, Op, tile_in::registers>(40, 37,
                                                                                        plain, 21);
      ctest::check<rfc::striped_layout<16, 15>, rfc::warp_scope, Op, tile_in::registers>(64, 15,
                                                                                         plain, 22);
      ctest::check<rfc::striped_layout<3, 100>, rfc::warp_scope, Op, tile_in::registers>(30, 100,
                                                                                         plain, 23);
      ctest::check<rfc::striped_layout<1, 33>, rfc::warp_scope, Op, tile_in::registers>(8, 33,
                                                                                        plain, 24);
      ctest::check<rfc::striped_layout<7, 1>, rfc::warp_scope, Op, tile_in::registers>(14, 1, plain,
                                                                                       25);
      ctest::check<rfc::striped_layout<40, 9>, rfc::warp_scope, Op, tile_in::registers>(80, 9,
                                                                                        plain, 26);
      ctest::check<rfc::striped_layout<5, 37>, rfc::warp_scope, Op, tile_in::shared_memory>(
          40, 37, plain, 27);
      ctest::check<rfc::striped_layout<3, 100>, rfc::warp_scope, Op, tile_in::shared_memory>(
          30, 100, plain, 28);
    };
    if (op == row_op::softmax)
      run(std::integral_constant<row_op, row_op::softmax>{});
    else
      run(std::integral_constant<row_op, row_op::log_softmax>{});
  }
}

namespace {

/// A bool mask, an additive mask and the causal mask, all addressed by tensor coordinates:
/// tiles of 16 columns of a 64-column tensor must read the operands at their origin's column.
struct masks_at_origin {
  long shift; // elements past the allocation's start: 1 leaves no operand aligned for packs
  bool const* mask_host;
  bool const* mask_device;
  float const* bias_host;
  float const* bias_device;
  long cols;
  template <class L, class S>
  auto operator()(L const& load, S const& store, ctest::chain_site site) const {
    bool const* mask = (site.device ? mask_device : mask_host) + shift + site.col0;
    float const* bias = (site.device ? bias_device : bias_host) + shift + site.col0;
    return std::make_tuple(load | rf::scale(0.5f) | rf::add(bias, cols) |
                               rf::mask(mask, -inf, cols) | rf::causal_mask(48, 8 - site.col0),
                           store, rf::no_affine_t{});
  }
};

} // namespace

TEST_CASE("masks, additive operands and the causal mask at the tile's tensor coordinates") {
  long const rows = 96, cols = 64;
  std::mt19937 rng(31);
  test::mirrored<bool> mask(std::size_t(rows * cols + 1));
  test::mirrored<float> bias(std::size_t(rows * cols + 1));
  std::bernoulli_distribution masked(0.2);
  for (auto& m : mask.host)
    m = masked(rng);
  test::fill_uniform(bias.host, rng, -2.0f, 2.0f);
  mask.upload();
  bias.upload();
  masks_at_origin const chain{0, mask.h(), mask.d(), bias.h(), bias.d(), cols};
  ctest::check<rfc::striped_layout<16, 16>, rfc::warp_scope, row_op::softmax, tile_in::registers>(
      rows, cols, chain, 32);
  ctest::check<rfc::mma_accumulator_layout<16, 16>, rfc::warp_scope, row_op::softmax,
               tile_in::registers>(rows, cols, chain, 33);
  ctest::check<rfc::mma_accumulator_layout<16, 16>, rfc::warp_scope, row_op::log_softmax,
               tile_in::registers>(rows, cols, chain, 34);
  ctest::check<rfc::striped_layout<16, 16>, rfc::warp_scope, row_op::softmax,
               tile_in::shared_memory>(rows, cols, chain, 35);
  // Operands one element off their alignment: the chain runs element by element.
  masks_at_origin const shifted{1, mask.h(), mask.d(), bias.h(), bias.d(), cols};
  auto const shifted_load = std::get<0>(
      shifted(rfc::tile_load(rows, cols), rfc::tile_store(rows, cols), ctest::chain_site{true, 0}));
  CHECK(rfc::bind(shifted_load).aligned_pack == 1);
  ctest::check<rfc::striped_layout<16, 16>, rfc::warp_scope, row_op::softmax, tile_in::registers>(
      rows, cols, shifted, 36);
  ctest::check<rfc::mma_accumulator_layout<16, 16>, rfc::warp_scope, row_op::softmax,
               tile_in::registers>(rows, cols, shifted, 37);
}

namespace {

/// Rows 0, 5, 10, ... masked everywhere by a bool mask, and the first row of every 8-row
/// query block by the causal mask (offset -1: row 0 of a block sees no column).
struct fully_masked_rows {
  bool const* mask_host;
  bool const* mask_device;
  template <class L, class S>
  auto operator()(L const& load, S const& store, ctest::chain_site site) const {
    return std::make_tuple(load | rf::mask(site.device ? mask_device : mask_host) |
                               rf::causal_mask(8, -1 - site.col0),
                           store, rf::no_affine_t{});
  }
};

} // namespace

TEST_CASE("fully masked rows: softmax gives zeros, log-softmax -inf, never NaN") {
  long const rows = 80, cols = 16;
  test::mirrored<bool> mask(std::size_t(rows * cols));
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      mask.host[std::size_t(r * cols + c)] = r % 5 == 0;
  mask.upload();
  fully_masked_rows const chain{mask.h(), mask.d()};
  auto const all_zero_rows = [&](auto layout_constant, auto op_constant, auto where_constant) {
    using Layout = typename decltype(layout_constant)::type;
    constexpr row_op Op = decltype(op_constant)::value;
    constexpr tile_in Where = decltype(where_constant)::value;
    ctest::check<Layout, rfc::warp_scope, Op, Where>(rows, cols, chain, 41);
  };
  using striped = rfc::striped_layout<16, 16>;
  using mma = rfc::mma_accumulator_layout<16, 16>;
  using softmax = std::integral_constant<row_op, row_op::softmax>;
  using log_softmax = std::integral_constant<row_op, row_op::log_softmax>;
  using registers = std::integral_constant<tile_in, tile_in::registers>;
  using shared = std::integral_constant<tile_in, tile_in::shared_memory>;
  all_zero_rows(std::type_identity<striped>{}, softmax{}, registers{});
  all_zero_rows(std::type_identity<mma>{}, softmax{}, registers{});
  all_zero_rows(std::type_identity<mma>{}, log_softmax{}, registers{});
  all_zero_rows(std::type_identity<striped>{}, softmax{}, shared{});
  all_zero_rows(std::type_identity<striped>{}, log_softmax{}, shared{});
  // The reference itself says zeros and -inf there (what the checks above compare against).
  std::vector<float> x(std::size_t(rows * cols), 1.0f), y(x.size());
  auto const exact = rf::reference::softmax(rf::load(x.data(), rows, cols) | rf::mask(mask.h()) |
                                                rf::causal_mask(8, -1),
                                            rf::store(y.data()));
  for (long c = 0; c < cols; ++c) {
    CHECK(exact[std::size_t(0 * cols + c)] == 0.0);
    CHECK(exact[std::size_t(8 * cols + c)] == 0.0);
  }
}

namespace {

/// fp8 outputs need a cast: scale 4 and amax.
struct fp8_out {
  float* amax_device;
  template <class L, class S>
  auto operator()(L const& load, S const& store, ctest::chain_site site) const {
    using out_t = typename S::element_type;
    return std::make_tuple(load | rf::scale(0.7f),
                           store | rf::cast<out_t>(4.0f, site.device ? amax_device : nullptr),
                           rf::no_affine_t{});
  }
};

} // namespace

TEST_CASE("shared-memory tiles: in place, padded rows, 16-bit inputs and outputs, fp8 with cast") {
  using striped = rfc::striped_layout<16, 16>;
  using striped16 = rfc::striped_layout<16, 16, 32, 16>;
  using mma = rfc::mma_accumulator_layout<16, 32>;
  scaled_causal const chain{0.3f, 16};
  ctest::check<striped, rfc::warp_scope, row_op::softmax, tile_in::shared_memory, float, float, 16,
               true>(320, 16, chain, 51);
  ctest::check<striped16, rfc::warp_scope, row_op::softmax, tile_in::shared_memory, float, float,
               20>(320, 16, chain, 52);
  ctest::check<mma, rfc::warp_scope, row_op::log_softmax, tile_in::shared_memory, float, float, 40>(
      320, 32, scaled_causal{0.3f, 32}, 53);
  ctest::check<striped, rfc::warp_scope, row_op::softmax, tile_in::shared_memory, __half, __half,
               24, true>(320, 16, chain, 54);
  ctest::check<striped, rfc::warp_scope, row_op::softmax, tile_in::shared_memory, __nv_bfloat16,
               float>(320, 16, chain, 55);
  ctest::check<striped, rfc::warp_scope, row_op::softmax, tile_in::shared_memory, float,
               __nv_bfloat16>(320, 16, chain, 56);

  test::mirrored<float> amax(1);
  amax.host[0] = 0.0f;
  amax.upload();
  ctest::check<striped, rfc::warp_scope, row_op::softmax, tile_in::shared_memory, float,
               __nv_fp8_e4m3>(320, 16, fp8_out{amax.d()}, 57);
  // The largest softmax output of a row of 16 is at least 1/16; over 320 rows of spread-out
  // logits it is well above, and never above 1.
  float const got = amax.download()[0];
  CHECK(got > 0.2f);
  CHECK(got <= 1.0f);
}

TEST_CASE("register outputs of 16-bit type") {
  scaled_causal const chain{0.3f, 16};
  ctest::check<rfc::mma_accumulator_layout<16, 16>, rfc::warp_scope, row_op::softmax,
               tile_in::registers, float, __half>(320, 16, chain, 61);
  ctest::check<rfc::striped_layout<16, 16>, rfc::warp_scope, row_op::log_softmax,
               tile_in::registers, float, __nv_bfloat16>(320, 16, chain, 62);
}

TEST_CASE("block softmax: rows inside warps, rows across two and four warps, odd widths") {
  // Rows inside warps: two threads a row, 64 rows over 128 threads.
  ctest::check<rfc::striped_layout<64, 16, 128>, rfc::block_scope, row_op::softmax,
               tile_in::registers>(256, 16, scaled_causal{0.3f, 16}, 71);
  // 4 rows over 256 threads: 64 threads (two warps) a row, packs of 8.
  ctest::check<rfc::striped_layout<4, 1024, 256>, rfc::block_scope, row_op::softmax,
               tile_in::registers>(16, 1024, scaled_causal{0.3f, 4, 900}, 72);
  ctest::check<rfc::striped_layout<4, 1024, 256>, rfc::block_scope, row_op::log_softmax,
               tile_in::shared_memory>(16, 1024, scaled_causal{0.3f, 4, 900}, 73);
  // One odd row over 128 threads: every warp of the block holds part of it, packs of 1.
  ctest::check<rfc::striped_layout<1, 999, 128>, rfc::block_scope, row_op::softmax,
               tile_in::registers>(6, 999, ctest::plain{}, 74);
  ctest::check<rfc::striped_layout<1, 999, 128>, rfc::block_scope, row_op::log_softmax,
               tile_in::shared_memory>(6, 999, ctest::plain{}, 75);
  // Three rows over 256 threads: rows span two warps and one slot is padding.
  ctest::check<rfc::striped_layout<3, 640, 256>, rfc::block_scope, row_op::softmax,
               tile_in::registers>(9, 640, ctest::plain{}, 76);
}

// ---- mma.sync itself ---------------------------------------------------------------------------

namespace {

__device__ unsigned pack_halves(float low, float high) {
  __half2 const pair = __floats2half2_rn(low, high); // low: the lower column (k) index
  return *reinterpret_cast<unsigned const*>(&pair);
}

/// d += a b for one m16n8k16 fragment (fp16 operands, fp32 accumulators).
__device__ void mma_m16n8k16(float* d, unsigned const (&a)[4], unsigned const (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
               "{%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/// One warp a tile of Rows x Cols rows of x (fp16-exact floats): S = X I by mma.sync, with A
/// and B fragments filled by the PTX ISA's operand layouts; then the collective on the
/// accumulators and the result written through mma_accumulator_layout's map. A wrong
/// accumulator map would permute S's elements (a wrong softmax row) or write them elsewhere.
template <int Rows, int Cols, row_op Op, class In, class Out>
__global__ void mma_kernel(float const* x, float* y, long ld, rfc::tile_transforms<In> in,
                           rfc::tile_transforms<Out> out) {
  using layout = rfc::mma_accumulator_layout<Rows, Cols>;
  int const lane = int(threadIdx.x), g = lane / 4, t = lane % 4;
  rfc::tile_origin const origin{long(blockIdx.x) * Rows, 0};
  float const* tile = x + origin.row * ld;
  float s[layout::values] = {};
  for (int m = 0; m < Rows / 16; ++m) {
    for (int k0 = 0; k0 < Cols; k0 += 16) {
      auto const at = [&](int r, int c) { return tile[(16 * m + r) * ld + k0 + c]; };
      unsigned const a[4] = {
          pack_halves(at(g, 2 * t), at(g, 2 * t + 1)),
          pack_halves(at(g + 8, 2 * t), at(g + 8, 2 * t + 1)),
          pack_halves(at(g, 2 * t + 8), at(g, 2 * t + 9)),
          pack_halves(at(g + 8, 2 * t + 8), at(g + 8, 2 * t + 9)),
      };
      for (int n = 0; n < Cols / 8; ++n) {
        auto const identity = [&](int k) { return k0 + k == 8 * n + g ? 1.0f : 0.0f; };
        unsigned const b[2] = {pack_halves(identity(2 * t), identity(2 * t + 1)),
                               pack_halves(identity(2 * t + 8), identity(2 * t + 9))};
        mma_m16n8k16(&s[(m * (Cols / 8) + n) * 4], a, b);
      }
    }
  }
  rfc::warp_row_softmax<layout> softmax;
  if constexpr (Op == row_op::softmax)
    softmax.softmax(s, origin, in, out);
  else
    softmax.log_softmax(s, origin, in, out);
  ctest::scatter<layout>(s, y, ld, origin, lane);
}

template <int Rows, int Cols, row_op Op> void check_mma(long rows, unsigned seed) {
  CAPTURE(Rows);
  CAPTURE(Cols);
  CAPTURE(ctest::name(Op));
  long const cols = Cols;
  std::mt19937 rng(seed);
  test::mirrored<float> x(std::size_t(rows * cols)), y(std::size_t(rows * cols));
  std::vector<float> y_ref(x.host.size());
  test::fill_uniform(x.host, rng);
  for (auto& v : x.host)
    v = __half2float(__float2half_rn(v)); // what the fp16 operand holds: S = X I exactly
  x.upload();
  test::poison(y.host);
  y.upload();
  scaled_causal const chain{0.3f, 16, 3};
  auto const [load, store, affine] =
      chain(rf::load(x.h(), rows, cols), rf::store(y_ref.data()), ctest::chain_site{false, 0});
  auto const exact = ctest::reference<Op>(load, store, affine, 0.0f, {});
  auto const [tile_load, tile_store, unused] =
      chain(rfc::tile_load(rows, cols), rfc::tile_store(rows, cols), ctest::chain_site{true, 0});
  mma_kernel<Rows, Cols, Op><<<unsigned(rows / Rows), 32>>>(
      x.d(), y.d(), cols, rfc::bind(tile_load), rfc::bind(tile_store));
  test::sync_and_check();
  double spread = 0.0;
  for (float v : x.host)
    spread = std::max(spread, double(std::fabs(v)));
  ctest::tolerance<Op, float> const bound{spread, ctest::largest_finite(exact)};
  CHECK_MATCHES(test::compare_within(y.download(), exact, rows, cols, cols, 0, bound));
}

} // namespace

TEST_CASE("mma.sync m16n8k16 accumulators straight into the warp collective") {
  check_mma<16, 16, row_op::softmax>(320, 81);
  check_mma<16, 16, row_op::log_softmax>(320, 82);
  check_mma<32, 32, row_op::softmax>(320, 83);
  check_mma<16, 64, row_op::softmax>(160, 84);
}
