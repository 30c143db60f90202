// The norms' numerics and edge cases, every engine that can run each width: rows of mean 1e4
// and unit spread, rows whose first pack is far from their mean, rows of 10^6 elements, constant
// rows (exactly beta), NaN and infinities (confined to their row), zero rows and columns (nothing
// written), gamma off alignment, and arguments that must raise rowfuse::error. Tolerances:
// norm_support.cuh.
#include <limits>

#include "norm_support.cuh"

namespace {

using norm_test::layernorm_op;
using norm_test::layout;
using norm_test::rmsnorm_op;
using buffers = norm_test::shape_buffers<float, float, float, float>;

constexpr float inf = std::numeric_limits<float>::infinity();
constexpr float qnan = std::numeric_limits<float>::quiet_NaN();

auto const gamma_beta = [](auto const* g, auto const* b) { return rf::affine(g, b); };
auto const gamma_only = [](auto const* g, auto const*) { return rf::affine(g); };

/// Replaces row i of the view with f(i, j) (rounded to the input type) and uploads the input.
template <class Buffers, class F> void set_rows(Buffers& b, F f) {
  using input_t = typename decltype(b.x.host)::value_type;
  for (long i = 0; i < b.rows; ++i)
    for (long j = 0; j < b.cols; ++j)
      b.x.host[std::size_t(b.l.offset + i * b.l.ld + j)] = rf::detail::narrow<input_t>(f(i, j));
  b.x.upload();
}

} // namespace

TEST_CASE("rows of mean 1e4 and standard deviation 1: fp32 within 1e-5 on every engine") {
  // x - mean must keep the digits of the spread: a plain fp32 mean would be off by up to half
  // an ulp of 1e4 (4.9e-4 standard deviations), some fifty times the tolerance near zero.
  std::mt19937 rng(61);
  std::normal_distribution<float> unit(0.0f, 1.0f);
  for (long cols : {1L, 7L, 32L, 33L, 1000L, 1024L, 4096L, 12288L, 40000L, 100003L}) {
    for (layout const l : {layout{cols, 0}, layout{cols + 3, 1}}) {
      long const rows = test::small_mode() ? std::max(2L, std::min(64L, (1L << 14) / cols))
                                           : std::max(4L, std::min(2000L, (1L << 19) / cols));
      CAPTURE(cols);
      CAPTURE(l.offset);
      buffers b(rows, cols, l, rng);
      // Row means from 1e4 to 2.2e4 (two binades, two ulps), and one row at -1e4.
      set_rows(b, [&](long i, long) {
        float const centre = i == 1 ? -1e4f : 1e4f * (1.0f + float(i % 7) * 0.2f);
        return centre + unit(rng);
      });
      norm_test::check_shape<layernorm_op>(b, gamma_beta);
      norm_test::check_shape<rmsnorm_op>(b, gamma_only);
    }
  }
}

TEST_CASE("rows whose first pack is far from their mean: layernorm within tolerance everywhere") {
  // 16-bit rows the register engine reads back from staging (here 40000 and 70000 columns, on
  // the 40960- and 81920-column rows of the op alone), and group rows whose threads hold 32
  // values (4 packs of 8 a lane: on the H200 the 16-bit rows here at 48-1000), sum the deviations
  // about the mean c of each row's first pack in one pass, and take a second pass where c is too
  // far from the mean for the one-pass variance (op/norm.cuh: F = 1 + (c - mean)^2 / var > 4;
  // on group rows every row of the warp takes it then); every other plan takes two passes on the
  // same rows. Rows of unit normal
  // noise about 0 or 1e3, their first 8 elements k standard deviations above it (k = 1.5: F about
  // 3.25, one pass; k = 2: F about 5, two; k = 40), or their first element alone 60 above. Off the
  // grid (phased rows) the centre is the mean of the row's first whole pack, which starts within
  // its first 8 columns: there the first 16 elements are moved, so that the pack is.
  std::mt19937 rng(65);
  std::normal_distribution<float> unit(0.0f, 1.0f);
  float const offsets[] = {0.0f, 1.5f, 2.0f, 40.0f};
  long far_columns = 8;
  auto const value = [&](long i, long j) {
    float const mean = (i / 5) % 2 == 1 ? 1e3f : 0.0f;
    long const kind = i % 5;
    if (kind == 4)
      return mean + (j == 0 ? 60.0f : unit(rng));
    return mean + (j < far_columns ? offsets[kind] : unit(rng));
  };
  for (long cols : {48L, 64L, 128L, 256L, 1000L, 4096L, 12288L, 40000L, 70000L}) {
    for (layout const l : {layout{cols, 0}, layout{cols + 3, 1}}) {
      far_columns = l.offset == 0 ? 8 : 16;
      long const rows = test::small_mode() ? 10 : std::max(20L, std::min(200L, (1L << 20) / cols));
      CAPTURE(cols);
      CAPTURE(l.offset);
      buffers b(rows, cols, l, rng);
      set_rows(b, value);
      norm_test::check_shape<layernorm_op>(b, gamma_beta);
      norm_test::shape_buffers<__half, __half, __half, __half> b16(rows, cols, l, rng);
      set_rows(b16, value);
      norm_test::check_shape<layernorm_op>(b16, gamma_beta);
    }
  }
}

TEST_CASE("rows of 10^6 elements: fp32 within 1e-5 on every engine that runs them") {
  // Long sums: the streaming engines add one pack at a time per thread (~500 merges a thread
  // here), then merge threads by pairs. Row 2 is sorted (the running mean moves all along);
  // row 3 repeats a pattern and row 4 one value (the same rounding again and again: the worst
  // case of rmsnorm's running sum of squares; a constant row for layernorm).
  std::mt19937 rng(62);
  long const cols = 1000000, rows = 5;
  for (layout const l : {layout{cols, 0}, layout{cols + 3, 1}}) {
    CAPTURE(l.offset);
    buffers b(rows, cols, l, rng);
    std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
    std::normal_distribution<float> unit(0.0f, 1.0f);
    set_rows(b, [&](long i, long j) {
      switch (i) {
      case 0:
        return uniform(rng);
      case 1:
        return 1e4f + unit(rng);
      case 2:
        return -3.0f + 6.0f * float(j) / float(cols);
      case 3:
        return j % 3 == 0 ? 0.3f : -0.1f;
      default:
        return 0.1f;
      }
    });
    norm_test::check_shape<layernorm_op>(b, gamma_beta);
    norm_test::check_shape<rmsnorm_op>(b, gamma_only);
  }
}

TEST_CASE("constant rows give exactly beta, mean exactly the value, rstd 1 / sqrt(eps)") {
  std::mt19937 rng(63);
  float const values[] = {0.0f, 1.0f, -3.25f, 1e4f, 1.2345e-3f, -7e5f};
  long const rows = std::size(values);
  float const expected_rstd = float(1.0 / std::sqrt(double(layernorm_op::eps)));
  for (long cols : {1L, 2L, 7L, 33L, 64L, 1000L, 3000L, 12288L, 40000L, 100003L}) {
    CAPTURE(cols);
    buffers b(rows, cols, layout{cols, 0}, rng);
    set_rows(b, [&](long i, long) { return values[i]; });
    test::mirrored<float> bias{std::size_t(cols)};
    std::fill(bias.host.begin(), bias.host.end(), 0.1f);
    bias.upload();
    test::mirrored<__half> y16{std::size_t(rows * cols)};
    test::for_each_plan([&](rf::launch_options options) {
      test::poison(b.y.host);
      b.y.upload();
      test::poison(b.mean.host);
      b.mean.upload();
      test::poison(b.rstd.host);
      b.rstd.upload();
      auto const affine =
          rf::affine(static_cast<float const*>(b.gamma.d()), static_cast<float const*>(b.beta.d()));
      rf::plan const p = rf::layernorm(rf::load(static_cast<float const*>(b.x.d()), rows, cols),
                                       rf::store(b.y.d()), affine, layernorm_op::eps, nullptr,
                                       rf::row_stats{b.mean.d(), b.rstd.d()}, options);
      if (options.dry_run)
        return p;
      // Still constant after a load chain, whatever rounding it does: fp16 out is beta rounded.
      // A plan forced on the op alone that the chain refuses (its dry run says why) gives way to
      // the chain's own.
      test::poison(y16.host);
      y16.upload();
      auto const chain = [&](rf::launch_options chain_options) {
        return rf::layernorm(rf::load(static_cast<float const*>(b.x.d()), rows, cols) |
                                 rf::scale(0.7f) | rf::bias(static_cast<float const*>(bias.d())),
                             rf::store(y16.d()), affine, layernorm_op::eps, nullptr, {},
                             chain_options);
      };
      bool const runs_forced = chain({options.engine, options.pack, true}).refused.empty();
      chain(runs_forced ? options : rf::launch_options{});
      test::sync_and_check();
      INFO(rf::explain(p));
      auto const y = b.y.download(), mean = b.mean.download(), rstd = b.rstd.download();
      auto const h = y16.download();
      long wrong = 0, wrong16 = 0;
      for (long i = 0; i < rows; ++i) {
        CAPTURE(i);
        CAPTURE(rstd[std::size_t(i)]);
        CHECK(mean[std::size_t(i)] == values[i]);
        // The centred sums of a constant row are exact, so its variance is exactly 0 and rstd
        // is rsqrtf(eps) (2 ulps of 1 / sqrt(eps)).
        CHECK(std::fabs(rstd[std::size_t(i)] - expected_rstd) <= 0x1p-21 * expected_rstd);
        for (long j = 0; j < cols; ++j) {
          float const beta = b.beta.host[std::size_t(j)];
          wrong += y[std::size_t(i * cols + j)] != beta;
          wrong16 += rf::detail::widen<float>(h[std::size_t(i * cols + j)]) !=
                     rf::detail::widen<float>(rf::detail::narrow<__half>(beta));
        }
      }
      CHECK(wrong == 0);
      CHECK(wrong16 == 0);
      return p;
    });
  }
}

TEST_CASE("NaN and infinities stay in their row") {
  // layernorm: a row with NaN or an infinity is NaN (inf - inf); rmsnorm: a NaN row is NaN, a
  // row with an infinity has rstd 0 (0 for the finite elements, NaN for the infinite one).
  std::mt19937 rng(64);
  for (long cols : {5L, 64L, 1000L, 3000L, 20000L, 70000L}) {
    CAPTURE(cols);
    long const rows = 7;
    buffers b(rows, cols, layout{cols, 0}, rng);
    std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
    set_rows(b, [&](long i, long j) {
      if (i == 1 && j == cols / 2)
        return qnan;
      if (i == 2 && j == cols / 3)
        return inf;
      if (i == 3 && j == cols - 1)
        return -inf;
      if (i == 4 && j == 0)
        return inf; // the first element: the shift of its part
      if (i == 5)
        return qnan;
      return uniform(rng);
    });
    norm_test::check_shape<layernorm_op>(b, gamma_beta);
    norm_test::check_shape<rmsnorm_op>(b, gamma_only);
  }
}

TEST_CASE("zero rows and zero columns launch nothing and write nothing") {
  thrust::device_vector<float> x(16, 1.0f), y(16, 5.0f), stats(4, 5.0f), gamma(16, 1.0f);
  auto const xp = static_cast<float const*>(thrust::raw_pointer_cast(x.data()));
  auto const gp = static_cast<float const*>(thrust::raw_pointer_cast(gamma.data()));
  float* const yp = thrust::raw_pointer_cast(y.data());
  float* const sp = thrust::raw_pointer_cast(stats.data());
  float const eps = 1e-5f;
  rf::plan p = rf::layernorm(rf::load(xp, 0, 16), rf::store(yp), rf::affine(gp, gp), eps, nullptr,
                             rf::row_stats{sp, sp + 1});
  CHECK(p.grid == 0);
  CHECK(p.engine == rf::engine_kind::automatic);
  p = rf::layernorm(rf::load(xp, 4, 0), rf::store(yp), rf::affine(gp, gp), eps, nullptr,
                    rf::row_stats{sp, sp + 1});
  CHECK(p.grid == 0);
  p = rf::rmsnorm(rf::load(xp, 0, 16), rf::store(yp), rf::affine(gp), eps, nullptr, sp + 2);
  CHECK(p.grid == 0);
  p = rf::rmsnorm(rf::load(static_cast<float const*>(nullptr), 0, 16),
                  rf::store(static_cast<float*>(nullptr)), rf::affine(gp), eps, nullptr, nullptr);
  CHECK(p.grid == 0);
  test::sync_and_check();
  std::vector<float> host(16);
  thrust::copy(y.begin(), y.end(), host.begin());
  for (float v : host)
    CHECK(v == 5.0f);
  thrust::copy(stats.begin(), stats.end(), host.begin());
  for (int i = 0; i < 4; ++i)
    CHECK(host[std::size_t(i)] == 5.0f);
}

TEST_CASE("gamma off alignment: phased packs, same results") {
  // x and y allow packs of 4, gamma and beta (one element in) do not: the op must say so, and the
  // call runs phased (x and y in packs, gamma and beta read off their grid).
  std::mt19937 rng(65);
  long const rows = 16, cols = 1024;
  buffers b(rows, cols, layout{cols, 0}, rng);
  test::mirrored<float> gamma(std::size_t(cols + 1)), beta(std::size_t(cols + 1));
  test::fill_uniform(gamma.host, rng, -1.5f, 1.5f);
  test::fill_uniform(beta.host, rng, -1.0f, 1.0f);
  gamma.upload();
  beta.upload();
  auto const exact = rf::reference::layernorm(
      rf::load(b.x.h(), rows, cols), rf::store(b.y_ref.h()),
      rf::affine(static_cast<float const*>(gamma.h(1)), static_cast<float const*>(beta.h(1))),
      layernorm_op::eps);
  test::poison(b.y.host);
  b.y.upload();
  rf::plan const p = rf::layernorm(
      rf::load(static_cast<float const*>(b.x.d()), rows, cols), rf::store(b.y.d()),
      rf::affine(static_cast<float const*>(gamma.d(1)), static_cast<float const*>(beta.d(1))),
      layernorm_op::eps);
  test::sync_and_check();
  INFO(rf::explain(p));
  CHECK(p.pack == 4);
  CHECK(p.phased);
  CHECK_MATCHES(norm_test::compare(b.y.download(), exact, rows, cols, cols, 0,
                                   norm_test::absolute_term(exact)));
}

TEST_CASE("bad arguments and impossible forced plans raise rowfuse::error") {
  thrust::device_vector<float> x(64, 1.0f), y(64), g(65, 1.0f);
  auto const xp = static_cast<float const*>(thrust::raw_pointer_cast(x.data()));
  auto const gp = static_cast<float const*>(thrust::raw_pointer_cast(g.data()));
  float* const yp = thrust::raw_pointer_cast(y.data());
  auto mentions = [](std::string const& text, std::initializer_list<char const*> parts) {
    INFO(text);
    for (char const* part : parts)
      CHECK(text.find(part) != std::string::npos);
  };
  auto const load = rf::load(xp, 4, 16);
  auto const store = rf::store(yp);
  for (float eps : {0.0f, -1.0f, qnan, inf}) {
    CAPTURE(eps);
    mentions(test::error_message([&] { rf::layernorm(load, store, rf::affine(gp, gp), eps); }),
             {"rf::layernorm", "eps"});
    mentions(test::error_message([&] { rf::rmsnorm(load, store, rf::affine(gp), eps); }),
             {"rf::rmsnorm", "eps"});
  }
  mentions(test::error_message([&] { rf::rmsnorm(load, store, rf::affine(gp, gp), 1e-5f); }),
           {"rf::rmsnorm", "beta", "no shift"});
  mentions(test::error_message([&] {
             rf::layernorm(load, store, rf::affine(static_cast<float const*>(nullptr), gp), 1e-5f);
           }),
           {"rf::layernorm", "gamma", "null pointer"});
  mentions(test::error_message([&] {
             rf::rmsnorm(load, store, rf::zero_centered_gamma(static_cast<float const*>(nullptr)),
                         1e-5f);
           }),
           {"rf::rmsnorm", "gamma", "null pointer"});
  // gamma one element off alignment cannot take the forced vector packs.
  mentions(test::error_message([&] {
             rf::layernorm(load, store, rf::affine(gp + 1, gp), 1e-5f, nullptr, {},
                           {rf::engine_kind::automatic, 4});
           }),
           {"rf::layernorm", "pack = 4"});
  mentions(test::error_message([&] {
             rf::rmsnorm(rf::load(xp, 1, 5000), store, rf::affine(gp), 1e-5f, nullptr, nullptr,
                         {rf::engine_kind::warp_rows, 0});
           }),
           {"rf::rmsnorm", "cannot run cols = 5000"});
  test::sync_and_check();
}
