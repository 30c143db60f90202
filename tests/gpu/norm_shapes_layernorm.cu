// layernorm over the whole width grid: fp32/fp16/bf16 in and out, without affine, with gamma
// and beta, with gamma alone, with zero-centred gamma (gamma and beta fp32, fp16 or bf16), dense
// and with ld > cols and every view one element off its alignment; the automatic plan and every
// engine that can run each width, forced; outputs, mean and rstd poisoned before every run and
// every element checked against rf::reference::layernorm (tolerances: norm_support.cuh).
#include "norm_support.cuh"

namespace {

namespace hana = boost::hana;
using norm_test::check_all_widths;
using norm_test::layernorm_op;

auto const no_affine = [](auto const*, auto const*) { return rf::no_affine; };
auto const gamma_beta = [](auto const* g, auto const* b) { return rf::affine(g, b); };
auto const gamma_only = [](auto const* g, auto const*) { return rf::affine(g); };
auto const zero_centered = [](auto const* g, auto const*) { return rf::zero_centered_gamma(g); };

auto const all_variants = hana::make_tuple(no_affine, gamma_beta, gamma_only, zero_centered);
auto const affine_variants = hana::make_tuple(gamma_beta, gamma_only, zero_centered);

} // namespace

TEST_CASE("layernorm fp32 -> fp32, fp32 gamma/beta, every width and engine") {
  check_all_widths<layernorm_op, float, float, float, float>(all_variants, 41);
}
TEST_CASE("layernorm fp16 -> fp16, fp16 gamma/beta, every width and engine") {
  check_all_widths<layernorm_op, __half, __half, __half, __half>(all_variants, 42);
}
TEST_CASE("layernorm bf16 -> bf16, bf16 gamma/beta, every width and engine") {
  check_all_widths<layernorm_op, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16>(
      all_variants, 43);
}
TEST_CASE("layernorm fp16 -> fp32, fp32 gamma/beta, every width and engine") {
  check_all_widths<layernorm_op, __half, float, float, float>(affine_variants, 44);
}
TEST_CASE("layernorm bf16 -> fp16, fp32 gamma with bf16 beta, every width and engine") {
  check_all_widths<layernorm_op, __nv_bfloat16, __half, float, __nv_bfloat16>(affine_variants, 45);
}
TEST_CASE("layernorm fp32 -> bf16, fp16 gamma/beta, every width and engine") {
  check_all_widths<layernorm_op, float, __nv_bfloat16, __half, __half>(affine_variants, 46);
}

TEST_CASE("layernorm alone plans from layernorm's shapes, under the residual block's load chain "
          "from layernorm_operand_chain's, under a store chain alone from "
          "layernorm_store_chain's") {
  long const rows = 64, cols = 256;
  test::mirrored<__half> x(rows * cols), residual(rows * cols), y(rows * cols), gamma(cols),
      beta(cols);
  rf::launch_options const dry{rf::engine_kind::automatic, 0, true};
  auto const input = rf::load(static_cast<__half const*>(x.d()), rows, cols);
  auto const affine =
      rf::affine(static_cast<__half const*>(gamma.d()), static_cast<__half const*>(beta.d()));
  rf::plan const alone = rf::layernorm(input, rf::store(y.d()), affine, 1e-5f, nullptr, {}, dry);
  INFO(rf::explain(alone));
  CHECK(alone.engine == rf::engine_kind::warp_rows);
  // Rows of the same shape keep the widths to 128, 256 and 512, between the rows of three, five
  // and seven packs a lane that take the widths between: measured on a device of wide memory (an
  // H200; tuning.hpp, forty-seventh and forty-eighth sessions), taken on an H100 too (on_h100_too,
  // sixty-ninth session).
  bool const wide_memory = rf::current_device().wide_memory();
  // The devices these tests run on: an H200, or an H100 (SXM), which takes this row too.
  auto const alone_row = test::table_row(rf::tuning::layernorm_16bit, alone);
  CHECK(alone_row.max_cols == 256);
  CHECK(alone_row.wide_memory_only);
  CHECK(alone.packs == 4);
  // The residual block's load chain (an operand as wide as the input) takes the chains' narrow
  // row: one pack a thread; on a device of wide memory (an H200) the row measured there, four
  // packs a lane (tuning.hpp).
  auto const residual_sum = input | rf::add(static_cast<__half const*>(residual.d()));
  rf::plan const chain =
      rf::layernorm(residual_sum, rf::store(y.d()), affine, 1e-5f, nullptr, {}, dry);
  INFO(rf::explain(chain));
  auto const chain_row = test::table_row(rf::tuning::layernorm_operand_chain_16bit, chain);
  CHECK(chain_row.max_cols == 256);
  CHECK(chain_row.wide_memory_only == wide_memory);
  CHECK(chain.packs == (wide_memory ? 4 : 1));
  rf::plan const scaled = rf::layernorm(input, rf::store(y.d()) | rf::cast<__half>(2.0f), affine,
                                        1e-5f, nullptr, {}, dry);
  INFO(rf::explain(scaled));
  // A store chain alone (a scaled cast) takes four packs a thread, staged; on a device of wide
  // memory a row of the same shape keeps the widths to 256, before the rows of five and six packs
  // a lane (tuning.hpp, forty-eighth session).
  CHECK(test::table_row(rf::tuning::layernorm_store_chain_16bit, scaled).max_cols ==
        (wide_memory ? 256 : 512));
  CHECK(scaled.packs == 4);
  CHECK(scaled.staged);
}

TEST_CASE("layernorm's 16-bit rows of 64 columns: a flat tile of packs on two lanes a row, ld "
          "within the tile's stride and past it") {
  using norm_test::check_shape;
  using norm_test::layout;
  using norm_test::shape_buffers;
  std::mt19937 rng(47);
  // ld 72 is the tile's widest stride (flat_tile: the row's capacity and a chunk), 88 past it (the
  // lanes read global memory); 1001 rows end in a part of a 64-row tile. 60 columns (rows 8 bytes
  // apart on their grid) run single elements beside them.
  long const rows = 1001;
  for (long const cols : {64L, 60L}) {
    for (long const ld : {cols, 72L, 88L}) {
      CAPTURE(cols);
      CAPTURE(ld);
      shape_buffers<__half, __half, __half, __half> b(rows, cols, layout{ld, 0}, rng);
      rf::plan const p = rf::layernorm(
          rf::load(static_cast<__half const*>(b.x.d()), rows, cols, ld), rf::store(b.y.d(), ld),
          rf::affine(static_cast<__half const*>(b.gamma.d()),
                     static_cast<__half const*>(b.beta.d())),
          1e-5f, nullptr, {}, rf::launch_options{rf::engine_kind::automatic, 0, true});
      INFO(rf::explain(p));
      if (cols == 64) { // an H200's row, an H100's (SXM) too (on_h100_too)
        CHECK(p.pack == 8);
        CHECK(p.group == 2);
        CHECK(p.staged);
      }
      check_shape<norm_test::layernorm_op>(b, gamma_beta);
      check_shape<norm_test::layernorm_op>(b, no_affine);
    }
  }
}

TEST_CASE("layernorm's cluster rows held in registers, between the powers of two: every plan "
          "against the host reference, aligned and off the grid") {
  using norm_test::check_shape;
  using norm_test::layout;
  using norm_test::shape_buffers;
  std::mt19937 rng(49);
  // Widths the grid leaves out, whose rows hold the row in registers over a cluster and reduce
  // it in two rounds of the exchange: 16-bit 6 and 7 x 256 in clusters of 2 (24000, 28000; an
  // H200's rows, on an H100 too), on a device of wide memory (an
  // H200) 6 x 128 in 8 (45000, bf16 49152), fp32 the wide rows past 16384 columns (30000, 60000,
  // 100000); elsewhere the H100's rows. The same widths one element off the grid (ld odd: phased
  // rows). Every plan a call makes is checked.
  auto const check = [&](auto element, long cols, long offset) {
    using T = decltype(element);
    long const rows = std::max(3L, std::min(300L, (1L << 21) / cols));
    layout const l{cols + offset * 3, offset};
    CAPTURE(cols);
    CAPTURE(l.ld);
    shape_buffers<T, T, T, T> b(rows, cols, l, rng);
    check_shape<norm_test::layernorm_op>(b, gamma_beta);
    check_shape<norm_test::layernorm_op>(b, no_affine);
  };
  for (long const cols : {24000L, 28000L, 45000L}) {
    check(__half{}, cols, 0);
    check(__half{}, cols, 1);
  }
  check(__nv_bfloat16{}, 49152, 0);
  for (long const cols : {30000L, 60000L, 100000L}) {
    check(float{}, cols, 0);
    check(float{}, cols, 1);
  }
}
