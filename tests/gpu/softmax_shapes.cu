// softmax and log-softmax over the whole width grid, fp32/fp16/bf16 in and out, every engine
// that can run each width, aligned and misaligned views, ld > cols.
#include <span>

#include "support.cuh"
#include "width_grid.hpp"

namespace {

long rows_for(long cols) {
  // About 2^20 elements per case, at least a few rows, and thousands for the narrow widths
  // (test::small_mode(): 2^14, at least 2 rows, at most 64).
  if (test::small_mode())
    return std::max(2L, std::min(64L, (1L << 14) / cols));
  return std::max(3L, std::min(3000L, (1L << 20) / cols));
}

template <class T, bool Log> void check_width(long cols, std::mt19937& rng) {
  long const rows = rows_for(cols);
  // Three layouts: dense; ld > cols with the views one element off their alignment.
  struct layout {
    long ld, offset;
  };
  for (layout const l : {layout{cols, 0}, layout{cols + 3, 1}}) {
    CAPTURE(cols);
    CAPTURE(rows);
    CAPTURE(l.ld);
    CAPTURE(l.offset);
    std::size_t const size = std::size_t(l.offset + rows * l.ld);
    test::mirrored<T> x(size), y(size), y_ref(size);
    test::fill_uniform(x.host, rng);
    x.upload();
    auto const exact = Log ? rf::reference::log_softmax(rf::load(x.h(l.offset), rows, cols, l.ld),
                                                        rf::store(y_ref.h(l.offset), l.ld))
                           : rf::reference::softmax(rf::load(x.h(l.offset), rows, cols, l.ld),
                                                    rf::store(y_ref.h(l.offset), l.ld));
    auto const load = rf::load(static_cast<T const*>(x.d(l.offset)), rows, cols, l.ld);
    auto const store = rf::store(y.d(l.offset), l.ld);
    auto const call = [&](rf::launch_options options) {
      return Log ? rf::log_softmax(load, store, nullptr, options)
                 : rf::softmax(load, store, nullptr, options);
    };
    std::vector<test::planned> const plans = test::plans_for(call);
    // The planner's pack rule, stated independently: 16-byte packs where cols is a multiple of
    // the pack and every row start is 16-byte aligned; otherwise phased packs (input and output
    // share their layout) where a register row holds the width, single elements past them.
    int const wide = rf::detail::widest_pack<T>;
    rf::plan const& automatic = plans.front().plan;
    bool const aligned = cols % wide == 0 && l.offset == 0;
    CHECK(automatic.pack == (aligned || automatic.phased ? wide : 1));
    CHECK(automatic.phased == (!aligned && automatic.pack == wide));
    if (!aligned && cols >= 256 && cols <= 32768)
      CHECK(automatic.phased);
    for (test::planned const& each : plans) {
      test::poison(y.host);
      y.upload();
      rf::plan const p = call(each.options);
      test::sync_and_check();
      test::check_as_planned(p, each);
      INFO(rf::explain(p));
      // log-softmax outputs are x - max - log(sum), terms up to ~20 in magnitude: a few fp32
      // ulps of 20 (2e-6 each) absolute on top of the relative bound.
      CHECK_MATCHES(
          test::compare(y.download(), exact, rows, cols, l.ld, l.offset, Log ? 8e-6 : 0.0));
    }
  }
}

/// Single elements on a flat tile (engine/flat_tile.cuh): rows one element off the grid at strides
/// the tile holds (ld = cols + 1, and its widest: the row's capacity and a 16-byte chunk more) and
/// just past it, which the kernel reads from global memory instead; enough rows that blocks walk
/// several tiles (the next one's copies in flight while one is read).
template <class T> void check_flat_tiles(std::span<long const> widths, std::mt19937& rng) {
  long const rows = test::small_mode() ? 3000 : 150000;
  long const chunk = 16 / long(sizeof(T));
  for (long cols : widths) {
    // Single elements forced: where a phased plan takes the row's packs instead (16-bit rows
    // from 33 columns: tuning::phased_narrow_16bit), the flat tile still runs them.
    rf::launch_options single{rf::engine_kind::automatic, 1};
    rf::launch_options dry = single;
    dry.dry_run = true;
    test::mirrored<T> probe_buffer(2); // a dry run reads nothing: any pointer one element off
    auto const probe =
        rf::softmax(rf::load(static_cast<T const*>(probe_buffer.d(1)), rows, cols, cols + 1),
                    rf::store(probe_buffer.d(1), cols + 1), nullptr, dry);
    REQUIRE(probe.pack == 1);
    REQUIRE(probe.staged); // the flat tile
    long const capacity = long(probe.group) * probe.packs;
    for (long ld : {cols + 1, capacity + chunk, capacity + chunk + 1}) {
      CAPTURE(cols);
      CAPTURE(ld);
      long const offset = 1;
      std::size_t const size = std::size_t(offset + rows * ld);
      test::mirrored<T> x(size), y(size), y_ref(size);
      test::fill_uniform(x.host, rng);
      x.upload();
      auto const exact = rf::reference::softmax(rf::load(x.h(offset), rows, cols, ld),
                                                rf::store(y_ref.h(offset), ld));
      test::poison(y.host);
      y.upload();
      rf::plan const p = rf::softmax(rf::load(static_cast<T const*>(x.d(offset)), rows, cols, ld),
                                     rf::store(y.d(offset), ld), nullptr, single);
      test::sync_and_check();
      INFO(rf::explain(p));
      CHECK(p.staged);
      std::vector<T> const got = y.download();
      CHECK_MATCHES(test::compare(got, exact, rows, cols, ld, offset, 0.0));
      CHECK(-1 == test::written_outside(got, rows, cols, ld, offset));
    }
  }
}

template <class T, bool Log> void check_all_widths(unsigned seed) {
  std::mt19937 rng(seed);
  for (long cols : test::shape_widths())
    check_width<T, Log>(cols, rng);
}

} // namespace

TEST_CASE("softmax fp32 over every width and engine") {
  check_all_widths<float, false>(1);
}
TEST_CASE("softmax fp16 over every width and engine") {
  check_all_widths<__half, false>(2);
}
TEST_CASE("softmax bf16 over every width and engine") {
  check_all_widths<__nv_bfloat16, false>(3);
}
TEST_CASE("log_softmax fp32 over every width and engine") {
  check_all_widths<float, true>(4);
}
TEST_CASE("log_softmax fp16 over every width and engine") {
  check_all_widths<__half, true>(5);
}
TEST_CASE("log_softmax bf16 over every width and engine") {
  check_all_widths<__nv_bfloat16, true>(6);
}
TEST_CASE("softmax over single elements on flat tiles, strides in and past the tile") {
  std::mt19937 rng(7);
  long const half_widths[] = {1, 7, 33, 100}, float_widths[] = {1, 7, 33};
  check_flat_tiles<__half>(half_widths, rng);
  check_flat_tiles<float>(float_widths, rng);
}
