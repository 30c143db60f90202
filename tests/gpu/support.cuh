// Shared by the GPU tests: device buffers, random inputs, poisoned outputs, and the comparison
// against the host reference with tolerances that follow from the output type.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <rowfuse/reference.hpp>
#include <rowfuse/rowfuse.cuh>

#include "../support/error_message.hpp"

namespace rf = rowfuse;

namespace test {

/// The reduced-size mode: ROWFUSE_TEST_SMALL set to anything but "" or "0" (as
/// scripts/gpu-check.sh --sanitize does) asks the suites for fewer rows, fewer widths and fewer
/// random cases, so that compute-sanitizer's tools, which run kernels 10-1000 times slower,
/// finish every suite in seconds to a minute. Every engine and code path stays covered.
inline bool small_mode() {
  static bool const small = [] {
    char const* value = std::getenv("ROWFUSE_TEST_SMALL");
    return value != nullptr && *value != '\0' && std::string(value) != "0";
  }();
  return small;
}

/// A host and a device copy of one buffer, `pad` elements longer than asked so a view may
/// start off the allocation's alignment.
template <class T> struct mirrored {
  // bool is held as bytes: std::vector<bool> packs bits and has no data().
  using stored = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;
  std::vector<stored> host;
  thrust::device_vector<stored> device;

  explicit mirrored(std::size_t n) : host(n), device(n) {}
  T* h(std::size_t offset = 0) { return reinterpret_cast<T*>(host.data()) + offset; }
  T* d(std::size_t offset = 0) {
    return reinterpret_cast<T*>(thrust::raw_pointer_cast(device.data())) + offset;
  }
  void upload() { thrust::copy(host.begin(), host.end(), device.begin()); }
  std::vector<stored> download() const {
    std::vector<stored> out(device.size());
    thrust::copy(device.begin(), device.end(), out.begin());
    return out;
  }
};

template <class T>
void fill_uniform(std::vector<T>& v, std::mt19937& rng, float lo = -4.0f, float hi = 4.0f) {
  std::uniform_real_distribution<float> dist(lo, hi);
  for (auto& x : v)
    x = rf::detail::narrow<T>(dist(rng));
}

/// Poison: a byte pattern that is NaN in every float format, so an element the kernel forgot to
/// write can never pass for a result (the checks treat a NaN where a number is due as wrong).
template <class T> void poison(std::vector<T>& v) {
  std::memset(static_cast<void*>(v.data()), 0xFF, v.size() * sizeof(T));
}

/// The spacing of T's values at magnitude |v| (its unit in the last place).
template <class T> double ulp(double v) {
  int e = 0;
  std::frexp(std::fabs(v), &e); // |v| = m * 2^e with m in [0.5, 1)
  int exponent = e - 1;
  int min_exponent = 0;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, __nv_bfloat16>)
    min_exponent = -126;
  else if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_fp8_e5m2>)
    min_exponent = -14;
  else
    min_exponent = -6; // e4m3
  if (v == 0.0 || exponent < min_exponent)
    exponent = min_exponent;
  return std::ldexp(1.0, exponent - rf::element_traits<T>::mantissa_bits);
}

/// Tolerance for one output element against the exact value `ref`:
///  - 16-bit and fp8 outputs: one unit in the last place of the output type at |ref| (the
///    kernel's fp32 arithmetic is far finer, so only the final rounding remains);
///  - fp32 outputs: 1e-6 relative, plus `fp32_abs` for ops whose outputs are differences of
///    O(1) fp32 terms (log-softmax: x - max - log(sum) carries ~1 ulp of |x| absolute).
template <class T> double tolerance(double ref, double fp32_abs) {
  if constexpr (std::is_same_v<T, float>)
    return 1e-6 * std::fabs(ref) + fp32_abs;
  else
    return ulp<T>(ref);
}

struct mismatch_report {
  std::size_t checked = 0;
  std::size_t bad = 0;
  std::string first;
};

/// Whether v is still the poison pattern (all 0xFF bytes). The kernels' NaN is the canonical
/// 0x7F.. one, so the poison itself is never a result: an element expected to be NaN that was
/// never written fails too.
template <class T> bool is_poison(T const& v) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  for (unsigned char b : bytes)
    if (b != 0xFF)
      return false;
  return true;
}

/// The first element of `buffer` outside the [rows, cols] view (row stride ld, first element at
/// offset) that is no longer the poison, or -1: where a kernel wrote past its view (a row's ld
/// padding, the elements before an offset view).
template <class T>
long written_outside(std::vector<T> const& buffer, long rows, long cols, long ld, long offset) {
  long const stride = std::max(ld, 1L);
  for (long i = 0; i < long(buffer.size()); ++i) {
    long const at = i - offset;
    bool const inside = at >= 0 && at / stride < rows && at % stride < cols;
    if (!inside && !is_poison(buffer[std::size_t(i)]))
      return i;
  }
  return -1;
}

/// Compares every element of a [rows, cols] output (row stride ld, first element at offset) with
/// the exact values; `tolerance(exact)` is the bound for one element.
template <class T, class Tolerance>
mismatch_report compare_within(std::vector<T> const& got, std::vector<double> const& exact,
                               long rows, long cols, long ld, long offset, Tolerance tolerance) {
  mismatch_report r;
  for (long i = 0; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      T const raw = got[std::size_t(offset + i * ld + j)];
      double const g = rf::detail::widen<double>(raw);
      double const e = exact[std::size_t(i * cols + j)];
      ++r.checked;
      bool ok;
      if (is_poison(raw))
        ok = false; // never written
      else if (std::isnan(e))
        ok = std::isnan(g);
      else if (std::isinf(e))
        ok = g == e;
      else
        ok = !std::isnan(g) && std::fabs(g - e) <= tolerance(e);
      if (!ok && r.bad++ == 0) {
        std::ostringstream s;
        s.precision(10);
        s << "row " << i << " col " << j << ": got " << g << ", exact " << e << ", tolerance "
          << tolerance(e);
        r.first = s.str();
      }
    }
  }
  return r;
}

/// compare_within with the per-type tolerance above.
template <class T>
mismatch_report compare(std::vector<T> const& got, std::vector<double> const& exact, long rows,
                        long cols, long ld, long offset, double fp32_abs = 0.0) {
  return compare_within(got, exact, rows, cols, ld, offset,
                        [&](double e) { return tolerance<T>(e, fp32_abs); });
}

#define CHECK_MATCHES(report)                                                                      \
  do {                                                                                             \
    auto const& report_ = (report);                                                                \
    INFO("first mismatch: " << report_.first);                                                     \
    CHECK(report_.checked > 0);                                                                    \
    CHECK(report_.bad == 0);                                                                       \
  } while (0)

inline void sync_and_check() {
  cudaError_t const s = cudaDeviceSynchronize();
  REQUIRE_MESSAGE(s == cudaSuccess, cudaGetErrorString(s));
}

inline std::vector<rf::engine_kind> all_engines() {
  return {rf::engine_kind::warp_rows,     rf::engine_kind::block_rows,
          rf::engine_kind::cluster_rows,  rf::engine_kind::block_smem,
          rf::engine_kind::block_cluster, rf::engine_kind::block_uncached};
}

/// The row of tuning table `table` that register plan `p` runs (p.shape indexes it).
template <class Table> auto table_row(Table const& table, rf::plan const& p) {
  REQUIRE(p.shape >= 0);
  REQUIRE(std::size_t(p.shape) < std::size(table));
  return table[std::size_t(p.shape)];
}

/// One plan a test runs a call under: the options that force it, and the plan a dry run of the
/// same call gave for them.
struct planned {
  rf::launch_options options;
  rf::plan plan;
};

/// The plans a test runs one call under: the automatic plan, then every engine forced at the
/// widest pack the views allow (pack 0) and at single elements (pack 1, where that is another
/// plan), wherever a dry run of the same call says it runs. `call(options)` makes the call and
/// returns its rf::plan; it is called here with options.dry_run only, so nothing is launched.
/// Scalar accesses on block_uncached past 20000 columns are left out: seconds a call, and nothing
/// that the vector run and the narrower widths do not cover.
template <class Call> std::vector<planned> plans_for(Call&& call) {
  auto const dry = [&](rf::engine_kind kind, int pack) {
    rf::launch_options options{kind, pack, true};
    planned const p{{kind, pack}, call(options)};
    return p;
  };
  planned const automatic = dry(rf::engine_kind::automatic, 0);
  REQUIRE_MESSAGE(automatic.plan.refused.empty(), automatic.plan.refused);
  std::vector<planned> plans{automatic};
  for (rf::engine_kind kind : all_engines()) {
    for (int pack : {0, 1}) {
      if (pack == 1 && automatic.plan.pack == 1)
        continue;
      if (kind == rf::engine_kind::block_uncached && pack == 1 && automatic.plan.cols > 20000)
        continue;
      planned const forced = dry(kind, pack);
      if (forced.plan.refused.empty())
        plans.push_back(forced);
    }
  }
  return plans;
}

/// A launched plan is the one its dry run gave: the engine forced (or chosen), the pack, the
/// register shape and the grid.
inline void check_as_planned(rf::plan const& launched, planned const& expected) {
  INFO(rf::explain(launched));
  INFO("dry run: " << rf::explain(expected.plan));
  CHECK(launched.engine == expected.plan.engine);
  if (expected.options.engine != rf::engine_kind::automatic)
    CHECK(launched.engine == expected.options.engine);
  CHECK(launched.pack == expected.plan.pack);
  if (expected.options.pack == 1)
    CHECK(launched.pack == 1);
  CHECK(launched.shape == expected.plan.shape);
  CHECK(launched.grid == expected.plan.grid);
  CHECK(launched.refused.empty());
}

/// Runs `launch(options)` under every plan test::plans_for finds and checks that each launch ran
/// its dry run's plan. `launch` makes one call with `options` and returns its rf::plan; with
/// options.dry_run (plans_for's probes) it returns right after the call, otherwise it checks the
/// call's outputs.
template <class Launch> void for_each_plan(Launch&& launch) {
  for (planned const& each : plans_for(launch))
    check_as_planned(launch(each.options), each);
}

} // namespace test
