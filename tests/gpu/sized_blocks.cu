// Widths between the tables' rows. Whole-block rows on blocks the launch sizes (tuning::
// register_shape::sized_at_launch): a row of packs that fills at most 5/8 of a sized block or
// cluster row runs on the fewest whole warps a block that hold it, on the row's twin kernel;
// single 16-bit elements too, from 1025 columns (tuning::single_block_rows).
// softmax, log-softmax, layernorm, rmsnorm (16-bit and fp32) and the attention chain at widths just
// past the tables' rows, aligned and off the grid (phased), against the host reference on every
// plan a call makes; the automatic plan asserted sized, its blocks the fewest warps. And the 16-bit
// rows of five and six packs a thread (5/8 and 3/4 of the next power of two) that softmax,
// log-softmax and rmsnorm take between the powers of two, on their shape's own threads.
#include <span>

#include "norm_support.cuh"
#include "softmax_case.cuh"
#include "support.cuh"

namespace {

long rows_for(long cols) {
  if (test::small_mode())
    return std::max(2L, std::min(16L, (1L << 13) / cols));
  return std::max(5L, std::min(400L, (1L << 19) / cols));
}

/// On a device of wide memory (an H200) some of these widths take rows of that device's own
/// (tuning::register_shape::wide_memory_only), measured faster there than the sized or five- and
/// six-pack rows of the H100's own tables, some of them rows of whole warps; an H100 takes those
/// of them marked on_h100_too. The assertions below are about the H100's own rows, and such a
/// plan is checked to be from a row the device takes (its results are checked on every plan
/// either way).
template <class Table> bool wide_memory_row(rf::plan const& p, Table const& table) {
  auto const& row = test::table_row(table, p);
  if (!row.wide_memory_only)
    return false;
  CHECK(rf::current_device().takes(row));
  return true;
}

/// The automatic plan of a call whose rows hold at most `whole_packs` whole packs (a phased row
/// fewer: its packs start at its first column on the grid) runs on sized blocks: the fewest whole
/// warps a block that hold them over the row's blocks (one, or a cluster's), fewer than its
/// shape's threads.
template <class Table> void check_sized(rf::plan const& p, Table const& table, long whole_packs) {
  INFO(rf::explain(p));
  if (wide_memory_row(p, table))
    return;
  REQUIRE((p.engine == rf::engine_kind::block_rows || p.engine == rf::engine_kind::cluster_rows));
  auto const shape = test::table_row(table, p);
  CHECK(shape.sized_at_launch);
  CHECK(p.cluster_blocks == shape.cluster_blocks);
  CHECK(p.block_threads < shape.block_threads);
  CHECK(p.block_threads % 32 == 0);
  CHECK(p.group == p.block_threads * shape.cluster_blocks);
  long const thread_packs = long(p.packs) * shape.cluster_blocks;
  CHECK(long(p.block_threads) * thread_packs >= whole_packs);
  CHECK(long(p.block_threads - 32) * thread_packs < whole_packs);
}

/// The automatic plan runs a row of `packs` packs a thread (five or six) on the shape's own
/// threads.
void check_packs(rf::plan const& p, std::span<rf::tuning::register_shape const> table, int packs) {
  INFO(rf::explain(p));
  if (wide_memory_row(p, table))
    return;
  REQUIRE((p.engine == rf::engine_kind::block_rows || p.engine == rf::engine_kind::cluster_rows));
  auto const shape = test::table_row(table, p);
  CHECK(shape.packs == packs);
  CHECK(p.packs == packs);
  CHECK(p.block_threads == shape.block_threads);
  CHECK(p.group == shape.block_threads * shape.cluster_blocks);
}

/// softmax's or log-softmax's table for inputs of T.
template <class T, bool Log> std::span<rf::tuning::register_shape const> softmax_table() {
  if constexpr (sizeof(T) == 4)
    return Log ? std::span<rf::tuning::register_shape const>(rf::tuning::log_softmax_32bit)
               : std::span<rf::tuning::register_shape const>(rf::tuning::softmax_32bit);
  else if constexpr (Log)
    return rf::tuning::log_softmax_16bit;
  else
    return rf::tuning::softmax_16bit;
}

/// Which kind of row the automatic plan is asserted to take.
enum class expected_row { sized, five_packs, six_packs, twelve_packs };

/// The packs a thread of an expected row of five, six or twelve packs.
int packs_of(expected_row expected) {
  return expected == expected_row::five_packs ? 5 : expected == expected_row::six_packs ? 6 : 12;
}

template <class T, bool Log>
void check_softmax(long cols, long offset, std::mt19937& rng,
                   expected_row expected = expected_row::sized) {
  long const ld = cols + (offset == 0 ? 0 : 3);
  CAPTURE(cols);
  CAPTURE(offset);
  test::softmax_case<T, Log> call(rows_for(cols), cols, ld, offset, rng);
  rf::plan const automatic = call({rf::engine_kind::automatic, 0, true});
  CHECK(automatic.phased == (offset != 0));
  long const whole_packs = cols / (16 / long(sizeof(T)));
  if (expected == expected_row::sized)
    check_sized(automatic, softmax_table<T, Log>(), whole_packs);
  else
    check_packs(automatic, softmax_table<T, Log>(), packs_of(expected));
  test::for_each_plan([&](rf::launch_options options) {
    return options.dry_run ? call(options) : call.run_and_check(options);
  });
}

template <class T, bool Log> void check_softmax_widths(unsigned seed) {
  std::mt19937 rng(seed);
  // Past the 2048-, 4096- and 8192-column rows: 2056 (a third of the 4096-column row's 2 x 256),
  // 5120 (5/8 of the 8192-column row), 8200 (a half of the 16384-column row); off the grid, 8201.
  for (long cols : {2056L, 5120L, 8200L})
    check_softmax<T, Log>(cols, 0, rng);
  check_softmax<T, Log>(8201, 1, rng);
}

/// The norms' tables for inputs of T.
template <class T> std::span<rf::tuning::register_shape const> layernorm_table() {
  if constexpr (sizeof(T) == 4)
    return rf::tuning::layernorm_32bit;
  else
    return rf::tuning::layernorm_16bit;
}
template <class T> std::span<rf::tuning::register_shape const> rmsnorm_table() {
  if constexpr (sizeof(T) == 4)
    return rf::tuning::rmsnorm_32bit;
  else
    return rf::tuning::rmsnorm_16bit;
}

/// Layernorm (gamma and beta) and / or rmsnorm (gamma) over a [rows, cols] view placed as `l`
/// says: the automatic plan asserted sized or of five or six packs, every plan a call makes against
/// the host reference.
template <class T>
void check_norms(norm_test::layout l, long cols, bool layernorm, bool rmsnorm, std::mt19937& rng,
                 expected_row expected = expected_row::sized) {
  long const rows = rows_for(cols);
  CAPTURE(cols);
  CAPTURE(l.offset);
  norm_test::shape_buffers<T, T, T, T> b(rows, cols, l, rng);
  rf::launch_options const dry{rf::engine_kind::automatic, 0, true};
  auto const load = rf::load(static_cast<T const*>(b.x.d(l.offset)), rows, cols, l.ld);
  auto const store = rf::store(b.y.d(l.offset), l.ld);
  auto const gamma = static_cast<T const*>(b.gamma.d(l.offset));
  auto const beta = static_cast<T const*>(b.beta.d(l.offset));
  long const whole_packs = cols / (16 / long(sizeof(T)));
  auto const check_plan = [&](rf::plan const& p,
                              std::span<rf::tuning::register_shape const> table) {
    if (expected == expected_row::sized)
      check_sized(p, table, whole_packs);
    else
      check_packs(p, table, packs_of(expected));
  };
  if (layernorm) {
    check_plan(rf::layernorm(load, store, rf::affine(gamma, beta), 1e-5f, nullptr, {}, dry),
               layernorm_table<T>());
    norm_test::check_shape<norm_test::layernorm_op>(
        b, [](auto const* g, auto const* be) { return rf::affine(g, be); });
  }
  if (rmsnorm) {
    check_plan(rf::rmsnorm(load, store, rf::affine(gamma), 1e-6f, nullptr, nullptr, dry),
               rmsnorm_table<T>());
    norm_test::check_shape<norm_test::rmsnorm_op>(
        b, [](auto const* g, auto const*) { return rf::affine(g); });
  }
}

/// The plan at single 16-bit elements (pack 1 forced: what runs where a call's views start their
/// rows at different distances from the 16-byte grid) from 1025 columns: 32 values a thread on
/// block rows, the fewest whole warps that hold the row to 5/8 of the 1024-thread row (20480
/// columns), the row's 1024 threads past it.
void check_single_elements(rf::plan const& p, std::span<rf::tuning::register_shape const> table) {
  INFO(rf::explain(p));
  REQUIRE(p.pack == 1);
  REQUIRE(p.engine == rf::engine_kind::block_rows);
  auto const shape = test::table_row(table, p);
  CHECK(shape.sized_at_launch);
  CHECK(p.packs == 32);
  CHECK(p.group == p.block_threads);
  long const threads = p.cols <= 20480 ? (p.cols + 1023) / 1024 * 32 : 1024;
  CHECK(p.block_threads == threads);
}

} // namespace

TEST_CASE("sized blocks: single 16-bit elements, every op but the pipelines") {
  std::mt19937 rng(48);
  rf::launch_options const single{rf::engine_kind::automatic, 1, true};
  // 1025 (two warps), 2049 (three), 5001 (five), 20480 (twenty), 20481 (1024 threads), one
  // element off the grid and ld odd; every plan of each call against the host reference.
  for (long cols : {1025L, 2049L, 5001L, 20480L, 20481L}) {
    CAPTURE(cols);
    long const rows = std::min(rows_for(cols), 64L);
    test::softmax_case<__half, false> softmax(rows, cols, cols + 3, 1, rng);
    check_single_elements(softmax(single),
                          rf::detail::register_shapes(2, 1, rf::tuning::shape_family::softmax));
    test::for_each_plan([&](rf::launch_options options) {
      return options.dry_run ? softmax(options) : softmax.run_and_check(options);
    });
    test::softmax_case<__nv_bfloat16, true> log_softmax(rows, cols, cols + 3, 1, rng);
    check_single_elements(log_softmax(single),
                          rf::detail::register_shapes(2, 1, rf::tuning::shape_family::log_softmax));
    test::for_each_plan([&](rf::launch_options options) {
      return options.dry_run ? log_softmax(options) : log_softmax.run_and_check(options);
    });
    norm_test::layout const l{cols + 3, 1};
    norm_test::shape_buffers<__half, __half, __half, __half> b(rows, cols, l, rng);
    auto const load = rf::load(static_cast<__half const*>(b.x.d(l.offset)), rows, cols, l.ld);
    auto const store = rf::store(b.y.d(l.offset), l.ld);
    auto const gamma = static_cast<__half const*>(b.gamma.d(l.offset));
    auto const beta = static_cast<__half const*>(b.beta.d(l.offset));
    check_single_elements(
        rf::layernorm(load, store, rf::affine(gamma, beta), 1e-5f, nullptr, {}, single),
        rf::detail::register_shapes(2, 1, rf::tuning::shape_family::layernorm));
    norm_test::check_shape<norm_test::layernorm_op>(
        b, [](auto const* g, auto const* be) { return rf::affine(g, be); });
    check_single_elements(
        rf::rmsnorm(load, store, rf::affine(gamma), 1e-6f, nullptr, nullptr, single),
        rf::detail::register_shapes(2, 1, rf::tuning::shape_family::rmsnorm));
    norm_test::check_shape<norm_test::rmsnorm_op>(
        b, [](auto const* g, auto const*) { return rf::affine(g); });
  }
}

TEST_CASE("sized blocks: single 16-bit elements under a load-side dropout drawn a warp at a time") {
  // Each warp of a sized single-element block holds its own consecutive columns, and draws the
  // dropout's decisions for all its values at once (load_drawn_by_warp): the mask a function of
  // (seed, offset, row, col) alone, as the host reference draws it, on every plan.
  std::mt19937 rng(49);
  for (long cols : {1025L, 5001L, 20481L}) {
    CAPTURE(cols);
    long const rows = 12, ld = cols + 3, offset = 1;
    std::size_t const size = std::size_t(offset + rows * ld + 8);
    test::mirrored<__half> x(size), y(size), y_ref(size);
    test::fill_uniform(x.host, rng);
    x.upload();
    auto const chain = [](auto load) { return load | rf::dropout(0.25f, 1234, 77); };
    std::vector<double> const exact = rf::reference::softmax(
        chain(rf::load(x.h(offset), rows, cols, ld)), rf::store(y_ref.h(offset), ld));
    rf::plan const single =
        rf::softmax(chain(rf::load(static_cast<__half const*>(x.d(offset)), rows, cols, ld)),
                    rf::store(y.d(offset), ld), nullptr, {rf::engine_kind::automatic, 1, true});
    check_single_elements(single,
                          rf::detail::register_shapes(2, 1, rf::tuning::shape_family::softmax));
    test::for_each_plan([&](rf::launch_options options) {
      test::poison(y.host);
      y.upload();
      rf::plan const p =
          rf::softmax(chain(rf::load(static_cast<__half const*>(x.d(offset)), rows, cols, ld)),
                      rf::store(y.d(offset), ld), nullptr, options);
      if (options.dry_run)
        return p;
      test::sync_and_check();
      INFO(rf::explain(p));
      auto const got = y.download();
      CHECK_MATCHES(test::compare(got, exact, rows, cols, ld, offset));
      CHECK(-1 == test::written_outside(got, rows, cols, ld, offset));
      return p;
    });
  }
}

TEST_CASE("sized blocks: softmax fp16") {
  check_softmax_widths<__half, false>(41);
}
TEST_CASE("sized blocks: softmax bf16") {
  check_softmax_widths<__nv_bfloat16, false>(42);
}
TEST_CASE("sized blocks: log_softmax fp16") {
  check_softmax_widths<__half, true>(43);
}

TEST_CASE("rows of five packs: softmax and log_softmax past 16384, 32768, 65536 and 131072") {
  std::mt19937 rng(47);
  auto const five = expected_row::five_packs;
  // softmax: the 20480-column block row (5 x 512) at 18432 and off the grid at 16393; the cluster
  // rows of 5 x 256 in 4, 8 and 16 at 36864, 73728 and 151936 (a vocabulary), 65545 off the grid.
  check_softmax<__half, false>(18432, 0, rng, five);
  check_softmax<__half, false>(16393, 1, rng, five);
  check_softmax<__half, false>(36864, 0, rng, five);
  check_softmax<__half, false>(73728, 0, rng, five);
  check_softmax<__half, false>(65545, 1, rng, five);
  check_softmax<__half, false>(151936, 0, rng, five);
  check_softmax<__nv_bfloat16, false>(20480, 0, rng, five);
  // log-softmax's own: 5 x 512 staged (block row) at 16392; 5 x 128 in 8 at 40960 and off the grid
  // at 32777; 5 x 512 in 4 persistent at 81920; 5 x 512 in 8 persistent at 151936 and off the grid
  // at 131081.
  check_softmax<__half, true>(16392, 0, rng, five);
  check_softmax<__half, true>(40960, 0, rng, five);
  check_softmax<__half, true>(32777, 1, rng, five);
  check_softmax<__half, true>(81920, 0, rng, five);
  check_softmax<__half, true>(151936, 0, rng, five);
  check_softmax<__half, true>(131081, 1, rng, five);
}

TEST_CASE("rows of six packs: softmax and log_softmax past 5/8 of 32768, 65536, 131072 and "
          "262144") {
  std::mt19937 rng(51);
  auto const six = expected_row::six_packs;
  // softmax: the 24576-column block row (6 x 512) at 22528 and off the grid at 24577; 6 x 128 in
  // clusters of 8 and 16 at 45056 and 98304; 12 x 128 in 16 at 180224 (the same 3/4 of 262144
  // since V64, bench/NOTES.md).
  check_softmax<__half, false>(22528, 0, rng, six);
  check_softmax<__half, false>(24577, 1, rng, six);
  check_softmax<__half, false>(45056, 0, rng, six);
  check_softmax<__nv_bfloat16, false>(98304, 0, rng, six);
  check_softmax<__half, false>(180224, 0, rng, expected_row::twelve_packs);
  // log-softmax's own: 6 x 512 at 20488 and off the grid at 20489; 6 x 256 in 4 at 49152; 12 x
  // 128 in 8 at 90113 off the grid (since V64) and in 16 at 196608 and one element off at 180224
  // (since V63; bench/NOTES.md).
  check_softmax<__half, true>(20488, 0, rng, six);
  check_softmax<__half, true>(20489, 1, rng, six);
  check_softmax<__half, true>(49152, 0, rng, six);
  check_softmax<__half, true>(90113, 1, rng, expected_row::twelve_packs);
  check_softmax<__half, true>(196608, 0, rng, expected_row::twelve_packs);
  check_softmax<__nv_bfloat16, true>(180224, 1, rng, expected_row::twelve_packs);
}

TEST_CASE("sized blocks: fp32") {
  std::mt19937 rng(49);
  // softmax's 16384-column block row (8 x 512) at 8200 columns (288 threads), 4105 off the grid on
  // its 8192-column row; log-softmax's own 131072-column cluster row (8 x 256 in clusters of 16)
  // at 81920 (160 threads a block).
  check_softmax<float, false>(8200, 0, rng);
  check_softmax<float, false>(4105, 1, rng);
  check_softmax<float, true>(81920, 0, rng);
  // rmsnorm's 65536-column cluster row (8 x 256 in 8) at 40960 columns; layernorm's 8192-column
  // block row (4 x 512) at 4104 and off the grid at 4105 (ld odd).
  check_norms<float>({40960, 0}, 40960, false, true, rng);
  check_norms<float>({4104, 0}, 4104, true, false, rng);
  check_norms<float>({4108, 3}, 4105, true, false, rng);
}

TEST_CASE("rows of five and six packs: layernorm alone") {
  std::mt19937 rng(48);
  auto const five = expected_row::five_packs;
  // The 20480-column block row (5 x 512) at 18432 and off the grid at 16393 (ld odd); the held
  // rows, the row read back from its staging slot: 5 x 512 in 2 at 36864, 5 x 256 in 8 at 73728, 5
  // x 512 in 8 at 151936 (a vocabulary), 6 x 512 in 8 at 180224; off the grid (phased, ld odd) at
  // 36864 and 180224.
  check_norms<__half>({18432, 0}, 18432, true, false, rng, five);
  check_norms<__half>({16396, 3}, 16393, true, false, rng, five);
  check_norms<__half>({36864, 0}, 36864, true, false, rng, five);
  check_norms<__half>({36867, 3}, 36864, true, false, rng, five);
  check_norms<__nv_bfloat16>({73728, 0}, 73728, true, false, rng, five);
  check_norms<__half>({151936, 0}, 151936, true, false, rng, five);
  check_norms<__half>({180224, 0}, 180224, true, false, rng, expected_row::six_packs);
  check_norms<__nv_bfloat16>({180227, 3}, 180224, true, false, rng, expected_row::six_packs);
}

TEST_CASE("rows of five and six packs: rmsnorm") {
  std::mt19937 rng(50);
  auto const five = expected_row::five_packs;
  // The 20480-column block row (5 x 512 staged) at 18432 and off the grid at 16393 (ld odd); the
  // 163840-column cluster row (5 x 512 in 8, persistent) at 151936 and off the grid at 131081.
  check_norms<__half>({18432, 0}, 18432, false, true, rng, five);
  check_norms<__half>({16396, 3}, 16393, false, true, rng, five);
  check_norms<__half>({151936, 0}, 151936, false, true, rng, five);
  check_norms<__nv_bfloat16>({131084, 3}, 131081, false, true, rng, five);
  // Six packs: 6 x 256 in clusters of 4 at 40960 (the widths past 32768), aligned and off the grid
  // (ld odd), and at 45056; in clusters of 8 at 81929 off the grid; in 16 at 196608.
  auto const six = expected_row::six_packs;
  check_norms<__half>({40960, 0}, 40960, false, true, rng, six);
  check_norms<__half>({40963, 3}, 40960, false, true, rng, six);
  check_norms<__half>({45056, 0}, 45056, false, true, rng, six);
  check_norms<__half>({81932, 3}, 81929, false, true, rng, six);
  check_norms<__half>({196608, 0}, 196608, false, true, rng, six);
}

TEST_CASE("sized blocks: layernorm and rmsnorm, gamma and beta on the block's lanes") {
  std::mt19937 rng(44);
  // 5120 and 8200: layernorm's and rmsnorm's 8192- and 16384-column rows at 5/8 and a half;
  // 10240 off the grid (phased, ld odd).
  check_norms<__half>({5120, 0}, 5120, true, true, rng);
  check_norms<__half>({8200, 0}, 8200, true, true, rng);
  check_norms<__half>({10243, 3}, 10240, true, true, rng);
}

TEST_CASE("sized blocks: the attention chain, its dropout mask identical on every plan") {
  std::mt19937 rng(45);
  // 8200 and 10240 on the 16384-column block row; 40960 on the 65536-column cluster row (4 x 256
  // in clusters of 8: 160 threads a block).
  for (long cols : {8200L, 10240L, 40960L}) {
    long const q_len = cols, rows = cols > 16384 ? 64 : 300, ld = cols;
    CAPTURE(cols);
    std::size_t const size = std::size_t(rows * ld + 8);
    test::mirrored<__half> x(size), y(size), y_ref(size);
    test::mirrored<std::uint8_t> keep(size), keep_ref(size);
    test::fill_uniform(x.host, rng);
    x.upload();
    auto const make_load = [&](__half const* scores) {
      return rf::load(scores, rows, cols, ld) | rf::scale(0.125f) | rf::causal_mask(q_len);
    };
    auto const make_store = [&](__half* out, std::uint8_t* mask) {
      return rf::store(out, ld) | rf::dropout(0.1f, 2024, 9, mask, ld);
    };
    test::poison(keep_ref.host);
    auto const exact =
        rf::reference::softmax(make_load(x.h()), make_store(y_ref.h(), keep_ref.h()));
    auto const call = [&](rf::launch_options options) {
      return rf::softmax(make_load(static_cast<__half const*>(x.d())), make_store(y.d(), keep.d()),
                         nullptr, options);
    };
    check_sized(call({rf::engine_kind::automatic, 0, true}), rf::tuning::attention_16bit, cols / 8);
    test::for_each_plan([&](rf::launch_options options) {
      if (options.dry_run)
        return call(options);
      test::poison(y.host);
      y.upload();
      test::poison(keep.host);
      keep.upload();
      rf::plan const p = call(options);
      test::sync_and_check();
      INFO(rf::explain(p));
      auto const got = y.download();
      CHECK_MATCHES(test::compare(got, exact, rows, cols, ld, 0));
      CHECK(-1 == test::written_outside(got, rows, cols, ld, 0));
      CHECK(keep.download() == keep_ref.host);
      return p;
    });
  }
}

TEST_CASE("sized blocks: block rows forced on narrow rows run on one or two warps") {
  // block_rows forced at 96 and 512 16-bit columns takes softmax's first block row (2 x 256):
  // 12 and 64 packs, one warp and one warp; its results as the automatic plan's.
  std::mt19937 rng(46);
  for (long cols : {96L, 512L}) {
    long const rows = 257;
    CAPTURE(cols);
    test::mirrored<__half> x(std::size_t(rows * cols)), y(std::size_t(rows * cols)),
        y_ref(std::size_t(rows * cols));
    test::fill_uniform(x.host, rng);
    x.upload();
    auto const exact =
        rf::reference::softmax(rf::load(x.h(), rows, cols), rf::store(y_ref.h(), cols));
    test::poison(y.host);
    y.upload();
    rf::plan const p = rf::softmax(rf::load(static_cast<__half const*>(x.d()), rows, cols),
                                   rf::store(y.d()), nullptr, {rf::engine_kind::block_rows, 0});
    test::sync_and_check();
    INFO(rf::explain(p));
    CHECK(p.block_threads == 32);
    CHECK(test::table_row(rf::tuning::softmax_16bit, p).sized_at_launch);
    std::vector<test::mirrored<__half>::stored> const got = y.download();
    CHECK_MATCHES(test::compare(got, exact, rows, cols, cols, 0, 0.0));
  }
}
