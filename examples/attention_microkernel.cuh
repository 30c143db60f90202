// The attention micro-kernel of examples/attention_microkernel.cu and bench/collective.cu: one
// warp per head of 16 queries x 16 keys x 64 dimensions,
//   S = Q K^T (mma.sync m16n8k16, fp16 operands, fp32 accumulators),
//   P = dropout(softmax(S * scale + causal mask)),
//   O = P V   (mma.sync, P in fp16 straight from the accumulators),
// with the middle step done by rowfuse's warp collective on the accumulators (or on a
// shared-memory tile), or by the common hand-written version: the warp walks the 16 rows of
// the tile in shared memory one after another, 16 of its 32 lanes busy, and divides by
// (sum + 1e-6). Everything else is the same code, so the bench can time the middle step alone.
//
// Q, K, V: [heads * 16, 64] fp16, row-major; O: [heads * 16, 64] fp32. The scores are the
// tensor [heads * 16, 16] (rfc::tile_load(heads * 16, 16)): head h's tile has origin (16 h, 0).
#pragma once

#include <cmath>
#include <cuda_fp16.h>

#include <rowfuse/collective.cuh>

namespace attention {

namespace rf = rowfuse;
namespace rfc = rowfuse::collective;

inline constexpr int tile = 16;     // queries and keys per head
inline constexpr int head_dim = 64; // dimensions of Q, K, V
inline constexpr int warps_per_block = 4;

/// The layout of S and P: the accumulators of two m16n8 fragments side by side.
using scores_layout = rfc::mma_accumulator_layout<tile, tile>;

/// How the middle step runs.
enum class softmax_stage {
  hand_written,         // S to shared memory, one row at a time on 16 lanes, back
  collective_shared_16, // S to shared memory, rfc::warp_row_softmax, 16 lanes a row, back
  collective_shared,    // the same with the default layout: 2 lanes a row, packs of 8
  collective_registers, // rfc::warp_row_softmax on the accumulators themselves
};

inline char const* describe(softmax_stage stage) {
  switch (stage) {
  case softmax_stage::hand_written:
    return "hand-written: shared memory, one row at a time, 16 of 32 lanes";
  case softmax_stage::collective_shared_16:
    return "collective: shared memory, striped_layout<16, 16, 32, 16> (16 lanes a row)";
  case softmax_stage::collective_shared:
    return "collective: shared memory, striped_layout<16, 16> (2 lanes a row)";
  default:
    return "collective: registers, mma_accumulator_layout<16, 16>";
  }
}

// ---- mma.sync -------------------------------------------------------------------------------

/// Two floats as the fp16 pair of one operand register (`low`: the lower k or column index).
__device__ __forceinline__ unsigned half_pair(float low, float high) {
  __half2 const pair = __floats2half2_rn(low, high);
  return *reinterpret_cast<unsigned const*>(&pair);
}
__device__ __forceinline__ unsigned half_pair(__half low, __half high) {
  __half2 const pair = __halves2half2(low, high);
  return *reinterpret_cast<unsigned const*>(&pair);
}
__device__ __forceinline__ unsigned half_pair(__half const* two) {
  return *reinterpret_cast<unsigned const*>(two); // two consecutive, 4-byte aligned
}

/// d += a b for one m16n8k16 fragment: fp16 A (row) and B (col), fp32 accumulators.
__device__ __forceinline__ void mma_m16n8k16(float* d, unsigned const (&a)[4],
                                             unsigned const (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
               "{%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// ---- timing of the middle step ----------------------------------------------------------------

/// No timing (the example, and the bench's throughput runs).
struct no_clock {
  __device__ long long start(float const (&)[scores_layout::values]) { return 0; }
  __device__ void stop(float const (&)[scores_layout::values], long long) {}
  __device__ void flush() {}
};

/// Cycles of the middle step, from S complete in the accumulators to P complete in them, summed
/// over a warp's tiles and added to total[0] (and the tiles to total[1]) at the end. Each clock
/// read waits for the values (a trap predicated on their sum, never taken: the warp issues in
/// order, so the read cannot happen before the values are there), so neither mma.sync's latency nor
/// work left in flight is counted.
struct stage_clock {
  unsigned long long* total; // [0]: cycles, [1]: tiles
  unsigned long long cycles = 0;
  unsigned long long tiles = 0;

  static __device__ long long read_after(float const (&values)[scores_layout::values]) {
    float sum = 0.0f;
    for (float v : values)
      sum += v;
    long long now;
    asm volatile("{\n\t.reg .pred never;\n\t"
                 "setp.eq.u32 never, %1, 0xFFFFFFFF;\n\t" // a NaN no arithmetic produces
                 "@never trap;\n\t"
                 "mov.u64 %0, %%clock64;\n\t}"
                 : "=l"(now)
                 : "r"(__float_as_uint(sum))
                 : "memory");
    return now;
  }
  __device__ long long start(float const (&s)[scores_layout::values]) { return read_after(s); }
  __device__ void stop(float const (&p)[scores_layout::values], long long started) {
    cycles += (unsigned long long)(read_after(p) - started);
    ++tiles;
  }
  __device__ void flush() {
    if (threadIdx.x % 32 == 0) {
      atomicAdd(&total[0], cycles);
      atomicAdd(&total[1], tiles);
    }
  }
};

// ---- the hand-written middle step ---------------------------------------------------------------

/// The common hand-written version, as its authors describe it: one warp per 16 x 16 tile in
/// shared memory, the 16 rows one after another, lanes 0-15 holding a row's columns (16-31
/// idle), shuffle-reduced max and sum, division by (sum + 1e-6). Scale and causal mask inline;
/// dropout through the same store chain as the collective's, element by element, so that both
/// versions keep the same elements and check against one reference.
template <class Probabilities>
__device__ void hand_written_softmax(float* scores, long row0, float scale,
                                     rfc::tile_transforms<Probabilities> const& probs) {
  int const lane = int(threadIdx.x % 32);
  for (int r = 0; r < tile; ++r) {
    float x = -INFINITY;
    if (lane < tile) {
      x = scores[r * tile + lane] * scale;
      if (lane > r) // causal: key c visible to query r when c <= r
        x = -INFINITY;
    }
    float m = x;
    for (int offset = 8; offset > 0; offset /= 2)
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
    float const e = lane < tile ? __expf(x - m) : 0.0f;
    float sum = e;
    for (int offset = 8; offset > 0; offset /= 2)
      sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (lane < tile) {
      float p[1] = {e / (sum + 1e-6f)};
      rf::store_context<float> context{probs.tensor_cols, 0.0f};
      float kept[1];
      rfc::transform_stored(probs, p, row0 + r, lane, context, kept);
      scores[r * tile + lane] = kept[0];
    }
  }
}

// ---- the micro-kernel
// -----------------------------------------------------------------------------

/// Accumulator element i of this lane in a row-major 16 x 16 tile.
__device__ __forceinline__ int tile_offset(int lane, int i) {
  return scores_layout::tile_row(lane, i / 2 % 2) * tile + scores_layout::tile_col(lane, i / 4) +
         i % 2;
}

/// Warps take heads w, w + all warps, ... For each: S = Q K^T, the middle step, O = P V. Blocks
/// of 32 to 32 * warps_per_block threads.
template <softmax_stage Stage, rfc::exp_precision Precision, class Clock, class Scores,
          class Probabilities>
__global__ void __launch_bounds__(32 * warps_per_block)
    attention_tiles(__half const* q, __half const* k, __half const* v, float* o, long heads,
                    float scale, rfc::tile_transforms<Scores> scores,
                    rfc::tile_transforms<Probabilities> probs, Clock clock) {
  __shared__ alignas(16) float staged[warps_per_block][tile * tile];
  int const lane = int(threadIdx.x % 32), warp = int(threadIdx.x / 32);
  int const group = lane / 4, pair = 2 * (lane % 4); // mma.sync's groupID and 2 threadID_in_group
  int const block_warps = int(blockDim.x / 32);      // up to warps_per_block
  long const warps = long(gridDim.x) * block_warps;
  for (long head = long(blockIdx.x) * block_warps + warp; head < heads; head += warps) {
    long const row0 = head * tile;
    __half const* const q_head = q + row0 * head_dim;
    __half const* const k_head = k + row0 * head_dim;
    __half const* const v_head = v + row0 * head_dim;

    // S = Q K^T: A = Q (row-major), B = K^T, i.e. K's rows as B's columns.
    float s[scores_layout::values] = {};
    for (int k0 = 0; k0 < head_dim; k0 += 16) {
      unsigned const a[4] = {half_pair(q_head + group * head_dim + k0 + pair),
                             half_pair(q_head + (group + 8) * head_dim + k0 + pair),
                             half_pair(q_head + group * head_dim + k0 + pair + 8),
                             half_pair(q_head + (group + 8) * head_dim + k0 + pair + 8)};
      for (int n = 0; n < 2; ++n) {
        __half const* const key = k_head + (8 * n + group) * head_dim + k0 + pair;
        unsigned const b[2] = {half_pair(key), half_pair(key + 8)};
        mma_m16n8k16(&s[4 * n], a, b);
      }
    }

    // The middle step.
    long long const started = clock.start(s);
    if constexpr (Stage == softmax_stage::collective_registers) {
      // [middle step]
      rfc::warp_row_softmax<scores_layout, Precision>().softmax(s, {row0, 0}, scores, probs);
      // [middle step]
    } else {
      float* const shared = staged[warp];
      for (int i = 0; i < scores_layout::values; ++i)
        shared[tile_offset(lane, i)] = s[i];
      __syncwarp();
      if constexpr (Stage == softmax_stage::hand_written) {
        hand_written_softmax(shared, row0, scale, probs);
      } else {
        using layout = std::conditional_t<Stage == softmax_stage::collective_shared_16,
                                          rfc::striped_layout<tile, tile, 32, 16>,
                                          rfc::striped_layout<tile, tile>>;
        rfc::shared_tile<float> const in_place{shared, tile};
        rfc::warp_row_softmax<layout, Precision>().softmax(in_place, in_place, {row0, 0}, scores,
                                                           probs);
      }
      __syncwarp();
      for (int i = 0; i < scores_layout::values; ++i)
        s[i] = shared[tile_offset(lane, i)];
      __syncwarp(); // the next head's S overwrites the tile
    }
    clock.stop(s, started);

    // O = P V: P's accumulators are the A operand of the 16 keys (mma_layout.cuh); B = V, the
    // keys down its rows.
    unsigned const p[4] = {half_pair(s[0], s[1]), half_pair(s[2], s[3]), half_pair(s[4], s[5]),
                           half_pair(s[6], s[7])};
    for (int n = 0; n < head_dim / 8; ++n) {
      float out[4] = {};
      int const column = 8 * n + group;
      unsigned const b[2] = {
          half_pair(v_head[pair * head_dim + column], v_head[(pair + 1) * head_dim + column]),
          half_pair(v_head[(pair + 8) * head_dim + column],
                    v_head[(pair + 9) * head_dim + column])};
      mma_m16n8k16(out, p, b);
      float* const o_rows = o + row0 * head_dim + 8 * n + pair;
      *reinterpret_cast<float2*>(o_rows + group * head_dim) = make_float2(out[0], out[1]);
      *reinterpret_cast<float2*>(o_rows + (group + 8) * head_dim) = make_float2(out[2], out[3]);
    }
  }
  clock.flush();
}

/// Blocks for `heads` heads at one warp each (the kernel loops when given fewer).
inline unsigned blocks_for(long heads) {
  return unsigned((heads + warps_per_block - 1) / warps_per_block);
}

} // namespace attention
