// The forward's dropout in the backward ops, both ways a backward can apply it: replayed from
// (seed, offset) with rf::dropout, or through the keep mask the forward stored, with
// rf::apply_keep_mask. On the load side: softmax's dy, the forward having dropped its output. On
// the store side: the residual block, layernorm_backward whose dx also flows to the residual branch
// (a store-side rf::tee) and, through the forward's load-side dropout, to the branch before it.
// Every width of a grid of odd and even ones, dense and with ld > cols and every view one element
// off its alignment, fp32/fp16/bf16, the automatic plan and every engine forced. The two ways give
// the same bits on every plan, and both match the double reference of backward_support.cuh.
#include <cstdint>
#include <cstring>
#include <span>

#include "backward_support.cuh"

namespace {

constexpr long all_widths[] = {1,    7,    33,    128,   513,   1000,  2049,
                               4096, 8192, 16385, 32768, 40000, 100003};
constexpr long small_widths[] = {1, 33, 1000, 8192, 16385, 100003};

std::span<long const> widths() {
  if (test::small_mode())
    return small_widths;
  return all_widths;
}

long rows_for(long cols) {
  if (test::small_mode())
    return std::max(2L, std::min(40L, (1L << 14) / cols));
  return std::max(3L, std::min(1001L, (1L << 19) / cols));
}

/// A view's placement: ld and the element offset of its first element (1 = off alignment).
struct layout {
  long ld, offset;
};

constexpr layout layouts_for(long cols, int i) {
  return i == 0 ? layout{cols, 0} : layout{cols + 3, 1};
}

float const drop_p = 0.25f; // 1 / (1 - p) = 4/3: not a float, so the scale's rounding shows
std::uint64_t const drop_seed = 2026, drop_offset = 4242;

/// [rows, cols] at `offset` with stride ld from `dist`, the padding NaN (a kernel that read it
/// would show).
template <class T, class Dist>
void fill_view(std::vector<T>& v, long rows, long cols, long ld, long offset, std::mt19937& rng,
               Dist dist) {
  std::fill(v.begin(), v.end(), rf::detail::narrow<T>(std::nanf("")));
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      v[std::size_t(offset + i * ld + j)] = rf::detail::narrow<T>(dist(rng));
}

/// Softmax rows of random logits in [-4, 4) rounded to T, the padding NaN.
template <class T>
void fill_softmax_output(std::vector<T>& v, long rows, long cols, long ld, long offset,
                         std::mt19937& rng) {
  std::fill(v.begin(), v.end(), rf::detail::narrow<T>(std::nanf("")));
  std::uniform_real_distribution<double> logit(-4.0, 4.0);
  std::vector<double> z(static_cast<std::size_t>(cols));
  for (long r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0.0;
    for (auto& x : z)
      m = std::max(m, x = logit(rng));
    for (double x : z)
      s += std::exp(x - m);
    for (long c = 0; c < cols; ++c)
      v[std::size_t(offset + r * ld + c)] =
          rf::detail::narrow<T>(float(std::exp(z[std::size_t(c)] - m) / s));
  }
}

/// The keep mask rf::dropout(drop_p, drop_seed, drop_offset) stores for [rows, cols], 1 kept, 0
/// dropped, at `offset` with stride ld (its generator's rule: the node's own draw on the host).
/// The padding holds 1.
void fill_keep_mask(std::vector<std::uint8_t>& mask, long rows, long cols, long ld, long offset) {
  std::fill(mask.begin(), mask.end(), std::uint8_t(1));
  auto const node = rf::dropout(drop_p, drop_seed, drop_offset).bind("test", rows, cols);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      mask[std::size_t(offset + r * ld + c)] = std::uint8_t(node.draw<1>(r, c, cols) & 1u);
}

/// Whether two downloads are the same bits.
template <class T> bool same_bits(std::vector<T> const& a, std::vector<T> const& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

/// Whether two plans run the same kernel shape, so that every row is summed in the same order (the
/// grid may differ: a persistent grid follows each kernel's occupancy, and no row's arithmetic
/// depends on it).
bool same_shape(rf::plan const& a, rf::plan const& b) {
  return a.engine == b.engine && a.pack == b.pack && a.shape == b.shape && a.packs == b.packs &&
         a.group == b.group && a.block_threads == b.block_threads &&
         a.cluster_blocks == b.cluster_blocks;
}

// ---- the load side: softmax_backward with dy through the forward's store-side dropout --------

template <class Y, class DY, class DX> void check_softmax(long cols, layout l, std::mt19937& rng) {
  long const rows = rows_for(cols);
  CAPTURE(cols);
  CAPTURE(rows);
  CAPTURE(l.ld);
  CAPTURE(l.offset);
  std::size_t const size = std::size_t(l.offset + rows * l.ld);
  test::mirrored<Y> y(size);
  test::mirrored<DY> dy(size);
  test::mirrored<std::uint8_t> keep(size);
  test::mirrored<DX> dx_replayed(size), dx_stored(size);
  fill_softmax_output(y.host, rows, cols, l.ld, l.offset, rng);
  fill_view(dy.host, rows, cols, l.ld, l.offset, rng,
            std::uniform_real_distribution<float>(-1.0f, 1.0f));
  fill_keep_mask(keep.host, rows, cols, l.ld, l.offset);
  y.upload();
  dy.upload();
  keep.upload();
  auto const replayed_dy = bwd_test::values(rf::load(dy.h(l.offset), rows, cols, l.ld) |
                                            rf::dropout(drop_p, drop_seed, drop_offset));
  // The stored mask's chain gives the replayed one's values on the host, exactly.
  REQUIRE(bwd_test::values(rf::load(dy.h(l.offset), rows, cols, l.ld) |
                           rf::apply_keep_mask(keep.h(l.offset), drop_p, l.ld)) == replayed_dy);
  auto const want = bwd_test::softmax_backward(
      false, bwd_test::values(rf::load(y.h(l.offset), rows, cols, l.ld)), replayed_dy, rows, cols);
  test::for_each_plan([&](rf::launch_options options) {
    test::poison(dx_replayed.host);
    dx_replayed.upload();
    test::poison(dx_stored.host);
    dx_stored.upload();
    auto const y_load = rf::load(static_cast<Y const*>(y.d(l.offset)), rows, cols, l.ld);
    auto const dy_load = rf::load(static_cast<DY const*>(dy.d(l.offset)), rows, cols, l.ld);
    rf::plan const replayed =
        rf::softmax_backward(y_load, dy_load | rf::dropout(drop_p, drop_seed, drop_offset),
                             rf::store(dx_replayed.d(l.offset), l.ld), nullptr, options);
    rf::plan const stored = rf::softmax_backward(
        y_load,
        dy_load |
            rf::apply_keep_mask(static_cast<std::uint8_t const*>(keep.d(l.offset)), drop_p, l.ld),
        rf::store(dx_stored.d(l.offset), l.ld), nullptr, options);
    if (options.dry_run)
      return stored;
    test::sync_and_check();
    INFO(rf::explain(stored));
    CHECK(same_shape(stored, replayed));
    auto const got = dx_stored.download();
    CHECK_MATCHES(bwd_test::compare(got, want, rows, cols, l.ld, l.offset));
    CHECK(same_bits(got, dx_replayed.download()));
    return stored;
  });
}

template <class Y, class DY, class DX> void check_softmax_all(unsigned seed) {
  std::mt19937 rng(seed);
  for (long cols : widths())
    for (int i : {0, 1})
      check_softmax<Y, DY, DX>(cols, layouts_for(cols, i), rng);
}

// ---- the store side: the residual block's backward as one layernorm_backward ------------------

/// The forward h = dropout(branch) + residual, y = layernorm(h), run on the GPU with the keep mask,
/// h (tee'd) and the row statistics stored; then dh = layernorm_backward(h, dy) written to
/// d_residual by a store-side tee, and d_branch = dh * keep / (1 - p) by the store-side dropout
/// replayed from the forward's (seed, offset) and, in a second call, by rf::apply_keep_mask with
/// the forward's stored mask.
template <class T, class G> void check_residual_block(long cols, layout l, std::mt19937& rng) {
  long const rows = rows_for(cols);
  CAPTURE(cols);
  CAPTURE(rows);
  CAPTURE(l.ld);
  CAPTURE(l.offset);
  std::size_t const size = std::size_t(l.offset + rows * l.ld);
  test::mirrored<T> branch(size), residual(size), h(size), y(size), dy(size);
  test::mirrored<std::uint8_t> keep(size);
  test::mirrored<G> gamma(std::size_t(l.offset + cols)), beta(std::size_t(l.offset + cols));
  test::mirrored<float> mean(static_cast<std::size_t>(rows)), rstd(static_cast<std::size_t>(rows));
  test::mirrored<T> d_branch(size), d_residual(size), d_branch_stored(size),
      d_residual_stored(size);
  test::mirrored<float> dgamma(std::size_t(cols + 1)), dbeta(std::size_t(cols + 1));
  std::uniform_real_distribution<float> const operand(-2.0f, 2.0f);
  fill_view(branch.host, rows, cols, l.ld, l.offset, rng, operand);
  fill_view(residual.host, rows, cols, l.ld, l.offset, rng, operand);
  fill_view(dy.host, rows, cols, l.ld, l.offset, rng,
            std::uniform_real_distribution<float>(-1.0f, 1.0f));
  fill_view(gamma.host, 1, cols, cols, l.offset, rng,
            std::uniform_real_distribution<float>(-1.5f, 1.5f));
  fill_view(beta.host, 1, cols, cols, l.offset, rng,
            std::uniform_real_distribution<float>(-1.0f, 1.0f));
  std::fill(keep.host.begin(), keep.host.end(), std::uint8_t(7)); // neither 0 nor 1
  for (auto* v : {&branch, &residual, &dy})
    v->upload();
  gamma.upload();
  beta.upload();
  keep.upload();
  auto const affine =
      rf::affine(static_cast<G const*>(gamma.d(l.offset)), static_cast<G const*>(beta.d(l.offset)));

  rf::layernorm(
      rf::load(static_cast<T const*>(branch.d(l.offset)), rows, cols, l.ld) |
          rf::dropout(drop_p, drop_seed, drop_offset, keep.d(l.offset), l.ld) |
          rf::add(static_cast<T const*>(residual.d(l.offset)), l.ld) | rf::tee(h.d(l.offset), l.ld),
      rf::store(y.d(l.offset), l.ld), affine, 1e-5f, nullptr, rf::row_stats{mean.d(), rstd.d()});
  test::sync_and_check();
  h.host = h.download();
  keep.host = keep.download();
  mean.host = mean.download();
  rstd.host = rstd.download();
  long dropped = 0;
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) {
      std::uint8_t const k = keep.host[std::size_t(l.offset + r * l.ld + c)];
      REQUIRE(k <= 1); // the forward wrote every element of its mask
      dropped += k == 0;
    }
  if (rows * cols >= 4000) // p = 1/4: a quarter dropped, within 7 standard deviations
    CHECK(std::abs(double(dropped) / double(rows * cols) - 0.25) < 0.05);

  std::vector<double> gammas;
  for (long c = 0; c < cols; ++c)
    gammas.push_back(rf::detail::widen<double>(gamma.host[std::size_t(l.offset + c)]));
  auto const want =
      bwd_test::norm_backward(true, bwd_test::values(rf::load(h.h(l.offset), rows, cols, l.ld)),
                              bwd_test::values(rf::load(dy.h(l.offset), rows, cols, l.ld)), gammas,
                              false, mean.host, rstd.host, rows, cols);
  // d_branch = dh / (1 - p) where the forward kept the element, 0 where it dropped it; the kernel
  // multiplies its fp32 dh by the fp32 1 / (1 - p): one rounding of the factor and one of the
  // product more than dh's.
  bwd_test::gradient want_branch = want.dx;
  double const scale = 1.0 / (1.0 - double(drop_p));
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) {
      std::size_t const i = std::size_t(r * cols + c);
      bool const kept = keep.host[std::size_t(l.offset + r * l.ld + c)] != 0;
      double const e = want.dx.exact[i] * scale;
      want_branch.exact[i] = kept ? e : 0.0;
      want_branch.slack[i] = kept ? want.dx.slack[i] * scale + 2 * bwd_test::u * std::fabs(e) : 0.0;
    }

  std::vector<float> first_dgamma, first_dbeta;
  auto const launch = [&](rf::launch_options options) {
    for (auto* v : {&d_branch, &d_residual, &d_branch_stored, &d_residual_stored}) {
      test::poison(v->host);
      v->upload();
    }
    for (auto* v : {&dgamma, &dbeta}) {
      test::poison(v->host);
      v->upload();
    }
    auto const x_load = rf::load(static_cast<T const*>(h.d(l.offset)), rows, cols, l.ld);
    auto const dy_load = rf::load(static_cast<T const*>(dy.d(l.offset)), rows, cols, l.ld);
    rf::row_stats const saved{mean.d(), rstd.d()};
    rf::affine_grads const grads{dgamma.d(), dbeta.d()};
    rf::plan const replayed = rf::layernorm_backward(
        x_load, dy_load,
        rf::store(d_branch.d(l.offset), l.ld) | rf::tee(d_residual.d(l.offset), l.ld) |
            rf::dropout(drop_p, drop_seed, drop_offset),
        affine, saved, grads, nullptr, options);
    rf::plan const stored = rf::layernorm_backward(
        x_load, dy_load,
        rf::store(d_branch_stored.d(l.offset), l.ld) |
            rf::tee(d_residual_stored.d(l.offset), l.ld) |
            rf::apply_keep_mask(static_cast<std::uint8_t const*>(keep.d(l.offset)), drop_p, l.ld),
        affine, saved, grads, nullptr, options); // grads again: the same sums, written again
    if (options.dry_run)
      return replayed;
    test::sync_and_check();
    INFO(rf::explain(replayed));
    CHECK(same_shape(stored, replayed));
    auto const branch_got = d_branch.download();
    auto const residual_got = d_residual.download();
    CHECK_MATCHES(bwd_test::compare(residual_got, want.dx, rows, cols, l.ld, l.offset));
    CHECK_MATCHES(bwd_test::compare(branch_got, want_branch, rows, cols, l.ld, l.offset));
    CHECK(same_bits(branch_got, d_branch_stored.download()));
    CHECK(same_bits(residual_got, d_residual_stored.download()));
    auto const check_sums = [&](test::mirrored<float> const& sums, std::vector<double> const& exact,
                                std::vector<double> const& slack, std::vector<float>& first) {
      auto const got = sums.download();
      CHECK_MATCHES(bwd_test::compare_sums(got, exact, slack, cols));
      if (first.empty())
        first = got;
      else // the same bits on every engine and pack path
        CHECK(std::memcmp(first.data(), got.data(), std::size_t(cols) * sizeof(float)) == 0);
    };
    check_sums(dgamma, want.dgamma, want.dgamma_slack, first_dgamma);
    check_sums(dbeta, want.dbeta, want.dbeta_slack, first_dbeta);
    return replayed;
  };
  test::for_each_plan(launch);
}

template <class T, class G> void check_residual_all(unsigned seed) {
  std::mt19937 rng(seed);
  for (long cols : widths())
    for (int i : {0, 1})
      check_residual_block<T, G>(cols, layouts_for(cols, i), rng);
}

} // namespace

TEST_CASE("softmax_backward: a stored keep mask gives the replayed dropout's bits, fp32") {
  check_softmax_all<float, float, float>(301);
}
TEST_CASE("softmax_backward: a stored keep mask gives the replayed dropout's bits, fp16") {
  check_softmax_all<__half, __half, __half>(302);
}
TEST_CASE(
    "softmax_backward: a stored keep mask gives the replayed dropout's bits, bf16 / fp32 dy") {
  check_softmax_all<__nv_bfloat16, float, __nv_bfloat16>(303);
}

TEST_CASE("the residual block's backward in one layernorm_backward, fp32") {
  check_residual_all<float, float>(311);
}
TEST_CASE("the residual block's backward in one layernorm_backward, fp16, fp16 gamma") {
  check_residual_all<__half, __half>(312);
}
TEST_CASE("the residual block's backward in one layernorm_backward, bf16, fp32 gamma") {
  check_residual_all<__nv_bfloat16, float>(313);
}
