// What the variant families (ops.cuh, pipelines.cuh) share: element types by name, typed
// access to the untyped buffers, and the tolerances of the fused-against-unfused check.
#pragma once

#include <cmath>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "harness.hpp"

namespace bench {

template <class T>
inline constexpr dtype dtype_of = std::is_same_v<T, float>           ? dtype::fp32
                                  : std::is_same_v<T, __half>        ? dtype::fp16
                                  : std::is_same_v<T, __nv_bfloat16> ? dtype::bf16
                                                                     : dtype::fp8_e4m3;

template <class T> T const* in(void const* p) {
  return static_cast<T const*>(p);
}
template <class T> T* out(void* p) {
  return static_cast<T*>(p);
}

/// The spacing of t's values at 1 (unit in the last place).
constexpr double ulp_at_one(dtype t) {
  switch (t) {
  case dtype::fp32:
    return 0x1p-23;
  case dtype::fp16:
    return 0x1p-10;
  case dtype::bf16:
    return 0x1p-7;
  case dtype::fp8_e4m3:
    return 0x1p-3;
  }
  return 0;
}

/// The smallest positive value of t: where relative tolerances stop making sense.
constexpr double smallest_step(dtype t) {
  switch (t) {
  case dtype::fp32:
    return 0x1p-149;
  case dtype::fp16:
    return 0x1p-24;
  case dtype::bf16:
    return 0x1p-133;
  case dtype::fp8_e4m3:
    return 0x1p-9;
  }
  return 0;
}

// How far fused and unfused may be apart. Both compute in fp32 from the same rounded inputs;
// they differ by the order of fp32 sums and exp/log implementations (well under `slack`), by the
// last rounding to the output (one ulp either way, hence 2 ulps relative), and the unfused
// pipelines additionally by rounding every intermediate tensor to the input type. A wrong
// dropout mask, a missing transform or an unwritten element is off by far more.
namespace tolerances {

inline constexpr double slack = 1e-5;

/// Probabilities near 1/cols: relative, plus an absolute floor for the values rounded to
/// subnormals of fp16 at wide rows. `roundings` is how many times unfused rounds the value.
inline tolerance probabilities(dtype t, int roundings = 2) {
  double const r = roundings * ulp_at_one(t) + slack;
  return {r, 4 * smallest_step(t), r};
}

/// Values of order one (log-probabilities, normalised outputs).
inline tolerance of_order_one(dtype t) {
  double const r = 2 * ulp_at_one(t) + slack;
  return {r, r, 0};
}

/// layernorm of h = dropout(x + bias) + residual: unfused rounds x + bias, the dropout and the
/// sum to the input type, each off by up to half an ulp of values up to about 9, which the
/// norm scales by rstd * gamma (about 0.3 * 1.5 with the benchmark's data).
inline tolerance residual_output(dtype t) {
  double const r = 2 * ulp_at_one(t) + slack;
  return {r, 6 * ulp_at_one(t) + slack, 0};
}

/// h itself: the same three roundings, unscaled.
inline tolerance residual_sum(dtype t) {
  return {2 * ulp_at_one(t) + slack, 10 * ulp_at_one(t) + slack, 0};
}

/// e4m3 values of y * fp8_scale: unfused rounds y to the input type first, so the two may land
/// one e4m3 step apart (1/8 relative at the bottom of a binade).
inline tolerance fp8_output(dtype input) {
  return {ulp_at_one(dtype::fp8_e4m3) + 2 * ulp_at_one(input) + slack,
          2 * smallest_step(dtype::fp8_e4m3), 0};
}

/// amax is max |y| of fp32 values fused and of values rounded to the input type unfused.
inline tolerance amax(dtype input) {
  return {2 * ulp_at_one(input) + slack, 0, 0};
}

/// Softmax's gradient dx = scale * y * (dy - sum(dy * y)), with w = y (the prepared input): the
/// last rounding (relative); the order of the fp32 sum, whose error (under 2^-24 * 20 of
/// sum |dy * y| <= 4) reaches dx times y; and with `dy_roundings` = 1 the unfused dropout's
/// rounding of dy / (1 - p) (|dy| < 4.5) to the input type, half an ulp on each side of
/// dy - sum, which where the two nearly cancel no relative tolerance covers: 2 * 4.5 half-ulps
/// of y, doubled.
inline tolerance softmax_gradient(dtype t, int dy_roundings, float scale) {
  double const r = 2 * ulp_at_one(t) + slack;
  return {r, 4 * smallest_step(t), 0, scale * (dy_roundings * 9 * ulp_at_one(t) + 10 * slack)};
}

} // namespace tolerances
} // namespace bench
