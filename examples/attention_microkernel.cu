// The attention micro-kernel (attention_microkernel.cuh): S = Q K^T by mma.sync, P through
// rowfuse's warp collective on the accumulators (scale, causal mask, softmax, dropout), O = P V,
// for 4096 heads of 16 x 16 x 64; the same kernel with the shared-memory collectives and with
// the hand-written one-row-at-a-time softmax. Each is checked against the host reference (the
// same transforms over the scores, in double) and timed.
#include <rowfuse/reference.hpp>

#include "attention_microkernel.cuh"
#include "common.hpp"

namespace rf = rowfuse;
namespace rfc = rowfuse::collective;
using attention::head_dim;
using attention::softmax_stage;
using attention::tile;

int main() {
  if (example::no_gpu())
    return 77;
  long const heads = 4096, rows = heads * tile;
  float const scale = 0.125f; // 1 / sqrt(head_dim)
  auto const q = example::random<__half>(rows * head_dim, -1.0f, 1.0f, 1);
  auto const k = example::random<__half>(rows * head_dim, -1.0f, 1.0f, 2);
  auto const v = example::random<__half>(rows * head_dim, -1.0f, 1.0f, 3);
  example::device<__half> Q(q), K(k), V(v);
  example::device<float> O(rows * head_dim);

  // The scores are the tensor [heads * 16, 16]; these chains run on every tile of it.
  // [host chains]
  auto const scores =
      rfc::bind(rfc::tile_load(rows, tile) | rf::scale(scale) | rf::causal_mask(tile));
  auto const probs = rfc::bind(rfc::tile_store(rows, tile) | rf::dropout(0.1f, 42, 0));
  // [host chains]

  // The reference: S in double from the fp16 operands, P by the host reference of the same
  // expressions (same seed: same dropout mask), O = P V in double.
  std::vector<float> s(rows * tile);
  for (long h = 0; h < heads; ++h)
    for (int r = 0; r < tile; ++r)
      for (int c = 0; c < tile; ++c) {
        double dot = 0;
        for (int d = 0; d < head_dim; ++d)
          dot += double(__half2float(q[(h * tile + r) * head_dim + d])) *
                 double(__half2float(k[(h * tile + c) * head_dim + d]));
        s[(h * tile + r) * tile + c] = float(dot);
      }
  std::vector<float> p_rounded(s.size());
  auto const p = rf::reference::softmax(rf::load(s.data(), rows, tile) | rf::scale(scale) |
                                            rf::causal_mask(tile),
                                        rf::store(p_rounded.data()) | rf::dropout(0.1f, 42, 0));
  std::vector<double> exact(rows * head_dim, 0.0);
  for (long h = 0; h < heads; ++h)
    for (int r = 0; r < tile; ++r)
      for (int c = 0; c < tile; ++c)
        for (int d = 0; d < head_dim; ++d)
          exact[(h * tile + r) * head_dim + d] +=
              p[(h * tile + r) * tile + c] * double(__half2float(v[(h * tile + c) * head_dim + d]));

  // P enters P V in fp16 (2^-11 relative); |v| <= 1 and a row of P sums to at most 1 / 0.9
  // after dropout, so O is off by at most ~6e-4 absolute from that, plus fp32 sums: 2e-3 with
  // a floor of 1 (absolute for |O| < 1, relative above).
  int failures = 0;
  auto const run = [&](auto stage_constant) {
    constexpr softmax_stage stage = decltype(stage_constant)::value;
    auto const launch = [&] {
      attention::attention_tiles<stage, rfc::exp_precision::accurate>
          <<<attention::blocks_for(heads), 32 * attention::warps_per_block>>>(
              Q.data(), K.data(), V.data(), O.data(), heads, scale, scores, probs,
              attention::no_clock{});
    };
    launch();
    example::ok(cudaDeviceSynchronize());
    failures += example::check(attention::describe(stage), O.host(), exact, 2e-3, 1.0);
    double const ms = example::time_ms(launch);
    std::printf("  %.3f ms for %ld heads: %.1f M tiles/s\n", ms, heads, heads / ms / 1e3);
  };
  run(std::integral_constant<softmax_stage, softmax_stage::collective_registers>{});
  run(std::integral_constant<softmax_stage, softmax_stage::collective_shared>{});
  run(std::integral_constant<softmax_stage, softmax_stage::collective_shared_16>{});
  run(std::integral_constant<softmax_stage, softmax_stage::hand_written>{});
  return failures == 0 ? 0 : 1;
}
