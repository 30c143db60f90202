// Two precision edges that random testing found, on every engine and pack path that runs each
// width (op/softmax.cuh says how the op keeps them):
//  - log-softmax of a row whose maximum dominates: the top output is -log1p(rest), rest the sum
//    of exp(x - max) over the other elements (-1.9e-8 for nine elements 20 below the max). A
//    plain fp32 log(1 + rest) rounds to 0 below rest = 2^-24, and so did the top output, in
//    bf16 and fp16 outputs that can hold it; fp32 outputs lost its digits too;
//  - softmax to bf16 of probabilities under 2^-126 (e^-87 to e^-92 here): bf16 has subnormals
//    down to 2^-133 (9.2e-41), and the fast exp had flushed them to 0; and fp32-subnormal
//    probabilities (e^-93 to e^-100) that a store-side scale lifts into bf16's range (random
//    testing found one near 2^-135 that the exp, then biased by only 2^8, had flushed).
//  - softmax of rows far from 0, to fp16's and bf16's largest values: an exp that folds x - max
//    into its FFMA (x * log2(e) + an offset, as QuACK's) has an offset whose rounding grows with
//    |max|, and past 2^30 gives 0 or NaN unless the line changes with |max| (op/softmax.cuh).
// Rows that are not at an edge ride along: two elements sharing the max, one-element rows.
#include <cmath>
#include <limits>

#include "support.cuh"

namespace {

// 30000 and 120000: on a device of wide memory, 16-bit rows there exchange once a row
// (tuning::register_shape::exchanges_once), each warp's terms about its own max: the tiny
// probabilities sit in warps 87-100 below the row's max.
constexpr long widths[] = {1, 2, 10, 33, 1000, 4096, 20000, 30000, 70000, 120000};

/// Row r of a log-softmax case: 0 at one column, every other element `gap` below it, the gap
/// growing with r (rest from ~(n-1) e^-17 down to (n-1) e^-92, below 2^-126: the top output is
/// then a bf16 subnormal, which random testing found written as 0 while the exp flushed the
/// terms); the last row has two maxima.
std::vector<float> dominated_rows(long rows, long cols) {
  constexpr float gaps[] = {17.0f, 20.0f, 25.0f, 30.0f, 40.0f, 60.0f, 87.0f, 90.0f, 92.0f};
  std::vector<float> x(std::size_t(rows * cols));
  for (long r = 0; r < rows; ++r) {
    float const gap = gaps[r % std::size(gaps)];
    long const top = (r * 7) % cols;
    for (long c = 0; c < cols; ++c)
      x[std::size_t(r * cols + c)] = c == top ? 0.0f : -gap;
    if (r == rows - 1 && cols > 1)
      x[std::size_t(r * cols + (top + 1) % cols)] = 0.0f;
  }
  return x;
}

/// Row r of a softmax case: 0 at one column, the others 87 to 92 below it, so that their
/// probabilities, e^-87 (1.6e-38) to e^-92 (1.1e-40), straddle 2^-126 and reach bf16's
/// subnormals.
std::vector<float> tiny_probability_rows(long rows, long cols) {
  std::vector<float> x(std::size_t(rows * cols));
  for (long r = 0; r < rows; ++r) {
    long const top = (r * 5) % cols;
    for (long c = 0; c < cols; ++c)
      x[std::size_t(r * cols + c)] = c == top ? 0.0f : -(87.0f + float((c + r) % 6));
  }
  return x;
}

/// Row r of a softmax case whose probabilities, e^-93 (2^-134.2) to e^-100 (2^-144.3), are fp32
/// subnormals, which a store-side scale of 2^12 lifts to 2^-122 .. 2^-132: bf16 values.
std::vector<float> subnormal_probability_rows(long rows, long cols) {
  std::vector<float> x(std::size_t(rows * cols));
  for (long r = 0; r < rows; ++r) {
    long const top = (r * 3) % cols;
    for (long c = 0; c < cols; ++c)
      x[std::size_t(r * cols + c)] = c == top ? 0.0f : -(93.0f + float((c + 2 * r) % 8));
  }
  return x;
}

/// Row r of a softmax case far from 0: base_r, less up to 8 by a hash of the column, plus a rise
/// of 12 across the row, so that on the rows that exchange once each warp's own max differs (its
/// terms are taken about it, then moved to the row's). The bases straddle 1024 and run to fp16's
/// largest values and, with `past_fp16`, to bf16's.
std::vector<float> far_rows(long rows, long cols, bool past_fp16) {
  std::vector<float> bases = {0.0f,    -700.0f,  1000.0f, 1015.0f, 1023.5f,
                              1024.0f, -1030.0f, 5000.0f, 60000.0f};
  if (past_fp16)
    bases.insert(bases.end(), {1e6f, 7e8f, 3e9f, 1e20f, -1e30f, 3e38f});
  std::vector<float> x(std::size_t(rows * cols));
  for (long r = 0; r < rows; ++r) {
    float const base = bases[std::size_t(r) % bases.size()];
    for (long c = 0; c < cols; ++c) {
      float const drop = 8.0f * float((c * 2654435761u + r * 40503u) % 1024u) / 1024.0f;
      x[std::size_t(r * cols + c)] = base - drop + 12.0f * float(c) / float(cols);
    }
  }
  return x;
}

/// The store expression of a case: a plain store, or a store-side scale first.
template <bool Scaled, class Out> auto store_of(Out* out, float store_scale) {
  if constexpr (Scaled)
    return rf::store(out) | rf::scale(store_scale);
  else
    return rf::store(out);
}

/// The outputs of every engine and pack path that runs `cols` against the reference, each
/// within `tolerance(exact)`. With `Scaled`, `store_scale` multiplies the op's fp32 output on the
/// store side.
template <bool Log, class In, class Out, bool Scaled = false, class Tolerance>
void check_every_engine(std::vector<float> const& values, long rows, long cols, Tolerance tolerance,
                        float store_scale = 1.0f) {
  CAPTURE(cols);
  test::mirrored<In> x(values.size());
  test::mirrored<Out> y(values.size()), y_ref(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    x.host[i] = rf::detail::narrow<In>(values[i]);
  x.upload();
  auto const exact = Log ? rf::reference::log_softmax(rf::load(x.h(), rows, cols),
                                                      store_of<Scaled>(y_ref.h(), store_scale))
                         : rf::reference::softmax(rf::load(x.h(), rows, cols),
                                                  store_of<Scaled>(y_ref.h(), store_scale));
  auto const load = rf::load(static_cast<In const*>(x.d()), rows, cols);
  auto const store = store_of<Scaled>(y.d(), store_scale);
  auto const call = [&](rf::launch_options options) {
    return Log ? rf::log_softmax(load, store, nullptr, options)
               : rf::softmax(load, store, nullptr, options);
  };
  for (test::planned const& each : test::plans_for(call)) {
    if (each.options.engine == rf::engine_kind::automatic)
      continue; // the forced plans include it
    test::poison(y.host);
    y.upload();
    rf::plan const p = call(each.options);
    test::sync_and_check();
    test::check_as_planned(p, each);
    INFO(rf::explain(p));
    CHECK_MATCHES(test::compare_within(y.download(), exact, rows, cols, cols, 0, tolerance));
  }
}

} // namespace

TEST_CASE("log-softmax of a dominated row keeps its top output, bf16 and fp16") {
  for (long cols : widths) {
    long const rows = 14;
    auto const x = dominated_rows(rows, cols);
    // One ulp of the output type: a top output written as 0 misses by 128 of them in bf16.
    check_every_engine<true, float, __nv_bfloat16>(
        x, rows, cols, [](double e) { return test::ulp<__nv_bfloat16>(e); });
    check_every_engine<true, float, __half>(x, rows, cols,
                                            [](double e) { return test::ulp<__half>(e); });
  }
}

TEST_CASE("log-softmax of a dominated row keeps the digits of its top output in fp32") {
  for (long cols : widths) {
    long const rows = 14;
    auto const x = dominated_rows(rows, cols);
    // 1e-5 relative at every element, the top one (-rest, down to ~1e-38) included; the others
    // are x - max - log_sum with |x - max| <= 87: a few ulps of 87 absolute.
    check_every_engine<true, float, float>(x, rows, cols, [](double e) {
      return 1e-5 * std::fabs(e) + (std::fabs(e) > 1.0 ? 4 * 0x1p-24 * 128 : 0.0);
    });
  }
}

TEST_CASE("softmax to bf16 keeps probabilities below 2^-126") {
  for (long cols : widths) {
    long const rows = 12;
    auto const x = tiny_probability_rows(rows, cols);
    // One bf16 ulp, 2^-133 in the subnormal range: a probability flushed to 0 misses by 1-180.
    check_every_engine<false, float, __nv_bfloat16>(
        x, rows, cols, [](double e) { return test::ulp<__nv_bfloat16>(e); });
    check_every_engine<false, __nv_bfloat16, __nv_bfloat16>(
        x, rows, cols, [](double e) { return test::ulp<__nv_bfloat16>(e); });
  }
}

TEST_CASE("softmax keeps fp32-subnormal probabilities that a store-side scale lifts into bf16") {
  for (long cols : widths) {
    long const rows = 16;
    auto const x = subnormal_probability_rows(rows, cols);
    // One bf16 ulp, plus the fp32 output's own rounding at its subnormal spacing 2^-149, scaled
    // by 2^12: a probability flushed to 0 misses by up to 2^11 ulps.
    auto const tolerance = [](double e) { return test::ulp<__nv_bfloat16>(e) + 0x1p-137; };
    check_every_engine<false, float, __nv_bfloat16, true>(x, rows, cols, tolerance, 0x1p12f);
    check_every_engine<false, __nv_bfloat16, __nv_bfloat16, true>(x, rows, cols, tolerance,
                                                                  0x1p12f);
  }
}

TEST_CASE("softmax of rows far from 0, to fp16's and bf16's largest values, keeps one 16-bit ulp") {
  for (long cols : widths) {
    long const rows = 16; // every base of far_rows, either list
    // One ulp of the output: exp_shifted's x - max is exact wherever x is within a factor of 2
    // of the max (every element whose term counts, once |max| passes 200), and softmax's lines
    // (op/softmax.cuh) cancel their offset's rounding in term / sum and change with |max|, so
    // the terms are as accurate at 60000 or 3e38 as near 0. One line for every |max| fails
    // here: 176 checks, e.g. a one-column bf16 row at 1e20 gave 0 (bench/NOTES.md, variant F).
    check_every_engine<false, __half, __half>(far_rows(rows, cols, false), rows, cols,
                                              [](double e) { return test::ulp<__half>(e); });
    check_every_engine<false, float, __half>(far_rows(rows, cols, false), rows, cols,
                                             [](double e) { return test::ulp<__half>(e); });
    check_every_engine<false, float, __nv_bfloat16>(
        far_rows(rows, cols, true), rows, cols,
        [](double e) { return test::ulp<__nv_bfloat16>(e); });
    check_every_engine<false, __nv_bfloat16, __nv_bfloat16>(
        far_rows(rows, cols, true), rows, cols,
        [](double e) { return test::ulp<__nv_bfloat16>(e); });
  }
}

TEST_CASE("the edges are real: the reference's values there are not 0") {
  float const row[3] = {0.0f, -20.0f, -20.0f};
  float out[3];
  auto const log_exact = rf::reference::log_softmax(rf::load(row, 1, 3), rf::store(out));
  CHECK(log_exact[0] == doctest::Approx(-2.0 * std::exp(-20.0)).epsilon(1e-12));
  float const tiny[2] = {0.0f, -90.0f};
  __nv_bfloat16 out16[2];
  auto const soft_exact = rf::reference::softmax(rf::load(tiny, 1, 2), rf::store(out16));
  CHECK(soft_exact[1] == doctest::Approx(std::exp(-90.0)).epsilon(1e-12));
  CHECK(rf::detail::widen<double>(out16[1]) > 0.0); // bf16 holds 8.2e-40
  float const subnormal[2] = {0.0f, -95.0f};
  auto const scaled_exact =
      rf::reference::softmax(rf::load(subnormal, 1, 2), rf::store(out16) | rf::scale(0x1p12f));
  CHECK(scaled_exact[1] == doctest::Approx(std::exp(-95.0) * 0x1p12).epsilon(1e-12));
  CHECK(std::exp(-95.0) < 0x1p-126);                // an fp32 subnormal before the scale
  CHECK(rf::detail::widen<double>(out16[1]) > 0.0); // a bf16 value after it
}
