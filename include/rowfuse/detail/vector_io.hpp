// Packs: N consecutive elements moved with the widest loads and stores their alignment allows
// (16 bytes = 8 fp16/bf16 or 4 fp32 per instruction). The dispatcher only picks N when every
// pointer, row stride and the column count keep each pack aligned to min(16, N * sizeof(T)).
#pragma once

#include <cstdint>
#include <cstring>

#include "config.hpp"

namespace rowfuse::detail {

template <int Bytes> struct raw_word;
template <> struct raw_word<16> { using type = uint4; };
template <> struct raw_word<8> { using type = uint2; };
template <> struct raw_word<4> { using type = unsigned int; };
template <> struct raw_word<2> { using type = unsigned short; };
template <> struct raw_word<1> { using type = unsigned char; };

/// Bytes per memory instruction for a pack of N elements of T.
template <class T, int N>
inline constexpr int pack_access_bytes = N * sizeof(T) >= 16 ? 16 : int(N * sizeof(T));

/// Byte alignment a pointer (and a row stride in bytes) needs for packs of N elements of T.
template <class T, int N> inline constexpr std::uintptr_t pack_alignment = pack_access_bytes<T, N>;

/// N elements of T held as the words of the one load that brings them (16-byte words for a
/// 16-byte pack), not as N elements: a value read ahead of its use stays in the load's registers
/// until an element is taken. Held as elements, nvcc split a 16-bit pack into halves at the load
/// (byte permutes, which wait for the load there: sixteenth session, bench/NOTES.md).
template <class T, int N> struct word_pack {
  static constexpr int bytes = pack_access_bytes<T, N>;
  using word = typename raw_word<bytes>::type;
  static constexpr int words = N * int(sizeof(T)) / bytes;
  word w[words];

  ROWFUSE_HD T operator[](int j) const {
    T elements[N];
    std::memcpy(elements, w, sizeof(elements));
    return elements[j];
  }
};

/// The pack at source as words (word_pack).
template <int N, class T> ROWFUSE_HD word_pack<T, N> load_words(T const* source) {
  word_pack<T, N> pack;
  auto const* from = reinterpret_cast<typename word_pack<T, N>::word const*>(source);
  ROWFUSE_UNROLL
  for (int i = 0; i < word_pack<T, N>::words; ++i)
    pack.w[i] = from[i];
  return pack;
}

/// The pack at source as elements: load_words' loads.
template <int N, class T> ROWFUSE_HD void load_pack(T const* source, T (&out)[N]) {
  auto const pack = load_words<N>(source);
  std::memcpy(out, pack.w, sizeof(out));
}

/// in to destination with the loads' words.
template <int N, class T> ROWFUSE_HD void store_pack(T* destination, T const (&in)[N]) {
  word_pack<T, N> pack;
  std::memcpy(pack.w, in, sizeof(in));
  auto* to = reinterpret_cast<typename word_pack<T, N>::word*>(destination);
  ROWFUSE_UNROLL
  for (int i = 0; i < word_pack<T, N>::words; ++i)
    to[i] = pack.w[i];
}

/// Slots in shared memory for one value of trivially copyable T per thread of a block of
/// `threads`, index by index: the value is cut into words of the widest size that divides it (up
/// to 16 bytes), and word w of index i of thread t lies at [(i * words + w) * threads + t], so that
/// a warp's accesses of one word are consecutive (no bank conflicts).
template <class T> struct word_slots {
  static constexpr int word_bytes = sizeof(T) % 16 == 0  ? 16
                                    : sizeof(T) % 8 == 0 ? 8
                                    : sizeof(T) % 4 == 0 ? 4
                                    : sizeof(T) % 2 == 0 ? 2
                                                         : 1;
  using word = typename raw_word<word_bytes>::type;
  static constexpr int words = int(sizeof(T)) / word_bytes;

  static ROWFUSE_HD void store(word* slots, int index, int thread, int threads, T const& value) {
    word buffer[words];
    std::memcpy(buffer, &value, sizeof(T));
    ROWFUSE_UNROLL
    for (int w = 0; w < words; ++w)
      slots[(index * words + w) * threads + thread] = buffer[w];
  }
  static ROWFUSE_HD T load(word const* slots, int index, int thread, int threads) {
    word buffer[words];
    ROWFUSE_UNROLL
    for (int w = 0; w < words; ++w)
      buffer[w] = slots[(index * words + w) * threads + thread];
    T value;
    std::memcpy(&value, buffer, sizeof(T));
    return value;
  }
};

} // namespace rowfuse::detail
