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

template <int N, class T> ROWFUSE_HD void load_pack(T const* source, T (&out)[N]) {
  constexpr int bytes = pack_access_bytes<T, N>;
  using word = typename raw_word<bytes>::type;
  constexpr int words = N * int(sizeof(T)) / bytes;
  word buffer[words];
  auto const* from = reinterpret_cast<word const*>(source);
  ROWFUSE_UNROLL
  for (int i = 0; i < words; ++i)
    buffer[i] = from[i];
  std::memcpy(out, buffer, sizeof(out));
}

template <int N, class T> ROWFUSE_HD void store_pack(T* destination, T const (&in)[N]) {
  constexpr int bytes = pack_access_bytes<T, N>;
  using word = typename raw_word<bytes>::type;
  constexpr int words = N * int(sizeof(T)) / bytes;
  word buffer[words];
  std::memcpy(buffer, in, sizeof(in));
  auto* to = reinterpret_cast<word*>(destination);
  ROWFUSE_UNROLL
  for (int i = 0; i < words; ++i)
    to[i] = buffer[i];
}

} // namespace rowfuse::detail
