// Attention probabilities in one kernel: P = dropout(softmax(S * scale + causal mask)), bf16 in
// and out, checked against the host reference. This is the README's example.
#include <rowfuse/reference.hpp>
#include <rowfuse/rowfuse.cuh>

#include "common.hpp"

namespace rf = rowfuse;
using bf16 = __nv_bfloat16;

int main() {
  if (example::no_gpu())
    return 77;
  long const heads = 8, q_len = 256, rows = heads * q_len, cols = 256;
  auto const scores = example::random<bf16>(rows * cols, -4.0f, 4.0f);
  example::device<bf16> S(scores), P(rows * cols);

  // The fused kernel: one read of S, one write of P.
  rf::softmax(rf::load(S.data(), rows, cols) | rf::scale(0.125f) | rf::causal_mask(q_len),
              rf::store(P.data()) | rf::dropout(0.1f, 42, 0));

  // The same expressions over host memory, in double precision (same seed: same mask).
  std::vector<bf16> rounded(rows * cols);
  auto const exact = rf::reference::softmax(rf::load(scores.data(), rows, cols) |
                                                rf::scale(0.125f) | rf::causal_mask(q_len),
                                            rf::store(rounded.data()) | rf::dropout(0.1f, 42, 0));

  // bf16 keeps 8 significant bits: rounding is within 2^-9 relative, fast exp adds ~1e-6.
  return example::check("P (bf16)", P.host(), exact, 0x1p-8);
}
