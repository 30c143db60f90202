// The ops alone: softmax, log-softmax, layernorm (gamma, beta), rmsnorm (gamma), output type =
// input type, per-column vectors in the input type (what a model in that type holds).
// CMake compiles this once per input type (ops_<type>.cu in the build tree).
//
// x and y have rows b.ld elements apart (cols, or cols + 1 with --misalign, where the pointers,
// gamma and beta included, are also one element off 16-byte alignment): fused and unfused both
// work on those strided views.
#pragma once

#include <vector>

#include <rowfuse/rowfuse.cuh>

#include "family.hpp"
#include "unfused.hpp"

namespace bench::ops {

namespace rf = rowfuse;

template <class T> void softmax_fused(buffers const& b, cudaStream_t stream) {
  rf::softmax(rf::load(in<T>(b.x), b.rows, b.cols, b.ld), rf::store(out<T>(b.y), b.ld), stream);
}
template <class T> void softmax_unfused(buffers const& b, cudaStream_t stream) {
  unfused::softmax(in<T>(b.x), b.ld, out<T>(b.y), b.ld, out<T>(b.t1), b, stream);
}

template <class T> void log_softmax_fused(buffers const& b, cudaStream_t stream) {
  rf::log_softmax(rf::load(in<T>(b.x), b.rows, b.cols, b.ld), rf::store(out<T>(b.y), b.ld), stream);
}
template <class T> void log_softmax_unfused(buffers const& b, cudaStream_t stream) {
  unfused::log_softmax(in<T>(b.x), b.ld, out<T>(b.y), b.ld, out<T>(b.t1), b, stream);
}

template <class T> void layernorm_fused(buffers const& b, cudaStream_t stream) {
  rf::layernorm(rf::load(in<T>(b.x), b.rows, b.cols, b.ld), rf::store(out<T>(b.y), b.ld),
                rf::affine(in<T>(b.gamma), in<T>(b.beta)), layernorm_eps, stream);
}
template <class T> void layernorm_unfused(buffers const& b, cudaStream_t stream) {
  unfused::layernorm(in<T>(b.x), b.ld, out<T>(b.y), b.ld, b, stream);
}

template <class T> void rmsnorm_fused(buffers const& b, cudaStream_t stream) {
  rf::rmsnorm(rf::load(in<T>(b.x), b.rows, b.cols, b.ld), rf::store(out<T>(b.y), b.ld),
              rf::affine(in<T>(b.gamma)), rmsnorm_eps, stream);
}
template <class T> void rmsnorm_unfused(buffers const& b, cudaStream_t stream) {
  unfused::rmsnorm(in<T>(b.x), b.ld, out<T>(b.y), b.ld, b, stream);
}

template <class T> std::vector<variant> family() {
  constexpr dtype t = dtype_of<T>;
  constexpr double bytes = 2.0 * sizeof(T); // x read, y written
  return {
      {"softmax", t, t, bytes, softmax_fused<T>, softmax_unfused<T>, tolerances::probabilities(t)},
      {"log_softmax", t, t, bytes, log_softmax_fused<T>, log_softmax_unfused<T>,
       tolerances::of_order_one(t)},
      {"layernorm", t, t, bytes, layernorm_fused<T>, layernorm_unfused<T>,
       tolerances::of_order_one(t)},
      {"rmsnorm", t, t, bytes, rmsnorm_fused<T>, rmsnorm_unfused<T>, tolerances::of_order_one(t)},
  };
}

} // namespace bench::ops
