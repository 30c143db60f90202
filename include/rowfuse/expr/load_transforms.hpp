// Load transforms: element-wise steps between the global load and the reduction.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "../detail/numeric.hpp"
#include "../detail/remainder.hpp"
#include "../detail/vector_io.hpp"
#include "../error.hpp"
#include "node.hpp"
#include "view.hpp"

namespace rowfuse {

namespace detail {

/// The operand's pack at (row, col0 .. col0 + N), one vector load, not yet widened: held as the
/// load's words (word_pack) until an element is taken.
template <int N, class T>
ROWFUSE_HD word_pack<std::remove_cv_t<T>, N> read_operand(view<T> const& operand, index_t row,
                                                          index_t col0) {
  return load_words<N>(static_cast<std::remove_cv_t<T> const*>(operand.row(row) + col0));
}

/// The low 32 bits of high:low shifted right by `shift` (< 32): one SHF on the device.
ROWFUSE_HD std::uint32_t funnel_shift_right(std::uint32_t low, std::uint32_t high, unsigned shift) {
#ifdef __CUDA_ARCH__
  return __funnelshift_r(low, high, shift);
#else
  return std::uint32_t(((std::uint64_t(high) << 32) | low) >> shift);
#endif
}

/// *at, read through the read-only data path on the device (an operand the kernel never writes):
/// the address comes from integer arithmetic, which leaves the compiler a generic load otherwise.
template <class Word> ROWFUSE_HD Word read_only(Word const* at) {
#ifdef __CUDA_ARCH__
  return __ldg(at);
#else
  return *at;
#endif
}

/// A pack of N 2-byte elements at `from`, off the pack's grid, as the 4-byte words that
/// hold it: the N / 2 words from the 4-byte boundary at or before `from`, and where `from` is half
/// a word past that boundary the last element alone (its word could reach past the operand's end),
/// each of the pack's words then a funnel shift of two of them. The first word then begins one
/// element before `from`, inside the same allocation: every allocation starts on a 4-byte
/// boundary (CUDA's allocators give 256). Against N element loads: N / 2 + 1 loads, where a warp's
/// request of two bytes a lane 16 bytes apart costs the L1 as much as one of sixteen, and no byte
/// permutes.
template <int N, class Element>
ROWFUSE_HD word_pack<Element, N> read_halfwords_off_grid(Element const* from) {
  static_assert(sizeof(Element) == 2 && N % 2 == 0);
  constexpr int words = N / 2;
  auto const address = reinterpret_cast<std::uintptr_t>(from);
  bool const half_word_off = (address & 2u) != 0;
  auto const* const held = reinterpret_cast<std::uint32_t const*>(address & ~std::uintptr_t(3));
  std::uint32_t loaded[words + 1];
  ROWFUSE_UNROLL
  for (int i = 0; i < words; ++i)
    loaded[i] = read_only(held + i);
  loaded[words] =
      half_word_off ? read_only(reinterpret_cast<std::uint16_t const*>(held + words)) : 0u;
  std::uint32_t shifted[words];
  ROWFUSE_UNROLL
  for (int i = 0; i < words; ++i)
    shifted[i] = funnel_shift_right(loaded[i], loaded[i + 1], half_word_off ? 16u : 0u);
  word_pack<Element, N> pack;
  std::memcpy(pack.w, shifted, sizeof(shifted));
  return pack;
}

/// How the lanes of a warp hold a phased row's per-column packs: on rows of whole warps all at
/// one row's phase (`per_warp`), on group rows narrower than a warp at several rows' (`per_lane`).
enum class column_phases { per_warp, per_lane };

/// The operand's pack at (row, col0 .. col0 + N) where it may be off the pack's grid (a phased
/// row's per-column operands), held as read_operand's words: one vector load where this pack is on
/// the grid (every row of a layout whose ld is a multiple of the pack); elsewhere, for 2-byte
/// elements read_halfwords_off_grid, for others N element loads. 2-byte packs `per_lane` take
/// read_halfwords_off_grid alone, on the grid too: there a test a lane splits the warp, which then
/// runs both reads (fifty-fourth session, bench/NOTES.md).
template <int N, column_phases Phases = column_phases::per_warp, class T>
ROWFUSE_HD word_pack<std::remove_cv_t<T>, N> read_operand_off_grid(view<T> const& operand,
                                                                   index_t row, index_t col0) {
  using element = std::remove_cv_t<T>;
  element const* const from = operand.row(row) + col0;
  constexpr bool halfwords = sizeof(element) == 2 && N % 2 == 0;
  if constexpr (halfwords && Phases == column_phases::per_lane) {
    return read_halfwords_off_grid<N>(from);
  } else {
    if (reinterpret_cast<std::uintptr_t>(from) % pack_alignment<element, N> == 0)
      return load_words<N>(from);
    if constexpr (halfwords) {
      return read_halfwords_off_grid<N>(from);
    } else {
      element elements[N];
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        elements[j] = from[j];
      word_pack<element, N> pack;
      std::memcpy(pack.w, elements, sizeof(elements));
      return pack;
    }
  }
}

/// Reads x[j] = operand(row, col0 + j) widened to V, with one vector load per pack.
template <int N, class V, class T>
ROWFUSE_HD void load_operand(view<T> const& operand, index_t row, index_t col0, V (&out)[N]) {
  auto const pack = read_operand<N>(operand, row, col0);
  ROWFUSE_UNROLL
  for (int j = 0; j < N; ++j)
    out[j] = widen<V>(pack[j]);
}

template <int N, class T> bool view_allows_pack(view<T> const& v) {
  return v.aligned_to(pack_alignment<std::remove_cv_t<T>, N>);
}

} // namespace detail

/// Multiplies by a constant: attention's 1/sqrt(d), a temperature. Also allowed after the op.
struct scale_node : node_tag {
  static constexpr bool load_side = true, store_side = true;
  static constexpr char const* name = "scale";
  float factor;

  template <int N, class V, class Context>
  ROWFUSE_HD void apply(V (&x)[N], index_t, index_t, Context&) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] *= V(factor);
  }
  scale_node bind(char const*, index_t, index_t) const { return *this; }
  template <int N> bool aligned_for_pack() const { return true; }
  template <int N> bool phased_for_pack(detail::row_phase const&) const { return true; }
};

/// Adds a per-column vector of length cols.
template <class T> struct bias_node : node_tag {
  static constexpr bool load_side = true, store_side = false;
  static constexpr char const* name = "bias";
  view<T const> vector; // one row, broadcast to every row

  template <int N> ROWFUSE_HD auto read(index_t, index_t col0) const {
    return detail::read_operand<N>(vector, 0, col0);
  }
  template <int N> ROWFUSE_HD auto read_off_grid(index_t, index_t col0) const {
    return detail::read_operand_off_grid<N>(vector, 0, col0);
  }
  template <int N, class V, class Context, class Pack>
  ROWFUSE_HD void apply(V (&x)[N], index_t, index_t, Context&, Pack const& b) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] += detail::widen<V>(b[j]);
  }
  bias_node bind(char const* where, index_t, index_t cols) const {
    bias_node bound = *this;
    bound.vector = dense(vector.data, 1, -1).bind(where, "bias", 1, cols);
    return bound;
  }
  template <int N> bool aligned_for_pack() const { return detail::view_allows_pack<N>(vector); }
  /// Wherever the row's packs lie: off the vector's grid, read_off_grid.
  template <int N> bool phased_for_pack(detail::row_phase const&) const { return true; }
};

/// Adds a full-shape or broadcast tensor: a residual, an additive attention mask, ALiBi.
template <class T> struct add_node : node_tag {
  static constexpr bool load_side = true, store_side = false;
  static constexpr char const* name = "add";
  view<T const> operand;

  template <int N> ROWFUSE_HD auto read(index_t row, index_t col0) const {
    return detail::read_operand<N>(operand, row, col0);
  }
  ROWFUSE_HD view<T const> const& operand_stream() const { return operand; }
  template <int N, class V, class Context, class Pack>
  ROWFUSE_HD void apply(V (&x)[N], index_t, index_t, Context&, Pack const& a) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] += detail::widen<V>(a[j]);
  }
  add_node bind(char const* where, index_t rows, index_t cols) const {
    return {{}, operand.bind(where, "add operand", rows, cols)};
  }
  template <int N> bool aligned_for_pack() const { return detail::view_allows_pack<N>(operand); }
  template <int N> bool phased_for_pack(detail::row_phase const& phase) const {
    return phase.admits<N>(operand);
  }
};

/// Replaces masked elements (mask element nonzero, as in masked_fill) by `fill`, -inf unless
/// given: a masked logit then takes no part in the softmax.
template <class M> struct mask_node : node_tag {
  static constexpr bool load_side = true, store_side = false;
  static constexpr char const* name = "mask";
  view<M const> mask;
  float fill;

  template <int N> ROWFUSE_HD auto read(index_t row, index_t col0) const {
    return detail::read_operand<N>(mask, row, col0);
  }
  ROWFUSE_HD view<M const> const& operand_stream() const { return mask; }
  template <int N, class V, class Context, class Pack>
  ROWFUSE_HD void apply(V (&x)[N], index_t, index_t, Context&, Pack const& m) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      if (m[j])
        x[j] = V(fill);
  }
  mask_node bind(char const* where, index_t rows, index_t cols) const {
    return {{}, mask.bind(where, "mask", rows, cols), fill};
  }
  template <int N> bool aligned_for_pack() const { return detail::view_allows_pack<N>(mask); }
  template <int N> bool phased_for_pack(detail::row_phase const& phase) const {
    return phase.admits<N>(mask);
  }
};

template <class N> inline constexpr bool is_mask_node = false;
template <class M> inline constexpr bool is_mask_node<mask_node<M>> = true;

/// Masks (to -inf) column c of row r when c > r % q_len + offset: the causal mask of
/// attention scores laid out as [batch * heads * q_len, k_len]. offset = k_len - q_len aligns
/// the diagonal to the bottom right (a query block at the end of a longer key sequence).
struct causal_mask_node : node_tag {
  static constexpr bool load_side = true, store_side = false;
  static constexpr char const* name = "causal_mask";
  index_t q_len;
  index_t offset;
  detail::u32_remainder row_in_query{}; // set by bind where q_len < 2^32: r % q_len for r < 2^32

  /// Masks the elements past the first `visible` of the pack, those right of the diagonal. A pack
  /// wholly left of it (about half of a square score matrix) costs one compare and a branch.
  template <int N, class V, class Context>
  ROWFUSE_HD void apply(V (&x)[N], index_t row, index_t col0, Context&) const {
    index_t const visible = query_position(row) + offset - col0 + 1;
    if (visible >= N)
      return;
    int const kept = visible < 0 ? 0 : int(visible);
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      if (j >= kept)
        x[j] = -std::numeric_limits<V>::infinity();
  }
  /// row % q_len: by multiplication where both fit 32 bits (bind leaves row_in_query's divisor at
  /// 1 where q_len does not).
  ROWFUSE_HD index_t query_position(index_t row) const {
    if (row_in_query.divisor != 1 && (std::uint64_t(row) >> 32) == 0)
      return index_t(row_in_query.of(std::uint32_t(row)));
    return row % q_len;
  }
  causal_mask_node bind(char const* where, index_t, index_t) const {
    detail::require(q_len > 0, where, "causal_mask q_len", q_len, "must be > 0");
    causal_mask_node bound = *this;
    if (q_len > 1 && std::uint64_t(q_len) >> 32 == 0)
      bound.row_in_query = detail::u32_remainder::by(std::uint32_t(q_len));
    return bound;
  }
  template <int N> bool aligned_for_pack() const { return true; }
  template <int N> bool phased_for_pack(detail::row_phase const&) const { return true; }
};

/// Writes the value as it is at this point of the chain to `target` (rounded to its type) and
/// passes it on unchanged. On the load side: the pre-norm residual stream h = x + bias + residual
/// that a transformer block keeps, written by the same kernel that normalises it (only on the
/// pass that emits: once per element). On the store side: the op's result at that point, e.g.
/// softmax's y before a store-side dropout, which its backward reads
/// (rf::store(P) | rf::tee(y) | rf::dropout(p, seed, offset)).
template <class T> struct tee_node : node_tag {
  static constexpr bool load_side = true, store_side = true;
  static constexpr char const* name = "tee";
  view<T> target;

  template <int N, class V, class Context>
  ROWFUSE_HD void apply(V (&x)[N], index_t row, index_t col0, Context& context) const {
    if constexpr (requires { context.emit; })
      if (!context.emit)
        return;
    T out[N];
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      out[j] = detail::narrow<T>(x[j]);
    detail::store_pack<N>(target.row(row) + col0, out);
  }
  tee_node bind(char const* where, index_t rows, index_t cols) const {
    // A broadcast target would have several rows write the same elements, in no set order.
    if (target.broadcast_rows >= 0)
      detail::fail(where, ": tee target is a broadcast view; a tee writes every element of the "
                          "input's shape once: give it a dense [rows, cols] view");
    return {{}, target.bind(where, "tee target", rows, cols)};
  }
  template <int N> bool aligned_for_pack() const { return detail::view_allows_pack<N>(target); }
  template <int N> bool phased_for_pack(detail::row_phase const& phase) const {
    return phase.admits<N>(target);
  }
};

template <class N> inline constexpr bool is_tee_node = false;
template <class T> inline constexpr bool is_tee_node<tee_node<T>> = true;

/// Wraps a user functor: any copyable callable on the compute type, f(x) or f(x, row, col).
/// To run in the host reference too, its call operator must be __host__ __device__.
template <class F> struct map_node : node_tag {
  static constexpr bool load_side = true, store_side = true;
  static constexpr char const* name = "user transform";
  F f;

  template <int N, class V, class Context>
  ROWFUSE_HD void apply(V (&x)[N], index_t row, index_t col0, Context&) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      if constexpr (std::is_invocable_v<F const&, V, index_t, index_t>)
        x[j] = V(f(x[j], row, col0 + j));
      else
        x[j] = V(f(x[j]));
    }
  }
  map_node bind(char const*, index_t, index_t) const { return *this; }
  template <int N> bool aligned_for_pack() const { return true; }
  template <int N> bool phased_for_pack(detail::row_phase const&) const { return true; }
};

// ---- the spellings users write ------------------------------------------------------------

constexpr scale_node scale(float factor) {
  return {{}, factor};
}

template <element T> constexpr bias_node<T const> bias(T const* vector) {
  return {{}, dense(vector, 1)};
}

template <element T> constexpr add_node<T const> add(T const* operand, index_t ld = -1) {
  return {{}, dense(operand, -1, -1, ld)};
}
template <element T> constexpr add_node<T const> add(view<T> operand) {
  return {{},
          view<T const>{operand.data, operand.rows, operand.cols, operand.ld, operand.map,
                        operand.broadcast_rows}};
}

template <mask_element M>
constexpr mask_node<M const> mask(M const* mask, float fill = -INFINITY, index_t ld = -1) {
  return {{}, dense(mask, -1, -1, ld), fill};
}
template <mask_element M> constexpr mask_node<M const> mask(view<M> mask, float fill = -INFINITY) {
  return {{},
          view<M const>{mask.data, mask.rows, mask.cols, mask.ld, mask.map, mask.broadcast_rows},
          fill};
}

constexpr causal_mask_node causal_mask(index_t q_len, index_t offset = 0) {
  return {{}, q_len, offset, {}};
}

template <element T> constexpr tee_node<T> tee(T* target, index_t ld = -1) {
  static_assert(!std::is_const_v<T>,
                "rowfuse: rf::tee writes its target: give it a non-const pointer or view");
  return {{}, dense(target, -1, -1, ld)};
}
template <element T> constexpr tee_node<T> tee(view<T> target) {
  static_assert(!std::is_const_v<T>,
                "rowfuse: rf::tee writes its target: give it a non-const pointer or view");
  return {{}, target};
}

/// Spells out that a functor is a transform; piping the functor itself does the same.
template <class F> constexpr map_node<F> map(F f) {
  return {{}, f};
}

} // namespace rowfuse
