// The random differential harness (tests/gpu/random_differential.cuh) on a machine without a
// GPU: thrust's CPP backend makes the "device" buffers host memory, and each op is replaced by an
// fp32 engine on the host that runs the same load chain, op and store chain in float (pairwise
// sums, expf for the fast exp, no FMA contraction), writing through the same expressions. Every
// case, layout, poison and padding check, keep mask, amax, statistic and tolerance of the GPU
// suites runs as is. It checks the harness, not the kernels: a change to the harness or its
// tolerances should pass here before it costs GPU time, and a precision bug put into the
// emulation (log of the sum, flushed exps) should fail. Not built by CMake (it needs the CPP
// backend); scripts/random-harness-check.sh builds and runs it.
//
//   scripts/random-harness-check.sh [--seed S] [--cases N]
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "../gpu/random_differential.cuh"

namespace rd = random_differential;

namespace {

/// Pairwise float sum of v[lo, hi): the engines' tree order, roughly.
inline float pairwise(std::vector<float> const& v, std::size_t lo, std::size_t hi) {
  if (hi - lo <= 8) {
    float s = 0;
    for (std::size_t i = lo; i < hi; ++i)
      s += v[i];
    return s;
  }
  std::size_t mid = lo + (hi - lo) / 2;
  return pairwise(v, lo, mid) + pairwise(v, mid, hi);
}

/// An fp32 engine on the host: the load chain, the op and the store chain in float, as the
/// kernels compute them (no FMA contraction, expf for the fast exp, pairwise sums).
template <class L, class S, class RowOp>
void emulate(L const& load_expr, S const& store_expr, RowOp row_op) {
  auto const load = rf::detail::bind(load_expr, "emulated");
  long const rows = load.input.rows, cols = load.input.cols;
  auto const store = rf::detail::bind(store_expr, "emulated", rows, cols);
  rf::load_context lc{true, cols};
  rf::store_context<float> sc{cols, 0.0f};
  std::vector<float> z(cols), y(cols);
  for (long r = 0; r < rows; ++r) {
    for (long c = 0; c < cols; ++c) {
      float v[1];
      load.template load<1>(r, c, v, lc);
      z[c] = v[0];
    }
    row_op(r, z, y);
    for (long c = 0; c < cols; ++c) {
      float v[1] = {y[c]};
      store.template store<1>(r, c, v, sc);
    }
  }
  if (float* a = store.amax_output())
    *a = std::max(*a, sc.amax);
}

template <bool Log> struct emulated_softmax : rd::softmax_family<Log> {
  template <class Bufs, class L, class S, class A>
  static rf::plan run(Bufs&, L const& load, S const& store, A const&, rf::launch_options o) {
    if (!o.dry_run)
      emulate(load, store, [](long, std::vector<float> const& z, std::vector<float>& y) {
        float m = -INFINITY;
        for (float v : z)
          m = fmaxf(m, v);
        float shift = m == -INFINITY ? 0.0f : m;
        std::vector<float> t(z.size()), rest(z.size());
        for (std::size_t i = 0; i < z.size(); ++i) {
          t[i] = expf(z[i] - shift);
          rest[i] = t[i] < 1.0f ? t[i] : 0.0f;
        }
        float s = pairwise(t, 0, t.size()), r = pairwise(rest, 0, rest.size());
        bool empty = s == 0.0f;
        float log_sum = log1pf(s < 2.0f ? r : s - 1.0f);
        float inv = empty ? 0.0f : 1.0f / s;
        for (std::size_t i = 0; i < z.size(); ++i)
          y[i] = Log ? (empty ? -INFINITY : z[i] - shift - log_sum) : t[i] * inv;
      });
    rf::plan p;
    p.op = "emulated fp32 engine";
    return p;
  }
  static cudaError_t wait() { return cudaSuccess; }
};
template <bool Layernorm> struct emulated_norm : rd::norm_family<Layernorm> {
  template <class Bufs, class L, class S, class A>
  static rf::plan run(Bufs& b, L const& load, S const& store, A const& affine_in,
                      rf::launch_options o) {
    if (!o.dry_run) {
      float* mean = b.c.stats_given && Layernorm ? b.mean.d() : nullptr;
      float* rstd = b.c.stats_given ? b.rstd.d() : nullptr;
      float eps = b.c.eps;
      auto const affine = [&] {
        if constexpr (std::is_same_v<A, rf::no_affine_t>)
          return affine_in;
        else
          return affine_in.bind("emulated", load.input.cols);
      }();
      emulate(load, store, [&](long r, std::vector<float> const& z, std::vector<float>& y) {
        std::size_t n = z.size();
        float rs, hi = 0, lo = 0;
        if (Layernorm) {
          hi = pairwise(z, 0, n) * (1.0f / float(n));
          std::vector<float> d(n), d2(n);
          for (std::size_t i = 0; i < n; ++i) {
            d[i] = z[i] - hi;
            d2[i] = d[i] * d[i];
          }
          lo = pairwise(d, 0, n) / float(n);
          float var = pairwise(d2, 0, n) / float(n) - lo * lo;
          rs = 1.0f / sqrtf((var < 0 ? 0.0f : var) + eps);
        } else {
          std::vector<float> sq(n);
          for (std::size_t i = 0; i < n; ++i)
            sq[i] = z[i] * z[i];
          rs = 1.0f / sqrtf(pairwise(sq, 0, n) / float(n) + eps);
        }
        if (mean)
          mean[r] = hi + lo;
        if (rstd)
          rstd[r] = rs;
        for (std::size_t i = 0; i < n; ++i) {
          float v = Layernorm ? ((z[i] - hi) - lo) * rs : z[i] * rs;
          if constexpr (!std::is_same_v<A, rf::no_affine_t>) {
            float g = rf::detail::widen<float>(affine.gamma.data[i]);
            float bb = affine.beta.data ? rf::detail::widen<float>(affine.beta.data[i]) : 0.0f;
            v = affine.zero_centered ? fmaf(v, g, v) + bb : fmaf(v, g, bb);
          }
          y[i] = v;
        }
      });
    }
    rf::plan p;
    p.op = "emulated fp32 engine";
    return p;
  }
  static cudaError_t wait() { return cudaSuccess; }
};

} // namespace

TEST_CASE("emulated: softmax") {
  rd::run_family(rd::softmax_combos<emulated_softmax<false>>(), "softmax", 250);
  rd::run_family(rd::softmax_cast_combos<emulated_softmax<false>>(), "softmax (cast)", 250);
}
TEST_CASE("emulated: log_softmax") {
  rd::run_family(rd::log_softmax_combos<emulated_softmax<true>>(), "log_softmax", 250);
  rd::run_family(rd::log_softmax_cast_combos<emulated_softmax<true>>(), "log_softmax (cast)", 250);
}
TEST_CASE("emulated: layernorm") {
  rd::run_family(rd::layernorm_combos<emulated_norm<true>>(), "layernorm", 250);
  rd::run_family(rd::layernorm_cast_combos<emulated_norm<true>>(), "layernorm (cast)", 250);
}
TEST_CASE("emulated: rmsnorm") {
  rd::run_family(rd::rmsnorm_combos<emulated_norm<false>>(), "rmsnorm", 250);
  rd::run_family(rd::rmsnorm_cast_combos<emulated_norm<false>>(), "rmsnorm (cast)", 250);
}
