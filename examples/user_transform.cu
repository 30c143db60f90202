// A transform of your own is a functor of (value) or (value, row, col): here ALiBi, a per-head
// linear penalty on the query-key distance, fused between the scale and the causal mask.
#include <rowfuse/reference.hpp>
#include <rowfuse/rowfuse.cuh>

#include "common.hpp"

namespace rf = rowfuse;

struct alibi { // scores laid out [heads * q_len, k_len]; head h's slope is 2^(-8 (h + 1) / heads)
  long heads, q_len;
  __host__ __device__ float operator()(float x, rf::index_t row, rf::index_t col) const {
    long const head = row / q_len % heads, query = row % q_len;
    return x - exp2f(-8.0f * float(head + 1) / float(heads)) * float(query - col);
  }
};

int main() {
  if (example::no_gpu())
    return 77;
  long const heads = 16, q_len = 512, rows = heads * q_len, cols = 512;
  auto const scores = example::random<__half>(rows * cols, -4.0f, 4.0f);
  example::device<__half> S(scores), P(rows * cols);

  auto const transforms = [&](auto load) { // the same chain over device and host memory
    return load | rf::scale(0.125f) | alibi{heads, q_len} | rf::causal_mask(q_len);
  };
  rf::softmax(transforms(rf::load(S.data(), rows, cols)), rf::store(P.data()));

  std::vector<__half> rounded(rows * cols);
  auto const exact = rf::reference::softmax(transforms(rf::load(scores.data(), rows, cols)),
                                            rf::store(rounded.data()));
  // fp16 rounds within 2^-11 relative; tiny probabilities are fp16 subnormals (2^-24 apart).
  return example::check("P (fp16)", P.host(), exact, 0x1p-10, 0x1p-14);
}
