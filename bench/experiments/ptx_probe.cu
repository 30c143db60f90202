// Experiment (not part of the build), issue 12: the register-engine kernels of rowfuse-bench's
// pipelines (bench/pipelines.cuh, fp16 input) at the shape their plans pick at 4096 columns
// (tuning.hpp: softmax 256 threads x 2 packs of 8, staged; the norms the same, persistent),
// instantiated for PTX only, so that bench/experiments/ptx_mix.py can count the instructions of
// each kernel's row loop by opcode class. Each kernel is named by the pipeline's probe tag (the
// first template argument of probe_tag), which ptx_mix.py's regex selects. From the repository
// root:
//   nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda -Iinclude -ptx \
//     bench/experiments/ptx_probe.cu -o /tmp/probe.ptx
//   python3 bench/experiments/ptx_mix.py /tmp/probe.ptx attention 16
// 16 = elements a thread holds per row (2 packs of 8).
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <rowfuse/rowfuse.cuh>

namespace rf = rowfuse;
using rf::index_t;
using fp8 = __nv_fp8_e4m3;

namespace probe {

/// A functor of no effect whose type names the pipeline in the kernel's mangled name.
template <int Tag> struct probe_tag {
  __host__ __device__ float operator()(float x) const { return x; }
};

/// The 4096-column shape of both tables (light_16bit and heavy_16bit).
using config = rf::detail::register_config<8, 2, 256, true, true>;

template <class Op, class Load, class Store>
void instantiate(Op const&, Load const&, Store const&) {
  auto const kernel = rf::engine::register_kernel<config, Op, Load, Store>;
  (void)kernel;
}

inline auto layernorm_op(__half const* gamma, __half const* beta, index_t cols) {
  auto const affine = rf::affine(gamma, beta).bind("rf::layernorm", cols);
  return rf::op::layernorm<std::remove_const_t<decltype(affine)>>{affine, 1e-5f, {}};
}
template <class Store> auto softmax_op(Store const&) {
  return rf::op::softmax<false, rf::detail::accurate_exp<Store>>{};
}

/// Tags: 1 attention, 2 residual, 3 residual_tee, 4 layernorm_fp8, 5 plain layernorm,
/// 6 layernorm with rf::cast<__half>(scale, amax), 7 attention without dropout.
void instantiate_all(__half* x, __half* residual, __half* h, __half* bias, __half* gamma,
                     __half* beta, void* y, float* amax, index_t rows, index_t cols) {
  auto const in = rf::load(static_cast<__half const*>(x), rows, cols);
  auto const drop = rf::dropout(0.1f, 2024, 0);
  auto const norm = layernorm_op(gamma, beta, cols);
  auto const y16 = rf::store(static_cast<__half*>(y));
  {
    auto const store = y16 | drop;
    instantiate(softmax_op(store), in | probe_tag<1>{} | rf::scale(0.125f) | rf::causal_mask(cols),
                store);
    instantiate(softmax_op(y16), in | probe_tag<7>{} | rf::scale(0.125f) | rf::causal_mask(cols),
                y16);
  }
  auto const sum = rf::bias(static_cast<__half const*>(bias));
  auto const add = rf::add(static_cast<__half const*>(residual));
  instantiate(norm, in | probe_tag<2>{} | sum | drop | add, y16);
  instantiate(norm, in | probe_tag<3>{} | sum | drop | add | rf::tee(h), y16);
  instantiate(norm, in | probe_tag<4>{},
              rf::store(static_cast<fp8*>(y)) | rf::cast<fp8>(64.0f, amax));
  instantiate(norm, in | probe_tag<5>{}, y16);
  instantiate(norm, in | probe_tag<6>{}, y16 | rf::cast<__half>(64.0f, amax));
}

} // namespace probe
