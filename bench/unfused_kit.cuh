// Definitions of the unfused steps of unfused.hpp. CMake compiles this once per element type
// (unfused_<type>.cu in the build tree ends in BENCH_INSTANTIATE_UNFUSED(type)), so the CUB and
// Thrust instantiations are built in parallel and only once.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "dropout.hpp"
#include "unfused.hpp"

namespace bench::unfused {

namespace kit {

inline void check(cudaError_t status, char const* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("unfused ") + what + ": " + cudaGetErrorString(status));
}

/// No synchronisation after each algorithm: the steps queue back to back on the stream, as in
/// a framework. (thrust::cuda::par waits for every algorithm to finish.)
inline auto on(cudaStream_t stream) {
  return thrust::cuda::par_nosync.on(stream);
}

template <class T> __host__ __device__ __forceinline__ float widen(T v) {
  return static_cast<float>(v);
}
template <class T> __host__ __device__ __forceinline__ T narrow(float v) {
  if constexpr (std::is_same_v<T, __half>)
    return __float2half_rn(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __float2bfloat16_rn(v);
  else
    return v;
}

/// The row of linear index i. Below 2^32 elements the 32-bit division is several times cheaper
/// than the 64-bit one, which would otherwise make the element-wise kernels compute-bound.
__host__ __device__ __forceinline__ long row_of(long i, long cols) {
  if ((static_cast<unsigned long>(i) | static_cast<unsigned long>(cols)) >> 32 == 0)
    return long(unsigned(i) / unsigned(cols));
  return i / cols;
}

/// Row r of a tensor with rows ld apart is the segment [r * ld, r * ld + cols).
struct row_start {
  long ld;
  __host__ __device__ long operator()(long row) const { return row * ld; }
};
struct row_end {
  long ld, cols;
  __host__ __device__ long operator()(long row) const { return row * ld + cols; }
};
inline auto row_starts(long ld) {
  return thrust::make_transform_iterator(thrust::make_counting_iterator(0L), row_start{ld});
}
inline auto row_ends(long ld, long cols) {
  return thrust::make_transform_iterator(thrust::make_counting_iterator(0L), row_end{ld, cols});
}

template <class T> struct to_float {
  __host__ __device__ float operator()(T v) const { return widen(v); }
};
template <class T> struct square {
  __host__ __device__ float operator()(T v) const {
    float const f = widen(v);
    return f * f;
  }
};
template <class T> struct magnitude {
  __host__ __device__ float operator()(T v) const { return fabsf(widen(v)); }
};
/// i is the offset in x (rows ld apart), not the compact index.
template <class T> struct centered_square {
  T const* x;
  float const* row_sum;
  long ld, cols;
  __host__ __device__ float operator()(long i) const {
    float const d = widen(x[i]) - row_sum[row_of(i, ld)] / float(cols);
    return d * d;
  }
};

/// CUB's two-call protocol: ask for the temporary storage, then run with it.
template <class Call> void with_temp_storage(scratch& s, char const* what, Call call) {
  std::size_t bytes = 0;
  check(call(nullptr, bytes), what);
  check(call(s.at_least(bytes), bytes), what);
}

template <class Input>
void segmented_sum(Input in, float* out, long rows, long cols, long ld, scratch& s,
                   cudaStream_t stream, char const* what) {
  with_temp_storage(s, what, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, rows, row_starts(ld),
                                           row_ends(ld, cols), stream);
  });
}

} // namespace kit

// The segments are [r * ld, r * ld + cols) whatever ld is: with ld = cols they are the ones
// CUB was given before strided tensors (row starts and the next row's start), so one
// instantiation serves both layouts.
template <class T>
void row_max(T const* x, long ld, float* out, long rows, long cols, scratch& s,
             cudaStream_t stream) {
  auto const in = thrust::make_transform_iterator(x, kit::to_float<T>{});
  kit::with_temp_storage(s, "row max", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedReduce::Max(temp, bytes, in, out, rows, kit::row_starts(ld),
                                           kit::row_ends(ld, cols), stream);
  });
}

template <class T>
void row_sum(T const* x, long ld, float* out, long rows, long cols, scratch& s,
             cudaStream_t stream) {
  kit::segmented_sum(thrust::make_transform_iterator(x, kit::to_float<T>{}), out, rows, cols, ld, s,
                     stream, "row sum");
}

template <class T>
void row_sum_squares(T const* x, long ld, float* out, long rows, long cols, scratch& s,
                     cudaStream_t stream) {
  kit::segmented_sum(thrust::make_transform_iterator(x, kit::square<T>{}), out, rows, cols, ld, s,
                     stream, "row sum of squares");
}

template <class T>
void row_sum_centered_squares(T const* x, long ld, float const* row_sum, float* out, long rows,
                              long cols, scratch& s, cudaStream_t stream) {
  auto const in = thrust::make_transform_iterator(thrust::make_counting_iterator(0L),
                                                  kit::centered_square<T>{x, row_sum, ld, cols});
  kit::segmented_sum(in, out, rows, cols, ld, s, stream, "row sum of centred squares");
}

template <class T> void abs_max(T const* x, long n, float* out, scratch& s, cudaStream_t stream) {
  auto const in = thrust::make_transform_iterator(x, kit::magnitude<T>{});
  kit::with_temp_storage(s, "amax", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceReduce::Max(temp, bytes, in, out, n, stream);
  });
}

namespace kit {

template <class T> struct scale_by {
  float factor;
  __host__ __device__ T operator()(T v) const { return narrow<T>(widen(v) * factor); }
};
template <class T> struct causal {
  long cols, q_len;
  __host__ __device__ T operator()(T v, long i) const {
    long const row = row_of(i, cols);
    return i - row * cols > row % q_len ? narrow<T>(-INFINITY) : v;
  }
};
template <class T> struct exp_minus {
  float const* row_max;
  long cols;
  __host__ __device__ T operator()(T v, long i) const {
    return narrow<T>(expf(widen(v) - row_max[row_of(i, cols)]));
  }
};
template <class T> struct divide {
  float const* row_sum;
  long cols;
  __host__ __device__ T operator()(T v, long i) const {
    return narrow<T>(widen(v) / row_sum[row_of(i, cols)]);
  }
};
template <class T> struct log_softmax_of {
  float const* row_max;
  float const* row_sum;
  long cols;
  __host__ __device__ T operator()(T v, long i) const {
    long const r = row_of(i, cols);
    return narrow<T>(widen(v) - row_max[r] - logf(row_sum[r]));
  }
};
template <class T> struct normalize {
  float const* row_sum;
  float const* row_m2;
  T const* gamma;
  T const* beta;
  float eps;
  long cols;
  __host__ __device__ T operator()(T v, long i) const {
    long const r = row_of(i, cols);
    long const c = i - r * cols;
    float const mean = row_sum[r] / float(cols);
    float const rstd = rsqrtf(row_m2[r] / float(cols) + eps);
    return narrow<T>((widen(v) - mean) * rstd * widen(gamma[c]) + widen(beta[c]));
  }
};
template <class T> struct rms_normalize {
  float const* row_sum_squares;
  T const* gamma;
  float eps;
  long cols;
  __host__ __device__ T operator()(T v, long i) const {
    long const r = row_of(i, cols);
    float const rstd = rsqrtf(row_sum_squares[r] / float(cols) + eps);
    return narrow<T>(widen(v) * rstd * widen(gamma[i - r * cols]));
  }
};
template <class T> struct plus_bias {
  T const* bias;
  long cols;
  __host__ __device__ T operator()(T v, long i) const {
    return narrow<T>(widen(v) + widen(bias[i - row_of(i, cols) * cols]));
  }
};
template <class T> struct plus {
  __host__ __device__ T operator()(T a, T b) const { return narrow<T>(widen(a) + widen(b)); }
};
template <class T> struct to_fp8 {
  float scale;
  // The conversion constructor rounds to nearest and saturates to +-448.
  __host__ __device__ __nv_fp8_e4m3 operator()(T v) const {
    return __nv_fp8_e4m3(widen(v) * scale);
  }
};

/// Dropout over packs of 8 consecutive elements of a row, so that rowfuse's node can draw one
/// Philox result for several elements, as a hand-written dropout kernel would (one call per
/// element would make this step compute-bound and the baseline slower than it need be).
template <class T> struct dropout_packs {
  static constexpr int N = 8;
  struct alignas(16) pack {
    T v[N];
  };
  T const* x;
  long ldx;
  T* y;
  long ldy;
  long cols;
  long packs_per_row;
  bool vector_io; // cols, ldx and ldy multiples of N, 16-byte aligned pointers
  rowfuse::dropout_node node;

  __device__ void operator()(long p) const {
    long const row = row_of(p, packs_per_row);
    long const col0 = (p - row * packs_per_row) * N;
    if (vector_io) {
      pack const in = *reinterpret_cast<pack const*>(x + row * ldx + col0);
      float v[N];
#pragma unroll
      for (int j = 0; j < N; ++j)
        v[j] = widen(in.v[j]);
      apply_dropout<N>(node, v, row, col0, cols);
      pack out;
#pragma unroll
      for (int j = 0; j < N; ++j)
        out.v[j] = narrow<T>(v[j]);
      *reinterpret_cast<pack*>(y + row * ldy + col0) = out;
      return;
    }
    for (long c = col0; c < cols && c < col0 + N; ++c) {
      float v[1] = {widen(x[row * ldx + c])};
      apply_dropout<1>(node, v, row, c, cols);
      y[row * ldy + c] = narrow<T>(v[0]);
    }
  }
};

/// y(r, c) = f(x(r, c)) or f(x(r, c), i) over tensors whose rows are ldx and ldy apart, i the
/// compact index r * cols + c that the functors above take.
template <class X, class Y, class F> struct strided_map {
  X const* x;
  long ldx;
  Y* y;
  long ldy;
  long cols;
  F f;
  __device__ void operator()(long i) const {
    long const r = row_of(i, cols);
    long const c = i - r * cols;
    if constexpr (std::is_invocable_v<F const&, X, long>)
      y[r * ldy + c] = f(x[r * ldx + c], i);
    else
      y[r * ldy + c] = f(x[r * ldx + c]);
  }
};

template <class T, class F> struct strided_zip {
  T const* a;
  long lda;
  T const* b;
  long ldb;
  T* y;
  long ldy;
  long cols;
  F f;
  __device__ void operator()(long i) const {
    long const r = row_of(i, cols);
    long const c = i - r * cols;
    y[r * ldy + c] = f(a[r * lda + c], b[r * ldb + c]);
  }
};

/// One element-wise step over [rows, cols]: on compact tensors the thrust::transform on the
/// pointers it always was (with the compact index where f takes one); on strided ones one
/// thread an element through strided_map.
template <class X, class Y, class F>
void map_rows(X const* x, long ldx, Y* y, long ldy, long rows, long cols, F f,
              cudaStream_t stream) {
  long const n = rows * cols;
  if (ldx == cols && ldy == cols) {
    if constexpr (std::is_invocable_v<F const&, X, long>)
      thrust::transform(on(stream), x, x + n, thrust::make_counting_iterator(0L), y, f);
    else
      thrust::transform(on(stream), x, x + n, y, f);
  } else {
    thrust::for_each_n(on(stream), thrust::make_counting_iterator(0L), n,
                       strided_map<X, Y, F>{x, ldx, y, ldy, cols, f});
  }
}

} // namespace kit

template <class T>
void scale(T const* x, long ldx, T* y, long ldy, long rows, long cols, float factor,
           cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols, kit::scale_by<T>{factor}, stream);
}

template <class T>
void causal_mask(T const* x, long ldx, T* y, long ldy, long rows, long cols, long q_len,
                 cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols, kit::causal<T>{cols, q_len}, stream);
}

template <class T>
void exp_minus_row(T const* x, long ldx, float const* row_max, T* y, long ldy, long rows, long cols,
                   cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols, kit::exp_minus<T>{row_max, cols}, stream);
}

template <class T>
void divide_by_row(T const* x, long ldx, float const* row_sum, T* y, long ldy, long rows, long cols,
                   cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols, kit::divide<T>{row_sum, cols}, stream);
}

template <class T>
void log_softmax_finish(T const* x, long ldx, float const* row_max, float const* row_sum, T* y,
                        long ldy, long rows, long cols, cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols, kit::log_softmax_of<T>{row_max, row_sum, cols}, stream);
}

template <class T>
void layernorm_finish(T const* x, long ldx, float const* row_sum, float const* row_m2,
                      T const* gamma, T const* beta, float eps, T* y, long ldy, long rows,
                      long cols, cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols,
                kit::normalize<T>{row_sum, row_m2, gamma, beta, eps, cols}, stream);
}

template <class T>
void rmsnorm_finish(T const* x, long ldx, float const* row_sum_squares, T const* gamma, float eps,
                    T* y, long ldy, long rows, long cols, cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols,
                kit::rms_normalize<T>{row_sum_squares, gamma, eps, cols}, stream);
}

template <class T>
void add_bias(T const* x, long ldx, T const* bias, T* y, long ldy, long rows, long cols,
              cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols, kit::plus_bias<T>{bias, cols}, stream);
}

template <class T>
void add(T const* a, long lda, T const* b, long ldb, T* y, long ldy, long rows, long cols,
         cudaStream_t stream) {
  long const n = rows * cols;
  if (lda == cols && ldb == cols && ldy == cols)
    thrust::transform(kit::on(stream), a, a + n, b, y, kit::plus<T>{});
  else
    thrust::for_each_n(kit::on(stream), thrust::make_counting_iterator(0L), n,
                       kit::strided_zip<T, kit::plus<T>>{a, lda, b, ldb, y, ldy, cols, {}});
}

template <class T>
void dropout(T const* x, long ldx, T* y, long ldy, long rows, long cols, cudaStream_t stream) {
  using body = kit::dropout_packs<T>;
  long const packs_per_row = (cols + body::N - 1) / body::N;
  bool const aligned = cols % body::N == 0 && ldx % body::N == 0 && ldy % body::N == 0 &&
                       reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(y) % 16 == 0;
  thrust::for_each_n(kit::on(stream), thrust::make_counting_iterator(0L), rows * packs_per_row,
                     body{x, ldx, y, ldy, cols, packs_per_row, aligned, bound_dropout(rows, cols)});
}

template <class T>
void cast_fp8(T const* x, long ldx, __nv_fp8_e4m3* y, long ldy, long rows, long cols, float scale,
              cudaStream_t stream) {
  kit::map_rows(x, ldx, y, ldy, rows, cols, kit::to_fp8<T>{scale}, stream);
}

// ---- the backward steps ----------------------------------------------------------------------

namespace kit {

/// (row, col) of the compact index k = row * cols + col.
struct place {
  long row, col;
};
__host__ __device__ __forceinline__ place place_of(long k, long cols) {
  long const r = row_of(k, cols);
  return {r, k - r * cols};
}

/// a(r, c) * b(r, c) at the compact index k, the tensors rows lda and ldb apart.
template <class T> struct product {
  T const* a;
  long lda;
  T const* b;
  long ldb;
  long cols;
  __host__ __device__ float operator()(long k) const {
    place const p = place_of(k, cols);
    return widen(a[p.row * lda + p.col]) * widen(b[p.row * ldb + p.col]);
  }
};

/// g = gamma * dy at the compact index k, times x_hat = (x - mean) * rstd with TimesXHat (mean
/// null: x * rstd).
template <class T, bool TimesXHat> struct norm_term {
  T const* x;
  long ldx;
  T const* dy;
  long lddy;
  T const* gamma;
  float const* mean;
  float const* rstd;
  long cols;
  __host__ __device__ float operator()(long k) const {
    place const p = place_of(k, cols);
    float const g = widen(gamma[p.col]) * widen(dy[p.row * lddy + p.col]);
    if constexpr (!TimesXHat)
      return g;
    float const centre = mean ? mean[p.row] : 0.0f;
    return g * (widen(x[p.row * ldx + p.col]) - centre) * rstd[p.row];
  }
};

template <class T> struct softmax_gradient {
  T const* y;
  long ldy;
  T const* dy;
  long lddy;
  float const* row_sum;
  bool log;
  float scale;
  T* dx;
  long lddx;
  long cols;
  __host__ __device__ void operator()(long k) const {
    place const p = place_of(k, cols);
    float const yv = widen(y[p.row * ldy + p.col]);
    float const d = widen(dy[p.row * lddy + p.col]);
    float const s = row_sum[p.row];
    dx[p.row * lddx + p.col] = narrow<T>(scale * (log ? d - expf(yv) * s : yv * (d - s)));
  }
};

template <class T> struct norm_gradient {
  T const* x;
  long ldx;
  T const* dy;
  long lddy;
  T const* gamma;
  float const* mean;
  float const* rstd;
  float const* sum_g;
  float const* sum_g_x_hat;
  T* dx;
  long lddx;
  long cols;
  __host__ __device__ void operator()(long k) const {
    place const p = place_of(k, cols);
    float const s = rstd[p.row];
    float const x_hat = (widen(x[p.row * ldx + p.col]) - (mean ? mean[p.row] : 0.0f)) * s;
    float const g = widen(gamma[p.col]) * widen(dy[p.row * lddy + p.col]);
    float const mean_g = sum_g ? sum_g[p.row] / float(cols) : 0.0f;
    float const mean_g_x_hat = sum_g_x_hat[p.row] / float(cols);
    dx[p.row * lddx + p.col] = narrow<T>(s * (g - mean_g - x_hat * mean_g_x_hat));
  }
};

/// Partial k = chunk * cols + col: the sums over rows [chunk * rows_per_chunk, + rows_per_chunk)
/// of dy * x_hat (into gamma_part) and of dy (into beta_part, where not null).
template <class T> struct column_partial {
  T const* x;
  long ldx;
  T const* dy;
  long lddy;
  float const* mean;
  float const* rstd;
  float* gamma_part;
  float* beta_part;
  long rows, cols, rows_per_chunk;
  __host__ __device__ void operator()(long k) const {
    place const p = place_of(k, cols); // p.row is the chunk
    long const first = p.row * rows_per_chunk;
    long const last = first + rows_per_chunk < rows ? first + rows_per_chunk : rows;
    float sum_x_hat = 0.0f, sum = 0.0f;
    for (long r = first; r < last; ++r) {
      float const d = widen(dy[r * lddy + p.col]);
      float const x_hat = (widen(x[r * ldx + p.col]) - (mean ? mean[r] : 0.0f)) * rstd[r];
      sum_x_hat += d * x_hat;
      sum += d;
    }
    gamma_part[k] = sum_x_hat;
    if (beta_part)
      beta_part[k] = sum;
  }
};

/// out[col] = the sum over chunks of part[chunk * cols + col].
struct column_total {
  float const* part;
  float* out;
  long chunks, cols;
  __host__ __device__ void operator()(long col) const {
    float sum = 0.0f;
    for (long chunk = 0; chunk < chunks; ++chunk)
      sum += part[chunk * cols + col];
    out[col] = sum;
  }
};

struct statistics_of {
  float const* row_sum;
  float const* row_m2;
  float eps;
  float* mean;
  float* rstd;
  long cols;
  __host__ __device__ void operator()(long r) const {
    if (mean)
      mean[r] = row_sum[r] / float(cols);
    rstd[r] = rsqrtf(row_m2[r] / float(cols) + eps);
  }
};

} // namespace kit

template <class T>
void row_sum_products(T const* a, long lda, T const* b, long ldb, float* out, long rows, long cols,
                      scratch& s, cudaStream_t stream) {
  auto const in = thrust::make_transform_iterator(thrust::make_counting_iterator(0L),
                                                  kit::product<T>{a, lda, b, ldb, cols});
  kit::segmented_sum(in, out, rows, cols, cols, s, stream, "row sum of products");
}

template <class T>
void row_sums_norm_backward(T const* x, long ldx, T const* dy, long lddy, T const* gamma,
                            float const* mean, float const* rstd, float* sum_g, float* sum_g_x_hat,
                            long rows, long cols, scratch& s, cudaStream_t stream) {
  auto const terms = [&](auto term) {
    return thrust::make_transform_iterator(thrust::make_counting_iterator(0L), term);
  };
  if (sum_g)
    kit::segmented_sum(terms(kit::norm_term<T, false>{x, ldx, dy, lddy, gamma, mean, rstd, cols}),
                       sum_g, rows, cols, cols, s, stream, "row sum of gamma * dy");
  kit::segmented_sum(terms(kit::norm_term<T, true>{x, ldx, dy, lddy, gamma, mean, rstd, cols}),
                     sum_g_x_hat, rows, cols, cols, s, stream, "row sum of gamma * dy * x_hat");
}

template <class T>
void softmax_backward_finish(T const* y, long ldy, T const* dy, long lddy, float const* row_sum,
                             bool log, float scale, T* dx, long lddx, long rows, long cols,
                             cudaStream_t stream) {
  thrust::for_each_n(
      kit::on(stream), thrust::make_counting_iterator(0L), rows * cols,
      kit::softmax_gradient<T>{y, ldy, dy, lddy, row_sum, log, scale, dx, lddx, cols});
}

template <class T>
void norm_backward_finish(T const* x, long ldx, T const* dy, long lddy, T const* gamma,
                          float const* mean, float const* rstd, float const* sum_g,
                          float const* sum_g_x_hat, T* dx, long lddx, long rows, long cols,
                          cudaStream_t stream) {
  thrust::for_each_n(kit::on(stream), thrust::make_counting_iterator(0L), rows * cols,
                     kit::norm_gradient<T>{x, ldx, dy, lddy, gamma, mean, rstd, sum_g, sum_g_x_hat,
                                           dx, lddx, cols});
}

template <class T>
void column_grads(T const* x, long ldx, T const* dy, long lddy, float const* mean,
                  float const* rstd, float* dgamma, float* dbeta, float* partials, long rows,
                  long cols, cudaStream_t stream) {
  // Enough chunks to give the first pass column_partials_size threads (one per partial), never
  // more than there are rows; past column_partials_size columns, one chunk.
  long const chunks = std::max(1L, std::min(rows, column_partials_size / cols));
  long const rows_per_chunk = (rows + chunks - 1) / chunks;
  float* const gamma_part = partials;
  float* const beta_part = dbeta ? partials + std::max(column_partials_size, cols) : nullptr;
  thrust::for_each_n(kit::on(stream), thrust::make_counting_iterator(0L), chunks * cols,
                     kit::column_partial<T>{x, ldx, dy, lddy, mean, rstd, gamma_part, beta_part,
                                            rows, cols, rows_per_chunk});
  thrust::for_each_n(kit::on(stream), thrust::make_counting_iterator(0L), cols,
                     kit::column_total{gamma_part, dgamma, chunks, cols});
  if (dbeta)
    thrust::for_each_n(kit::on(stream), thrust::make_counting_iterator(0L), cols,
                       kit::column_total{beta_part, dbeta, chunks, cols});
}

template <class T>
void saved_stats(float const* row_sum, float const* row_m2, float eps, float* mean, float* rstd,
                 long rows, long cols, cudaStream_t stream) {
  thrust::for_each_n(kit::on(stream), thrust::make_counting_iterator(0L), rows,
                     kit::statistics_of{row_sum, row_m2, eps, mean, rstd, cols});
}

} // namespace bench::unfused

/// Every step of unfused.hpp for element type T, in the translation unit that expands it.
#define BENCH_INSTANTIATE_UNFUSED(T)                                                               \
  namespace bench::unfused {                                                                       \
  template void row_max<T>(T const*, long, float*, long, long, scratch&, cudaStream_t);            \
  template void row_sum<T>(T const*, long, float*, long, long, scratch&, cudaStream_t);            \
  template void row_sum_squares<T>(T const*, long, float*, long, long, scratch&, cudaStream_t);    \
  template void row_sum_centered_squares<T>(T const*, long, float const*, float*, long, long,      \
                                            scratch&, cudaStream_t);                               \
  template void abs_max<T>(T const*, long, float*, scratch&, cudaStream_t);                        \
  template void scale<T>(T const*, long, T*, long, long, long, float, cudaStream_t);               \
  template void causal_mask<T>(T const*, long, T*, long, long, long, long, cudaStream_t);          \
  template void exp_minus_row<T>(T const*, long, float const*, T*, long, long, long,               \
                                 cudaStream_t);                                                    \
  template void divide_by_row<T>(T const*, long, float const*, T*, long, long, long,               \
                                 cudaStream_t);                                                    \
  template void log_softmax_finish<T>(T const*, long, float const*, float const*, T*, long, long,  \
                                      long, cudaStream_t);                                         \
  template void layernorm_finish<T>(T const*, long, float const*, float const*, T const*,          \
                                    T const*, float, T*, long, long, long, cudaStream_t);          \
  template void rmsnorm_finish<T>(T const*, long, float const*, T const*, float, T*, long, long,   \
                                  long, cudaStream_t);                                             \
  template void add_bias<T>(T const*, long, T const*, T*, long, long, long, cudaStream_t);         \
  template void add<T>(T const*, long, T const*, long, T*, long, long, long, cudaStream_t);        \
  template void dropout<T>(T const*, long, T*, long, long, long, cudaStream_t);                    \
  template void cast_fp8<T>(T const*, long, __nv_fp8_e4m3*, long, long, long, float,               \
                            cudaStream_t);                                                         \
  template void row_sum_products<T>(T const*, long, T const*, long, float*, long, long, scratch&,  \
                                    cudaStream_t);                                                 \
  template void row_sums_norm_backward<T>(T const*, long, T const*, long, T const*, float const*,  \
                                          float const*, float*, float*, long, long, scratch&,      \
                                          cudaStream_t);                                           \
  template void softmax_backward_finish<T>(T const*, long, T const*, long, float const*, bool,     \
                                           float, T*, long, long, long, cudaStream_t);             \
  template void norm_backward_finish<T>(T const*, long, T const*, long, T const*, float const*,    \
                                        float const*, float const*, float const*, T*, long, long,  \
                                        long, cudaStream_t);                                       \
  template void column_grads<T>(T const*, long, T const*, long, float const*, float const*,        \
                                float*, float*, float*, long, long, cudaStream_t);                 \
  template void saved_stats<T>(float const*, float const*, float, float*, float*, long, long,      \
                               cudaStream_t);                                                      \
  }
