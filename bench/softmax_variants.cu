// softmax and log-softmax in fp32, fp16 and bf16 (output type = input type).
#include <rowfuse/rowfuse.cuh>

#include "harness.hpp"

namespace rf = rowfuse;

namespace bench {
namespace {

template <class T, bool Log>
void run(workload const& w, cudaStream_t stream) {
  auto const load = rf::load(static_cast<T const*>(w.x), w.rows, w.cols);
  auto const store = rf::store(static_cast<T*>(w.y));
  if constexpr (Log) rf::log_softmax(load, store, stream);
  else rf::softmax(load, store, stream);
}

}  // namespace

std::vector<variant> softmax_variants() {
  return {{"softmax", "fp32", 8, run<float, false>},
          {"softmax", "fp16", 4, run<__half, false>},
          {"softmax", "bf16", 4, run<__nv_bfloat16, false>},
          {"log_softmax", "fp32", 8, run<float, true>},
          {"log_softmax", "fp16", 4, run<__half, true>},
          {"log_softmax", "bf16", 4, run<__nv_bfloat16, true>}};
}

}  // namespace bench
