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

namespace {

/// Fully masked rows, NaN and inf in rows of `In`, on every plan: fp32 inputs, and 16-bit ones,
/// whose tables hold the rows that pad a thread's places with -inf (tuning::padded).
template <class In> void check_special_values() {
  for (long cols : {5L, 64L, 176L, 200L, 1000L, 3000L, 3080L, 20000L, 28000L, 70000L, 100000L}) {
    CAPTURE(cols);
    long const rows = 6;
    test::mirrored<In> x(rows * cols);
    test::mirrored<float> y(rows * cols), y_ref(rows * cols);
    std::mt19937 rng(3);
    test::fill_uniform(x.host, rng);
    auto const at = [&](long row, long col) -> In& {
      return x.host[std::size_t(row * cols + col)];
    };
    for (long c = 0; c < cols; ++c)
      at(1, c) = In(-inf); // fully masked
    at(2, cols / 2) = In(std::numeric_limits<float>::quiet_NaN());
    at(3, cols / 3) = In(inf);
    at(4, cols / 4) = In(-inf); // one masked element: an ordinary row
    for (long c = 0; c < cols; c += 2)
      at(5, c) = In(-inf);
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
      auto const load = rf::load(static_cast<In const*>(x.d()), rows, cols);
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

/// Each thread's case: the values of one thread's places, its first `counts` real, the rest +0
/// (counted: the phases take the count) or the op's padding (padded: the phases take every
/// place); phase 1 and phase 2 of both, compared bit for bit.
template <bool Log, bool Accurate, int K>
__global__ void padded_against_counted(float const* values, int const* counts, int cases,
                                       unsigned* differences) {
  int const c = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (c >= cases)
    return;
  using op_t = rf::op::softmax<Log, Accurate>;
  op_t const op{};
  int const n = counts[c];
  float counted[K], padded[K];
  for (int i = 0; i < K; ++i) {
    counted[i] = i < n ? values[c * K + i] : 0.0f;
    padded[i] = i < n ? values[c * K + i] : op_t::padding;
  }
  float const max_counted = op.phase1(counted, n), max_padded = op.phase1(padded, K);
  auto const sums_counted = op.phase2(counted, n, max_counted, rf::index_t(K));
  auto const sums_padded = op.phase2(padded, K, max_padded, rf::index_t(K));
  unsigned different = __float_as_uint(max_counted) != __float_as_uint(max_padded);
  if constexpr (Log) {
    different += __float_as_uint(sums_counted.sum) != __float_as_uint(sums_padded.sum);
    different += __float_as_uint(sums_counted.rest) != __float_as_uint(sums_padded.rest);
  } else {
    different += __float_as_uint(sums_counted) != __float_as_uint(sums_padded);
    for (int i = 0; i < n; ++i) // softmax's phase 2 rewrites the real values into their terms
      different += __float_as_uint(counted[i]) != __float_as_uint(padded[i]);
  }
  differences[c] = different;
}

template <bool Log, bool Accurate> void check_padding(std::mt19937& rng) {
  constexpr int K = 16;
  int const cases = 4096;
  test::mirrored<float> values(std::size_t(cases) * K);
  test::mirrored<int> counts(cases);
  test::mirrored<unsigned> differences(cases);
  std::uniform_real_distribution<float> value(-90.0f, 90.0f);
  std::uniform_int_distribution<int> count(0, K), special(0, 19);
  for (int c = 0; c < cases; ++c) {
    counts.host[std::size_t(c)] = count(rng);
    for (int i = 0; i < K; ++i) {
      // Mostly ordinary values, some -inf (masked), a few NaN and +inf.
      int const kind = special(rng);
      values.host[std::size_t(c * K + i)] = kind == 0   ? -inf
                                            : kind == 1 ? std::numeric_limits<float>::quiet_NaN()
                                            : kind == 2 && c % 7 == 0 ? inf
                                                                      : value(rng);
    }
  }
  values.upload();
  counts.upload();
  test::poison(differences.host);
  differences.upload();
  padded_against_counted<Log, Accurate, K>
      <<<(cases + 127) / 128, 128>>>(values.d(), counts.d(), cases, differences.d());
  test::sync_and_check();
  auto const found = differences.download();
  int const cases_differing =
      int(std::count_if(found.begin(), found.end(), [](unsigned d) { return d != 0; }));
  CHECK(cases_differing == 0);
}

} // namespace

TEST_CASE("fully masked rows give zeros (log-softmax -inf); NaN and inf stay in their row") {
  SUBCASE("fp32") {
    check_special_values<float>();
  }
  SUBCASE("fp16") {
    check_special_values<__half>();
  }
}

TEST_CASE("softmax's padding counts as no value in both phases (engine::padded_phases_op)") {
  std::mt19937 rng(29);
  check_padding<false, false>(rng);
  check_padding<false, true>(rng);
  check_padding<true, false>(rng);
  check_padding<true, true>(rng);
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
  // Not measured on attention's shapes: log-softmax, and either half of the chain alone, which
  // plan from their own op's table.
  auto const from_own_table = [&](rf::plan const& q, auto const& table) {
    INFO(rf::explain(q));
    CHECK(q.packs == test::table_row(table, q).packs);
    CHECK(q.block_threads == test::table_row(table, q).block_threads);
  };
  from_own_table(rf::log_softmax(masked, dropped, nullptr, dry), rf::tuning::log_softmax_16bit);
  // softmax's row at 4096 columns is a block of 256 threads on every device, attention's one of
  // 128 (log-softmax's on a device of wide memory is 128 too).
  for (rf::plan const& q : {rf::softmax(masked, rf::store(y.d()), nullptr, dry),
                            rf::softmax(rf::load(static_cast<__half const*>(x.d()), rows, cols),
                                        dropped, nullptr, dry)}) {
    from_own_table(q, softmax);
    CHECK(q.block_threads != p.block_threads);
  }
}
