// The cluster engine (engine/cluster_engine.cuh) launched directly, before the dispatcher knows
// it, at widths past block_smem, with every cluster size whose slices fit, full and capped grids
// (capped, each cluster loops over several rows, through both partial slots), every element
// against the host reference. The three cases cover the engine's three ways into the cache:
//  - softmax fp32, plain load: raw cache filled by cp.async (16-byte packs, and 4-byte ones
//    at the odd width);
//  - softmax fp16 | scale: raw fp16 cache (the chain runs again in pass 2), cp.async for packs
//    of 8, loads through registers for single elements (2 bytes: too small for cp.async);
//  - rmsnorm bf16 | add | tee, saving rstd: an impure chain, so fp32 values cached through
//    registers; tee written once, rstd saved by one block of the cluster.
// Rows 1 and 2 are special: a NaN in the last slice (that row is NaN, the rows after it on the
// same cluster are not), and a fully masked softmax row (zeros).
#include <cmath>
#include <limits>
#include <string>

#include <rowfuse/rowfuse.cuh>

#include "support.cuh"

namespace {

long rows_for(long cols) {
  // test::small_mode(): a few rows, still more than a capped grid's clusters.
  if (test::small_mode())
    return std::max(4L, (1L << 16) / cols);
  return std::max(8L, (1L << 21) / cols);
}

template <class T> void add_special_rows(std::vector<T>& x, long cols, bool masked_row) {
  x[std::size_t(1 * cols + cols - 2)] =
      rf::detail::narrow<T>(std::numeric_limits<float>::quiet_NaN());
  if (masked_row)
    for (long c = 0; c < cols; ++c)
      x[std::size_t(2 * cols + c)] = rf::detail::narrow<T>(-INFINITY);
}

struct softmax_fp32 {
  static constexpr char const* name = "softmax fp32";
  static constexpr int wide = 4;
  long rows, cols;
  test::mirrored<float> x, y;
  std::vector<double> exact;

  softmax_fp32(long r, long c, std::mt19937& rng) : rows(r), cols(c), x(r * c), y(r * c) {
    test::fill_uniform(x.host, rng);
    add_special_rows(x.host, cols, true);
    x.upload();
    exact = rf::reference::softmax(rf::load(x.h(), rows, cols), rf::store(y.h()));
  }
  auto op() const { return rf::op::softmax<false, true>{}; }
  auto load() { return rf::load(static_cast<float const*>(x.d()), rows, cols); }
  auto store() { return rf::store(y.d()); }
  void poison() {
    test::poison(y.host);
    y.upload();
  }
  void check() { CHECK_MATCHES(test::compare(y.download(), exact, rows, cols, cols, 0)); }
};

struct softmax_fp16_scaled {
  static constexpr char const* name = "softmax fp16 | scale";
  static constexpr int wide = 8;
  long rows, cols;
  test::mirrored<__half> x, y;
  std::vector<double> exact;

  softmax_fp16_scaled(long r, long c, std::mt19937& rng) : rows(r), cols(c), x(r * c), y(r * c) {
    test::fill_uniform(x.host, rng, -8.0f, 8.0f);
    add_special_rows(x.host, cols, true);
    x.upload();
    exact = rf::reference::softmax(rf::load(x.h(), rows, cols) | rf::scale(0.5f), rf::store(y.h()));
  }
  auto op() const { return rf::op::softmax<false, false>{}; }
  auto load() { return rf::load(static_cast<__half const*>(x.d()), rows, cols) | rf::scale(0.5f); }
  auto store() { return rf::store(y.d()); }
  void poison() {
    test::poison(y.host);
    y.upload();
  }
  void check() { CHECK_MATCHES(test::compare(y.download(), exact, rows, cols, cols, 0)); }
};

struct rmsnorm_bf16_residual {
  static constexpr char const* name = "rmsnorm bf16 | add | tee";
  static constexpr int wide = 8;
  static constexpr float eps = 1e-6f;
  long rows, cols;
  test::mirrored<__nv_bfloat16> x, residual, h, y;
  test::mirrored<float> rstd;
  std::vector<double> exact, exact_h;
  std::vector<float> exact_rstd;

  rmsnorm_bf16_residual(long r, long c, std::mt19937& rng)
      : rows(r), cols(c), x(r * c), residual(r * c), h(r * c), y(r * c), rstd(r) {
    test::fill_uniform(x.host, rng);
    test::fill_uniform(residual.host, rng, -1.0f, 1.0f);
    add_special_rows(x.host, cols, false);
    x.upload();
    residual.upload();
    exact =
        rf::reference::rmsnorm(rf::load(x.h(), rows, cols) | rf::add(residual.h()) | rf::tee(h.h()),
                               rf::store(y.h()), rf::no_affine, eps, rstd.h());
    // The tee target holds x + residual rounded once to bf16 (the fp32 sum of two bf16 values
    // in this range is exact): the reference's rounding is the value to match.
    exact_h.resize(h.host.size());
    for (std::size_t i = 0; i < h.host.size(); ++i)
      exact_h[i] = rf::detail::widen<double>(h.host[i]);
    exact_rstd = rstd.host;
  }
  auto op() { return rf::op::rmsnorm<rf::no_affine_t>{rf::no_affine, eps, rstd.d()}; }
  auto load() {
    return rf::load(static_cast<__nv_bfloat16 const*>(x.d()), rows, cols) |
           rf::add(static_cast<__nv_bfloat16 const*>(residual.d())) | rf::tee(h.d());
  }
  auto store() { return rf::store(y.d()); }
  void poison() {
    for (auto* m : {&h, &y}) {
      test::poison(m->host);
      m->upload();
    }
    test::poison(rstd.host);
    rstd.upload();
  }
  void check() {
    CHECK_MATCHES(test::compare(y.download(), exact, rows, cols, cols, 0));
    CHECK_MATCHES(test::compare(h.download(), exact_h, rows, cols, cols, 0));
    std::vector<float> const got = rstd.download();
    for (long r = 0; r < rows; ++r) {
      CAPTURE(r);
      float const want = exact_rstd[std::size_t(r)];
      if (std::isnan(want))
        CHECK(std::isnan(got[std::size_t(r)]));
      else
        CHECK(std::fabs(got[std::size_t(r)] - want) <= 1e-5f * want);
    }
  }
};

template <class F> void for_each_cluster_size(F&& f) {
  f.template operator()<2>();
  f.template operator()<4>();
  f.template operator()<8>();
  f.template operator()<16>();
}

template <class Case, int N> void check_width(long cols, std::mt19937& rng) {
  long const rows = rows_for(cols);
  CAPTURE(Case::name);
  CAPTURE(cols);
  CAPTURE(rows);
  CAPTURE(N);
  Case c(rows, cols, rng);
  rf::device_info const& dev = rf::current_device();
  using load_type = decltype(rf::detail::bind(c.load(), "test"));
  constexpr int cache_bytes = rf::engine::cache_element_bytes<load_type>;

  for_each_cluster_size([&]<int C>() {
    CAPTURE(C);
    if (!rf::detail::cluster_fits(cols, C, dev, N, cache_bytes))
      return;
    using config = rf::engine::cluster_config<N, 512>;
    // 0: as many clusters as are resident (each takes one or two rows); 3: each cluster loops
    // over rows / 3 of them, alternating partial slots.
    for (rf::index_t limit : {rf::index_t(0), rf::index_t(3)}) {
      CAPTURE(limit);
      c.poison();
      auto const load = rf::detail::bind(c.load(), "test");
      auto const store = rf::detail::bind(c.store(), "test", rows, cols);
      rf::plan p;
      p.op = Case::name;
      p.rows = rows;
      p.cols = cols;
      p.engine = rf::engine_kind::block_cluster;
      p.cluster_blocks = C;
      p.device = dev.id;
      try {
        rf::detail::launch_cluster<config>(p, c.op(), load, store, nullptr, false, limit);
      } catch (rf::error const& e) {
        // 16-block clusters are non-portable: a device may have no room for one.
        if (C > 8 && std::string(e.what()).find("can be resident") != std::string::npos) {
          MESSAGE("skipped: " << e.what());
          return;
        }
        throw;
      }
      test::sync_and_check();
      INFO(rf::explain(p));
      CHECK(p.grid % C == 0);
      CHECK(p.dynamic_smem == rf::detail::cluster_slice_bytes(cols, C, N, cache_bytes));
      c.check();
    }
  });
}

template <class Case> void check_case(unsigned seed) {
  std::mt19937 rng(seed);
  check_width<Case, Case::wide>(65536, rng);
  check_width<Case, 1>(100003, rng); // odd: packs of one, the last slice shorter
  check_width<Case, Case::wide>(262144, rng);
}

bool hopper() {
  if (rf::current_device().compute_capability >= 90)
    return true;
  MESSAGE("skipped: thread-block clusters need compute capability 9.0");
  return false;
}

} // namespace

TEST_CASE("cluster engine: raw caching only for pure chains; slice arithmetic") {
  using half_load = rf::load_expr<__half>;
  static_assert(rf::engine::caches_raw_input<half_load>);
  static_assert(rf::engine::caches_raw_input<decltype(std::declval<half_load>() | rf::scale(2.0f) |
                                                      rf::causal_mask(4))>);
  static_assert(rf::engine::caches_raw_input<rf::load_expr<float>>);
  static_assert(
      !rf::engine::caches_raw_input<decltype(std::declval<rf::load_expr<float>>() |
                                             rf::bias(static_cast<float const*>(nullptr)))>);
  static_assert(
      !rf::engine::caches_raw_input<decltype(std::declval<half_load>() |
                                             rf::add(static_cast<__half const*>(nullptr)))>);
  static_assert(!rf::engine::caches_raw_input<decltype(std::declval<half_load>() |
                                                       rf::tee(static_cast<__half*>(nullptr)))>);
  // 262144 fp16 columns: 64 KB slices in clusters of 8 (two blocks per SM), 128 KB in 4.
  CHECK(rf::detail::cluster_slice_bytes(262144, 8, 8, 2) == 65536);
  CHECK(rf::detail::cluster_slice_bytes(262144, 4, 8, 2) == 131072);
  // 100003 columns in packs of one over 4 blocks: slices of 25001, the last 25000.
  CHECK(rf::detail::cluster_slice_packs(100003, 1, 4) == 25001);
}

TEST_CASE("cluster engine: softmax fp32") {
  if (hopper())
    check_case<softmax_fp32>(11);
}
TEST_CASE("cluster engine: softmax fp16 through scale (raw cache)") {
  if (hopper())
    check_case<softmax_fp16_scaled>(12);
}
TEST_CASE("cluster engine: rmsnorm bf16 through add and tee") {
  if (hopper())
    check_case<rmsnorm_bf16_residual>(13);
}
