// layernorm and rmsnorm as the engines see them.
#pragma once

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"
#include "../detail/phase_copies.hpp"
#include "../expr/load_transforms.hpp"
#include "affine.hpp"

namespace rowfuse::op {

namespace norm_detail {

template <int N, class G, class B> bool affine_allows_pack(affine_params<G, B> const& affine) {
  return rowfuse::detail::view_allows_pack<N>(affine.gamma) &&
         (affine.beta.data == nullptr || rowfuse::detail::view_allows_pack<N>(affine.beta));
}
template <int N> bool affine_allows_pack(no_affine_t const&) {
  return true;
}

/// gamma's and beta's packs at col0 as stored: an engine reads them together with the row's
/// input (register_kernel), so that their latency is not paid after the row's statistics.
template <int N, class G, class B> struct affine_packs {
  rowfuse::detail::word_pack<G, N> gamma;
  rowfuse::detail::word_pack<B, N> beta;
};

template <int N, class G, class B>
__device__ affine_packs<N, G, B> read_affine(affine_params<G, B> const& affine, index_t col0) {
  affine_packs<N, G, B> packs{};
  packs.gamma = rowfuse::detail::read_operand<N>(affine.gamma, 0, col0);
  if (affine.beta.data != nullptr)
    packs.beta = rowfuse::detail::read_operand<N>(affine.beta, 0, col0);
  return packs;
}
template <int N> __device__ rowfuse::detail::no_state read_affine(no_affine_t const&, index_t) {
  return {};
}
/// read_affine where col0 may be off gamma's and beta's grid (phased rows), in place: one vector
/// load where the pack is on the grid, elsewhere detail::read_operand_off_grid (`Phases`: the
/// warp's).
template <int N, rowfuse::detail::column_phases Phases, class G, class B>
__device__ affine_packs<N, G, B> read_affine_in_place(affine_params<G, B> const& affine,
                                                      index_t col0) {
  affine_packs<N, G, B> packs{};
  packs.gamma = rowfuse::detail::read_operand_off_grid<N, Phases>(affine.gamma, 0, col0);
  if (affine.beta.data != nullptr)
    packs.beta = rowfuse::detail::read_operand_off_grid<N, Phases>(affine.beta, 0, col0);
  return packs;
}
template <int N, rowfuse::detail::column_phases>
__device__ rowfuse::detail::no_state read_affine_in_place(no_affine_t const&, index_t) {
  return {};
}

/// Whether the norms' phased rows read gamma and beta from copies at each phase of the pack grid
/// (detail::phase_copies): where both are 2-byte, whose packs off their grid take 4-5 loads and 4
/// shifts each in place. 4-byte ones take element loads in place, which the copies did not beat.
/// layernorm reads them on every phased kernel, rmsnorm's gamma alone on the kernels of
/// rmsnorm::copies_at_phases_on. The backward keeps its reads in place (not timed with copies).
template <class Affine> inline constexpr bool copies_at_phases = false;
template <class G, class B>
inline constexpr bool copies_at_phases<affine_params<G, B>> = sizeof(G) == 2 && sizeof(B) == 2;

/// The copies of gamma and beta a phased call reads (copies_at_phases): the dispatcher fills them
/// (dispatch/phase_copies.cuh) where a plan is phased; every other plan leaves them empty.
template <class Affine> struct affine_at_phases {};
template <class G, class B>
requires copies_at_phases<affine_params<G, B>>
struct affine_at_phases<affine_params<G, B>> {
  rowfuse::detail::phase_copies<G> gamma;
  rowfuse::detail::phase_copies<B> beta;
};

/// layernorm's read_affine on a phased row whose packs start at row_first: from the copies where it
/// takes them (copies_at_phases), in place elsewhere.
template <int N, rowfuse::detail::column_phases Phases, class G, class B>
__device__ affine_packs<N, G, B>
read_affine_off_grid(affine_params<G, B> const& affine,
                     affine_at_phases<affine_params<G, B>> const& copies, index_t row_first,
                     index_t col0) {
  if constexpr (copies_at_phases<affine_params<G, B>>) {
    affine_packs<N, G, B> packs{};
    packs.gamma = copies.gamma.template read<N>(row_first, col0);
    if (affine.beta.data != nullptr)
      packs.beta = copies.beta.template read<N>(row_first, col0);
    return packs;
  } else {
    return read_affine_in_place<N, Phases>(affine, col0);
  }
}
template <int N, rowfuse::detail::column_phases>
__device__ rowfuse::detail::no_state
read_affine_off_grid(no_affine_t const&, affine_at_phases<no_affine_t> const&, index_t, index_t) {
  return {};
}

/// y[j] = y[j] * gamma(col0 + j) [+ beta(col0 + j)] from the packs read by read_affine.
/// Each output is rounded once (an fma), so where x_hat * gamma and beta cancel the error is
/// a fraction of an ulp of the result rather than of the larger terms; zero-centred gamma is
/// x_hat + x_hat * gamma for the same reason (1 + gamma would round gamma near -1 first).
/// Without a beta, read_affine leaves its packs zero, which widen to +0: the same sums as
/// adding 0.0f, with no select an element.
template <int N, class G, class B>
__device__ void apply_affine(float (&y)[N], affine_params<G, B> const& affine,
                             affine_packs<N, G, B> const& packs) {
  float g[N], b[N];
  ROWFUSE_UNROLL
  for (int j = 0; j < N; ++j) {
    g[j] = rowfuse::detail::widen<float>(packs.gamma[j]);
    b[j] = rowfuse::detail::widen<float>(packs.beta[j]);
  }
  if (affine.zero_centered) {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      y[j] = fmaf(y[j], g[j], y[j]) + b[j];
  } else {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      y[j] = fmaf(y[j], g[j], b[j]);
  }
}
template <int N>
__device__ void apply_affine(float (&)[N], no_affine_t const&, rowfuse::detail::no_state) {}

/// gamma's packs alone, for rmsnorm (its bind refuses a beta): held with a row on cluster rows,
/// beta's packs would cost as many registers again for a pointer known to be null.
template <int N, class G> struct gamma_packs { rowfuse::detail::word_pack<G, N> gamma; };
template <int N, class G, class B>
__device__ gamma_packs<N, G> read_gamma(affine_params<G, B> const& affine, index_t col0) {
  return {rowfuse::detail::read_operand<N>(affine.gamma, 0, col0)};
}
template <int N> __device__ rowfuse::detail::no_state read_gamma(no_affine_t const&, index_t) {
  return {};
}
/// read_gamma on a phased row whose packs start at row_first (`Phases`: the warp's): from the
/// copies where the kernel takes them (`FromCopies`: rmsnorm::copies_at_phases_on, and
/// copies_at_phases), in place elsewhere.
template <int N, rowfuse::detail::column_phases Phases, bool FromCopies, class G, class B>
__device__ gamma_packs<N, G>
read_gamma_off_grid(affine_params<G, B> const& affine,
                    affine_at_phases<affine_params<G, B>> const& copies, index_t row_first,
                    index_t col0) {
  if constexpr (FromCopies && copies_at_phases<affine_params<G, B>>)
    return {copies.gamma.template read<N>(row_first, col0)};
  else
    return {rowfuse::detail::read_operand_off_grid<N, Phases>(affine.gamma, 0, col0)};
}
template <int N, rowfuse::detail::column_phases, bool>
__device__ rowfuse::detail::no_state
read_gamma_off_grid(no_affine_t const&, affine_at_phases<no_affine_t> const&, index_t, index_t) {
  return {};
}

/// The pack's words through an empty asm the compiler cannot see through, so that what widens
/// them stays after this point: on cluster rows gamma is read with the row and used after the
/// exchange, and bf16 gamma (a shift to widen) was otherwise widened at its load, holding 64
/// floats instead of 32 words across the exchange (spills under a cap of 128 registers).
template <int N, class G>
__device__ rowfuse::detail::word_pack<G, N> opaque(rowfuse::detail::word_pack<G, N> pack) {
  if constexpr (sizeof(pack) % 4 == 0) {
    unsigned words[sizeof(pack) / 4];
    memcpy(words, &pack, sizeof(pack));
    ROWFUSE_UNROLL
    for (int i = 0; i < int(sizeof(pack) / 4); ++i)
      asm volatile("" : "+r"(words[i]));
    memcpy(&pack, words, sizeof(pack));
  }
  return pack;
}

/// apply_affine with beta = 0: the same operations, so the same bits, as with beta's packs.
template <int N, class G, class B>
__device__ void apply_affine(float (&y)[N], affine_params<G, B> const& affine,
                             gamma_packs<N, G> const& packs) {
  auto const gamma = opaque<N>(packs.gamma);
  ROWFUSE_UNROLL
  for (int j = 0; j < N; ++j) {
    float const g = rowfuse::detail::widen<float>(gamma[j]);
    y[j] = affine.zero_centered ? fmaf(y[j], g, y[j]) + 0.0f : fmaf(y[j], g, 0.0f);
  }
}

/// The same, reading gamma and beta here (the engines that do not read ahead).
template <int N, class Affine>
__device__ void apply_affine(float (&y)[N], Affine const& affine, index_t col0) {
  apply_affine(y, affine, read_affine<N>(affine, col0));
}

using rowfuse::detail::interleaved_sum;

} // namespace norm_detail

/// layernorm: y = (x - mean) * rstd [* gamma + beta], rstd = 1 / sqrt(var + eps), var the
/// population variance.
///
/// A single fp32 mean is not enough: for a row of mean 1e4 its rounding alone (half an ulp of
/// 1e4 = 4.9e-4) moves every x - mean by 5e-4 standard deviations. Both protocols below carry
/// the mean as an unevaluated sum hi + lo: hi near the mean, so that x - hi is exact (Sterbenz)
/// for data clustered around a large mean, and lo the small rest, known to a few ulps of the
/// row's spread rather than of its magnitude. Outputs are ((x - hi) - lo) * rstd.
///
/// One phase (`local` / `merge`: the streaming and cluster engines, which merge a thread's
/// packs one by one and threads in any tree): Welford/Chan partials {count, hi, lo, m2}.
///  - `local` takes a two-pass mean and m2 of its values' differences from its first value;
///  - `merge` measures the distance of the two means in the same small coordinates,
///    (b.hi - a.hi) + (b.lo - a.lo) (the hi difference is exact for nearby means), applies
///    Chan's update there and renormalises hi + lo with Fast2Sum (hi = the mean rounded), so
///    x - hi stays small even when the first value of a part is an outlier.
///
/// Two phases (`phase1` / `phase2`: the register engines, whole row in registers): the sum of
/// the row, then, every lane knowing hi = sum / cols, the sums of x - hi and of its square
/// (the corrected two-pass algorithm). Each shuffle carries one float, then two, and merges are
/// additions, where a Chan merge costs a division and a dozen operations per shuffle step.
///  - hi is off the mean by ~20 ulps of the sum at most (a few 1e-2 standard deviations for a
///    row of mean 1e4 and unit spread); only its closeness matters: lo = sum(x - hi) / cols;
///  - var = sum((x - hi)^2) / cols - lo^2 loses a factor (1 + lo^2 / var) of accuracy to the
///    cancellation: nothing while |mean| / spread < ~1e5, a factor 2 near 1e6, where fp32
///    inputs no longer resolve the spread anyway.
///
/// A constant row gives exactly beta on both: one phase, every part has hi = the value and
/// lo = 0; two phases, x - hi = delta (a few ulps of the value) for every element,
/// sum(x - hi) = cols * delta exactly (its partial sums fit 24 bits for rows of up to 2^17
/// elements, four times the widest register row), lo = delta exactly by a correctly rounded
/// division, so (x - hi) - lo = 0.
template <class Affine> struct layernorm {
  static constexpr char const* name = "rf::layernorm";
  Affine affine;
  float eps;
  row_stats saved;
  norm_detail::affine_at_phases<Affine> at_phases{}; // phased plans only

  struct partial {
    float count;
    float mean_hi; // the mean is mean_hi + mean_lo, |mean_lo| <= half an ulp of mean_hi
    float mean_lo;
    float m2; // sum of squared deviations from the mean
  };
  struct stats {
    float mean_hi; // the mean is mean_hi + mean_lo
    float mean_lo;
    float rstd;
    float scaled_lo; // mean_lo * rstd, for finish_centred (finalize_about; 0 from finalize)
  };

  __device__ partial identity() const { return {0.0f, 0.0f, 0.0f, 0.0f}; }

  /// Over v[0 .. n): the mean of the differences from v[0], then m2 about it. n == K (a full
  /// thread, every streaming pack) divides by K, exactly when K is a power of two (every
  /// engine today).
  template <int K> __device__ partial local(float const (&v)[K], int n) const {
    if (n == 0)
      return identity();
    float const shift = v[0];
    bool const full = n == K;
    // 2-ulp division for a tail thread: far below the 1e-5 the outputs need.
    float const sum =
        norm_detail::interleaved_sum<K>([&](int i) { return full || i < n ? v[i] - shift : 0.0f; });
    float const mean_d = full ? __fmul_rn(sum, 1.0f / float(K)) : __fdividef(sum, float(n));
    // Fast2Sum: |shift| >= |mean_d| whenever the data sit near a large mean, where it matters.
    float const hi = __fadd_rn(shift, mean_d);
    float const lo = __fsub_rn(mean_d, __fsub_rn(hi, shift));
    // Deviations from hi, not from shift (v - hi is as exact as v - shift): reusing v - shift
    // would keep all K differences live beside the row, and spills 32-value threads.
    float const m2 = norm_detail::interleaved_sum<K>([&](int i) {
      float const e = (v[i] - hi) - lo;
      return full || i < n ? e * e : 0.0f;
    });
    return {float(n), hi, lo, m2};
  }

  /// Chan's pairwise update. Runs 5-10 times per row in shuffles and once per pack in the
  /// streaming engines: no IEEE division (b's share of the count is a 2-ulp __fdividef, a
  /// 2.4e-7 relative error in a correction term, far below the 1e-5 target).
  __device__ partial merge(partial a, partial b) const {
    if (b.count == 0.0f)
      return a; // an empty side adopts nothing: hi comes from real data
    if (a.count == 0.0f)
      return b;
    float const count = a.count + b.count;
    float const b_share = __fdividef(b.count, count);
    float const delta = __fadd_rn(__fsub_rn(b.mean_hi, a.mean_hi), __fsub_rn(b.mean_lo, a.mean_lo));
    float const step = __fmul_rn(delta, b_share);
    float const moved = __fadd_rn(a.mean_lo, step);
    float const hi = __fadd_rn(a.mean_hi, moved);
    float const lo = __fsub_rn(moved, __fsub_rn(hi, a.mean_hi));
    // delta^2 * na * nb / n, added to two sums of non-negative terms: no cancellation.
    float const m2 = fmaf(a.count * delta, step, a.m2 + b.m2);
    return {count, hi, lo, m2};
  }

  /// Once per row and lane: no IEEE division (2 ulp on the variance is 1e-7 on rstd).
  __device__ stats finalize(partial p, index_t cols) const {
    float const var = __fdividef(p.m2, float(cols));
    return {p.mean_hi, p.mean_lo, rsqrtf(var + eps), 0.0f};
  }

  template <int N>
  __device__ void finish(float (&x)[N], stats const& s, index_t, index_t col0) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] = ((x[j] - s.mean_hi) - s.mean_lo) * s.rstd;
    norm_detail::apply_affine(x, affine, col0);
  }

  // ---- the register engines' two-phase protocol (see above) ----------------------------
  //
  // engine::two_phase_op detects these members; the engines that stream the row merge the
  // one-phase partials above.

  struct deviations {
    float sum;         // of x - hi
    float sum_squares; // of (x - hi)^2
  };

  /// Every lane computes the same hi from the same total (butterfly sums are bitwise equal on
  /// every lane, CUB's total is broadcast), so the deviations of all lanes share one origin.
  /// hi must be a rounded float: __fdividef is a multiply by a reciprocal, which nvcc fused with
  /// phase 2's x - hi into one FMA, so x - hi was taken from the unrounded quotient (700000.022
  /// for a row of 7e5 at 33 columns). Phase 2 then centred on a different hi than finalize2
  /// reports as the mean, and a constant row got x - hi = 0.022 inexactly summed: variance
  /// 1.5e-11, rstd 8 ulps off (H100). __fmul_rn is never contracted.
  static __device__ float pivot(float row_sum, index_t cols) {
    return __fmul_rn(row_sum, __frcp_rn(float(cols)));
  }

  /// The register engine pads a lane's values past n with +0 (the packs it does not hold), so the
  /// sum needs no guard.
  template <int K> __device__ float phase1(float const (&v)[K], int) const {
    return norm_detail::interleaved_sum<K>([&](int i) { return v[i]; });
  }
  __device__ float merge1(float a, float b) const { return a + b; }

  /// phase2's rewrite alone: v into x - hi, which finish2 starts from (engine::rewrites_row).
  template <int K>
  __device__ void phase2_rewrite(float (&v)[K], float row_sum, index_t cols) const {
    recentre(v, pivot(row_sum, cols));
  }
  /// v into v - centre.
  template <int K> static __device__ void recentre(float (&v)[K], float centre) {
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      v[i] -= centre;
  }
  /// Rewrites v into x - hi (phase2_rewrite's values) where it holds a value and into +0 past n,
  /// then sums it and its square: one select a value, where guarding both sums took two.
  template <int K>
  __device__ deviations phase2(float (&v)[K], int n, float row_sum, index_t cols) const {
    return deviations_about(v, n, pivot(row_sum, cols));
  }
  /// phase2 about any centre: v into v - centre (+0 past n), then its sum and sum of squares.
  template <int K>
  __device__ deviations deviations_about(float (&v)[K], int n, float centre) const {
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      v[i] = n == K || i < n ? v[i] - centre : 0.0f;
    return {norm_detail::interleaved_sum<K>([&](int i) { return v[i]; }),
            norm_detail::interleaved_sum<K>([&](int i) { return v[i] * v[i]; })};
  }
  __device__ deviations merge2(deviations a, deviations b) const {
    return {a.sum + b.sum, a.sum_squares + b.sum_squares};
  }
  /// deviations_about's sums run across a row's packs read back one by one (the centred rows):
  /// four interleaved sums of v - centre and four of its square, carried from pack to pack and
  /// combined once a row: 24 operations a pack of 8, where a sum a pack and a merge took 28. They
  /// start at -0, so that the first term is taken as it is (-0 + d == d for every d).
  struct running_deviations {
    float sum[4] = {-0.0f, -0.0f, -0.0f, -0.0f};
    float sum_squares[4] = {-0.0f, -0.0f, -0.0f, -0.0f};
  };
  /// Adds the K values of a full pack: its deviations about `centre`.
  template <int K>
  static __device__ void add_deviations(running_deviations& running, float const (&v)[K],
                                        float centre) {
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i) {
      float const d = v[i] - centre;
      running.sum[i % 4] += d;
      running.sum_squares[i % 4] = fmaf(d, d, running.sum_squares[i % 4]);
    }
  }
  static __device__ deviations total_deviations(running_deviations const& running) {
    return {(running.sum[0] + running.sum[1]) + (running.sum[2] + running.sum[3]),
            (running.sum_squares[0] + running.sum_squares[1]) +
                (running.sum_squares[2] + running.sum_squares[3])};
  }

  /// Both divisions correctly rounded (once per row, so free): for a constant row, lo = delta
  /// and sum_squares / cols = delta^2 exactly, and the fma cancels them to exactly 0, so rstd is
  /// 1 / sqrt(eps) to the ulp. (A 2-ulp division left a variance of a few ulps of delta^2, which
  /// for a row of 1e4 moved rstd by 1e-4 relative: measured on the H100.) The clamp of a
  /// slightly negative variance keeps NaN: fmaxf would turn the NaN of a row holding NaN or an
  /// infinity into 0 and report rstd = 1 / sqrt(eps) for it.
  __device__ stats finalize2(float row_sum, deviations d, index_t cols) const {
    return finalize_about(pivot(row_sum, cols), d, cols);
  }
  /// finalize2 for deviations about `centre`.
  __device__ stats finalize_about(float centre, deviations d, index_t cols) const {
    float const n = float(cols);
    float const lo = __fdiv_rn(d.sum, n);
    float const var = fmaf(-lo, lo, __fdiv_rn(d.sum_squares, n));
    float const rstd = rsqrtf((var < 0.0f ? 0.0f : var) + eps);
    return {centre, lo, rstd, lo * rstd};
  }

  // ---- one pass about a centre known before the row (engine::centred_op) ------------------
  //
  // Where every thread of a row can read the row's first pack before its pass (the register
  // engine's rows read back from staging, engine::centred_rows), the deviations about the mean of
  // that pack, c, give the statistics in one pass and one reduction: mean = c + S1 / n, var = S2 /
  // n - (S1 / n)^2. Its cancellation costs a factor F = S2 / (S2 - S1^2 / n) = 1 + (c - mean)^2 /
  // var of the sums' accuracy. The pass is kept where F <= 4 (var at least a quarter of S2 / n: the
  // rstd error at most four times that of the two-pass protocol above, which has F ~ 1); elsewhere
  // (c an outlier, a row holding NaN or an infinity, sums that overflow) the engine makes a second
  // pass about c + S1 / n, where F ~ 1. For a row whose first pack is a sample like the rest, c is
  // the mean of N draws, and F > 4 needs it sqrt(3 N) standard errors off: one normal row in a
  // million at N = 8 (16-bit packs), one in 1900 at N = 4. A constant row has c = the value exactly
  // (pairwise sums of equal values at a power-of-two count are exact), all deviations 0, and
  // gives beta exactly.

  /// c: the mean of the row's first pack, by pairwise sums (N is a power of two).
  template <int N> static __device__ float centre_of(float const (&first)[N]) {
    float sums[N];
    ROWFUSE_UNROLL
    for (int i = 0; i < N; ++i)
      sums[i] = first[i];
    ROWFUSE_UNROLL
    for (int width = N / 2; width > 0; width /= 2)
      ROWFUSE_UNROLL
    for (int i = 0; i < width; ++i)
      sums[i] = __fadd_rn(sums[i], sums[i + width]);
    return __fmul_rn(sums[0], 1.0f / float(N));
  }
  /// Whether deviations d (a row's, about its centre) give its variance within F <= 4, that is
  /// (S1 / n)^2 <= 3/4 S2 / n, with a finite S2 / n (false for NaN). The same divisions as
  /// finalize_about's: taken after it on the same d, they are one computation.
  __device__ bool centre_suffices(deviations d, index_t cols) const {
    float const n = float(cols);
    float const mean_deviation = __fdiv_rn(d.sum, n);
    float const mean_square = __fdiv_rn(d.sum_squares, n);
    return isfinite(mean_square) && mean_deviation * mean_deviation <= 0.75f * mean_square;
  }
  /// The mean's offset from the centre the deviations d were taken about: the next centre.
  __device__ float centre_shift(deviations d, index_t cols) const {
    return __fdiv_rn(d.sum, float(cols));
  }

  /// gamma's and beta's packs at col0, for finish2: read with the row's input.
  template <int N>
  __device__ auto read_columns(index_t col0) const
      -> decltype(norm_detail::read_affine<N>(affine, col0)) {
    return norm_detail::read_affine<N>(affine, col0);
  }
  /// The same on a phased row whose packs start at row_first (`Phases`: the warp's); from the
  /// copies at each phase (at_phases) on every phased kernel.
  template <int N, rowfuse::detail::column_phases Phases = rowfuse::detail::column_phases::per_warp,
            bool = true>
  __device__ auto read_columns_off_grid(index_t row_first, index_t col0) const
      -> decltype(norm_detail::read_affine_off_grid<N, Phases>(affine, at_phases, row_first,
                                                               col0)) {
    return norm_detail::read_affine_off_grid<N, Phases>(affine, at_phases, row_first, col0);
  }

  /// From phase 2's v, x - hi, and read_columns' packs.
  template <int N, class Columns>
  __device__ void finish2(float (&x)[N], stats const& s, index_t, index_t,
                          Columns const& columns) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] = (x[j] - s.mean_lo) * s.rstd;
    norm_detail::apply_affine(x, affine, columns);
  }
  /// finish2 for the one pass's deviations x - centre (finalize_about's stats): (x - lo) * rstd
  /// as one fma an element, x * rstd - lo * rstd, whose error is the fma's and that of
  /// lo * rstd, a term under a few units (centre_suffices bounds |lo| by two standard
  /// deviations): a few ulps of an output of order 1, as the subtraction's rounding before the
  /// multiply was. A constant row still gives exactly 0 before the affine: its deviations about
  /// its first pack's mean, and so lo, are exactly 0. (finish2 keeps the subtraction: there
  /// x - hi and lo of a constant row are a few ulps of the value, whose product with rstd
  /// need not be exact, and the fma would leave its rounding error.)
  template <int N, class Columns>
  __device__ void finish_centred(float (&x)[N], stats const& s, index_t, index_t,
                                 Columns const& columns) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] = fmaf(x[j], s.rstd, -s.scaled_lo);
    norm_detail::apply_affine(x, affine, columns);
  }

  template <int N> bool aligned_for_pack() const {
    return norm_detail::affine_allows_pack<N>(affine);
  }

  __device__ void save(index_t row, stats const& s) const {
    if (saved.mean)
      saved.mean[row] = s.mean_hi + s.mean_lo;
    if (saved.rstd)
      saved.rstd[row] = s.rstd;
  }
};

/// rmsnorm: y = x * rstd [* gamma or * (1 + gamma)], rstd = 1 / sqrt(mean(x^2) + eps).
///
/// One fp32 sum of squares suffices: every term is non-negative, so no cancellation amplifies
/// the rounding errors, and a sum of such terms is within d * 2^-24 relative of exact, d the
/// longest chain of additions. Within a thread the sum runs in four interleaved parts; the
/// register engines merge threads by pairs (d ~ log2(cols) < 20). The streaming engines add one
/// pack at a time per thread (d ~ cols / (threads * pack) + log2(threads): ~500 for 10^6 fp32
/// columns), which bounds the error by 3e-5 only for adversarial data: the roundings of a long
/// sum mostly cancel. Emulating that order on the host over rows of 10^6 elements gave 1e-8 to
/// 1e-7 relative on random, sorted and periodic rows, and 3.5e-6 on a row of one repeated value
/// (the same rounding every time, the worst case we know); rstd carries half of it.
template <class Affine> struct rmsnorm {
  static constexpr char const* name = "rf::rmsnorm";
  Affine affine;
  float eps;
  float* saved_rstd;
  norm_detail::affine_at_phases<Affine> at_phases{}; // the kernels of copies_at_phases_on only

  /// Whether a phased kernel of `cluster_blocks` blocks a row under a cap of `min_blocks_per_sm`
  /// reads gamma from copies at each phase (norm_detail::copies_at_phases): cluster rows under
  /// caps of one or two blocks. There the copies took 16-bit rmsnorm one element off from 0.65 to
  /// 0.88 of a copy at 140001-150001 columns; under caps of three (80 registers) they lost
  /// 0.01-0.02 and on rows of one block 0.01-0.04 (bench/NOTES.md, fifty-eighth and seventy-second
  /// sessions).
  static constexpr bool copies_at_phases_on(int cluster_blocks, int min_blocks_per_sm) {
    return cluster_blocks > 1 && min_blocks_per_sm <= 2;
  }

  struct partial {
    float sum_squares;
  };
  struct stats {
    float rstd;
  };

  __device__ partial identity() const { return {0.0f}; }

  template <int K> __device__ partial local(float const (&v)[K], int n) const {
    return {norm_detail::interleaved_sum<K>(
        [&](int i) { return n == K || i < n ? v[i] * v[i] : 0.0f; })};
  }

  __device__ partial merge(partial a, partial b) const { return {a.sum_squares + b.sum_squares}; }

  __device__ stats finalize(partial p, index_t cols) const {
    return {rsqrtf(__fdividef(p.sum_squares, float(cols)) + eps)};
  }

  template <int N>
  __device__ void finish(float (&x)[N], stats const& s, index_t, index_t col0) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] *= s.rstd;
    norm_detail::apply_affine(x, affine, col0);
  }

  /// gamma's packs at col0, for finish: read with the row's input.
  template <int N>
  __device__ auto read_columns(index_t col0) const
      -> decltype(norm_detail::read_gamma<N>(affine, col0)) {
    return norm_detail::read_gamma<N>(affine, col0);
  }
  /// The same on a phased row whose packs start at row_first (`Phases`: the warp's), from the
  /// copies at each phase where the kernel takes them (`FromCopies`: copies_at_phases_on).
  template <int N, rowfuse::detail::column_phases Phases = rowfuse::detail::column_phases::per_warp,
            bool FromCopies = false>
  __device__ auto read_columns_off_grid(index_t row_first, index_t col0) const
      -> decltype(norm_detail::read_gamma_off_grid<N, Phases, FromCopies>(affine, at_phases,
                                                                          row_first, col0)) {
    return norm_detail::read_gamma_off_grid<N, Phases, FromCopies>(affine, at_phases, row_first,
                                                                   col0);
  }
  template <int N, class Columns>
  __device__ void finish(float (&x)[N], stats const& s, index_t, index_t,
                         Columns const& columns) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] *= s.rstd;
    norm_detail::apply_affine(x, affine, columns);
  }

  template <int N> bool aligned_for_pack() const {
    return norm_detail::affine_allows_pack<N>(affine);
  }

  __device__ void save(index_t row, stats const& s) const {
    if (saved_rstd)
      saved_rstd[row] = s.rstd;
  }
};

} // namespace rowfuse::op
