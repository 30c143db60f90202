// Store transforms: element-wise steps between the op's result and the global store (dropout and
// apply_keep_mask also act on the input, on the load side).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../detail/numeric.hpp"
#include "../detail/philox.hpp"
#include "../detail/vector_io.hpp"
#include "../error.hpp"
#include "load_transforms.hpp"
#include "node.hpp"
#include "view.hpp"

namespace rowfuse {

namespace detail {

/// The factor 1 / (1 - p) a kept element is multiplied by in kernels: rf::dropout and
/// rf::apply_keep_mask take the same float, so that a stored mask reproduces the replayed one
/// bit for bit. (The host reference computes it in double.)
inline float inverted_dropout_scale(float p) {
  return float(1.0 / (1.0 - double(p)));
}

/// Whether bit j of `bits` is set, as a predicate. On the device an and and a compare to zero in
/// PTX, which ptxas turns into one R2P for up to seven bits or a LOP3 with a predicate result:
/// written in C++, nvcc's shift-and-mask form cost a shift, an and and a compare a bit, as ptxas
/// kept the bit's 0 / 1 value for the mask bytes beside it (bench/NOTES.md, forty-fourth session).
ROWFUSE_HD bool bit_set(std::uint32_t bits, int j) {
#ifdef __CUDA_ARCH__
  std::uint32_t set;
  asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\tand.b32 t, %1, %2;\n\tsetp.ne.b32 p, t, 0;"
      "\n\tselp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(set)
      : "r"(bits), "r"(1u << j));
  return set != 0u;
#else
  return (bits >> j & 1u) != 0u;
#endif
}

} // namespace detail

/// Inverted dropout with an in-kernel counter-based generator. Element i = row * cols + col
/// (64-bit) draws the 16-bit number u = half i % 2 (0: low 16 bits, 1: high) of word (i % 8) / 2
/// of philox4x32_10(counter = {lo(i / 8), hi(i / 8), lo(offset), hi(offset)},
/// key = {lo(seed), hi(seed)}), that is of detail::philox_quad(keys, offset, i / 8). It is kept
/// when u >= threshold = round(p * 65536), so the drop probability is threshold / 65536, within
/// 2^-17 of p, and then scaled by 1 / (1 - p); dropped elements become 0. One call serves 8
/// elements, not 4, because Philox's 10 rounds of multiplies, not memory traffic, set the speed
/// of a fused attention kernel with dropout, and a step of 2^-16 in p is immaterial to dropout.
/// The mask is a function of (seed, offset, row, col) alone: the same for every engine, pack
/// width, pack alignment and launch shape, and on the host. Advance `offset` by
/// ceil(rows * cols / 8) or more between calls that share a seed.
///
/// On the load side it drops the transformed input (bias -> dropout -> + residual -> layernorm,
/// the residual branch of a transformer block); there and on the store side the element index
/// is the same, so give the two sides different offsets when one op uses both.
struct dropout_node : node_tag {
  static constexpr bool load_side = true, store_side = true;
  static constexpr char const* name = "dropout";
  float p;
  std::uint64_t seed;
  std::uint64_t offset;
  view<std::uint8_t> keep_mask; // written 1 (kept) / 0 (dropped) when data is not null
  std::uint32_t threshold = 0;  // set by bind: round(p * 65536), in [0, 65536]
  // Set by bind from threshold: both 16-bit halves of a word hold it (0xffffffff for 65536), and
  // whether any 16-bit number reaches it (not 65536).
  std::uint32_t threshold_halves = 0;
  bool keeps_any = true;
  float keep_scale = 1.0f;        // set by bind: 1 / (1 - p)
  detail::philox_schedule keys{}; // set by bind: philox_key_schedule(seed)

  /// The 8 keep decisions of a Philox block, bit e for element 8q + e (16-bit half e % 2 of
  /// word e / 2). Each half compared alone: ptxas packs those predicates with one P2R, and those
  /// of halves_kept with a select and an add each.
  ROWFUSE_HD std::uint32_t keep_byte(detail::philox_u32x4 const& u) const {
    std::uint32_t byte = 0;
    ROWFUSE_UNROLL
    for (int k = 0; k < 4; ++k) {
      byte |= std::uint32_t((u.v[k] & 0xffffu) >= threshold) << (2 * k);
      byte |= std::uint32_t((u.v[k] >> 16) >= threshold) << (2 * k + 1);
    }
    return byte;
  }

  /// The decisions for the two 16-bit numbers of a Philox word (low half, high half) where some
  /// number reaches the threshold (keeps_any; a threshold of 65536 keeps nothing). On sm_90 one
  /// VIMNMX.U16x2 compares both halves with it (__vibmax_u16x2's predicates, a >= b), where a
  /// mask, a shift and two compares did (bench/NOTES.md, forty-fourth session): the same decisions
  /// as the host's compares.
  ROWFUSE_HD void halves_kept(std::uint32_t word, bool& low, bool& high) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __vibmax_u16x2(word, threshold_halves, &high, &low);
#else
    low = (word & 0xffffu) >= threshold;
    high = (word >> 16) >= threshold;
#endif
  }

  template <int N> static constexpr std::uint32_t low_bits = N == 32 ? ~0u : (1u << N) - 1u;

  /// Bit j set when element (row, col0 + j) is kept. A pack of N elements starting at linear
  /// index i spans Philox blocks i / 8 .. (i + N - 1) / 8: one call a block, the blocks past
  /// the first only where the pack reaches them (never for an aligned pack of 4 or 8). It reads
  /// no values, so an engine draws it while the row's loads are in flight.
  template <int N> ROWFUSE_HD std::uint32_t draw(index_t row, index_t col0, index_t cols) const {
    static_assert(N >= 1 && N <= 32, "rf::dropout: packs of 1 to 32 elements");
    constexpr int spans = (N + 14) / 8; // blocks a pack can touch: (7 + N + 7) / 8
    using bits_t = std::conditional_t<spans <= 4, std::uint32_t, std::uint64_t>;
    std::uint64_t const first = std::uint64_t(row * cols + col0);
    std::uint64_t const block = first / 8;
    int const skip = int(first % 8);
    // The engines' packs start at multiples of their width: a path with exactly one call per
    // block they touch (with a possible second call the compiler runs both side by side and
    // holds both results).
    if constexpr (N % 8 == 0) {
      if (skip == 0) {
        std::uint32_t bits = 0;
        ROWFUSE_UNROLL
        for (int k = 0; k < N / 8; ++k)
          bits |= keep_byte(detail::philox_quad(keys, offset, block + k)) << (8 * k);
        return bits;
      }
    }
    if constexpr (N <= 4 && 4 % N == 0) {
      if (skip % N == 0)
        return keep_byte(detail::philox_quad(keys, offset, block)) >> skip & low_bits<N>;
    }
    // Anywhere else (odd widths; tests), one call at a time: unrolled, the calls would run
    // side by side and set the register count of the whole kernel.
    bits_t bits = 0;
    int const blocks = (skip + N + 7) / 8;
    ROWFUSE_NO_UNROLL
    for (int k = 0; k < blocks; ++k)
      bits |= bits_t(keep_byte(detail::philox_quad(keys, offset, block + k))) << (8 * k);
    return std::uint32_t(bits >> skip) & low_bits<N>;
  }

  /// draw<N> for a warp's single elements or packs of 8, all 32 lanes together (node.hpp's
  /// draw_warp): bits s * N .. s * N + N - 1 of the result are draw<N> of the lane's pack at step
  /// s, (row, warp_col0 + s * stride + lane * N). Single elements and packs share out their Philox
  /// blocks differently (draw_warp_elements, draw_warp_packs).
  template <int N, int Steps>
  ROWFUSE_HD std::enable_if_t<(N == 1 && Steps <= 32) || (N == 8 && Steps <= 8),
                              detail::warp_draws_t<N, Steps>>
  draw_warp(index_t row, index_t warp_col0, index_t stride, index_t cols, int lane) const {
    if constexpr (N == 1)
      return draw_warp_elements<Steps>(row, warp_col0, stride, cols, lane);
    else
      return draw_warp_packs<Steps>(row, warp_col0, stride, cols, lane);
  }

  /// draw_warp of single elements. A step's 32 consecutive elements lie in at most five Philox
  /// blocks, so lane 5k + b draws block b of step k of each round of six steps, and each lane
  /// takes its decision from the lane that drew its block: one call for about six elements where
  /// draw<1> makes one for each.
  template <int Steps>
  ROWFUSE_HD std::uint32_t draw_warp_elements(index_t row, index_t warp_col0, index_t stride,
                                              index_t cols, int lane) const {
    static_assert(Steps >= 1 && Steps <= 32, "rf::dropout: 1 to 32 steps a word");
    std::uint32_t bits = 0;
#ifdef __CUDA_ARCH__
    std::uint64_t const first = std::uint64_t(row * cols + warp_col0); // lane 0, step 0
    constexpr int blocks_a_step = 5, steps_a_round = 6;                // 30 of the 32 lanes draw
    // One round at a time: unrolled, ptxas ran the rounds' Philox calls side by side and the
    // kernels took up to twice the registers (bench/NOTES.md).
    ROWFUSE_NO_UNROLL
    for (int round = 0; round * steps_a_round < Steps; ++round) {
      int const drawn_step = round * steps_a_round + lane / blocks_a_step;
      std::uint64_t const drawn_block =
          (first + std::uint64_t(drawn_step) * std::uint64_t(stride)) / 8 + lane % blocks_a_step;
      std::uint32_t const byte = keep_byte(detail::philox_quad(keys, offset, drawn_block));
      ROWFUSE_UNROLL
      for (int k = 0; k < steps_a_round; ++k) {
        int const s = round * steps_a_round + k;
        std::uint64_t const step_first = first + std::uint64_t(s) * std::uint64_t(stride);
        std::uint64_t const i = step_first + std::uint64_t(lane);
        int const source = blocks_a_step * k + int(i / 8 - step_first / 8);
        std::uint32_t const from_source = __shfl_sync(0xffffffffu, byte, source);
        if (s < Steps)
          bits |= (from_source >> (i % 8) & 1u) << s;
      }
    }
#else
    for (int s = 0; s < Steps; ++s)
      bits |= draw<1>(row, warp_col0 + index_t(s) * stride + lane, cols) << s;
#endif
    return bits;
  }

  /// draw_warp of packs of 8, at steps `stride` apart, a multiple of 8 (a warp's 32 packs and
  /// more). Where each step starts a Philox block (an aligned row's packs), each lane's pack is its
  /// block: draw<8>. Elsewhere (a phased row, whose packs start mid-block) a lane's pack straddles
  /// its block and the next, its right neighbour's, and draw<8> at each pack would draw every block
  /// twice: here lane l draws block l of each step, and lane s (< Steps) the block past step s's
  /// last lane, which lane 31's pack reaches; each lane takes its next block from its neighbour.
  /// Steps + 1 calls where draw<8> makes 2 Steps. One step at a time: the steps' calls unrolled
  /// run side by side, and each holds its registers (bench/NOTES.md, seventy-ninth session).
  template <int Steps>
  ROWFUSE_HD detail::warp_draws_t<8, Steps>
  draw_warp_packs(index_t row, index_t warp_col0, index_t stride, index_t cols, int lane) const {
    constexpr int N = 8;
    using bits_t = detail::warp_draws_t<N, Steps>;
    bits_t bits = 0;
#ifdef __CUDA_ARCH__
    std::uint64_t const first = std::uint64_t(row * cols + warp_col0); // lane 0, step 0
    std::uint64_t const blocks_a_step = std::uint64_t(stride) / 8;
    int const skip = int(first % 8); // every step's, as stride is a multiple of 8
    std::uint64_t block = first / 8 + std::uint64_t(lane); // the lane's at the step
    if (skip == 0) {
      ROWFUSE_NO_UNROLL
      for (int s = 0; s < Steps; ++s, block += blocks_a_step)
        bits |= bits_t(keep_byte(detail::philox_quad(keys, offset, block))) << (s * N);
      return bits;
    }
    std::uint32_t const past_last =
        lane < Steps ? keep_byte(detail::philox_quad(
                           keys, offset, block + 32 + (blocks_a_step - 1) * std::uint64_t(lane)))
                     : 0u;
    ROWFUSE_NO_UNROLL
    for (int s = 0; s < Steps; ++s, block += blocks_a_step) {
      std::uint32_t const own = keep_byte(detail::philox_quad(keys, offset, block));
      std::uint32_t const neighbour = __shfl_sync(0xffffffffu, own, (lane + 1) & 31);
      std::uint32_t const step_past_last = __shfl_sync(0xffffffffu, past_last, s);
      std::uint32_t const next = lane == 31 ? step_past_last : neighbour;
      bits |= bits_t((own | next << 8) >> skip & 0xffu) << (s * N);
    }
#else
    for (int s = 0; s < Steps; ++s)
      bits |= bits_t(draw<N>(row, warp_col0 + index_t(s) * stride + lane * N, cols)) << (s * N);
#endif
    return bits;
  }

  /// Applies the decisions `keep` (from draw<N> at the same place) to x.
  template <int N, class V, class Context>
  ROWFUSE_HD void apply(V (&x)[N], index_t row, index_t col0, Context& context,
                        std::uint32_t keep) const {
    bool kept[N];
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      kept[j] = detail::bit_set(keep, j);
    finish(x, kept, row, col0, context);
  }

  /// Draws and applies, where the values are known (the store side after the statistics of an op
  /// whose load side masks: store_expr::store<N, true>). A pack of +0 stays +0 whatever the
  /// decisions (kept, +0 scales to +0; dropped, it becomes +0), so without a mask to write it
  /// skips the generator: the masked half of causal attention. An aligned pack compares each
  /// Philox word as it comes, without packing the decisions into bits and out again; a threshold
  /// that keeps nothing takes the drawn bits.
  template <int N, class V, class Context>
  ROWFUSE_HD void apply(V (&x)[N], index_t row, index_t col0, Context& context) const {
    if (keep_mask.data == nullptr && detail::all_positive_zero(x))
      return;
    std::uint64_t const first = std::uint64_t(row * context.cols + col0);
    if constexpr (N % 8 == 0 || N == 4) {
      if (first % N == 0 && keeps_any) {
        bool kept[N];
        ROWFUSE_UNROLL
        for (int b = 0; b < (N + 7) / 8; ++b) {
          detail::philox_u32x4 const u = detail::philox_quad(keys, offset, first / 8 + b);
          int const word0 = N == 4 && first % 8 != 0 ? 2 : 0; // the high half of the block
          ROWFUSE_UNROLL
          for (int k = 0; k < (N < 8 ? N : 8); k += 2) {
            int const w = word0 + k / 2;
            std::uint32_t const word = w == 0 ? u.v[0] : w == 1 ? u.v[1] : w == 2 ? u.v[2] : u.v[3];
            halves_kept(word, kept[8 * b + k], kept[8 * b + k + 1]);
          }
        }
        finish(x, kept, row, col0, context);
        return;
      }
    }
    apply<N>(x, row, col0, context, draw<N>(row, col0, context.cols));
  }

  template <int N, class V, class Context>
  ROWFUSE_HD void finish(V (&x)[N], bool const (&kept)[N], index_t row, index_t col0,
                         Context& context) const {
    // The host reference (V = double) scales in double; kernels use the float 1 / (1 - p).
    V const scale = std::is_same_v<V, double> ? V(1) / (V(1) - V(p)) : V(keep_scale);
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] = kept[j] ? x[j] * scale : V(0);
    // A load-side pass that only gathers statistics (emit = false) must not write the mask.
    bool emit = true;
    if constexpr (requires { context.emit; })
      emit = context.emit;
    if (emit && keep_mask.data != nullptr) {
      std::uint8_t bytes[N];
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        bytes[j] = kept[j];
      std::uint8_t* const to = keep_mask.row(row) + col0;
#ifdef __CUDA_ARCH__
      if constexpr ((N & (N - 1)) == 0) { // the dispatcher aligned the mask for the pack
        detail::store_pack<N>(to, bytes);
      } else {
        ROWFUSE_UNROLL
        for (int j = 0; j < N; ++j)
          to[j] = bytes[j];
      }
#else
      // The host (reference, tests) writes packs at any place: a 16-byte word store to an
      // unaligned address is undefined there (and faulted once the compiler chose movaps).
      std::memcpy(to, bytes, N);
#endif
    }
  }

  dropout_node bind(char const* where, index_t rows, index_t cols) const {
    detail::require(p >= 0.0f && p < 1.0f, where, "dropout p", p, "must be in [0, 1)");
    dropout_node bound = *this;
    // Nearest multiple of 2^-16 (ties up); p just below 1 rounds to 65536: nothing is kept.
    bound.threshold = std::uint32_t(std::floor(double(p) * 65536.0 + 0.5));
    bound.threshold_halves = bound.threshold < 65536u ? bound.threshold * 0x10001u : 0xffffffffu;
    bound.keeps_any = bound.threshold < 65536u;
    bound.keep_scale = detail::inverted_dropout_scale(p);
    bound.keys = detail::philox_key_schedule(seed);
    if (keep_mask.data != nullptr)
      bound.keep_mask = keep_mask.bind(where, "dropout keep_mask", rows, cols);
    return bound;
  }
  template <int N> bool aligned_for_pack() const {
    return keep_mask.data == nullptr ||
           keep_mask.aligned_to(detail::pack_alignment<std::uint8_t, N>);
  }
  template <int N> bool phased_for_pack(detail::row_phase const& phase) const {
    return keep_mask.data == nullptr || phase.admits<N>(keep_mask);
  }
};

/// Inverted dropout with a stored keep mask: element (row, col) is multiplied by 1 / (1 - p)
/// where keep_mask(row, col) is nonzero and becomes 0 where it is 0. The mask is what
/// rf::dropout(p, seed, offset, keep_mask) wrote in the forward (1 kept, 0 dropped), so a
/// backward can apply the forward's dropout to its gradient without replaying the generator:
///   load side:  dy of a forward whose store side dropped (rf::load(dy, ...) |
///   rf::apply_keep_mask(m, p)); store side: the gradient of a branch the forward dropped on its
///   load side.
/// Kept elements are scaled by the same float as rf::dropout's, and dropped ones become 0 whatever
/// they held (inf and NaN included), so the result is rf::dropout's with the same decisions, bit
/// for bit. The mask is read with the value's pack (one vector load of N bytes), in any layout a
/// load operand may have (ld >= cols, a broadcast view).
struct keep_mask_node : node_tag {
  static constexpr bool load_side = true, store_side = true;
  static constexpr char const* name = "apply_keep_mask";
  view<std::uint8_t const> keep_mask;
  float p;
  float keep_scale = 1.0f; // set by bind: detail::inverted_dropout_scale(p)

  template <int N> ROWFUSE_HD auto read(index_t row, index_t col0) const {
    return detail::read_operand<N>(keep_mask, row, col0);
  }
  template <int N, class V, class Context, class Pack>
  ROWFUSE_HD void apply(V (&x)[N], index_t, index_t, Context&, Pack const& keep) const {
    // The host reference (V = double) scales in double, as rf::dropout's does.
    V const scale = std::is_same_v<V, double> ? V(1) / (V(1) - V(p)) : V(keep_scale);
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] = keep[j] != 0 ? x[j] * scale : V(0);
  }
  keep_mask_node bind(char const* where, index_t rows, index_t cols) const {
    detail::require(p >= 0.0f && p < 1.0f, where, "apply_keep_mask p", p, "must be in [0, 1)");
    keep_mask_node bound = *this;
    bound.keep_mask = keep_mask.bind(where, "apply_keep_mask keep_mask", rows, cols);
    bound.keep_scale = detail::inverted_dropout_scale(p);
    return bound;
  }
  template <int N> bool aligned_for_pack() const { return detail::view_allows_pack<N>(keep_mask); }
  template <int N> bool phased_for_pack(detail::row_phase const& phase) const {
    return phase.admits<N>(keep_mask);
  }
};

/// Rounds the result to T on the way out, after multiplying it by `scale` (fp8 recipes divide
/// by a per-tensor scale to use the format's range). With `amax`, max |y| before scaling is
/// folded into *amax (atomically, across the whole launch: *amax = max(*amax, max |y|); zero it
/// first for a fresh value). With `saturate`, out-of-range values (infinities too) become the
/// largest finite T instead of inf or NaN. Must be the last store transform, and T must be the
/// output view's element type.
template <class T> struct cast_node : node_tag {
  static constexpr bool load_side = false, store_side = true;
  static constexpr char const* name = "cast";
  using target_type = T;
  float scale = 1.0f;
  float* amax = nullptr;
  bool saturate = true;

  template <int N, class V>
  ROWFUSE_HD void apply(V (&x)[N], index_t, index_t, store_context<V>& context) const {
    if (amax != nullptr) {
      // fmax leaves NaN out of amax (the other operand wins); context.amax is never NaN.
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j) {
        if constexpr (std::is_same_v<V, double>)
          context.amax = std::fmax(context.amax, std::fabs(x[j]));
        else
          context.amax = fmaxf(context.amax, fabsf(x[j]));
      }
    }
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] *= V(scale);
  }
  cast_node bind(char const* where, index_t, index_t) const {
    detail::require(std::isfinite(scale) && scale > 0.0f, where, "cast scale", scale,
                    "must be finite and > 0");
    return *this;
  }
  template <int N> bool aligned_for_pack() const { return true; }
  template <int N> bool phased_for_pack(detail::row_phase const&) const { return true; }
};

template <class T> inline constexpr bool is_cast_node = false;
template <class T> inline constexpr bool is_cast_node<cast_node<T>> = true;

// ---- the spellings users write ------------------------------------------------------------

/// rf::dropout(p, seed, offset) or, to keep the mask for the backward pass,
/// rf::dropout(p, seed, offset, keep_mask) with keep_mask a uint8 [rows, cols] buffer.
inline dropout_node dropout(float p, std::uint64_t seed, std::uint64_t offset = 0,
                            std::uint8_t* keep_mask = nullptr, index_t mask_ld = -1) {
  return {{}, p, seed, offset, dense(keep_mask, -1, -1, mask_ld)};
}

/// rf::apply_keep_mask(keep_mask, p[, ld]): the forward's dropout of probability p applied through
/// the uint8 [rows, cols] mask it stored (row stride ld, cols unless given); or through a view
/// (rf::dense with its own ld, rf::broadcast).
constexpr keep_mask_node apply_keep_mask(std::uint8_t const* keep_mask, float p, index_t ld = -1) {
  return {{}, dense(keep_mask, -1, -1, ld), p};
}
template <class M>
requires std::is_same_v<std::remove_const_t<M>, std::uint8_t>
constexpr keep_mask_node apply_keep_mask(view<M> keep_mask, float p) {
  return {{},
          view<std::uint8_t const>{keep_mask.data, keep_mask.rows, keep_mask.cols, keep_mask.ld,
                                   keep_mask.map, keep_mask.broadcast_rows},
          p};
}

template <element T>
constexpr cast_node<T> cast(float scale = 1.0f, float* amax = nullptr, bool saturate = true) {
  return {{}, scale, amax, saturate};
}

} // namespace rowfuse
