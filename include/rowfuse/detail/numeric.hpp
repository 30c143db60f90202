// Element types rowfuse reads and writes, and the conversions between them and the compute
// type. Inputs are fp32, fp16 or bf16; outputs may also be fp8 (e4m3, e5m2). Masks are bool
// or uint8. Everything is computed in fp32 on the device and in double in the host reference.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "config.hpp"

namespace rowfuse {

template <class T> struct element_traits { static constexpr bool supported = false; };

template <> struct element_traits<float> {
  static constexpr bool supported = true, is_fp8 = false, is_input = true;
  static constexpr char const* name = "fp32";
  static constexpr double max_finite = 3.4028234663852886e38;
  static constexpr int mantissa_bits = 23;
};
template <> struct element_traits<__half> {
  static constexpr bool supported = true, is_fp8 = false, is_input = true;
  static constexpr char const* name = "fp16";
  static constexpr double max_finite = 65504.0;
  static constexpr int mantissa_bits = 10;
};
template <> struct element_traits<__nv_bfloat16> {
  static constexpr bool supported = true, is_fp8 = false, is_input = true;
  static constexpr char const* name = "bf16";
  static constexpr double max_finite = 3.3895313892515355e38;
  static constexpr int mantissa_bits = 7;
};
template <> struct element_traits<__nv_fp8_e4m3> {
  static constexpr bool supported = true, is_fp8 = true, is_input = false;
  static constexpr char const* name = "fp8_e4m3";
  static constexpr double max_finite = 448.0;
  static constexpr int mantissa_bits = 3;
  static constexpr __nv_fp8_interpretation_t interpretation = __NV_E4M3;
  /// Without saturation, |x| past the midpoint between the largest finite value and the next
  /// step rounds out of range, to `overflow_bits` (or'ed with the sign): NaN, as e4m3 has no
  /// infinity. The midpoint itself ties to 448 (the even mantissa).
  static constexpr float overflow_midpoint = 464.0f;
  static constexpr bool midpoint_overflows = false;
  static constexpr unsigned char overflow_bits = 0x7f;
};
template <> struct element_traits<__nv_fp8_e5m2> {
  static constexpr bool supported = true, is_fp8 = true, is_input = false;
  static constexpr char const* name = "fp8_e5m2";
  static constexpr double max_finite = 57344.0;
  static constexpr int mantissa_bits = 2;
  static constexpr __nv_fp8_interpretation_t interpretation = __NV_E5M2;
  /// Without saturation, |x| from the midpoint 61440 up rounds to infinity (the tie goes to the
  /// even mantissa, infinity's).
  static constexpr float overflow_midpoint = 61440.0f;
  static constexpr bool midpoint_overflows = true;
  static constexpr unsigned char overflow_bits = 0x7c;
};

/// A type a load view, an output view or a tee may hold.
template <class T>
concept element = element_traits<std::remove_cv_t<T>>::supported;
/// A type the input of an op may hold (fp8 is an output format only).
template <class T>
concept input_element = element<T> && element_traits<std::remove_cv_t<T>>::is_input;
template <class T>
concept fp8_element = element<T> && element_traits<std::remove_cv_t<T>>::is_fp8;
/// The element of a mask view: nonzero means "masked".
template <class T>
concept mask_element = std::is_same_v < std::remove_cv_t<T>,
bool > || std::is_same_v<std::remove_cv_t<T>, std::uint8_t>;

namespace detail {

/// Widen any element (or mask byte) to float on the device or to double on the host.
template <class V, class T> ROWFUSE_HD V widen(T x) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>)
    return V(x);
  else if constexpr (std::is_same_v<U, __half>)
    return V(__half2float(x));
  else if constexpr (std::is_same_v<U, __nv_bfloat16>)
    return V(__bfloat162float(x));
  else if constexpr (std::is_same_v<U, bool> || std::is_same_v<U, std::uint8_t>)
    return V(x);
  else
    return V(static_cast<float>(x)); // fp8 widen exactly to float
}

/// -infinity of an input element, made from its bits: a conversion from float would cost an
/// instruction on the device (CUDA's float-to-half is inline assembly, which is not folded).
template <input_element T> ROWFUSE_HD T negative_infinity() {
  if constexpr (std::is_same_v<T, float>) {
    return -std::numeric_limits<float>::infinity();
  } else if constexpr (std::is_same_v<T, __half>) {
    __half_raw bits;
    bits.x = 0xfc00;
    return __half(bits);
  } else {
    __nv_bfloat16_raw bits;
    bits.x = 0xff80;
    return __nv_bfloat16(bits);
  }
}

/// Clamp to ±limit, keeping NaN (a plain fminf/fmaxf pair would turn NaN into -limit).
template <class V> ROWFUSE_HD V clamp_magnitude(V x, V limit) {
  return x > limit ? limit : (x < -limit ? -limit : x);
}

/// Round a compute value to a storage element, to nearest even. With `saturate`, values past
/// the type's largest finite value (infinities included) become that value; NaN stays NaN.
/// Without it, fp16/bf16 overflow to ±inf as CUDA's own conversions do, and fp8 follows the
/// format: e4m3 has no infinity, so it gives NaN; e5m2 gives ±inf.
template <class T, class V> ROWFUSE_HD T narrow(V value, bool saturate = false) {
  if constexpr (std::is_same_v<V, double>) {
    // The host reference: round the double once, straight to T. Going through float first
    // would round twice and, next to a tie, land one ulp off.
    double const x = saturate ? clamp_magnitude(value, element_traits<T>::max_finite) : value;
    if constexpr (std::is_same_v<T, float>)
      return static_cast<float>(x);
    else if constexpr (std::is_same_v<T, __half>)
      return __double2half(x);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>)
      return __double2bfloat16(x);
    else {
      static_assert(fp8_element<T>, "rowfuse: no conversion to this element type");
      T out;
      out.__x = __nv_cvt_double_to_fp8(x, saturate ? __NV_SATFINITE : __NV_NOSAT,
                                       element_traits<T>::interpretation);
      return out;
    }
  } else {
    float const x = static_cast<float>(value);
    if constexpr (std::is_same_v<T, float>) {
      return saturate ? clamp_magnitude(x, 3.4028234663852886e38f) : x;
    } else if constexpr (std::is_same_v<T, __half>) {
      return __float2half_rn(saturate ? clamp_magnitude(x, 65504.0f) : x);
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      return __float2bfloat16_rn(saturate ? clamp_magnitude(x, 3.3895313892515355e38f) : x);
    } else {
      static_assert(fp8_element<T>, "rowfuse: no conversion to this element type");
      T out;
      out.__x = __nv_cvt_float_to_fp8(x, saturate ? __NV_SATFINITE : __NV_NOSAT,
                                      element_traits<T>::interpretation);
      return out;
    }
  }
}

#ifdef __CUDACC__
/// out[j] = narrow<T>(x[j], saturate) for a pack of device values, with `saturate` tested once
/// per pack (it is the store's, uniform across the launch):
///  - fp8 on sm_89+: the hardware conversion of two floats in one instruction
///    (cvt.rn.satfinite.e4m3x2.f32), its 16-bit results shifted into 32-bit words as they come;
///    it only saturates, so without `saturate` a pass over the pack puts back the format's
///    overflow exactly as narrow rounds it (element_traits::overflow_midpoint);
///  - fp16 and bf16: clamped first when saturating, then converted in pairs
///    (cvt.rn.f16x2.f32, cvt.rn.bf16x2.f32), the same round-to-nearest-even as one at a time;
///  - anything else (fp32, fp8 before sm_89): narrow, element by element.
template <class T, int N>
__device__ __forceinline__ void narrow_pack(float const (&x)[N], T (&out)[N], bool saturate) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  constexpr bool hardware_fp8 = fp8_element<T>;
#else
  constexpr bool hardware_fp8 = false;
#endif
  constexpr bool paired_16bit = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
  if constexpr (hardware_fp8) {
    using traits = element_traits<T>;
    // Element j is byte j % 4 of word j / 4, as the pack lies in memory.
    std::uint32_t words[(N + 3) / 4] = {};
    ROWFUSE_UNROLL
    for (int j = 0; j < N; j += 2) {
      float2 const pair{x[j], j + 1 < N ? x[j + 1] : 0.0f};
      std::uint32_t const both =
          __nv_cvt_float2_to_fp8x2(pair, __NV_SATFINITE, traits::interpretation);
      words[j / 4] |= both << (8 * (j % 4));
    }
    if (!saturate) {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j) {
        float const magnitude = fabsf(x[j]); // NaN compares false: cvt keeps it NaN
        bool const overflows =
            magnitude > traits::overflow_midpoint ||
            (traits::midpoint_overflows && magnitude == traits::overflow_midpoint);
        std::uint32_t const bits = traits::overflow_bits | (__float_as_uint(x[j]) >> 24 & 0x80u);
        int const shift = 8 * (j % 4);
        if (overflows)
          words[j / 4] = (words[j / 4] & ~(0xffu << shift)) | bits << shift;
      }
    }
    std::memcpy(out, words, sizeof(out));
  } else if constexpr (paired_16bit) {
    float y[N];
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      y[j] = x[j];
    if (saturate) {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        y[j] = clamp_magnitude(y[j], float(element_traits<T>::max_finite));
    }
    ROWFUSE_UNROLL
    for (int j = 0; j + 1 < N; j += 2) {
      if constexpr (std::is_same_v<T, __half>) {
        __half2 const both = __floats2half2_rn(y[j], y[j + 1]); // .x = y[j]: the lower address
        std::memcpy(&out[j], &both, sizeof both);
      } else {
        __nv_bfloat162 const both = __floats2bfloat162_rn(y[j], y[j + 1]);
        std::memcpy(&out[j], &both, sizeof both);
      }
    }
    if constexpr (N % 2 == 1)
      out[N - 1] = narrow<T>(y[N - 1]);
  } else {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      out[j] = narrow<T>(x[j], saturate);
  }
}
#endif

/// Whether every x[j] is +0 (not -0, not NaN): the or of their bits is 0, about one instruction
/// for two floats.
template <int N, class V> ROWFUSE_HD bool all_positive_zero(V const (&x)[N]) {
  if constexpr (std::is_same_v<V, float>) {
    std::uint32_t bits = 0;
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
#ifdef __CUDA_ARCH__
      bits |= __float_as_uint(x[j]);
#else
      std::uint32_t word;
      std::memcpy(&word, &x[j], sizeof word);
      bits |= word;
#endif
    }
    return bits == 0;
  } else {
    static_assert(std::is_same_v<V, double>, "all_positive_zero: float or double");
    std::uint64_t bits = 0;
    for (int j = 0; j < N; ++j) {
      std::uint64_t word;
      std::memcpy(&word, &x[j], sizeof word);
      bits |= word;
    }
    return bits == 0;
  }
}

} // namespace detail
} // namespace rowfuse
