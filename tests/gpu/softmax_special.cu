// Special values, empty shapes, mixed input/output types and errors.
#include <limits>

#include "support.cuh"

namespace {

constexpr float inf = std::numeric_limits<float>::infinity();

template <class In, class Out> void check_types(long rows, long cols, std::mt19937& rng) {
  CAPTURE(rows);
  CAPTURE(cols);
  test::mirrored<In> x(rows * cols);
  test::mirrored<Out> y(rows * cols), y_ref(rows * cols);
  test::mirrored<float> amax(1);
  test::fill_uniform(x.host, rng);
  x.upload();
  float const out_scale = 16.0f;
  auto make_store = [&](Out* out, float* a) {
    if constexpr (rf::fp8_element<Out>)
      return rf::store(out) | rf::cast<Out>(out_scale, a);
    else
      return rf::store(out);
  };
  amax.host[0] = 0.0f;
  auto const exact =
      rf::reference::softmax(rf::load(x.h(), rows, cols), make_store(y_ref.h(), amax.h()));
  float const amax_ref = amax.host[0];
  auto const call = [&](rf::launch_options options) {
    return rf::softmax(rf::load(static_cast<In const*>(x.d()), rows, cols),
                       make_store(y.d(), amax.d()), nullptr, options);
  };
  for (test::planned const& each : test::plans_for(call)) {
    if (each.options.pack == 1)
      continue; // the widest pack each engine runs: the types' conversions are the subject
    test::poison(y.host);
    y.upload();
    amax.host[0] = 0.0f;
    amax.upload();
    rf::plan const p = call(each.options);
    test::sync_and_check();
    test::check_as_planned(p, each);
    INFO(rf::explain(p));
    CHECK_MATCHES(test::compare(y.download(), exact, rows, cols, cols, 0));
    if constexpr (rf::fp8_element<Out>)
      CHECK(amax.download()[0] == doctest::Approx(amax_ref).epsilon(1e-5));
  }
}

} // namespace

TEST_CASE("input and output types mix") {
  std::mt19937 rng(11);
  for (long cols : {7L, 256L, 1536L, 5000L, 70000L}) {
    long const rows = std::max(2L, (test::small_mode() ? 16384L : 200000L) / cols);
    check_types<float, __half>(rows, cols, rng);
    check_types<float, __nv_bfloat16>(rows, cols, rng);
    check_types<__nv_bfloat16, float>(rows, cols, rng);
    check_types<__half, float>(rows, cols, rng);
    check_types<__half, __nv_fp8_e4m3>(rows, cols, rng);
    check_types<__nv_bfloat16, __nv_fp8_e5m2>(rows, cols, rng);
    check_types<float, __nv_fp8_e4m3>(rows, cols, rng);
  }
}

TEST_CASE("fully masked rows give zeros (log-softmax -inf); NaN and inf stay in their row") {
  for (long cols : {5L, 64L, 1000L, 3000L, 20000L, 70000L}) {
    CAPTURE(cols);
    long const rows = 6;
    test::mirrored<float> x(rows * cols), y(rows * cols), y_ref(rows * cols);
    std::mt19937 rng(3);
    test::fill_uniform(x.host, rng);
    for (long c = 0; c < cols; ++c)
      x.host[std::size_t(1 * cols + c)] = -inf; // fully masked
    x.host[std::size_t(2 * cols + cols / 2)] = std::numeric_limits<float>::quiet_NaN();
    x.host[std::size_t(3 * cols + cols / 3)] = inf;
    x.host[std::size_t(4 * cols + cols / 4)] = -inf; // one masked element: an ordinary row
    for (long c = 0; c < cols; c += 2)
      x.host[std::size_t(5 * cols + c)] = -inf;
    x.upload();
    for (bool log : {false, true}) {
      auto const exact =
          log ? rf::reference::log_softmax(rf::load(x.h(), rows, cols), rf::store(y_ref.h()))
              : rf::reference::softmax(rf::load(x.h(), rows, cols), rf::store(y_ref.h()));
      for (long c = 0; c < cols; ++c) {
        CHECK(exact[std::size_t(1 * cols + c)] == (log ? -inf : 0.0));
        CHECK(std::isnan(exact[std::size_t(2 * cols + c)]));
        CHECK(!std::isnan(exact[std::size_t(0 * cols + c)]));
      }
      auto const load = rf::load(static_cast<float const*>(x.d()), rows, cols);
      auto const call = [&](rf::launch_options options) {
        return log ? rf::log_softmax(load, rf::store(y.d()), nullptr, options)
                   : rf::softmax(load, rf::store(y.d()), nullptr, options);
      };
      for (test::planned const& each : test::plans_for(call)) {
        if (each.options.pack == 1)
          continue; // the widest pack each engine runs: the special values are the subject
        test::poison(y.host);
        y.upload();
        rf::plan const p = call(each.options);
        test::sync_and_check();
        test::check_as_planned(p, each);
        INFO(rf::explain(p));
        CHECK_MATCHES(test::compare(y.download(), exact, rows, cols, cols, 0, log ? 8e-6 : 0.0));
      }
    }
  }
}

TEST_CASE("zero rows and zero columns launch nothing and write nothing") {
  thrust::device_vector<float> x(16, 1.0f), y(16, 5.0f);
  auto const xp = static_cast<float const*>(thrust::raw_pointer_cast(x.data()));
  auto* const yp = thrust::raw_pointer_cast(y.data());
  rf::plan p = rf::softmax(rf::load(xp, 0, 16), rf::store(yp));
  CHECK(p.engine == rf::engine_kind::automatic);
  p = rf::softmax(rf::load(static_cast<float const*>(nullptr), 0, 16),
                  rf::store(static_cast<float*>(nullptr)));
  CHECK(p.grid == 0);
  p = rf::log_softmax(rf::load(xp, 4, 0), rf::store(yp));
  CHECK(p.grid == 0);
  test::sync_and_check();
  std::vector<float> host(16);
  thrust::copy(y.begin(), y.end(), host.begin());
  for (float v : host)
    CHECK(v == 5.0f);
}

TEST_CASE("bad arguments and impossible forced plans raise rowfuse::error") {
  thrust::device_vector<float> x(64, 1.0f), y(64);
  auto const xp = static_cast<float const*>(thrust::raw_pointer_cast(x.data()));
  auto* const yp = thrust::raw_pointer_cast(y.data());
  CHECK(test::error_message([&] {
          rf::softmax(rf::load(xp, 4, 16, 8), rf::store(yp));
        }).find("ld = 8") != std::string::npos);
  CHECK(test::error_message([&] {
          rf::softmax(rf::load(xp, -1, 16), rf::store(yp));
        }).find("rows = -1") != std::string::npos);
  CHECK(test::error_message([&] {
          rf::softmax(rf::load(xp, 2, 16), rf::store(static_cast<float*>(nullptr)));
        }).find("null") != std::string::npos);
  CHECK(test::error_message([&] {
          rf::softmax(rf::load(xp, 2, 16), rf::store(yp) | rf::dropout(1.0f, 1));
        }).find("dropout p = 1") != std::string::npos);
  CHECK(
      test::error_message([&] {
        rf::softmax(rf::load(xp, 1, 5000), rf::store(yp), nullptr, {rf::engine_kind::warp_rows, 0});
      }).find("cannot run cols = 5000") != std::string::npos);
  CHECK(test::error_message([&] {
          rf::softmax(rf::load(xp + 1, 2, 16), rf::store(yp), nullptr,
                      {rf::engine_kind::automatic, 4});
        }).find("pack = 4") != std::string::npos);
  CHECK(test::error_message([&] {
          rf::layernorm(rf::load(xp, 2, 16), rf::store(yp), rf::no_affine, 0.0f);
        }).find("eps = 0") != std::string::npos);
}

TEST_CASE("a softmax chain that masks and drops plans from attention's shapes") {
  long const rows = 64, cols = 4096;
  test::mirrored<__half> x(rows * cols), y(rows * cols);
  rf::launch_options const dry{rf::engine_kind::automatic, 0, true};
  auto const masked = rf::load(static_cast<__half const*>(x.d()), rows, cols) | rf::scale(0.5f) |
                      rf::causal_mask(16);
  auto const dropped = rf::store(y.d()) | rf::dropout(0.1f, 7);
  auto const& attention = rf::tuning::attention_16bit;
  auto const& softmax = rf::tuning::softmax_16bit;
  rf::plan const p = rf::softmax(masked, dropped, nullptr, dry);
  INFO(rf::explain(p));
  CHECK(p.engine == rf::engine_kind::block_rows);
  CHECK(test::table_row(attention, p).max_cols == 4096);
  CHECK(p.packs == test::table_row(attention, p).packs);
  CHECK(p.block_threads == test::table_row(attention, p).block_threads);
  // Not measured on attention's shapes: log-softmax, and either half of the chain alone.
  for (rf::plan const& q : {rf::log_softmax(masked, dropped, nullptr, dry),
                            rf::softmax(masked, rf::store(y.d()), nullptr, dry),
                            rf::softmax(rf::load(static_cast<__half const*>(x.d()), rows, cols),
                                        dropped, nullptr, dry)}) {
    INFO(rf::explain(q));
    CHECK(q.packs == test::table_row(softmax, q).packs);
    CHECK(q.block_threads == test::table_row(softmax, q).block_threads);
    CHECK(q.block_threads != p.block_threads);
  }
}
