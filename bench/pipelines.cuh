// Pipelines: an op with the transforms a transformer puts around it. CMake compiles this once
// per input type (pipelines_<type>.cu in the build tree).
//
//   attention      scale(0.125) -> causal mask (q_len = cols) -> softmax -> dropout(0.1)
//   residual       bias -> dropout(0.1) -> + residual -> layernorm(gamma, beta)
//   residual_tee   the same, also writing the pre-norm sum h (the residual stream)
//   layernorm_fp8  layernorm(gamma, beta) -> fp8 e4m3 with a scale and amax
//
// Counted bytes: the input read and the output written, plus the residual read and h written
// where the pipeline has them; per-column vectors and index-computed masks are not counted.
//
// x, residual, y and h have rows b.ld elements apart (cols, or cols + 1 with --misalign, where
// they and the per-column vectors also start one element off 16-byte alignment). Fused and
// unfused both read and write those strided views; the unfused temporaries are compact.
#pragma once

#include <vector>

#include <rowfuse/rowfuse.cuh>

#include "dropout.hpp"
#include "family.hpp"
#include "unfused.hpp"

namespace bench::pipelines {

namespace rf = rowfuse;
using fp8 = __nv_fp8_e4m3;

template <class T> void attention_fused(buffers const& b, cudaStream_t stream) {
  rf::softmax(rf::load(in<T>(b.x), b.rows, b.cols, b.ld) | rf::scale(attention_scale) |
                  rf::causal_mask(b.cols),
              rf::store(out<T>(b.y), b.ld) | rf::dropout(dropout_p, dropout_seed, dropout_offset),
              stream);
}
template <class T> void attention_unfused(buffers const& b, cudaStream_t stream) {
  long const cols = b.cols; // the compact temporaries' ld
  T* const s = out<T>(b.t1);
  T* const y = out<T>(b.y);
  unfused::scale(in<T>(b.x), b.ld, s, cols, b.rows, b.cols, attention_scale, stream);
  unfused::causal_mask(s, cols, s, cols, b.rows, b.cols, b.cols, stream);
  unfused::softmax(static_cast<T const*>(s), cols, y, b.ld, out<T>(b.t2), b, stream);
  unfused::dropout(static_cast<T const*>(y), b.ld, y, b.ld, b.rows, b.cols, stream);
}

/// h = dropout(x + bias) + residual as a load expression: the dropout runs on the load side,
/// so its mask (one Philox call per 8 elements) is the store-side mask of the unfused kernel.
template <class T> auto residual_sum(buffers const& b) {
  auto const biased = rf::load(in<T>(b.x), b.rows, b.cols, b.ld) | rf::bias(in<T>(b.bias));
  return biased | rf::dropout(dropout_p, dropout_seed, dropout_offset) |
         rf::add(in<T>(b.residual), b.ld);
}

template <class T, bool Tee> void residual_fused(buffers const& b, cudaStream_t stream) {
  auto const affine = rf::affine(in<T>(b.gamma), in<T>(b.beta));
  if constexpr (Tee)
    rf::layernorm(residual_sum<T>(b) | rf::tee(out<T>(b.h), b.ld), rf::store(out<T>(b.y), b.ld),
                  affine, layernorm_eps, stream);
  else
    rf::layernorm(residual_sum<T>(b), rf::store(out<T>(b.y), b.ld), affine, layernorm_eps, stream);
}
template <class T, bool Tee> void residual_unfused(buffers const& b, cudaStream_t stream) {
  long const cols = b.cols; // the compact temporaries' ld
  T* const t = out<T>(b.t1);
  // The sum is materialised either way: in h (strided like the output) or in a temporary.
  T* const h = Tee ? out<T>(b.h) : out<T>(b.t2);
  long const ldh = Tee ? b.ld : cols;
  unfused::add_bias(in<T>(b.x), b.ld, in<T>(b.bias), t, cols, b.rows, b.cols, stream);
  unfused::dropout(static_cast<T const*>(t), cols, t, cols, b.rows, b.cols, stream);
  unfused::add(static_cast<T const*>(t), cols, in<T>(b.residual), b.ld, h, ldh, b.rows, b.cols,
               stream);
  unfused::layernorm(static_cast<T const*>(h), ldh, out<T>(b.y), b.ld, b, stream);
}

template <class T> void layernorm_fp8_fused(buffers const& b, cudaStream_t stream) {
  rf::layernorm(rf::load(in<T>(b.x), b.rows, b.cols, b.ld),
                rf::store(out<fp8>(b.y), b.ld) | rf::cast<fp8>(fp8_scale, b.amax),
                rf::affine(in<T>(b.gamma), in<T>(b.beta)), layernorm_eps, stream);
}
/// layernorm to the input type, amax of it, then the scaled cast: the delayed-scaling recipe,
/// where the scale comes from an earlier step's amax and the cast need not wait for this one.
template <class T> void layernorm_fp8_unfused(buffers const& b, cudaStream_t stream) {
  long const n = b.rows * b.cols;
  T* const y = out<T>(b.t1); // compact: ld = cols
  unfused::layernorm(in<T>(b.x), b.ld, y, b.cols, b, stream);
  unfused::abs_max(static_cast<T const*>(y), n, b.amax, *b.cub, stream);
  unfused::cast_fp8(static_cast<T const*>(y), b.cols, out<fp8>(b.y), b.ld, b.rows, b.cols,
                    fp8_scale, stream);
}

template <class T> std::vector<variant> family() {
  constexpr dtype t = dtype_of<T>;
  constexpr double s = sizeof(T);
  std::vector<variant> v{
      {"attention", t, t, 2 * s, attention_fused<T>, attention_unfused<T>,
       tolerances::probabilities(t, 3)},
      {"residual", t, t, 3 * s, residual_fused<T, false>, residual_unfused<T, false>,
       tolerances::residual_output(t)},
      {"residual_tee", t, t, 4 * s, residual_fused<T, true>, residual_unfused<T, true>,
       tolerances::residual_output(t)},
      {"layernorm_fp8", t, dtype::fp8_e4m3, s + 1, layernorm_fp8_fused<T>, layernorm_fp8_unfused<T>,
       tolerances::fp8_output(t)},
  };
  v[2].writes_h = true;
  v[2].h_tolerance = tolerances::residual_sum(t);
  v[3].writes_amax = true;
  return v;
}

} // namespace bench::pipelines
