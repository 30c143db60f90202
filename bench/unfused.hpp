// The unfused baselines: what a user writes without rowfuse. Every step is its own kernel, from
// Thrust (thrust::transform and friends for element-wise steps) and CUB
// (cub::DeviceSegmentedReduce for per-row statistics), and every intermediate is a full tensor
// in the input's type, as a framework op would return it. Row statistics are fp32.
//
// The steps are defined once per element type in unfused_kit.cuh (compiled per type); the ops
// and pipelines below only chain them, so including this header costs nothing.
#pragma once

#include <cuda_fp8.h>

#include "harness.hpp"

namespace bench::unfused {

// Every [rows, cols] tensor comes with its ld, the elements from one row to the next (>= cols):
// the benchmark's inputs and outputs are strided and misaligned with --misalign, while the
// temporaries between steps are compact (ld = cols). With every ld equal to cols a step is the
// plain Thrust or CUB call on the pointers; otherwise the element-wise steps map each compact
// index to the row and column of each tensor (a framework's kernel for strided tensors) and the
// row reductions take segments [r * ld, r * ld + cols).

// ---- per-row statistics: one cub::DeviceSegmentedReduce each ----------------------------------
template <class T>
void row_max(T const* x, long ld, float* out, long rows, long cols, scratch& s,
             cudaStream_t stream);
template <class T>
void row_sum(T const* x, long ld, float* out, long rows, long cols, scratch& s,
             cudaStream_t stream);
template <class T>
void row_sum_squares(T const* x, long ld, float* out, long rows, long cols, scratch& s,
                     cudaStream_t stream);
/// sum over the row of (x - row_sum / cols)^2: the second pass of a two-pass variance.
template <class T>
void row_sum_centered_squares(T const* x, long ld, float const* row_sum, float* out, long rows,
                              long cols, scratch& s, cudaStream_t stream);
/// max |x| over the whole compact tensor of n elements (cub::DeviceReduce): fp8's amax.
template <class T> void abs_max(T const* x, long n, float* out, scratch& s, cudaStream_t stream);

// ---- element-wise steps: one thrust::transform (or for_each) each -----------------------------
template <class T>
void scale(T const* x, long ldx, T* y, long ldy, long rows, long cols, float factor,
           cudaStream_t stream);
/// -inf where col > row % q_len.
template <class T>
void causal_mask(T const* x, long ldx, T* y, long ldy, long rows, long cols, long q_len,
                 cudaStream_t stream);
/// exp(x - row_max[row]).
template <class T>
void exp_minus_row(T const* x, long ldx, float const* row_max, T* y, long ldy, long rows, long cols,
                   cudaStream_t stream);
template <class T>
void divide_by_row(T const* x, long ldx, float const* row_sum, T* y, long ldy, long rows, long cols,
                   cudaStream_t stream);
/// x - row_max[row] - log(row_sum[row]), with row_sum the sum of exp(x - row_max).
template <class T>
void log_softmax_finish(T const* x, long ldx, float const* row_max, float const* row_sum, T* y,
                        long ldy, long rows, long cols, cudaStream_t stream);
/// (x - mean) * rstd * gamma + beta from the row's sum and sum of centred squares.
template <class T>
void layernorm_finish(T const* x, long ldx, float const* row_sum, float const* row_m2,
                      T const* gamma, T const* beta, float eps, T* y, long ldy, long rows,
                      long cols, cudaStream_t stream);
template <class T>
void rmsnorm_finish(T const* x, long ldx, float const* row_sum_squares, T const* gamma, float eps,
                    T* y, long ldy, long rows, long cols, cudaStream_t stream);
template <class T>
void add_bias(T const* x, long ldx, T const* bias, T* y, long ldy, long rows, long cols,
              cudaStream_t stream);
template <class T>
void add(T const* a, long lda, T const* b, long ldb, T* y, long ldy, long rows, long cols,
         cudaStream_t stream);
/// rf::dropout(dropout_p, dropout_seed, dropout_offset)'s mask and scale, same bits.
template <class T>
void dropout(T const* x, long ldx, T* y, long ldy, long rows, long cols, cudaStream_t stream);
/// round(x * scale) to e4m3, saturating.
template <class T>
void cast_fp8(T const* x, long ldx, __nv_fp8_e4m3* y, long ldy, long rows, long cols, float scale,
              cudaStream_t stream);

// ---- steps of the backward ops ---------------------------------------------------------------
// dy is the incoming gradient, dx the one written; the saved statistics mean and rstd are fp32
// per row (mean null: rmsnorm, whose x_hat is x * rstd); g = gamma * dy.

/// sum over the row of a * b (a, b rows lda, ldb apart): softmax's sum(dy * y).
template <class T>
void row_sum_products(T const* a, long lda, T const* b, long ldb, float* out, long rows, long cols,
                      scratch& s, cudaStream_t stream);
/// sum over the row of g (sum_g, skipped where null) and of g * x_hat (sum_g_x_hat): two
/// cub::DeviceSegmentedReduce::Sum.
template <class T>
void row_sums_norm_backward(T const* x, long ldx, T const* dy, long lddy, T const* gamma,
                            float const* mean, float const* rstd, float* sum_g, float* sum_g_x_hat,
                            long rows, long cols, scratch& s, cudaStream_t stream);
/// dx = scale * y * (dy - row_sum) (softmax) or scale * (dy - exp(y) * row_sum) (log-softmax).
template <class T>
void softmax_backward_finish(T const* y, long ldy, T const* dy, long lddy, float const* row_sum,
                             bool log, float scale, T* dx, long lddx, long rows, long cols,
                             cudaStream_t stream);
/// dx = rstd * (g - sum_g / cols - x_hat * sum_g_x_hat / cols); sum_g null: rmsnorm's, without
/// the mean.
template <class T>
void norm_backward_finish(T const* x, long ldx, T const* dy, long lddy, T const* gamma,
                          float const* mean, float const* rstd, float const* sum_g,
                          float const* sum_g_x_hat, T* dx, long lddx, long rows, long cols,
                          cudaStream_t stream);
/// dgamma = sum over the rows of dy * x_hat and dbeta = sum of dy (skipped where null): each
/// thread sums one column over a chunk of rows (neighbouring threads read neighbouring columns),
/// into `partials` (2 * column_partials_size floats), then one thread a column sums the chunks.
template <class T>
void column_grads(T const* x, long ldx, T const* dy, long lddy, float const* mean,
                  float const* rstd, float* dgamma, float* dbeta, float* partials, long rows,
                  long cols, cudaStream_t stream);
/// The statistics a forward saves, from its row sums: mean = row_sum / cols and
/// rstd = 1 / sqrt(row_m2 / cols + eps) (row_sum null: rmsnorm, row_m2 the sum of squares).
template <class T>
void saved_stats(float const* row_sum, float const* row_m2, float eps, float* mean, float* rstd,
                 long rows, long cols, cudaStream_t stream);

// ---- the ops, as chains of the steps above ----------------------------------------------------

/// max, exp, sum, divide: four kernels. `e` holds exp(x - max), compact.
template <class T>
void softmax(T const* x, long ldx, T* y, long ldy, T* e, buffers const& b, cudaStream_t stream) {
  row_max(x, ldx, b.row_a, b.rows, b.cols, *b.cub, stream);
  exp_minus_row(x, ldx, b.row_a, e, b.cols, b.rows, b.cols, stream);
  row_sum(static_cast<T const*>(e), b.cols, b.row_b, b.rows, b.cols, *b.cub, stream);
  divide_by_row(static_cast<T const*>(e), b.cols, b.row_b, y, ldy, b.rows, b.cols, stream);
}

template <class T>
void log_softmax(T const* x, long ldx, T* y, long ldy, T* e, buffers const& b,
                 cudaStream_t stream) {
  row_max(x, ldx, b.row_a, b.rows, b.cols, *b.cub, stream);
  exp_minus_row(x, ldx, b.row_a, e, b.cols, b.rows, b.cols, stream);
  row_sum(static_cast<T const*>(e), b.cols, b.row_b, b.rows, b.cols, *b.cub, stream);
  log_softmax_finish(x, ldx, b.row_a, b.row_b, y, ldy, b.rows, b.cols, stream);
}

/// sum, sum of centred squares, normalise: three kernels (a two-pass variance, as stable as
/// the fused Welford).
template <class T>
void layernorm(T const* x, long ldx, T* y, long ldy, buffers const& b, cudaStream_t stream) {
  row_sum(x, ldx, b.row_a, b.rows, b.cols, *b.cub, stream);
  row_sum_centered_squares(x, ldx, b.row_a, b.row_b, b.rows, b.cols, *b.cub, stream);
  layernorm_finish(x, ldx, b.row_a, b.row_b, static_cast<T const*>(b.gamma),
                   static_cast<T const*>(b.beta), layernorm_eps, y, ldy, b.rows, b.cols, stream);
}

template <class T>
void rmsnorm(T const* x, long ldx, T* y, long ldy, buffers const& b, cudaStream_t stream) {
  row_sum_squares(x, ldx, b.row_a, b.rows, b.cols, *b.cub, stream);
  rmsnorm_finish(x, ldx, b.row_a, static_cast<T const*>(b.gamma), rmsnorm_eps, y, ldy, b.rows,
                 b.cols, stream);
}

// ---- the backward ops ----------------------------------------------------------------------

/// sum(dy * y) per row, then dx: two kernels.
template <class T>
void softmax_backward(T const* y, long ldy, T const* dy, long lddy, float scale, T* dx, long lddx,
                      buffers const& b, cudaStream_t stream) {
  row_sum_products(y, ldy, dy, lddy, b.row_a, b.rows, b.cols, *b.cub, stream);
  softmax_backward_finish(y, ldy, dy, lddy, b.row_a, false, scale, dx, lddx, b.rows, b.cols,
                          stream);
}

/// sum(dy) per row, then dx: two kernels.
template <class T>
void log_softmax_backward(T const* y, long ldy, T const* dy, long lddy, T* dx, long lddx,
                          buffers const& b, cudaStream_t stream) {
  row_sum(dy, lddy, b.row_a, b.rows, b.cols, *b.cub, stream);
  softmax_backward_finish(y, ldy, dy, lddy, b.row_a, true, 1.0f, dx, lddx, b.rows, b.cols, stream);
}

/// sum(g) and sum(g * x_hat) per row, dx, then dgamma and dbeta (partials, their sum): five
/// kernels, x and dy read four times. The saved statistics are b.saved_mean and b.saved_rstd.
template <class T>
void layernorm_backward(T const* x, long ldx, T const* dy, long lddy, T* dx, long lddx,
                        buffers const& b, cudaStream_t stream) {
  auto const gamma = static_cast<T const*>(b.gamma);
  row_sums_norm_backward(x, ldx, dy, lddy, gamma, b.saved_mean, b.saved_rstd, b.row_a, b.row_b,
                         b.rows, b.cols, *b.cub, stream);
  norm_backward_finish(x, ldx, dy, lddy, gamma, b.saved_mean, b.saved_rstd, b.row_a, b.row_b, dx,
                       lddx, b.rows, b.cols, stream);
  column_grads(x, ldx, dy, lddy, b.saved_mean, b.saved_rstd, b.dgamma, b.dbeta, b.column_partials,
               b.rows, b.cols, stream);
}

/// sum(g * x_hat) per row, dx, then dgamma: four kernels.
template <class T>
void rmsnorm_backward(T const* x, long ldx, T const* dy, long lddy, T* dx, long lddx,
                      buffers const& b, cudaStream_t stream) {
  auto const gamma = static_cast<T const*>(b.gamma);
  row_sums_norm_backward(x, ldx, dy, lddy, gamma, nullptr, b.saved_rstd, nullptr, b.row_b, b.rows,
                         b.cols, *b.cub, stream);
  norm_backward_finish(x, ldx, dy, lddy, gamma, nullptr, b.saved_rstd, nullptr, b.row_b, dx, lddx,
                       b.rows, b.cols, stream);
  column_grads(x, ldx, dy, lddy, nullptr, b.saved_rstd, b.dgamma, nullptr, b.column_partials,
               b.rows, b.cols, stream);
}

} // namespace bench::unfused
