// The backward ops (issue 13) and the two pipelines' backwards. CMake compiles this once per
// input type (backward_<type>.cu in the build tree).
//
//   softmax_backward      dx = y * (dy - sum(dy * y)), y the forward's softmax of x
//   log_softmax_backward  dx = dy - exp(y) * sum(dy), y the forward's log-softmax of x
//   layernorm_backward    dx, dgamma and dbeta from x, dy, gamma and the saved mean and rstd
//   rmsnorm_backward      dx and dgamma from x, dy, gamma and the saved rstd
//   attention_backward    of scale(0.125) -> causal mask -> softmax -> dropout(0.1): dy with the
//                         dropout replayed (same seed and offset) and the causal mask, dx scaled
//   residual_backward     of bias -> dropout(0.1) -> + residual -> layernorm: x is the pre-norm
//                         sum h; dx of h goes to the residual branch (h) and, the dropout
//                         replayed, to the branch before it (y)
//
// Inputs: x (the forward's input or pre-norm sum) and residual (as dy) are the harness's; the
// softmax family's y and the norms' saved statistics are made from x by `prepare` with the
// unfused forward, untimed, once per case. Counted bytes: y or x and dy read, dx written, and
// residual_backward's second output; gamma, the statistics and dgamma, dbeta are not counted.
//
// The fused calls are the backward ops of include/rowfuse/ops_backward.cuh.
#pragma once

#include <vector>

#include <rowfuse/rowfuse.cuh>

#include "dropout.hpp"
#include "family.hpp"
#include "unfused.hpp"

namespace bench::backward {

namespace rf = rowfuse;

// ---- prepare: the forward's outputs and statistics, from x -------------------------------------

template <class T> void probabilities(buffers const& b, cudaStream_t stream) {
  unfused::softmax(in<T>(b.x), b.ld, out<T>(b.prepared), b.ld, out<T>(b.t1), b, stream);
}
template <class T> void log_probabilities(buffers const& b, cudaStream_t stream) {
  unfused::log_softmax(in<T>(b.x), b.ld, out<T>(b.prepared), b.ld, out<T>(b.t1), b, stream);
}
/// softmax(causal_mask(scale * x)), before the dropout: zeros above the diagonal.
template <class T> void attention_probabilities(buffers const& b, cudaStream_t stream) {
  T* const s = out<T>(b.t1);
  unfused::scale(in<T>(b.x), b.ld, s, b.cols, b.rows, b.cols, attention_scale, stream);
  unfused::causal_mask(static_cast<T const*>(s), b.cols, s, b.cols, b.rows, b.cols, b.cols, stream);
  unfused::softmax(static_cast<T const*>(s), b.cols, out<T>(b.prepared), b.ld, out<T>(b.t2), b,
                   stream);
}
template <class T> void layernorm_statistics(buffers const& b, cudaStream_t stream) {
  unfused::row_sum(in<T>(b.x), b.ld, b.row_a, b.rows, b.cols, *b.cub, stream);
  unfused::row_sum_centered_squares(in<T>(b.x), b.ld, b.row_a, b.row_b, b.rows, b.cols, *b.cub,
                                    stream);
  unfused::saved_stats<T>(b.row_a, b.row_b, layernorm_eps, b.saved_mean, b.saved_rstd, b.rows,
                          b.cols, stream);
}
template <class T> void rmsnorm_statistics(buffers const& b, cudaStream_t stream) {
  unfused::row_sum_squares(in<T>(b.x), b.ld, b.row_a, b.rows, b.cols, *b.cub, stream);
  unfused::saved_stats<T>(nullptr, b.row_a, rmsnorm_eps, nullptr, b.saved_rstd, b.rows, b.cols,
                          stream);
}

// ---- unfused -------------------------------------------------------------------------------

template <class T> void softmax_backward_unfused(buffers const& b, cudaStream_t stream) {
  unfused::softmax_backward(in<T>(b.prepared), b.ld, in<T>(b.residual), b.ld, 1.0f, out<T>(b.y),
                            b.ld, b, stream);
}
template <class T> void log_softmax_backward_unfused(buffers const& b, cudaStream_t stream) {
  unfused::log_softmax_backward(in<T>(b.prepared), b.ld, in<T>(b.residual), b.ld, out<T>(b.y), b.ld,
                                b, stream);
}
template <class T> void layernorm_backward_unfused(buffers const& b, cudaStream_t stream) {
  unfused::layernorm_backward(in<T>(b.x), b.ld, in<T>(b.residual), b.ld, out<T>(b.y), b.ld, b,
                              stream);
}
template <class T> void rmsnorm_backward_unfused(buffers const& b, cudaStream_t stream) {
  unfused::rmsnorm_backward(in<T>(b.x), b.ld, in<T>(b.residual), b.ld, out<T>(b.y), b.ld, b,
                            stream);
}
/// The dropout's backward (its mask and scale on dy, into a compact temporary), then softmax's
/// with the scale; the masked elements need no step: y is 0 there.
template <class T> void attention_backward_unfused(buffers const& b, cudaStream_t stream) {
  T* const dropped = out<T>(b.t1);
  unfused::dropout(in<T>(b.residual), b.ld, dropped, b.cols, b.rows, b.cols, stream);
  unfused::softmax_backward(in<T>(b.prepared), b.ld, static_cast<T const*>(dropped), b.cols,
                            attention_scale, out<T>(b.y), b.ld, b, stream);
}
/// layernorm's backward into h (the residual's gradient), then the dropout's backward into y.
template <class T> void residual_backward_unfused(buffers const& b, cudaStream_t stream) {
  unfused::layernorm_backward(in<T>(b.x), b.ld, in<T>(b.residual), b.ld, out<T>(b.h), b.ld, b,
                              stream);
  unfused::dropout(static_cast<T const*>(out<T>(b.h)), b.ld, out<T>(b.y), b.ld, b.rows, b.cols,
                   stream);
}

// ---- fused ---------------------------------------------------------------------------------

template <class T> auto load_of(void const* data, buffers const& b) {
  return rf::load(in<T>(data), b.rows, b.cols, b.ld);
}

template <class T> void softmax_backward_fused(buffers const& b, cudaStream_t stream) {
  rf::softmax_backward(load_of<T>(b.prepared, b), load_of<T>(b.residual, b),
                       rf::store(out<T>(b.y), b.ld), stream);
}
template <class T> void log_softmax_backward_fused(buffers const& b, cudaStream_t stream) {
  rf::log_softmax_backward(load_of<T>(b.prepared, b), load_of<T>(b.residual, b),
                           rf::store(out<T>(b.y), b.ld), stream);
}
template <class T> void layernorm_backward_fused(buffers const& b, cudaStream_t stream) {
  rf::layernorm_backward(load_of<T>(b.x, b), load_of<T>(b.residual, b),
                         rf::store(out<T>(b.y), b.ld), rf::affine(in<T>(b.gamma), in<T>(b.beta)),
                         rf::row_stats{b.saved_mean, b.saved_rstd},
                         rf::affine_grads{b.dgamma, b.dbeta}, stream);
}
template <class T> void rmsnorm_backward_fused(buffers const& b, cudaStream_t stream) {
  rf::rmsnorm_backward(load_of<T>(b.x, b), load_of<T>(b.residual, b), rf::store(out<T>(b.y), b.ld),
                       rf::affine(in<T>(b.gamma)), b.saved_rstd, rf::affine_grads{b.dgamma},
                       stream);
}
template <class T> void attention_backward_fused(buffers const& b, cudaStream_t stream) {
  rf::softmax_backward(load_of<T>(b.prepared, b),
                       load_of<T>(b.residual, b) |
                           rf::dropout(dropout_p, dropout_seed, dropout_offset) |
                           rf::causal_mask(b.cols),
                       rf::store(out<T>(b.y), b.ld) | rf::scale(attention_scale), stream);
}
template <class T> void residual_backward_fused(buffers const& b, cudaStream_t stream) {
  rf::layernorm_backward(load_of<T>(b.x, b), load_of<T>(b.residual, b),
                         rf::store(out<T>(b.y), b.ld) | rf::tee(out<T>(b.h), b.ld) |
                             rf::dropout(dropout_p, dropout_seed, dropout_offset),
                         rf::affine(in<T>(b.gamma), in<T>(b.beta)),
                         rf::row_stats{b.saved_mean, b.saved_rstd},
                         rf::affine_grads{b.dgamma, b.dbeta}, stream);
}

template <class T> struct fused_calls {
  static constexpr launcher softmax = softmax_backward_fused<T>;
  static constexpr launcher log_softmax = log_softmax_backward_fused<T>;
  static constexpr launcher layernorm = layernorm_backward_fused<T>;
  static constexpr launcher rmsnorm = rmsnorm_backward_fused<T>;
  static constexpr launcher attention = attention_backward_fused<T>;
  static constexpr launcher residual = residual_backward_fused<T>;
};

template <class T> std::vector<variant> family() {
  constexpr dtype t = dtype_of<T>;
  constexpr double s = sizeof(T);
  using fused = fused_calls<T>;
  std::vector<variant> v{
      {"softmax_backward", t, t, 3 * s, fused::softmax, softmax_backward_unfused<T>,
       tolerances::softmax_gradient(t, 0, 1.0f)},
      {"log_softmax_backward", t, t, 3 * s, fused::log_softmax, log_softmax_backward_unfused<T>,
       tolerances::of_order_one(t)},
      {"layernorm_backward", t, t, 3 * s, fused::layernorm, layernorm_backward_unfused<T>,
       tolerances::of_order_one(t)},
      {"rmsnorm_backward", t, t, 3 * s, fused::rmsnorm, rmsnorm_backward_unfused<T>,
       tolerances::of_order_one(t)},
      {"attention_backward", t, t, 3 * s, fused::attention, attention_backward_unfused<T>,
       tolerances::softmax_gradient(t, 1, attention_scale)},
      {"residual_backward", t, t, 4 * s, fused::residual, residual_backward_unfused<T>,
       tolerances::of_order_one(t)},
  };
  launcher const prepare[] = {probabilities<T>,           log_probabilities<T>,
                              layernorm_statistics<T>,    rmsnorm_statistics<T>,
                              attention_probabilities<T>, layernorm_statistics<T>};
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i].prepare = prepare[i];
  v[5].writes_h = true;
  v[5].h_tolerance = tolerances::of_order_one(t);
  return v;
}

} // namespace bench::backward
