// The backward passes of layernorm and rmsnorm as the engines see them: a gradient_op whose input
// is the forward's input x and whose second stream is the incoming gradient dy, and an
// ordered_rows_op when dgamma or dbeta are asked for (engine/common.cuh).
#pragma once

#include <type_traits>

#include "../detail/async_copy.cuh"
#include "../detail/config.hpp"
#include "../detail/device_math.cuh"
#include "../detail/vector_io.hpp"
#include "../expr/expression.hpp"
#include "affine.hpp"
#include "norm.cuh"

namespace rowfuse::op {

/// log2 of the rows a chunk of dgamma / dbeta partials sums, a function of the shape alone
/// (never of the engine or the device), so that every engine sums the same rows into each
/// partial in the same order: the largest power of two R in [16, 256] that leaves at least
/// norm_chunk_target(cols) chunks, 16 where the rows leave fewer. A chunk is one row processor's
/// unit (a lane group, a block or a cluster walks its rows in order), so the chunks must outnumber
/// the processors the GPU holds at once; R >= 16 bounds the partials' traffic (written once and
/// read once by the column sum: 8 / R bytes an element and gradient, against 6 for 16-bit x, dy
/// and dx: 8 % at R = 16 for one gradient).
///
/// The target keeps the partials of one gradient near 2^20 floats: 2^20 / cols chunks, at least
/// 128 (wide rows: clusters of 2-8 blocks, 33-132 of them resident on an H100) and at most 16384
/// (narrow rows: lane groups of 4-32 lanes, thousands resident). Measured on the H100
/// (round 7 of bench/experiments/row_shapes.cu, bench/NOTES.md): layernorm_backward fp16 at 1024
/// columns 0.66 / 0.78 / 0.52 of a copy with partials of 2^21 / 2^20 / 2^18 floats, at 4096
/// 0.74 / 0.79 / 0.66; past 16384 columns more chunks won (0.53 -> 0.60 at 32768).
__host__ __device__ constexpr index_t norm_chunk_target(index_t cols) {
  index_t const by_partials = (index_t(1) << 20) / (cols > 0 ? cols : 1);
  return by_partials < 128 ? 128 : by_partials > 16384 ? 16384 : by_partials;
}
/// The largest power of two R in [16, 256] that leaves at least `target` chunks of `rows`.
__host__ __device__ constexpr int chunk_rows_log2_for(index_t rows, index_t target) {
  int log2 = 4;
  while (log2 < 8 && (rows >> (log2 + 1)) >= target)
    ++log2;
  return log2;
}
__host__ __device__ constexpr int norm_chunk_rows_log2(index_t rows, index_t cols) {
  return chunk_rows_log2_for(rows, norm_chunk_target(cols));
}

/// The forward's saved statistics of a row, as the norms' backward reads them: layernorm's mean
/// and rstd (Centered), rmsnorm's rstd.
template <bool Centered> struct norm_row_values {
  float mean;
  float rstd;
};
template <> struct norm_row_values<false> { float rstd; };

/// N running sums of a chunk, or nothing for a gradient the op never computes. Cleared, they are
/// -0, which every term leaves as it would be alone: fma(a, b, -0) is a * b rounded once and
/// -0 + a is a, signed zeros included (+0 + -0 = +0). So a chunk's first row can add to them like
/// every other and give the bits of the global path's first row, which writes its terms.
template <int N, bool Held> struct chunk_sum_pack {
  float v[N];
  __device__ void clear() {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      v[j] = -0.0f;
  }
};
template <int N> struct chunk_sum_pack<N, false> {
  __device__ void clear() {}
};

/// A thread's running dgamma (HasGamma) and dbeta (HasBeta) sums for one pack of N columns over
/// the rows of a chunk.
template <int N, bool HasGamma, bool HasBeta> struct norm_chunk_sums {
  [[no_unique_address]] chunk_sum_pack<N, HasGamma> gamma;
  [[no_unique_address]] chunk_sum_pack<N, HasBeta> beta;

  /// Every sum -0 (chunk_sum_pack::clear), as a chunk's first row finds them (see prepare).
  __device__ void clear() {
    gamma.clear();
    beta.clear();
  }

  /// The running sums a column has, and sum `which` (dgamma's, then dbeta's) of column j, for
  /// an engine that keeps them elsewhere between rows (chunk_accumulating_op).
  static constexpr int count = int(HasGamma) + int(HasBeta);
  __device__ float& value(int which, int j) {
    if constexpr (HasGamma && HasBeta)
      return which == 0 ? gamma.v[j] : beta.v[j];
    else if constexpr (HasGamma)
      return gamma.v[j];
    else
      return beta.v[j];
  }
};

/// Centered: layernorm, x_hat = (x - mean) * rstd; otherwise rmsnorm, x_hat = x * rstd; mean and
/// rstd are the forward's, saved per row. With g = gamma * dy (1 + gamma for a zero-centred gamma,
/// 1 without affine):
///   layernorm: dx = rstd * (g - mean(g) - x_hat * mean(g * x_hat))
///   rmsnorm:   dx = rstd * (g - x_hat * mean(g * x_hat))
/// Both means come from one reduction of two sums. prepare folds rstd into g (g' = rstd * g), so
/// that dx = g' - mean(g') - x_hat * mean(g' * x_hat) needs no per-row value after it.
///
/// dgamma = sum over rows of dy * x_hat and dbeta = sum over rows of dy, deterministically (the
/// same bits on every run and every engine): the rows fall into chunks of R = 2^chunk_rows_log2
/// consecutive rows (norm_chunk_rows_log2), which every engine visits in row order, each element
/// of a chunk by one thread or, on phased rows, by threads ordered by a barrier between rows
/// (ordered_rows_op); the thread sums each element's term into its chunk's partial row in the
/// workspace ([chunks, cols] fp32), so that
/// partial[k][c] = (((t_Rk + t_Rk+1) + t_Rk+2) + ...) in row order whatever the engine. Either in
/// global memory (prepare with emit: the chunk's first row writes the partial, the others add to
/// what was written at the row before), or in registers (chunk_accumulating_op, engine/common.cuh:
/// prepare with norm_chunk_sums, the same operations in the same order, and flush at the chunk's
/// last row). A second kernel (engine/column_sum.cuh) sums the partials of each column in a fixed
/// order. No atomics. x_hat and the terms are taken with explicitly rounded operations, which the
/// compiler does not contract differently from one kernel to the next.
///
/// Precision: x_hat carries the forward's rounding of mean and rstd (fp32); the two sums are of
/// O(|g'|) terms, interleaved within a thread and in trees across threads, so each output is
/// within a few fp32 ulps of |g'| + |mean(g')| + |x_hat| |mean(g' x_hat)|.
template <bool Centered, class Affine, class Gradient> struct norm_backward {
  static constexpr char const* name = Centered ? "rf::layernorm_backward" : "rf::rmsnorm_backward";
  using gradient_type = Gradient;
  Gradient gradient;
  Affine affine;
  float const* mean;    // per row; layernorm only
  float const* rstd;    // per row
  float* partial_gamma; // [chunks, cols]; null: no dgamma
  float* partial_beta;  // [chunks, cols]; null: no dbeta
  int chunk_rows_log2;  // norm_chunk_rows_log2(rows, cols) with partials, 0 without (no order)
  index_t cols;

  struct partial {
    float sum_g;  // of g'
    float sum_gx; // of g' * x_hat
  };
  struct stats {
    float mean_g;
    float mean_gx;
  };

  /// The forward's saved statistics of a row: layernorm's mean and rstd, rmsnorm's rstd.
  using row_values = norm_row_values<Centered>;

  static constexpr bool has_gamma = !std::is_same_v<Affine, no_affine_t>;
  template <int N> using chunk_sums = norm_chunk_sums<N, has_gamma, Centered>;

  __host__ __device__ int chunk_log2() const { return chunk_rows_log2; }

  __device__ partial identity() const { return {0.0f, 0.0f}; }

  __device__ row_values read_row(index_t row) const {
    if constexpr (Centered)
      return {mean[row], rstd[row]};
    else
      return {rstd[row]};
  }
  /// Starts copying read_row(row) to `to` in shared memory (cp.async: it lands at the caller's
  /// wait for its group).
  __device__ void stage_row(index_t row, row_values* to) const {
    if constexpr (Centered)
      rowfuse::detail::async_copy_pack<1>(&to->mean, mean + row);
    rowfuse::detail::async_copy_pack<1>(&to->rstd, rstd + row);
  }

  /// gamma's (and beta's, unused) packs at col0, as the forward reads them.
  template <int N>
  __device__ auto read_columns(index_t col0) const
      -> decltype(norm_detail::read_affine<N>(affine, col0)) {
    return norm_detail::read_affine<N>(affine, col0);
  }

  /// gamma's (and beta's, unused) packs at col0 off their grid, on a phased row
  /// (engine/phased_row.cuh): read in place (its rows took no copies at each phase).
  template <int N, rowfuse::detail::column_phases Phases = rowfuse::detail::column_phases::per_warp,
            bool = false>
  __device__ auto read_columns_off_grid(index_t, index_t col0) const
      -> decltype(norm_detail::read_affine_in_place<N, Phases>(affine, col0)) {
    return norm_detail::read_affine_in_place<N, Phases>(affine, col0);
  }

  /// x becomes x_hat and dy becomes g' = rstd * gamma * dy, with `values` = read_row(row), after
  /// dy * x_hat and dy have gone into the chunk's partials in global memory (once per element:
  /// where emit is true). `OffGrid`: col0 is a phased row's (engine/phased_row.cuh), off the
  /// partials' pack grid, so they are read and written an element at a time.
  template <int N, bool OffGrid = false, class Columns>
  __device__ void prepare(float (&x)[N], float (&dy)[N], row_values const& values, index_t row,
                          index_t col0, Columns const& columns, bool emit) const {
    normalize(x, values);
    if (emit)
      accumulate_global<N, OffGrid>(x, dy, row, col0);
    scale_gradient(dy, values.rstd, columns);
  }
  template <int N>
  __device__ void prepare(float (&x)[N], float (&dy)[N], row_values const& values, index_t row,
                          index_t col0, bool emit) const {
    prepare(x, dy, values, row, col0, read_columns<N>(col0), emit);
  }

  /// As prepare with emit, dy * x_hat and dy going into `sums` instead, which the same thread
  /// passes for the rows of one chunk in row order, with the roundings of the global path. Every
  /// row adds, the chunk's first to cleared sums (chunk_sums::clear, or flush); or,
  /// `FromFirstRow`, the chunk's first row sets them (a select a term) and flush leaves them:
  /// the same bits, a term's instructions more, which the engine takes where a kernel's
  /// registers were measured to fare better so (tuning::register_shape::sums_from_first_row).
  template <int N, bool FromFirstRow = false, class Columns>
  __device__ void prepare(float (&x)[N], float (&dy)[N], row_values const& values, index_t row,
                          Columns const& columns, chunk_sums<N>& sums) const {
    normalize(x, values);
    [[maybe_unused]] bool const first =
        FromFirstRow && (row & ((index_t(1) << chunk_rows_log2) - 1)) == 0;
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      if constexpr (FromFirstRow) {
        if constexpr (has_gamma)
          sums.gamma.v[j] =
              first ? __fmul_rn(dy[j], x[j]) : __fmaf_rn(dy[j], x[j], sums.gamma.v[j]);
        if constexpr (Centered)
          sums.beta.v[j] = first ? dy[j] : __fadd_rn(sums.beta.v[j], dy[j]);
      } else {
        if constexpr (has_gamma)
          sums.gamma.v[j] = __fmaf_rn(dy[j], x[j], sums.gamma.v[j]);
        if constexpr (Centered)
          sums.beta.v[j] = __fadd_rn(sums.beta.v[j], dy[j]);
      }
    }
    scale_gradient(dy, values.rstd, columns);
  }

  /// Whether `row` is the last its chunk sums: the chunk's last or the matrix's.
  __device__ bool ends_chunk(index_t row, index_t rows) const {
    index_t const mask = (index_t(1) << chunk_rows_log2) - 1;
    return (row & mask) == mask || row == rows - 1;
  }

  /// Writes the sums of the chunk of `row` at col0 .. col0 + N to the partials and clears them
  /// for the next chunk (not `FromFirstRow`: see prepare).
  template <int N, bool FromFirstRow = false>
  __device__ void flush(chunk_sums<N>& sums, index_t row, index_t col0) const {
    index_t const at = (row >> chunk_rows_log2) * cols + col0;
    if constexpr (has_gamma)
      if (partial_gamma != nullptr)
        rowfuse::detail::store_pack<N>(partial_gamma + at, sums.gamma.v);
    if constexpr (Centered)
      if (partial_beta != nullptr)
        rowfuse::detail::store_pack<N>(partial_beta + at, sums.beta.v);
    if constexpr (!FromFirstRow)
      sums.clear();
  }

  template <int K>
  __device__ partial local(float const (&x_hat)[K], float const (&g)[K], int n) const {
    return {
        rowfuse::detail::interleaved_sum<K>([&](int i) { return n == K || i < n ? g[i] : 0.0f; }),
        rowfuse::detail::interleaved_sum<K>(
            [&](int i) { return n == K || i < n ? g[i] * x_hat[i] : 0.0f; })};
  }

  __device__ partial merge(partial a, partial b) const {
    return {a.sum_g + b.sum_g, a.sum_gx + b.sum_gx};
  }

  __device__ stats finalize(partial p, index_t n) const {
    float const inv = __frcp_rn(float(n));
    return {Centered ? p.sum_g * inv : 0.0f, p.sum_gx * inv};
  }

  /// x_hat becomes dx.
  template <int N>
  __device__ void finish(float (&x_hat)[N], float const (&g)[N], stats const& s, index_t,
                         index_t) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x_hat[j] = fmaf(-x_hat[j], s.mean_gx, g[j] - s.mean_g);
  }

  template <int N> bool aligned_for_pack() const {
    return gradient.input.aligned_to(
               rowfuse::detail::pack_alignment<typename Gradient::element_type, N>) &&
           detail::chain_allows_pack<N>(gradient) && norm_detail::affine_allows_pack<N>(affine);
  }

  __device__ void save(index_t, stats const&) const {}

private:
  /// x becomes x_hat.
  template <int N> __device__ static void normalize(float (&x)[N], row_values const& values) {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      if constexpr (Centered)
        x[j] = __fmul_rn(__fsub_rn(x[j], values.mean), values.rstd);
      else
        x[j] = __fmul_rn(x[j], values.rstd);
    }
  }

  /// dy becomes g' = r * gamma * dy.
  template <int N, class Columns>
  __device__ void scale_gradient(float (&dy)[N], float r, Columns const& columns) const {
    float g[N];
    gamma_times(g, dy, columns);
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      dy[j] = g[j] * r;
  }

  /// The chunk's partials at (row, col0 .. col0 + N): the chunk's first row writes them, the
  /// others add to them (a thread of the same row processor wrote them at the row before: see
  /// ordered_rows_op). `OffGrid`: an element at a time.
  template <int N, bool OffGrid>
  __device__ void accumulate_global(float const (&x_hat)[N], float const (&dy)[N], index_t row,
                                    index_t col0) const {
    bool const first = (row & ((index_t(1) << chunk_rows_log2) - 1)) == 0;
    index_t const at = (row >> chunk_rows_log2) * cols + col0;
    if (partial_gamma != nullptr) {
      float sums[N];
      if (!first)
        load_partials<N, OffGrid>(partial_gamma + at, sums);
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        sums[j] = first ? __fmul_rn(dy[j], x_hat[j]) : __fmaf_rn(dy[j], x_hat[j], sums[j]);
      store_partials<N, OffGrid>(partial_gamma + at, sums);
    }
    if (partial_beta != nullptr) {
      float sums[N];
      if (!first)
        load_partials<N, OffGrid>(partial_beta + at, sums);
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        sums[j] = first ? dy[j] : __fadd_rn(sums[j], dy[j]);
      store_partials<N, OffGrid>(partial_beta + at, sums);
    }
  }
  template <int N, bool OffGrid>
  __device__ static void load_partials(float const* at, float (&sums)[N]) {
    if constexpr (OffGrid) {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        sums[j] = at[j];
    } else {
      rowfuse::detail::load_pack<N>(at, sums);
    }
  }
  template <int N, bool OffGrid>
  __device__ static void store_partials(float* at, float const (&sums)[N]) {
    if constexpr (OffGrid) {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        at[j] = sums[j];
    } else {
      rowfuse::detail::store_pack<N>(at, sums);
    }
  }

  /// g = gamma * dy (dy + gamma * dy for a zero-centred gamma), or dy without affine.
  template <int N, class G, class B>
  __device__ void gamma_times(float (&g)[N], float const (&dy)[N],
                              norm_detail::affine_packs<N, G, B> const& packs) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      float const gamma = rowfuse::detail::widen<float>(packs.gamma[j]);
      g[j] = affine.zero_centered ? fmaf(gamma, dy[j], dy[j]) : gamma * dy[j];
    }
  }
  template <int N>
  __device__ void gamma_times(float (&g)[N], float const (&dy)[N],
                              rowfuse::detail::no_state) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      g[j] = dy[j];
  }
};

} // namespace rowfuse::op
