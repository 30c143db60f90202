// layernorm and rmsnorm backward: every width of the grid, fp32/fp16/bf16 x, dy and dx (and
// mixed), without affine, with gamma (and beta), with zero-centred gamma; dense and with
// ld > cols and every view one element off its alignment; the automatic plan and every engine
// forced. dx, dgamma and dbeta poisoned before every run and checked against the double
// reference of backward_support.cuh; dgamma and dbeta must be the same bits on every engine and
// pack path and on a second run of the automatic plan; the workspace pool keeps its memory.
#include <cstdint>
#include <cstring>
#include <span>

#include "backward_support.cuh"
#include "width_grid.hpp"

namespace {

/// Rows: enough for several 16-row chunks of dgamma partials (rf::op::norm_chunk_rows_log2: 16
/// rows where they leave fewer than 128 chunks of 32), a last chunk cut short (rows not a multiple
/// of 16), and ~2^20 elements at most; many_rows for chunks of 32 to 256 rows.
long rows_for(long cols) {
  if (test::small_mode())
    return std::max(2L, std::min(70L, (1L << 14) / cols));
  return std::max(3L, std::min(3001L, (1L << 20) / cols));
}

struct layout {
  long ld, offset;
};

enum class affine_kind { none, gamma_beta, gamma, zero_centered };

template <class T, class Dist>
void fill_view(std::vector<T>& v, long rows, long cols, long ld, long offset, std::mt19937& rng,
               Dist dist) {
  std::fill(v.begin(), v.end(), rf::detail::narrow<T>(std::nanf("")));
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      v[std::size_t(offset + i * ld + j)] = rf::detail::narrow<T>(dist(rng));
}

/// Checks one call under every plan; returns the automatic plan.
template <bool centered, class In, class Grad, class Out, class G>
rf::plan check_case(affine_kind kind, long cols, layout l, std::mt19937& rng, long rows) {
  CAPTURE(centered);
  CAPTURE(int(kind));
  CAPTURE(cols);
  CAPTURE(rows);
  CAPTURE(l.ld);
  CAPTURE(l.offset);
  std::size_t const size = std::size_t(l.offset + rows * l.ld);
  test::mirrored<In> x(size);
  test::mirrored<Grad> dy(size);
  test::mirrored<Out> dx(size);
  test::mirrored<G> gamma(std::size_t(l.offset + cols)), beta(std::size_t(l.offset + cols));
  test::mirrored<float> mean(static_cast<std::size_t>(rows)), rstd(static_cast<std::size_t>(rows));
  test::mirrored<float> dgamma(std::size_t(cols + 1)), dbeta(std::size_t(cols + 1));
  fill_view(x.host, rows, cols, l.ld, l.offset, rng,
            std::uniform_real_distribution<float>(-4.0f, 4.0f));
  fill_view(dy.host, rows, cols, l.ld, l.offset, rng,
            std::uniform_real_distribution<float>(-1.0f, 1.0f));
  fill_view(gamma.host, 1, cols, cols, l.offset, rng,
            std::uniform_real_distribution<float>(-1.5f, 1.5f));
  fill_view(beta.host, 1, cols, cols, l.offset, rng,
            std::uniform_real_distribution<float>(-1.0f, 1.0f));
  // The forward's saved statistics: the exact ones rounded to fp32.
  auto const xs = bwd_test::values(rf::load(x.h(l.offset), rows, cols, l.ld));
  auto const dys = bwd_test::values(rf::load(dy.h(l.offset), rows, cols, l.ld));
  for (long r = 0; r < rows; ++r) {
    double m = 0.0, q = 0.0;
    for (long c = 0; c < cols; ++c)
      m += xs[std::size_t(r * cols + c)];
    m = centered ? m / double(cols) : 0.0;
    for (long c = 0; c < cols; ++c)
      q += (xs[std::size_t(r * cols + c)] - m) * (xs[std::size_t(r * cols + c)] - m);
    mean.host[std::size_t(r)] = float(m);
    rstd.host[std::size_t(r)] = float(1.0 / std::sqrt(q / double(cols) + 1e-5));
  }
  x.upload();
  dy.upload();
  gamma.upload();
  beta.upload();
  mean.upload();
  rstd.upload();
  std::vector<double> gammas;
  if (kind != affine_kind::none)
    for (long c = 0; c < cols; ++c)
      gammas.push_back(rf::detail::widen<double>(gamma.host[std::size_t(l.offset + c)]));
  auto const want =
      bwd_test::norm_backward(centered, xs, dys, gammas, kind == affine_kind::zero_centered,
                              mean.host, rstd.host, rows, cols);
  bool const wants_dgamma = kind != affine_kind::none;
  bool const wants_dbeta = centered;

  std::vector<float> first_dgamma, first_dbeta;
  auto const launch = [&](rf::launch_options options) {
    test::poison(dx.host);
    dx.upload();
    test::poison(dgamma.host);
    dgamma.upload();
    test::poison(dbeta.host);
    dbeta.upload();
    auto const xl = rf::load(static_cast<In const*>(x.d(l.offset)), rows, cols, l.ld);
    auto const gl = rf::load(static_cast<Grad const*>(dy.d(l.offset)), rows, cols, l.ld);
    auto const store = rf::store(dx.d(l.offset), l.ld);
    rf::affine_grads const grads{wants_dgamma ? dgamma.d() : nullptr,
                                 wants_dbeta ? dbeta.d() : nullptr};
    G const* g = gamma.d(l.offset);
    auto const call = [&](auto const& affine) {
      if constexpr (centered)
        return rf::layernorm_backward(xl, gl, store, affine, rf::row_stats{mean.d(), rstd.d()},
                                      grads, nullptr, options);
      else
        return rf::rmsnorm_backward(xl, gl, store, affine, rstd.d(), grads, nullptr, options);
    };
    rf::plan p;
    switch (kind) {
    case affine_kind::none:
      p = call(rf::no_affine);
      break;
    case affine_kind::gamma_beta: // layernorm only
      if constexpr (centered)
        p = call(rf::affine(g, static_cast<G const*>(beta.d(l.offset))));
      break;
    case affine_kind::gamma:
      p = call(rf::affine(g));
      break;
    case affine_kind::zero_centered:
      p = call(rf::zero_centered_gamma(g));
      break;
    }
    if (options.dry_run)
      return p;
    test::sync_and_check();
    INFO(rf::explain(p));
    CHECK_MATCHES(bwd_test::compare(dx.download(), want.dx, rows, cols, l.ld, l.offset));
    auto const check_sums = [&](test::mirrored<float> const& sums, std::vector<double> const& exact,
                                std::vector<double> const& slack, std::vector<float>& first) {
      auto const got = sums.download();
      CHECK_MATCHES(bwd_test::compare_sums(got, exact, slack, cols));
      if (first.empty())
        first = got;
      else // the same bits on every engine, pack path and run
        CHECK(std::memcmp(first.data(), got.data(), std::size_t(cols) * sizeof(float)) == 0);
    };
    if (wants_dgamma)
      check_sums(dgamma, want.dgamma, want.dgamma_slack, first_dgamma);
    if (wants_dbeta)
      check_sums(dbeta, want.dbeta, want.dbeta_slack, first_dbeta);
    return p;
  };
  test::for_each_plan(launch);
  return launch(rf::launch_options{}); // a second run of the automatic plan
}

/// Every width in two layouts; the affine variant rotates with the width and layout (rmsnorm has
/// no beta, so its rotation skips gamma_beta).
template <bool centered, class In, class Grad, class Out, class G> void check_all(unsigned seed) {
  std::mt19937 rng(seed);
  affine_kind const layernorm_kinds[] = {affine_kind::none, affine_kind::gamma_beta,
                                         affine_kind::gamma, affine_kind::zero_centered};
  affine_kind const rmsnorm_kinds[] = {affine_kind::none, affine_kind::gamma,
                                       affine_kind::zero_centered};
  int i = 0;
  for (long cols : test::shape_widths()) {
    for (layout const l : {layout{cols, 0}, layout{cols + 3, 1}}) {
      ++i;
      affine_kind const kind = centered ? layernorm_kinds[i % 4] : rmsnorm_kinds[i % 3];
      check_case<centered, In, Grad, Out, G>(kind, cols, l, rng, rows_for(cols));
    }
  }
}

/// Row counts whose chunks are 32, 64 and 256 rows (rf::op::norm_chunk_rows_log2), none a multiple
/// of its chunk (the last chunk ends early on every engine), at narrow widths where every engine
/// walks many chunks a row processor.
template <bool centered, class In, class Grad, class Out, class G>
void check_many_rows(unsigned seed) {
  std::mt19937 rng(seed);
  struct many_rows_case {
    long rows, cols, chunk;
  };
  // Narrow rows cut into at most 16384 chunks (rf::op::norm_chunk_target): 3.7, 4.2 and 16.8
  // million elements; the small mode (sanitizers) takes one column and chunks of 32 rows.
  many_rows_case const cases[] = {
      {(1L << 19) + 17, 7, 32}, {(1L << 20) + 45, 4, 64}, {(1L << 22) + 3, 4, 256}};
  many_rows_case const small_cases[] = {{(1L << 19) + 17, 1, 32}};
  for (auto const c : test::small_mode() ? std::span<many_rows_case const>(small_cases)
                                         : std::span<many_rows_case const>(cases)) {
    REQUIRE((1L << rf::op::norm_chunk_rows_log2(c.rows, c.cols)) == c.chunk);
    REQUIRE(c.rows % c.chunk != 0);
    check_case<centered, In, Grad, Out, G>(centered ? affine_kind::gamma_beta : affine_kind::gamma,
                                           c.cols, layout{c.cols, 0}, rng, c.rows);
  }
}

} // namespace

TEST_CASE("layernorm_backward and rmsnorm_backward, chunks of 32 to 256 rows, the last cut short") {
  check_many_rows<true, __half, __half, __half, __half>(205);
  check_many_rows<false, float, float, float, float>(206);
}
/// Every view one element off the 16-byte grid and ld = cols + 1, so that each row starts at
/// another phase: the automatic plan runs phased rows (engine/phased_row.cuh) on block rows and
/// on cluster rows, fp32 at every width here, 16-bit but on the cluster rows to 32768 columns
/// (tuning::gradient_16bit: single elements there), its dgamma and dbeta the bits of single
/// elements and of every other plan (check_case).
TEST_CASE("layernorm_backward and rmsnorm_backward off the 16-byte grid run phased rows") {
  std::mt19937 rng(207);
  struct width {
    long cols;
    bool phased_16bit;
  };
  width const widths[] = {{1000, true},   {3000, true},  {8191, false},
                          {16383, false}, {50257, true}, {100003, true}};
  width const small_widths[] = {{1000, true}, {8191, false}};
  for (width const w :
       test::small_mode() ? std::span<width const>(small_widths) : std::span<width const>(widths)) {
    layout const off_grid{w.cols + 1, 1};
    rf::plan const half = check_case<true, __half, __half, __half, __half>(
        affine_kind::gamma_beta, w.cols, off_grid, rng, rows_for(w.cols));
    CHECK(half.phased == w.phased_16bit);
    CHECK(half.pack == (w.phased_16bit ? 8 : 1));
    rf::plan const single = check_case<false, float, float, float, float>(
        affine_kind::gamma, w.cols, off_grid, rng, rows_for(w.cols));
    CHECK(single.phased);
    CHECK(single.pack == 4);
  }
}
TEST_CASE("layernorm_backward fp32, every width and engine, dgamma/dbeta bit-identical") {
  check_all<true, float, float, float, float>(201);
}
TEST_CASE("layernorm_backward bf16 x and dy, bf16 dx, fp32 gamma, every width and engine") {
  check_all<true, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float>(202);
}
TEST_CASE("rmsnorm_backward fp16 x and dy, fp16 dx and gamma, every width and engine") {
  check_all<false, __half, __half, __half, __half>(203);
}
TEST_CASE("rmsnorm_backward fp16 x, fp32 dy and dx, bf16 gamma, every width and engine") {
  check_all<false, __half, float, float, __nv_bfloat16>(204);
}
TEST_CASE("the workspace comes from one pool per device, which keeps its memory between calls") {
  int device = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  cudaMemPool_t const pool = rf::detail::workspace_pool(device);
  REQUIRE(pool != nullptr);
  CHECK(rf::detail::workspace_pool(device) == pool);
  long const rows = 4096, cols = 1024;
  std::size_t const elements = std::size_t(rows * cols), width = std::size_t(cols);
  thrust::device_vector<float> x(elements, 0.5f), dy(elements, 0.25f), dx(elements);
  thrust::device_vector<float> gamma(width, 1.0f), rstd(std::size_t(rows), 1.0f), dgamma(width);
  for (int call = 0; call < 2; ++call) {
    rf::rmsnorm_backward(rf::load(x.data().get(), rows, cols),
                         rf::load(dy.data().get(), rows, cols), rf::store(dx.data().get()),
                         rf::affine(gamma.data().get()), rstd.data().get(),
                         rf::affine_grads{dgamma.data().get()});
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    // Synchronised, with nothing allocated: the default pool would have handed the memory back.
    std::uint64_t reserved = 0, used = 0;
    REQUIRE(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) ==
            cudaSuccess);
    REQUIRE(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess);
    CHECK(used == 0);
    CHECK(reserved >= std::uint64_t(cols) * sizeof(float) * 128); // at least 128 chunk rows
  }
}
