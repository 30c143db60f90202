// Phased rows (plan::phased, engine/phased_row.cuh): views off the 16-byte grid read in packs
// from each row's first column on it, the row's edges as single elements. softmax, log-softmax,
// the attention chain, layernorm and rmsnorm (gamma and beta read off their grid), the residual
// block (its bias read off its grid) and layernorm -> fp8 against the host reference on every
// engine and pack a call plans, with rows that start at every offset from the grid, widths from a
// few columns (16-bit rows of a pack or two a lane, their edges several a lane) to cluster rows,
// and the elements around each row (its ld padding, the buffer before it) left as they were.
#include "norm_support.cuh"
#include "softmax_case.cuh"
#include "support.cuh"

namespace {

/// Where a test's views lie: the first element `offset` elements into the buffer, rows `ld` apart.
struct layout {
  long ld_extra; // ld = cols + ld_extra
  long offset;
};

long rows_for(long cols) {
  if (test::small_mode())
    return std::max(2L, std::min(16L, (1L << 13) / cols));
  return std::max(5L, std::min(700L, (1L << 19) / cols));
}

/// Rows for the widths that layernorm's persistent clusters run (past 32768 16-bit columns): more
/// rows than an H100 holds clusters, so that each cluster stages its next row, at that row's own
/// phase, while it finishes one.
long persistent_rows_for(long cols) {
  return cols > 32768 && !test::small_mode() ? 200 : rows_for(cols);
}

template <class T, bool Log> void check_op(long cols, layout l, std::mt19937& rng, long rows = 0) {
  rows = rows > 0 ? rows : rows_for(cols);
  long const ld = cols + l.ld_extra;
  CAPTURE(cols);
  CAPTURE(rows);
  CAPTURE(ld);
  CAPTURE(l.offset);
  test::softmax_case<T, Log> call(rows, cols, ld, l.offset, rng);
  std::vector<test::planned> const plans = test::plans_for(call);
  int const wide = rf::detail::widest_pack<T>;
  bool const aligned = cols % wide == 0 && l.offset % wide == 0 && l.ld_extra % wide == 0;
  rf::plan const& automatic = plans.front().plan;
  // Input and output share their layout, so rows off the grid take phased packs wherever a
  // register row holds the width (to 32768 columns in every table), the edges one a lane; 16-bit
  // rows from one whole pack to 135 columns on the rows for phased plans alone, whose groups of 4
  // and 8 lanes hold several edges a lane (tuning::phased_narrow_16bit).
  long const whole = cols / wide * wide;
  bool const narrow_phased = sizeof(T) == 2 && whole >= wide && whole <= 128;
  if (!aligned && ((cols >= 256 && cols <= 32768) || narrow_phased)) {
    CHECK(automatic.phased);
    CHECK(automatic.pack == wide);
  }
  if (!aligned && narrow_phased)
    CHECK(automatic.group == (whole <= 64 ? 4 : 8));
  if (aligned)
    CHECK(!automatic.phased);
  for (test::planned const& each : plans) {
    rf::plan const p = call.run_and_check(each.options);
    test::check_as_planned(p, each);
    CHECK(p.phased == each.plan.phased);
  }
}

template <class T, bool Log> void check_layouts(unsigned seed) {
  std::mt19937 rng(seed);
  int const wide = rf::detail::widest_pack<T>;
  // Odd widths from a few columns (no whole pack) to cluster rows; every offset from the grid.
  // 601, 2901, 4601, 5801, 11001 and 106001: on a device of wide memory, the rows for such devices
  // with phased kernels (tuning::for_wide_memory_phased); 215001: the 229376-column row for phased
  // plans alone (16-bit: staged persistent for softmax, read straight for log-softmax).
  for (long cols : {5L,    9L,    13L,    33L,    60L,    63L,     71L,    100L,  127L,
                    135L,  200L,  263L,   300L,   601L,   1000L,   2901L,  4097L, 4601L,
                    5801L, 8191L, 11001L, 16383L, 40001L, 106001L, 215001L}) {
    if (test::small_mode() && cols > 20000)
      continue;
    for (long offset = 0; offset < wide; ++offset)
      check_op<T, Log>(cols, {offset % 2 == 0 ? 0 : 1, offset}, rng);
  }
  // Aligned widths with the views off the grid, each row as far off as the first.
  check_op<T, Log>(1024, {0, 1}, rng);
  check_op<T, Log>(2048, {wide, wide - 1}, rng);
}

TEST_CASE("phased rows: softmax fp32") {
  check_layouts<float, false>(11);
}
TEST_CASE("phased rows: softmax fp16") {
  check_layouts<__half, false>(12);
}
TEST_CASE("phased rows: softmax bf16") {
  check_layouts<__nv_bfloat16, false>(13);
}
TEST_CASE("phased rows: log_softmax fp32") {
  check_layouts<float, true>(14);
}
TEST_CASE("phased rows: log_softmax fp16") {
  check_layouts<__half, true>(15);
}

TEST_CASE("phased rows: log_softmax fp16 on staged persistent clusters") {
  // Log-softmax's 16-bit rows at 65544-81920 and 114696-131072 columns are staged persistent
  // clusters: each cluster stages its next row, and loads that row's edge elements, while it
  // finishes one (register_kernel's edges_ahead). Rows of several phases (ld = cols + 1, + 3), more
  // rows than an H100 holds clusters.
  std::mt19937 rng(26);
  for (long cols : {75001L, 120001L}) {
    for (layout const l : {layout{1, 1}, layout{3, 6}}) {
      long const rows = persistent_rows_for(cols);
      CAPTURE(cols);
      test::softmax_case<__half, true> planned(rows, cols, cols + l.ld_extra, l.offset, rng);
      rf::plan const p = planned({rf::engine_kind::automatic, 0, true});
      CHECK(p.phased);
      CHECK(p.engine == rf::engine_kind::cluster_rows);
      CHECK(p.staged);
      CHECK(p.persistent);
      check_op<__half, true>(cols, l, rng, rows);
    }
  }
}

TEST_CASE("phased rows: a call bounded by cols_range runs the rows it compiled") {
  // 300 fp16 columns one element off the grid: unbounded, the 4-pack row (two rows a warp); bounded
  // to 257-512 columns the call has no kernel of it, and runs the 2-pack row it compiled.
  std::mt19937 rng(16);
  long const cols = 300, rows = rows_for(cols), ld = cols + 1, offset = 1;
  std::size_t const size = std::size_t(offset + rows * ld + 8);
  test::mirrored<__half> x(size), y(size), y_ref(size);
  test::fill_uniform(x.host, rng);
  x.upload();
  auto const exact =
      rf::reference::softmax(rf::load(x.h(offset), rows, cols, ld), rf::store(y_ref.h(offset), ld));
  auto const load = rf::load(static_cast<__half const*>(x.d(offset)), rows, cols, ld);
  auto const store = rf::store(y.d(offset), ld);
  rf::plan const unbounded =
      rf::softmax(load, store, nullptr, {rf::engine_kind::automatic, 0, true});
  CHECK(unbounded.phased);
  CHECK(unbounded.packs == 4);
  test::poison(y.host);
  y.upload();
  rf::plan const bounded = rf::softmax<rf::cols_range{257, 512}>(load, store);
  test::sync_and_check();
  INFO(rf::explain(bounded));
  CHECK(bounded.phased);
  CHECK(bounded.packs == 2);
  std::vector<test::mirrored<__half>::stored> const got = y.download();
  CHECK_MATCHES(test::compare(got, exact, rows, cols, ld, offset, 0.0));
  CHECK(-1 == test::written_outside(got, rows, cols, ld, offset));
}

TEST_CASE("phased rows only where every view shares the input's phase") {
  std::mt19937 rng(16);
  long const rows = 40, cols = 3001, ld = cols;
  test::mirrored<__half> x(rows * ld + 16), y(rows * ld + 16), residual(rows * (ld + 1) + 16);
  test::fill_uniform(x.host, rng);
  test::fill_uniform(residual.host, rng, -1.0f, 1.0f);
  x.upload();
  residual.upload();
  rf::launch_options const dry{rf::engine_kind::automatic, 0, true};
  auto const in = rf::load(static_cast<__half const*>(x.d(1)), rows, cols);
  // The output as far off the grid as the input: phased. One element further: single elements.
  CHECK(rf::softmax(in, rf::store(y.d(1)), nullptr, dry).phased);
  rf::plan const shifted_output = rf::softmax(in, rf::store(y.d(2)), nullptr, dry);
  CHECK(!shifted_output.phased);
  CHECK(shifted_output.pack == 1);
  // An operand with another ld drifts off the input's phase from row to row.
  auto const residual_at = [&](long offset, long operand_ld) {
    return rf::add(static_cast<__half const*>(residual.d(offset)), operand_ld);
  };
  CHECK(rf::softmax(in | residual_at(1, ld), rf::store(y.d(1)), nullptr, dry).phased);
  CHECK(!rf::softmax(in | residual_at(1, ld + 1), rf::store(y.d(1)), nullptr, dry).phased);
  CHECK(!rf::softmax(in | residual_at(0, ld), rf::store(y.d(1)), nullptr, dry).phased);
  // Scalars forced: single elements.
  CHECK(!rf::softmax(in, rf::store(y.d(1)), nullptr, {rf::engine_kind::automatic, 1, true}).phased);
}

TEST_CASE("phased rows: the attention chain, its dropout mask identical on every plan") {
  std::mt19937 rng(17);
  for (long cols : {777L, 3001L, 9001L}) {
    long const q_len = cols, rows = 2 * q_len > 600 ? 600 : 2 * q_len, ld = cols + 1;
    long const offset = 3;
    CAPTURE(cols);
    std::size_t const size = std::size_t(offset + rows * ld + 8);
    test::mirrored<__half> x(size), y(size), y_ref(size), residual(size);
    test::mirrored<std::uint8_t> keep(size), keep_ref(size);
    test::fill_uniform(x.host, rng);
    test::fill_uniform(residual.host, rng, -1.0f, 1.0f);
    x.upload();
    residual.upload();
    auto const make_load = [&](__half const* scores, __half const* bias_rows) {
      return rf::load(scores, rows, cols, ld) | rf::scale(0.125f) | rf::add(bias_rows, ld) |
             rf::causal_mask(q_len);
    };
    auto const make_store = [&](__half* out, std::uint8_t* mask) {
      return rf::store(out, ld) | rf::dropout(0.1f, 2024, 9, mask, ld);
    };
    test::poison(keep_ref.host);
    auto const exact = rf::reference::softmax(make_load(x.h(offset), residual.h(offset)),
                                              make_store(y_ref.h(offset), keep_ref.h(offset)));
    auto const call = [&](rf::launch_options options) {
      return rf::softmax(make_load(static_cast<__half const*>(x.d(offset)),
                                   static_cast<__half const*>(residual.d(offset))),
                         make_store(y.d(offset), keep.d(offset)), nullptr, options);
    };
    CHECK(call({rf::engine_kind::automatic, 0, true}).phased);
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
      CHECK_MATCHES(test::compare(got, exact, rows, cols, ld, offset));
      CHECK(-1 == test::written_outside(got, rows, cols, ld, offset));
      CHECK(keep.download() == keep_ref.host); // every kept bit, and the padding untouched
      return p;
    });
  }
}

TEST_CASE("phased rows: layernorm and rmsnorm, gamma and beta read off their grid") {
  std::mt19937 rng(18);
  auto const gamma_beta = [](auto const* g, auto const* b) { return rf::affine(g, b); };
  auto const gamma_only = [](auto const* g, auto const*) { return rf::affine(g); };
  for (long cols :
       {33L, 100L, 263L, 300L, 601L, 1001L, 2301L, 4097L, 11001L, 16383L, 40001L, 100003L}) {
    for (long offset : {1L, 3L, 6L}) {
      CAPTURE(cols);
      CAPTURE(offset);
      norm_test::layout const l{cols + offset, offset};
      long const rows = persistent_rows_for(cols);
      norm_test::shape_buffers<__half, __half, __half, __half> b(rows, cols, l, rng);
      rf::launch_options const dry{rf::engine_kind::automatic, 0, true};
      auto const load = rf::load(static_cast<__half const*>(b.x.d(offset)), rows, cols, l.ld);
      auto const store = rf::store(b.y.d(offset), l.ld);
      auto const gamma = static_cast<__half const*>(b.gamma.d(offset));
      auto const beta = static_cast<__half const*>(b.beta.d(offset));
      // Phased at every width: past 32768 columns on layernorm's 16-bit rows read back from
      // staging, the edge elements held in registers beside them.
      CHECK(rf::layernorm(load, store, rf::affine(gamma, beta), 1e-5f, nullptr, {}, dry).phased);
      CHECK(rf::rmsnorm(load, store, rf::affine(gamma), 1e-6f, nullptr, nullptr, dry).phased);
      norm_test::check_shape<norm_test::layernorm_op>(b, gamma_beta);
      norm_test::check_shape<norm_test::rmsnorm_op>(b, gamma_only);
    }
  }
}

/// A norm's output against the reference (norm_test's tolerance), and nothing written outside its
/// rows.
template <class T>
void check_norm_output(std::vector<T> const& got, std::vector<double> const& exact, long rows,
                       long cols, long ld, long offset, double absolute) {
  CHECK_MATCHES(norm_test::compare(got, exact, rows, cols, ld, offset, absolute));
  CHECK(-1 == test::written_outside(got, rows, cols, ld, offset));
}

struct no_step {
  void operator()() const {}
};

/// A norm's `call` into `y` (launch_options -> plan), phased, against the reference on every plan:
/// the output poisoned (and `reset` run) before each run, `also` checked after it.
template <class T, class Call, class Reset = no_step, class Also = no_step>
void check_phased_norm(Call const& call, test::mirrored<T>& y, std::vector<double> const& exact,
                       long rows, long cols, long ld, long offset, Reset const& reset = {},
                       Also const& also = {}) {
  CHECK(call({rf::engine_kind::automatic, 0, true}).phased);
  double const absolute = norm_test::absolute_term(exact);
  test::for_each_plan([&](rf::launch_options options) {
    if (options.dry_run)
      return call(options);
    test::poison(y.host);
    y.upload();
    reset();
    rf::plan const p = call(options);
    test::sync_and_check();
    INFO(rf::explain(p));
    check_norm_output(y.download(), exact, rows, cols, ld, offset, absolute);
    also();
    return p;
  });
}

// layernorm's 16-bit gamma and beta on phased rows come from copies at each phase of the pack grid
// (detail::phase_copies), or are read in place where every row's packs are on their grid (rows of
// one phase, at which they are aligned). x one element off its grid, gamma and beta at their own
// offsets, beta given or not, rows of one phase (ld a multiple of 8) and of several: each way
// against the reference on every plan.
template <class T>
void check_layernorm_at_phases(long cols, long ld, long gamma_offset, long beta_offset,
                               bool with_beta, std::mt19937& rng) {
  long const rows = persistent_rows_for(cols), offset = 1;
  CAPTURE(cols);
  CAPTURE(ld);
  CAPTURE(gamma_offset);
  CAPTURE(beta_offset);
  CAPTURE(with_beta);
  std::size_t const size = std::size_t(offset + rows * ld + 8);
  test::mirrored<T> x(size), y(size), y_ref(size);
  test::mirrored<T> gamma(std::size_t(cols + 8)), beta(std::size_t(cols + 8));
  test::fill_uniform(x.host, rng);
  test::fill_uniform(gamma.host, rng, 0.5f, 1.5f);
  test::fill_uniform(beta.host, rng, -0.5f, 0.5f);
  for (auto* m : {&x, &gamma, &beta})
    m->upload();
  auto const on_host = [](auto& m, long at) { return m.h(at); };
  auto const on_device = [](auto& m, long at) { return m.d(at); };
  auto const affine_on = [&](auto& on) {
    return rf::affine(static_cast<T const*>(on(gamma, gamma_offset)),
                      with_beta ? static_cast<T const*>(on(beta, beta_offset)) : nullptr);
  };
  auto const exact =
      rf::reference::layernorm(rf::load(static_cast<T const*>(x.h(offset)), rows, cols, ld),
                               rf::store(y_ref.h(offset), ld), affine_on(on_host), 1e-5f);
  auto const call = [&](rf::launch_options options) {
    return rf::layernorm(rf::load(static_cast<T const*>(x.d(offset)), rows, cols, ld),
                         rf::store(y.d(offset), ld), affine_on(on_device), 1e-5f, nullptr, {},
                         options);
  };
  check_phased_norm(call, y, exact, rows, cols, ld, offset);
}

TEST_CASE("phased rows: layernorm's 16-bit gamma and beta from copies at each phase or in place") {
  std::mt19937 rng(24);
  // 45001: past 40960 columns rows off the grid take a row for phased plans alone (49152 columns,
  // 6 x 256 in 4), past 49152 the 81920-column row's phased kernel (53001).
  for (long cols : {300L, 4097L, 40001L, 45001L, 53001L, 100003L}) {
    long const one_phase = (cols + 1 + 7) / 8 * 8; // ld a multiple of 8: every row at one phase
    for (long ld : {cols + 1, cols + 3, one_phase}) {
      // gamma and beta on the grid at the rows' phase (one element in, as x: in place where the
      // rows share it), off it, and apart.
      check_layernorm_at_phases<__half>(cols, ld, 1, 1, true, rng);
      check_layernorm_at_phases<__half>(cols, ld, 2, 5, true, rng);
      check_layernorm_at_phases<__half>(cols, ld, 3, 0, false, rng);
      check_layernorm_at_phases<__nv_bfloat16>(cols, ld, 4, 7, true, rng);
    }
  }
}

// rmsnorm's 16-bit gamma on phased rows comes from copies at each phase of the pack grid on its
// cluster kernels under caps of one or two blocks (rmsnorm::copies_at_phases_on), in place on the
// rows of one phase there and on every other kernel. x one element off its grid, gamma at its own
// offset, rows of one phase and of several: each way against the reference on every plan.
template <class T>
void check_rmsnorm_at_phases(long cols, long ld, long gamma_offset, std::mt19937& rng) {
  long const rows = persistent_rows_for(cols), offset = 1;
  CAPTURE(cols);
  CAPTURE(ld);
  CAPTURE(gamma_offset);
  std::size_t const size = std::size_t(offset + rows * ld + 8);
  test::mirrored<T> x(size), y(size), y_ref(size), gamma(std::size_t(cols + 8));
  test::fill_uniform(x.host, rng);
  test::fill_uniform(gamma.host, rng, 0.5f, 1.5f);
  x.upload();
  gamma.upload();
  auto const exact = rf::reference::rmsnorm(
      rf::load(static_cast<T const*>(x.h(offset)), rows, cols, ld), rf::store(y_ref.h(offset), ld),
      rf::affine(static_cast<T const*>(gamma.h(gamma_offset))), 1e-6f);
  auto const call = [&](rf::launch_options options) {
    return rf::rmsnorm(
        rf::load(static_cast<T const*>(x.d(offset)), rows, cols, ld), rf::store(y.d(offset), ld),
        rf::affine(static_cast<T const*>(gamma.d(gamma_offset))), 1e-6f, nullptr, nullptr, options);
  };
  check_phased_norm(call, y, exact, rows, cols, ld, offset);
}

TEST_CASE("phased rows: rmsnorm's 16-bit gamma from copies at each phase or in place") {
  std::mt19937 rng(25);
  // Cluster rows that take the copies: read straight under two (53001), rows for phased plans
  // alone staged persistent under two (90001, 100003, 215001), staged persistent under one
  // (150001), a persistent grid (240001); and a row of one block (4097).
  for (long cols : {4097L, 53001L, 90001L, 100003L, 150001L, 215001L, 240001L}) {
    long const one_phase = (cols + 1 + 7) / 8 * 8; // ld a multiple of 8: every row at one phase
    for (long ld : {cols + 1, one_phase}) {
      // gamma on the grid at the rows' phase (one element in, as x: in place where the rows share
      // it), and off it.
      check_rmsnorm_at_phases<__half>(cols, ld, 1, rng);
      check_rmsnorm_at_phases<__nv_bfloat16>(cols, ld, 2, rng);
    }
  }
}

TEST_CASE("phased rows: the residual block with and without its tee, its bias at every offset "
          "from the rows' phase; its widest rows on the grid too") {
  // bias -> dropout -> + residual [-> tee] -> layernorm, x, the residual, the tee'd sum h and y
  // sharing one layout off the grid and the bias vector at offsets that put it on and off each
  // row's phase: rf::bias reads its packs off its grid (read_off_grid), so every one is phased.
  // At 32767 columns on the block row its table keeps beside its row read back from staging; at
  // 40001-90001 on rows read back, dropout's decisions drawn by the warp, the chain run once a row
  // (the tee written then) and its values kept in the slot for the second phase and the finish
  // (engine::keeps_chain_values); at 100003 and 140001-240001 on rows read back for phased plans
  // alone (of seven, five, six, seven and four packs a thread). On the grid (ld = cols, gamma and
  // beta on it too) the block with and without its tee on rows read back at 32768-131072 columns
  // (40960, 49152 and 98304 on rows of five and six packs a thread), and without it over a
  // cluster's registers at 262144.
  struct layout_case {
    long cols, ld_extra, offset;
  };
  std::mt19937 rng(20);
  float const p_drop = 0.1f;
  std::vector<layout_case> cases;
  for (long cols : {300L, 1001L, 4097L, 16383L, 32767L, 40001L, 45001L, 65001L, 90001L, 100003L,
                    140001L, 180001L, 200003L, 240001L})
    cases.push_back({cols, 5, 3});
  for (long cols : {32768L, 40960L, 49152L, 65536L, 98304L, 131072L, 262144L})
    cases.push_back({cols, 0, 0});
  for (layout_case const c : cases) {
    long const cols = c.cols;
    bool const on_grid = c.ld_extra == 0 && c.offset == 0;
    for (long bias_offset : {0L, 1L, 3L, 4L}) {
      // On the grid the bias on it and one element off: the rows' kernels, not their phases.
      if (on_grid && bias_offset > 1)
        continue;
      for (bool const tees : {true, false}) {
        // The tee'd block's row on the grid past 131072 columns is the residual block's.
        if (tees && on_grid && cols > 131072)
          continue;
        long const rows = persistent_rows_for(cols), ld = cols + c.ld_extra, offset = c.offset;
        // gamma and beta off their grid but on the grid cases'.
        long const gamma_offset = on_grid ? 0 : 2, beta_offset = on_grid ? 0 : 5;
        CAPTURE(cols);
        CAPTURE(ld);
        CAPTURE(bias_offset);
        CAPTURE(tees);
        std::size_t const size = std::size_t(offset + rows * ld + 8);
        test::mirrored<__half> x(size), residual(size), y(size), y_ref(size), h(size), h_ref(size);
        test::mirrored<__half> bias(std::size_t(cols + 8)), gamma(std::size_t(cols + 8)),
            beta(std::size_t(cols + 8));
        test::mirrored<std::uint8_t> keep(size), keep_ref(size);
        test::fill_uniform(x.host, rng);
        // Every third row's first 16 columns at 100 and the first of the next at 60: rows whose
        // first whole pack is far from their mean, where the rows of four packs a thread read back
        // take a second pass about the mean (engine::centred_rows).
        for (long r = 0; r < rows; ++r)
          for (long col = 0; col < 16; ++col)
            if (r % 3 == 1 || (r % 3 == 2 && col == 0))
              x.host[std::size_t(offset + r * ld + col)] =
                  rf::detail::narrow<__half>(r % 3 == 1 ? 100.0f : 60.0f);
        test::fill_uniform(residual.host, rng, -1.0f, 1.0f);
        test::fill_uniform(bias.host, rng, -1.0f, 1.0f);
        test::fill_uniform(gamma.host, rng, 0.5f, 1.5f);
        test::fill_uniform(beta.host, rng, -0.5f, 0.5f);
        for (auto* m : {&x, &residual, &bias, &gamma, &beta})
          m->upload();
        auto const make_load = [&](auto& on, auto& keep_on) {
          return rf::load(static_cast<__half const*>(on(x, offset)), rows, cols, ld) |
                 rf::bias(static_cast<__half const*>(on(bias, bias_offset))) |
                 rf::dropout(p_drop, 606, 13, on(keep_on, offset), ld) |
                 rf::add(static_cast<__half const*>(on(residual, offset)), ld);
        };
        auto const on_host = [](auto& m, long at) { return m.h(at); };
        auto const on_device = [](auto& m, long at) { return m.d(at); };
        auto const affine_on = [&](auto& on) {
          return rf::affine(static_cast<__half const*>(on(gamma, gamma_offset)),
                            static_cast<__half const*>(on(beta, beta_offset)));
        };
        test::poison(keep_ref.host);
        auto const exact = [&] {
          if (tees)
            return rf::reference::layernorm(
                make_load(on_host, keep_ref) | rf::tee(h_ref.h(offset), ld),
                rf::store(y_ref.h(offset), ld), affine_on(on_host), 1e-5f);
          return rf::reference::layernorm(make_load(on_host, keep_ref),
                                          rf::store(y_ref.h(offset), ld), affine_on(on_host),
                                          1e-5f);
        }();
        // h exactly, in double, from the reference's mask (itself checked against the kernels').
        std::vector<double> h_exact(std::size_t(rows * cols));
        for (long r = 0; r < rows; ++r)
          for (long col = 0; col < cols; ++col) {
            std::size_t const k = std::size_t(offset + r * ld + col);
            double const branch =
                rf::detail::widen<double>(x.host[k]) +
                rf::detail::widen<double>(bias.host[std::size_t(bias_offset + col)]);
            h_exact[std::size_t(r * cols + col)] =
                (keep_ref.host[k] ? branch / (1.0 - double(p_drop)) : 0.0) +
                rf::detail::widen<double>(residual.host[k]);
          }
        auto const call = [&](rf::launch_options options) {
          if (tees)
            return rf::layernorm(make_load(on_device, keep) | rf::tee(h.d(offset), ld),
                                 rf::store(y.d(offset), ld), affine_on(on_device), 1e-5f, nullptr,
                                 {}, options);
          return rf::layernorm(make_load(on_device, keep), rf::store(y.d(offset), ld),
                               affine_on(on_device), 1e-5f, nullptr, {}, options);
        };
        rf::plan const planned = call({rf::engine_kind::automatic, 0, true});
        if (!on_grid)
          CHECK(planned.phased);
        else if (bias_offset == 0)
          CHECK_FALSE(planned.phased);
        double const absolute = norm_test::absolute_term(exact);
        double const absolute_h = norm_test::absolute_term(h_exact);
        test::for_each_plan([&](rf::launch_options options) {
          if (options.dry_run)
            return call(options);
          for (auto* m : {&y, &h}) {
            test::poison(m->host);
            m->upload();
          }
          test::poison(keep.host);
          keep.upload();
          rf::plan const p = call(options);
          test::sync_and_check();
          INFO(rf::explain(p));
          check_norm_output(y.download(), exact, rows, cols, ld, offset, absolute);
          if (tees)
            check_norm_output(h.download(), h_exact, rows, cols, ld, offset, absolute_h);
          else
            CHECK(-1 == test::written_outside(h.download(), 0, cols, ld, offset)); // h untouched
          CHECK(keep.download() == keep_ref.host);
          return p;
        });
      }
    }
  }
}

TEST_CASE("phased rows: layernorm -> fp8 with its amax") {
  using e4m3 = __nv_fp8_e4m3;
  std::mt19937 rng(19);
  // 40001 and 100003 columns on rows read back from staging.
  for (long cols : {1001L, 8191L, 40001L, 100003L}) {
    long const rows = persistent_rows_for(cols), ld = cols + 3, offset = 5;
    CAPTURE(cols);
    std::size_t const size = std::size_t(offset + rows * ld + 8);
    test::mirrored<__half> x(size), gamma(std::size_t(cols + 8)), beta(std::size_t(cols + 8));
    test::mirrored<e4m3> y(size), y_ref(size);
    test::mirrored<float> amax(1), amax_ref(1);
    test::fill_uniform(x.host, rng);
    test::fill_uniform(gamma.host, rng, 0.5f, 1.5f);
    test::fill_uniform(beta.host, rng, -0.5f, 0.5f);
    x.upload();
    gamma.upload();
    beta.upload();
    amax_ref.host[0] = 0.0f;
    auto const exact = rf::reference::layernorm(
        rf::load(x.h(offset), rows, cols, ld),
        rf::store(y_ref.h(offset), ld) | rf::cast<e4m3>(2.0f, amax_ref.h()),
        rf::affine(static_cast<__half const*>(gamma.h(2)), static_cast<__half const*>(beta.h(7))),
        1e-5f);
    auto const call = [&](rf::launch_options options) {
      return rf::layernorm(
          rf::load(static_cast<__half const*>(x.d(offset)), rows, cols, ld),
          rf::store(y.d(offset), ld) | rf::cast<e4m3>(2.0f, amax.d()),
          rf::affine(static_cast<__half const*>(gamma.d(2)), static_cast<__half const*>(beta.d(7))),
          1e-5f, nullptr, {}, options);
    };
    check_phased_norm(
        call, y, exact, rows, cols, ld, offset,
        [&] {
          amax.host[0] = 0.0f;
          amax.upload();
        },
        [&] { CHECK(amax.download()[0] == doctest::Approx(amax_ref.host[0]).epsilon(1e-5)); });
  }
}

} // namespace
