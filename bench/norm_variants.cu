// layernorm (affine) and rmsnorm (gamma) in fp32, fp16 and bf16, fp32 gamma/beta.
#include <rowfuse/rowfuse.cuh>

#include "harness.hpp"

namespace rf = rowfuse;

namespace bench {
namespace {

template <class T, bool Rms>
void run(workload const& w, cudaStream_t stream) {
  auto const load = rf::load(static_cast<T const*>(w.x), w.rows, w.cols);
  auto const store = rf::store(static_cast<T*>(w.y));
  auto const gamma = static_cast<float const*>(w.gamma);
  if constexpr (Rms) rf::rmsnorm(load, store, rf::affine(gamma), 1e-6f, stream);
  else
    rf::layernorm(load, store, rf::affine(gamma, static_cast<float const*>(w.beta)), 1e-5f,
                  stream);
}

}  // namespace

std::vector<variant> norm_variants() {
  return {{"layernorm", "fp32", 8, run<float, false>},
          {"layernorm", "fp16", 4, run<__half, false>},
          {"layernorm", "bf16", 4, run<__nv_bfloat16, false>},
          {"rmsnorm", "fp32", 8, run<float, true>},
          {"rmsnorm", "fp16", 4, run<__half, true>},
          {"rmsnorm", "bf16", 4, run<__nv_bfloat16, true>}};
}

}  // namespace bench
