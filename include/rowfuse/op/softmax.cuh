// softmax and log-softmax as the engines see them: the row statistics (max, sum of exp), how
// partial statistics merge, and how each output is made from them.
#pragma once

#include <type_traits>

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"

namespace rowfuse::op {

/// Log selects log-softmax. Accurate selects expf over exp2f (see exp_shifted), chosen from
/// the output type by the op's caller.
///
/// Two precision edges shape the statistics:
///  - the fast path sums the terms exp(x - max) * 2^term_bias, so that terms down to 2^-150 (all
///    of fp32's subnormals) are not flushed to zero by MUFU.EX2 (exp_shifted): softmax's
///    probabilities pass through fp32 before the store chain, which may scale them up into a
///    bf16 or fp8 subnormal, and 1 / sum carries the 2^-term_bias back; log-softmax's top output
///    is -log1p(rest) ~ -rest (below), a bf16 subnormal where rest < 2^-126, and rest is
///    unbiased by one exact multiply before its log1p;
///  - log-softmax needs log(sum) where sum = 1 + rest, rest the sum of the terms below the max's
///    own exp(0) = 1. When rest < 2^-24, fp32 rounds 1 + rest to 1 and log(sum) to 0, and the
///    row's top output, -log1p(rest) ~ -rest (-1.9e-8 for a max 20 above the rest of a 10-element
///    row), would be written as 0 where bf16 and fp16 can hold it. So log-softmax also sums rest,
///    the terms below the max's own (exactly 2^term_bias, see exp_shifted), and takes
///    log1p(rest) while sum < 2, that is while one term is the max's; sum >= 2 means several
///    elements share the max (or rest >= 1), where log1p(sum - 1) is as accurate as log(sum).
template <bool Log, bool Accurate> struct softmax {
  static constexpr char const* name = Log ? "rf::log_softmax" : "rf::softmax";

  /// log2 of the factor on every term of the sum (see above). expf (Accurate) keeps subnormal
  /// results itself.
  static constexpr int term_bias = Accurate ? 0 : 24;
  /// The max's own term, exp(0) * 2^term_bias, and the factor that takes the bias back off.
  static constexpr float max_term = float(1 << term_bias);
  static constexpr float unbias = 1.0f / max_term;

  /// max of the elements seen, and the sum of exp(x - max) * 2^term_bias over them. A part that
  /// has seen only -inf (or nothing) is {-inf, 0}.
  struct plain_partial {
    float max;
    float sum;
  };
  /// log-softmax's: also rest, the sum of the terms below the max's own (see above).
  struct log_partial {
    float max;
    float sum;
    float rest;
  };
  using partial = std::conditional_t<Log, log_partial, plain_partial>;

  /// y = exp(x - shift) * inv_sum (inv_sum includes 2^-term_bias), or for log-softmax
  /// y = x - shift - log_sum.
  struct stats {
    float shift;
    float sum;
    float inv_sum;
    float log_sum;
    bool empty; // fully masked (sum 0): softmax gives 0, log-softmax -inf
  };

  /// One term of the row's sum.
  static __device__ float term(float x, float shift) {
    return rowfuse::detail::exp_shifted<Accurate, term_bias>(x, shift);
  }
  /// A part's sum moved from its max to a larger max: sum * exp(from - to). The factor is taken
  /// biased and the bias multiplied back off after it, so that a factor below 2^-126 (a part
  /// 88 or more below the row's max, whose terms still reach rest) is not flushed to zero.
  static __device__ float rescaled(float sum, float from, float to) {
    return sum * rowfuse::detail::exp_shifted<Accurate, term_bias>(from, to) * unbias;
  }
  /// A term counts into rest when it is below the max's own.
  static __device__ float below_max(float term) { return term < max_term ? term : 0.0f; }

  static __device__ partial make_partial(float max, float sum, float rest) {
    if constexpr (Log)
      return {max, sum, rest};
    else
      return {max, sum};
  }

  __device__ partial identity() const { return make_partial(rowfuse::detail::neg_inf, 0.0f, 0.0f); }

  /// Over v[0 .. n): two passes over registers, max first, so each element costs one exp.
  /// n == K (a full thread) takes the unguarded loops.
  template <int K> __device__ partial local(float const (&v)[K], int n) const {
    float m = rowfuse::detail::neg_inf;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      if (n == K || i < n)
        m = fmaxf(m, v[i]); // fmaxf skips NaN; the sum below carries it
    float const shift = m == rowfuse::detail::neg_inf ? 0.0f : m;
    float s = 0.0f, rest = 0.0f;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i) {
      if (n == K || i < n) {
        float const t = term(v[i], shift);
        s += t;
        if constexpr (Log)
          rest += below_max(t);
      }
    }
    return make_partial(m, s, rest);
  }

  // ---- the register engines' two-phase protocol ----------------------------------------
  // With the whole row in registers, reduce the max first and then the sum of exp(x - max),
  // every lane already knowing the row's max: each shuffle carries one float (log-softmax: two,
  // sum and rest) and no merge needs an exp, where the one-phase merge above costs two exps a
  // shuffle step (bench/NOTES.md).

  /// What the phases take as no value (engine::padded_phases_op): the max passes it by and its
  /// term is +0, so an engine may fill a thread's places past its values with it and run both
  /// phases over every place, without a compare an element.
  static constexpr float padding = rowfuse::detail::neg_inf;

  /// Phase 1: the max over v[0 .. n). fmaxf skips NaN; phase 2's sum carries it.
  template <int K> __device__ float phase1(float const (&v)[K], int n) const {
    float m = rowfuse::detail::neg_inf;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      if (n == K || i < n)
        m = fmaxf(m, v[i]);
    return m;
  }
  __device__ float merge1(float a, float b) const { return fmaxf(a, b); }

  /// Phase 2's totals: the sum of the terms and, for log-softmax, rest.
  struct log_sums {
    float sum;
    float rest;
  };
  using sums = std::conditional_t<Log, log_sums, float>;

  /// Softmax's fast path takes phase 2's terms on a line of the row's own: 2^(slope * x +
  /// offset), one FFMA and one MUFU.EX2 an element, where exp_shifted's x - max costs an FADD
  /// more. The offset's rounding is a factor common to every term of the row, which cancels in
  /// term / sum. The line depends on |max|, with no branch over the values:
  ///  - below 2^29: slope log2(e), offset 24 - max * log2(e) rounded upward, so the max's term
  ///    lies in [2^24, 2^88): every term term_bias protects stays normal, and a sum of 2^31 of
  ///    them finite;
  ///  - 2^29 to 2^30: offset -33 - max * log2(e) rounded upward (its ulp is 64 or 128), the max's
  ///    term in [2^-33, 2^95): the one other element that counts there, 64 below the max (2^-92.3
  ///    relative), stays normal;
  ///  - from 2^30 (and inf or NaN): slope 1, offset -max: the terms are 1 at the max and 0
  ///    elsewhere (128 or more below it), as exp_shifted's are there, and inf or NaN as theirs.
  /// The rows that exchange once move each part's sums between maxima by exp_shifted's factor,
  /// which needs the parts' terms exact about their maxima: they take part_phase2.
  static constexpr bool lines_terms = !Accurate && !Log;
  struct line {
    float slope;
    float offset;
  };
  static __device__ line line_of(float shift) {
    float const magnitude = fabsf(shift);
    bool const ones = !(magnitude < 0x1p30f);
    return {ones ? 1.0f : rowfuse::detail::log2_e,
            ones
                ? -shift
                : __fmaf_ru(-shift, rowfuse::detail::log2_e, magnitude < 0x1p29f ? 24.0f : -33.0f)};
  }

  /// Phase 2: the sums over v[0 .. n) of the terms of v - row max. softmax rewrites v into its
  /// terms, so finishing is one multiply; log-softmax keeps x.
  template <int K> __device__ sums phase2(float (&v)[K], int n, float row_max, index_t) const {
    if constexpr (lines_terms) {
      line const row_line = line_of(row_max == rowfuse::detail::neg_inf ? 0.0f : row_max);
      float s = 0.0f;
      ROWFUSE_UNROLL
      for (int i = 0; i < K; ++i) {
        float const t = rowfuse::detail::exp2_approx(fmaf(v[i], row_line.slope, row_line.offset));
        v[i] = t;
        if (n == K || i < n)
          s += t;
      }
      return s;
    } else {
      return part_phase2(v, n, row_max);
    }
  }
  /// Phase 2 about a part's own max `part_max` (engine::shifted_sums_op), exp_shifted's terms.
  template <int K> __device__ sums part_phase2(float (&v)[K], int n, float part_max) const {
    float const shift = part_max == rowfuse::detail::neg_inf ? 0.0f : part_max;
    float s = 0.0f, rest = 0.0f;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i) {
      float const t = term(v[i], shift);
      if constexpr (!Log)
        v[i] = t;
      if (n == K || i < n) {
        s += t;
        if constexpr (Log)
          rest += below_max(t);
      }
    }
    if constexpr (Log)
      return log_sums{s, rest};
    else
      return s;
  }
  __device__ sums merge2(sums a, sums b) const {
    if constexpr (Log)
      return log_sums{a.sum + b.sum, a.rest + b.rest};
    else
      return a + b;
  }

  __device__ stats finalize2(float row_max, sums s, index_t cols) const {
    if constexpr (Log)
      return finalize(make_partial(row_max, s.sum, s.rest), cols);
    else
      return finalize(make_partial(row_max, s, 0.0f), cols);
  }

  /// Outputs from phase 2's v.
  template <int N>
  __device__ void finish2(float (&x)[N], stats const& s, index_t row, index_t col0) const {
    if constexpr (Log) {
      finish(x, s, row, col0);
    } else {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        x[j] *= s.inv_sum;
    }
  }

  // ---- one exchange a row (the register engine's cluster rows: engine::shifted_sums_op) -------
  // Each warp takes phase 2 about its own max (a phase 1 over the warp, by shuffles), and the
  // cluster exchanges every warp's (own max, sums about it) in one round where the two-phase
  // protocol makes two: the row's max is the max of theirs, and the row's sums theirs moved to
  // it. A warp then finishes its terms with exp(own max - row max) on top of 1 / sum.

  /// A part's sums about its max `from`, moved to the row's max `to` (>= from). A row of no
  /// values (to = -inf) keeps them as they are: 0, or NaN.
  __device__ sums sums_about(float from, sums s, float to) const {
    if (to == rowfuse::detail::neg_inf)
      return s;
    if constexpr (Log) {
      float const sum = rescaled(s.sum, from, to);
      // As merge: every term of a part below the row's max falls into rest.
      return log_sums{sum, from == to ? s.rest : sum};
    } else {
      return rescaled(s, from, to);
    }
  }

  /// The row's statistics, and the factors that take a part's phase-2 terms about its own max to
  /// outputs: y = term * scale, or y = (term * prescale) * scale where `split`. One factor,
  /// exp(own - max) / sum, is an fp32 subnormal for a part 70 or more below the row's max (then
  /// it would lose the digits of the probabilities precision_edges.cu checks); split, the term
  /// times the biased exp(own - max) stays normal, and the last multiply rounds once, as
  /// finish2's does. Log-softmax finishes from x (phase 2 keeps it) and takes `row` alone.
  struct shifted_stats {
    stats row;
    float scale;
    float prescale;
    bool split;
  };

  /// The statistics of a part whose phase 2 ran about `own_max`, from the row's max and sums.
  __device__ shifted_stats finalize_shifted(float row_max, sums row_sums, float own_max,
                                            index_t cols) const {
    stats const row = finalize2(row_max, row_sums, cols);
    if constexpr (Log) {
      return {row, 0.0f, 0.0f, false};
    } else {
      // exp(own - max) * 2^term_bias; a part of no values (own max -inf) has terms of 0.
      float const lift = own_max == rowfuse::detail::neg_inf ? 0.0f : term(own_max, row.shift);
      float const scale = lift * row.inv_sum * unbias;
      bool const split = scale < 0x1p-126f && lift > 0.0f;
      return {row, split ? row.inv_sum * unbias : scale, lift, split};
    }
  }

  /// Outputs from phase 2's v about the part's own max.
  template <int N>
  __device__ void finish_shifted(float (&x)[N], shifted_stats const& s, index_t row,
                                 index_t col0) const {
    if constexpr (Log) {
      finish(x, s.row, row, col0);
    } else if (s.split) {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        x[j] = x[j] * s.prescale * s.scale;
    } else {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        x[j] *= s.scale;
    }
  }

  /// Rescales the part with the smaller max to the larger. Every term of that part falls below
  /// the new max's own, so all of its sum joins rest.
  __device__ partial merge(partial a, partial b) const {
    float const m = fmaxf(a.max, b.max);
    if (m == rowfuse::detail::neg_inf) // keeps a NaN sum, avoids -inf - -inf
      return make_partial(m, a.sum + b.sum, 0.0f);
    float const sum_a = rescaled(a.sum, a.max, m), sum_b = rescaled(b.sum, b.max, m);
    float rest = 0.0f;
    if constexpr (Log)
      rest = (a.max == m ? a.rest : sum_a) + (b.max == m ? b.rest : sum_b);
    return make_partial(m, sum_a + sum_b, rest);
  }

  /// Once per row and lane, so kept cheap: a correctly rounded reciprocal (one MUFU and a fix-up,
  /// where 1.0f / sum is a division subroutine), and the log only for log-softmax. An empty row
  /// gets inv_sum = 0, so finishing is a plain multiply of zeros.
  __device__ stats finalize(partial p, index_t) const {
    float const shift = p.max == rowfuse::detail::neg_inf ? 0.0f : p.max;
    bool const empty = p.sum == 0.0f;
    float log_sum = 0.0f;
    if constexpr (Log)
      log_sum =
          log1pf(p.sum * unbias < 2.0f ? p.rest * unbias : p.sum * unbias - 1.0f); // NaN stays NaN
    return {shift, p.sum, empty ? 0.0f : __frcp_rn(p.sum), log_sum, empty};
  }

  /// One-phase finish (the streaming engines): x is the transformed input.
  template <int N> __device__ void finish(float (&x)[N], stats const& s, index_t, index_t) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      // fp32 outputs too multiply by the rounded reciprocal: 1.5 ulp, far inside 1e-6.
      if constexpr (Log)
        x[j] = s.empty ? rowfuse::detail::neg_inf : x[j] - s.shift - s.log_sum;
      else
        x[j] = term(x[j], s.shift) * s.inv_sum;
    }
  }

  template <int N> bool aligned_for_pack() const { return true; }

  __device__ void save(index_t, stats const&) const {}
};

} // namespace rowfuse::op
