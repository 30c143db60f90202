// The attention probabilities' backward, fused like the forward: the forward
// P = dropout(softmax(S * scale + causal mask)) also writes Y = softmax(...) before its dropout
// (a store-side rf::tee) and, for the check only, the dropout's keep mask; the backward
// dS = scale * softmax_backward(Y, dP through the same dropout) is one kernel that reads Y and dP
// once and writes dS once. bf16 throughout, checked against a plain host computation. Its two
// calls are the README's backward snippet.
#include <cstdint>

#include <rowfuse/rowfuse.cuh>

#include "common.hpp"

namespace rf = rowfuse;
using bf16 = __nv_bfloat16;

int main() {
  if (example::no_gpu())
    return 77;
  long const heads = 8, q_len = 256, rows = heads * q_len, cols = 256;
  float const scale = 0.125f, p = 0.1f;
  std::uint64_t const seed = 42, offset = 0;
  auto const scores = example::random<bf16>(rows * cols, -4.0f, 4.0f);
  auto const grad_p = example::random<bf16>(rows * cols, -1.0f, 1.0f, 2);
  example::device<bf16> S(scores), P(rows * cols), Y(rows * cols), dP(grad_p), dS(rows * cols);
  example::device<std::uint8_t> keep(rows * cols);

  // Forward: P and, at the tee, Y = softmax(S * scale + mask) before the dropout.
  rf::softmax(rf::load(S.data(), rows, cols) | rf::scale(scale) | rf::causal_mask(q_len),
              rf::store(P.data()) | rf::tee(Y.data()) | rf::dropout(p, seed, offset, keep.data()));

  // Backward: dY = dropout'(dP) replays the forward's mask from (seed, offset) on the load side;
  // the forward's load-side scale becomes a store-side scale of dS; masked positions get 0.
  rf::softmax_backward(rf::load(Y.data(), rows, cols),
                       rf::load(dP.data(), rows, cols) | rf::dropout(p, seed, offset),
                       rf::store(dS.data()) | rf::scale(scale));

  // Plain host computation from the forward's Y and the stored keep mask:
  // dY = dP * keep / (1 - p), dS = scale * Y * (dY - sum_row(dY * Y)).
  auto const y = Y.host();
  auto const kept = keep.host();
  std::vector<double> exact(std::size_t(rows * cols));
  for (long r = 0; r < rows; ++r) {
    auto const at = [&](long c) { return std::size_t(r * cols + c); };
    auto const dy = [&](long c) {
      return kept[at(c)] ? double(float(grad_p[at(c)])) / (1.0 - double(p)) : 0.0;
    };
    double s = 0.0;
    for (long c = 0; c < cols; ++c)
      s += dy(c) * double(float(y[at(c)]));
    for (long c = 0; c < cols; ++c)
      exact[at(c)] = double(scale) * double(float(y[at(c)])) * (dy(c) - s);
  }
  // bf16 keeps 8 significant bits (2^-9 relative); outputs near 0 are differences of O(y) terms,
  // hence the floor of 1e-5 (a few fp32 ulps of scale * y * |dy| for y < 1).
  return example::check("dS (bf16)", dS.host(), exact, 0x1p-8, 1e-5);
}
