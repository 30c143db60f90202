// Randomized differential testing: each run draws cases from a printed seed, runs each on the
// GPU (the automatic plan, and often a forced engine and pack too) and compares every element,
// tee value, keep mask, amax and saved statistic with the double host reference.
//
//   gpu_random_differential_<op>[_cast] [--seed S] [--cases N] [--case K]
//
// (also ROWFUSE_RANDOM_SEED / ROWFUSE_RANDOM_CASES). Case k depends only on (seed, k): a
// failing case prints one line that reruns it alone, `--seed S --case k`.
//
// What a case draws:
//  - a combo: op, input and output types, a load chain and a store chain, from the family of its
//    executable (random_differential_<op>[_cast].cu list them: a fixed set, so the kernels
//    compiled stay bounded; everything else is drawn at run time);
//  - rows (1 to thousands) and cols (1 to 300000, odd ones and pack multiples), an element
//    budget per case; every view's ld (>= cols) and its offset (0 or 1 element off alignment);
//  - the chain's parameters: scale, bias, full and broadcast operands, masks (full, broadcast,
//    fully masked rows, finite fills), causal masks with negative and positive offsets, dropout
//    probabilities, seeds and offsets on either side, cast scales, amax, saturation, eps, the
//    affine variant, saved statistics;
//  - each row's data: ordinary, far from zero, constant, one dominant maximum, spread down to
//    e^-100, a NaN, +inf, some -inf, all -inf, huge values.
// Outputs, tee targets, keep masks and statistics are poisoned before every run; the padding of
// every view (past cols, before an offset start) must stay poisoned.
//
// Tolerances follow from the conditioning (each op's op_tolerance below): an input element z of a
// load chain evaluated in fp32 is off its double value by up to roundings * u * T, T the sum of the
// magnitudes of the chain's terms at that element and u = 2^-24 (an fp32 logit of magnitude 48
// carries 3e-6); softmax's exp turns that into a relative error of each output, log-softmax keeps
// it absolute, a norm multiplies it by rstd. The element at the row's max carries none of it (x -
// max = 0 exactly), and the row's sum only the share of the other elements: which keeps the top
// output of a dominated log-softmax row, -1.9e-8, checked to its digits.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/hana/for_each.hpp>
#include <boost/hana/length.hpp>
#include <boost/hana/tuple.hpp>

#include "support.cuh"

namespace random_differential {

namespace hana = boost::hana;
using rf::index_t;
using bf16 = __nv_bfloat16;
using e4m3 = __nv_fp8_e4m3;
using e5m2 = __nv_fp8_e5m2;

inline constexpr double u = 0x1p-24;
inline constexpr double inf = std::numeric_limits<double>::infinity();

// ---- the command line ---------------------------------------------------------------------------

struct options {
  std::uint64_t seed = 0;
  long cases = 0;
  long only = -1; // --case K: run case K alone
  std::string program = "gpu_random_differential";
};

/// Reads --seed, --cases and --case from /proc/self/cmdline (doctest owns main and ignores
/// them), then ROWFUSE_RANDOM_SEED / ROWFUSE_RANDOM_CASES; a fresh seed otherwise.
inline options read_options(long default_cases) {
  options o;
  o.cases = test::small_mode() ? std::max(24L, default_cases / 20) : default_cases;
  std::random_device device;
  o.seed = (std::uint64_t(device()) << 32) ^ device();
  if (char const* s = std::getenv("ROWFUSE_RANDOM_SEED")) {
    o.seed = std::strtoull(s, nullptr, 0);
  }
  if (char const* s = std::getenv("ROWFUSE_RANDOM_CASES"))
    o.cases = std::strtol(s, nullptr, 0);
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(cmdline, arg, '\0');)
    args.push_back(arg);
  if (!args.empty())
    o.program = args[0];
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--seed") {
      o.seed = std::strtoull(args[i + 1].c_str(), nullptr, 0);
    } else if (args[i] == "--cases") {
      o.cases = std::strtol(args[i + 1].c_str(), nullptr, 0);
    } else if (args[i] == "--case") {
      o.only = std::strtol(args[i + 1].c_str(), nullptr, 0);
    }
  }
  return o;
}

/// The seed of case k of a run: a splitmix64 step, so neighbouring cases share nothing.
inline std::uint64_t case_seed(std::uint64_t seed, long k) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * std::uint64_t(k + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// ---- what a case draws --------------------------------------------------------------------------

/// Where a view lives in its buffer: ld and the offset of its first element.
struct layout {
  long ld = 0, offset = 0;
  std::size_t size(long rows) const { return std::size_t(offset + std::max(rows, 1L) * ld); }
};

enum class row_kind {
  ordinary,
  far_from_zero,
  constant,
  dominated,
  spread,
  has_nan,
  has_pos_inf,
  some_neg_inf,
  all_neg_inf,
  huge
};
inline char const* to_string(row_kind k) {
  constexpr char const* names[] = {"ordinary", "far",  "constant",  "dominated", "spread",
                                   "nan",      "+inf", "some -inf", "all -inf",  "huge"};
  return names[int(k)];
}

struct case_params {
  long rows = 1, cols = 1;
  layout in, out, operand, mask, tee, keep_in, keep_out, gamma;
  // load chains
  float scale = 1.0f;
  index_t q_len = 1, causal_offset = 0;
  long batch = 1, heads = 1, queries = 1; // rows = batch * heads * queries (broadcasts)
  long shape[3] = {1, 1, 1};              // the broadcast operands' leading dimensions
  float mask_fill = -INFINITY;
  float p_in = 0.0f, p_out = 0.0f;
  std::uint64_t seed_in = 0, seed_out = 0, offset_in = 0, offset_out = 0;
  bool keep_in_given = true, keep_out_given = true;
  float cap = 8.0f;   // the soft cap functor
  float shift = 0.0f; // the positional functor's step
  // store chains
  float store_scale = 1.0f, cast_scale = 1.0f;
  bool saturate = true, amax_given = true;
  // norms
  float eps = 1e-5f;
  int affine_variant =
      0; // 0: gamma and beta (layernorm) / gamma (rmsnorm); 1: gamma; 2: zero-centred
  bool stats_given = true;
  // plans
  rf::engine_kind forced = rf::engine_kind::automatic;
  int forced_pack = 0;
  bool try_forced = false;
  std::vector<row_kind> kinds;
};

/// A one-line description of a case, for its reproducer.
inline std::string describe(case_params const& c) {
  std::ostringstream s;
  s << "rows " << c.rows << " cols " << c.cols << " ld/offset in " << c.in.ld << "/" << c.in.offset
    << " out " << c.out.ld << "/" << c.out.offset << " operand " << c.operand.ld << "/"
    << c.operand.offset << " scale " << c.scale << " q_len " << c.q_len << " causal_offset "
    << c.causal_offset << " broadcast [" << c.shape[0] << "," << c.shape[1] << "," << c.shape[2]
    << "] of [" << c.batch << "," << c.heads << "," << c.queries << "] fill " << c.mask_fill
    << " p " << c.p_in << "/" << c.p_out << " cast " << c.cast_scale << (c.saturate ? " sat" : "")
    << " eps " << c.eps << " affine " << c.affine_variant;
  int counts[10] = {};
  for (row_kind k : c.kinds)
    ++counts[int(k)];
  s << " rows:";
  for (int k = 0; k < 10; ++k)
    if (counts[k])
      s << " " << to_string(row_kind(k)) << " " << counts[k];
  return s.str();
}

// ---- buffers ------------------------------------------------------------------------------------

/// Every buffer a combo's chains may touch, host and device; `host` selects which pointers the
/// chains are built from, so one factory makes the GPU expression and its reference twin.
template <class In, class Out, class G, class B> struct buffers {
  case_params const& c;
  test::mirrored<In> x, a, h;
  test::mirrored<bf16> a_broadcast;
  test::mirrored<float> bias, amax, mean, rstd, mean_ref, rstd_ref;
  test::mirrored<std::uint8_t> mask, keep_in, keep_out;
  test::mirrored<bool> mask_broadcast;
  test::mirrored<Out> y, y_ref;
  test::mirrored<G> gamma;
  test::mirrored<B> beta;
  bool host = false;

  explicit buffers(case_params const& p)
      : c(p), x(p.in.size(p.rows)), a(p.operand.size(p.rows)), h(p.tee.size(p.rows)),
        a_broadcast(std::size_t(p.shape[0] * p.shape[1] * p.shape[2] * p.cols)),
        bias(std::size_t(p.cols)), amax(1), mean(std::size_t(p.rows + 1)),
        rstd(std::size_t(p.rows + 1)), mean_ref(std::size_t(p.rows + 1)),
        rstd_ref(std::size_t(p.rows + 1)), mask(p.mask.size(p.rows)),
        keep_in(p.keep_in.size(p.rows)), keep_out(p.keep_out.size(p.rows)),
        mask_broadcast(a_broadcast.host.size()), y(p.out.size(p.rows)), y_ref(y.host.size()),
        gamma(p.gamma.size(1)), beta(p.gamma.size(1)) {}

  template <class T> T* pick(test::mirrored<T>& m, long offset = 0) {
    return host ? m.h(std::size_t(offset)) : m.d(std::size_t(offset));
  }
  template <class T> T const* pick_const(test::mirrored<T>& m, long offset = 0) {
    return pick(m, offset);
  }
  std::uint8_t* keep_in_ptr() {
    return c.keep_in_given || host ? pick(keep_in, c.keep_in.offset) : nullptr;
  }
  std::uint8_t* keep_out_ptr() {
    return c.keep_out_given || host ? pick(keep_out, c.keep_out.offset) : nullptr;
  }
  float* amax_ptr() { return c.amax_given ? pick(amax) : nullptr; }
  /// The broadcast operands' view over [batch, heads, queries, cols].
  template <class T> rf::view<T const> broadcast_view(test::mirrored<T>& m) {
    return rf::broadcast(pick_const(m), {c.shape[0], c.shape[1], c.shape[2], c.cols},
                         {c.batch, c.heads, c.queries, c.cols});
  }
};

// ---- user functors ------------------------------------------------------------------------------

/// tanh soft-capping of logits: cap * tanh(x / cap).
struct soft_cap {
  float cap;
  __host__ __device__ float operator()(float x) const { return cap * tanhf(x / cap); }
};
/// A positional offset: x + step * ((row + col) % 7 - 3).
struct positional_shift {
  float step;
  __host__ __device__ float operator()(float x, index_t row, index_t col) const {
    return x + step * float(int((row + col) % 7) - 3);
  }
};
/// A per-column weight on the op's output: y * (1 + ((3 col + row) % 4) / 4), exact in fp32.
struct column_weight {
  __host__ __device__ float operator()(float y, index_t row, index_t col) const {
    return y * weight(row, col);
  }
  __host__ __device__ static float weight(index_t row, index_t col) {
    return 1.0f + 0.25f * float(int((3 * col + row) % 4));
  }
};

// ---- load chains --------------------------------------------------------------------------------
//
// Each: a name, `make(b)` (the expression over b's host or device pointers), `terms(b, r, c)`
// (T above: the sum of the magnitudes of its terms at one element, with the input's), `roundings`
// (fp32 roundings between the input and the op; 2 each for functors, tanhf's 2 ulps included).

struct load_plain {
  static constexpr char const* name = "load";
  static constexpr int roundings = 0;
  static constexpr bool masks = false;
  template <class Bufs> static auto make(Bufs& b) {
    return rf::load(b.pick_const(b.x, b.c.in.offset), b.c.rows, b.c.cols, b.c.in.ld);
  }
  template <class Bufs> static double terms(Bufs& b, long r, long c) {
    return std::fabs(
        rf::detail::widen<double>(b.x.host[std::size_t(b.c.in.offset + r * b.c.in.ld + c)]));
  }
};

/// scale, causal mask with either sign of offset: a pure chain (the cluster engine caches raw).
struct load_scaled_causal {
  static constexpr char const* name = "load|scale|causal_mask";
  static constexpr int roundings = 1;
  static constexpr bool masks = true;
  template <class Bufs> static auto make(Bufs& b) {
    return load_plain::make(b) | rf::scale(b.c.scale) |
           rf::causal_mask(b.c.q_len, b.c.causal_offset);
  }
  template <class Bufs> static double terms(Bufs& b, long r, long c) {
    return load_plain::terms(b, r, c) * std::fabs(b.c.scale);
  }
};

/// scale and a positional user functor: a pure chain for the norms.
struct load_scaled_positional {
  static constexpr char const* name = "load|scale|positional_shift";
  static constexpr int roundings = 3;
  static constexpr bool masks = false;
  template <class Bufs> static auto make(Bufs& b) {
    return load_plain::make(b) | rf::scale(b.c.scale) | positional_shift{b.c.shift};
  }
  template <class Bufs> static double terms(Bufs& b, long r, long c) {
    return load_plain::terms(b, r, c) * std::fabs(b.c.scale) + 3.0 * std::fabs(b.c.shift);
  }
};

/// bias, a full-shape operand with its own layout, a uint8 mask with its own layout and fill.
struct load_operands {
  static constexpr char const* name = "load|bias|add|mask";
  static constexpr int roundings = 2;
  static constexpr bool masks = true;
  template <class Bufs> static auto make(Bufs& b) {
    using In = typename decltype(b.x)::stored;
    return load_plain::make(b) | rf::bias(b.pick_const(b.bias)) |
           rf::add(static_cast<In const*>(b.pick(b.a, b.c.operand.offset)), b.c.operand.ld) |
           rf::mask(b.pick_const(b.mask, b.c.mask.offset), b.c.mask_fill, b.c.mask.ld);
  }
  template <class Bufs> static double terms(Bufs& b, long r, long c) {
    return load_plain::terms(b, r, c) + std::fabs(double(b.bias.host[std::size_t(c)])) +
           std::fabs(rf::detail::widen<double>(
               b.a.host[std::size_t(b.c.operand.offset + r * b.c.operand.ld + c)]));
  }
};

/// The same without the mask: the norms' (a mask's -inf would only make a row NaN).
struct load_bias_add {
  static constexpr char const* name = "load|bias|add";
  static constexpr int roundings = 2;
  static constexpr bool masks = false;
  template <class Bufs> static auto make(Bufs& b) {
    using In = typename decltype(b.x)::stored;
    return load_plain::make(b) | rf::bias(b.pick_const(b.bias)) |
           rf::add(static_cast<In const*>(b.pick(b.a, b.c.operand.offset)), b.c.operand.ld);
  }
  template <class Bufs> static double terms(Bufs& b, long r, long c) {
    return load_operands::terms(b, r, c);
  }
};

/// scale, a bf16 operand and a bool mask both broadcast over leading dimensions, soft capping.
struct load_broadcast {
  static constexpr char const* name = "load|scale|add(broadcast)|mask(broadcast)|soft_cap";
  static constexpr int roundings = 4;
  static constexpr bool masks = true;
  template <class Bufs> static auto make(Bufs& b) {
    return load_plain::make(b) | rf::scale(b.c.scale) | rf::add(b.broadcast_view(b.a_broadcast)) |
           rf::mask(b.broadcast_view(b.mask_broadcast), b.c.mask_fill) | soft_cap{b.c.cap};
  }
  template <class Bufs> static long broadcast_row(Bufs& b, long r) {
    long const q = r % b.c.queries, hd = r / b.c.queries % b.c.heads,
               bt = r / (b.c.queries * b.c.heads);
    long const i0 = b.c.shape[0] == 1 ? 0 : bt, i1 = b.c.shape[1] == 1 ? 0 : hd,
               i2 = b.c.shape[2] == 1 ? 0 : q;
    return (i0 * b.c.shape[1] + i1) * b.c.shape[2] + i2;
  }
  template <class Bufs> static double terms(Bufs& b, long r, long c) {
    double const added = rf::detail::widen<double>(
        b.a_broadcast.host[std::size_t(broadcast_row(b, r) * b.c.cols + c)]);
    return load_plain::terms(b, r, c) * std::fabs(b.c.scale) + std::fabs(added) + b.c.cap;
  }
};

/// The residual branch: bias, dropout (its keep mask kept), the residual, tee of the sum.
struct load_residual {
  static constexpr char const* name = "load|bias|dropout|add|tee";
  static constexpr int roundings = 3;
  static constexpr bool masks = false;
  template <class Bufs> static auto make(Bufs& b) {
    using In = typename decltype(b.x)::stored;
    return load_plain::make(b) | rf::bias(b.pick_const(b.bias)) |
           rf::dropout(b.c.p_in, b.c.seed_in, b.c.offset_in, b.keep_in_ptr(), b.c.keep_in.ld) |
           rf::add(static_cast<In const*>(b.pick(b.a, b.c.operand.offset)), b.c.operand.ld) |
           rf::tee(rf::dense(b.pick(b.h, b.c.tee.offset), -1, -1, b.c.tee.ld));
  }
  template <class Bufs> static double terms(Bufs& b, long r, long c) {
    double const k = 1.0 / (1.0 - double(b.c.p_in));
    return (load_plain::terms(b, r, c) + std::fabs(double(b.bias.host[std::size_t(c)]))) * k +
           std::fabs(rf::detail::widen<double>(
               b.a.host[std::size_t(b.c.operand.offset + r * b.c.operand.ld + c)]));
  }
};

// ---- store chains -------------------------------------------------------------------------------
//
// Each: `make(b)`, and `factor(b, r, c)`: the exact factor between the op's output and the
// value the final rounding sees (every store chain here is a product; 0 where dropped).

struct store_plain {
  static constexpr char const* name = "store";
  static constexpr bool has_dropout = false, has_cast = false;
  template <class Bufs> static auto make(Bufs& b) {
    return rf::store(b.pick(b.y, b.c.out.offset), b.c.rows, b.c.cols, b.c.out.ld);
  }
  template <class Bufs> static double factor(Bufs&, long, long) { return 1.0; }
};

struct store_dropout {
  static constexpr char const* name = "store|dropout";
  static constexpr bool has_dropout = true, has_cast = false;
  template <class Bufs> static auto make(Bufs& b) {
    return store_plain::make(b) |
           rf::dropout(b.c.p_out, b.c.seed_out, b.c.offset_out, b.keep_out_ptr(), b.c.keep_out.ld);
  }
  template <class Bufs> static double kept(Bufs& b, long r, long c) {
    bool const keep = b.keep_out.host[std::size_t(b.c.keep_out.offset + r * b.c.keep_out.ld + c)];
    return keep ? 1.0 / (1.0 - double(b.c.p_out)) : 0.0;
  }
  template <class Bufs> static double factor(Bufs& b, long r, long c) { return kept(b, r, c); }
};

struct store_scaled_cast {
  static constexpr char const* name = "store|scale|cast";
  static constexpr bool has_dropout = false, has_cast = true;
  template <class Bufs> static auto make(Bufs& b) {
    using Out = typename decltype(b.y)::stored;
    return store_plain::make(b) | rf::scale(b.c.store_scale) |
           rf::cast<Out>(b.c.cast_scale, b.amax_ptr(), b.c.saturate);
  }
  template <class Bufs> static double factor(Bufs& b, long, long) {
    return std::fabs(double(b.c.store_scale) * double(b.c.cast_scale));
  }
};

struct store_weighted_dropout_cast {
  static constexpr char const* name = "store|column_weight|dropout|cast";
  static constexpr bool has_dropout = true, has_cast = true;
  template <class Bufs> static auto make(Bufs& b) {
    using Out = typename decltype(b.y)::stored;
    return store_plain::make(b) | column_weight{} |
           rf::dropout(b.c.p_out, b.c.seed_out, b.c.offset_out, b.keep_out_ptr(), b.c.keep_out.ld) |
           rf::cast<Out>(b.c.cast_scale, b.amax_ptr(), b.c.saturate);
  }
  template <class Bufs> static double factor(Bufs& b, long r, long c) {
    return double(column_weight::weight(r, c)) * store_dropout::kept(b, r, c) *
           double(b.c.cast_scale);
  }
};

// ---- ops ----------------------------------------------------------------------------------------

/// Per-row facts from the double values of the load chain, z: what the tolerances need.
struct row_facts {
  double terms = 0.0;          // max T over the row's finite elements
  double max = -inf;           // softmax: the row's max z
  double rest = 0.0;           // softmax: sum of exp(z - max) over the elements below the max
  double log_sum = 0.0;        // softmax: log of the sum
  double rstd = 0.0;           // norms
  double largest_output = 0.0; // norms: max |y| over the row's finite outputs
};

/// The fast path's exp (detail::exp_shifted): MUFU.EX2's 2^-22.5 and the rounding of its
/// exponent, which carries softmax's 2^24 bias (16.6 u relative in the result), with room.
inline double exp_error(bool accurate) {
  return accurate ? 4 * u : 0x1p-19;
}
/// The relative error of a sum of n positive fp32 terms as the engines add them (pairwise across
/// threads, up to a few hundred in a row within one): a bound for random rounding with room.
inline double sum_error(long n) {
  return u * (16.0 + 4.0 * std::sqrt(double(n) / 64.0));
}

template <bool Log> struct softmax_family {
  static constexpr char const* name = Log ? "log_softmax" : "softmax";
  static constexpr bool norm = false;
  template <class Bufs, class L, class S, class A>
  static std::vector<double> reference(Bufs&, L const& load, S const& store, A const&) {
    return Log ? rf::reference::log_softmax(load, store) : rf::reference::softmax(load, store);
  }
  template <class Bufs, class L, class S, class A>
  static rf::plan run(Bufs&, L const& load, S const& store, A const&, rf::launch_options o) {
    return Log ? rf::log_softmax(load, store, nullptr, o) : rf::softmax(load, store, nullptr, o);
  }
  static cudaError_t wait() { return cudaDeviceSynchronize(); }
  static void facts(std::vector<double> const& z, row_facts& f) {
    for (double v : z)
      f.max = std::max(f.max, v);
    double const shift = f.max == -inf ? 0.0 : f.max;
    double sum = 0.0;
    for (double v : z) {
      double const t = std::exp(v - shift);
      sum += t;
      if (v != f.max)
        f.rest += t;
    }
    f.log_sum = sum == 0.0 ? 0.0 : std::log(sum); // a fully masked row: exact zeros (or -inf)
  }
  /// The bound on |y_gpu - y| of the op's output y at an element of double value z (before the
  /// store chain), delta the bound on the chain's error in z. The max's own term is exact
  /// (x - max = 0); an error in the other terms reaches the sum in proportion to their share,
  /// `others` = 1 - p_max. softmax is relative: the element's own argument and exp, the sum's
  /// share, the sum's rounding (relative to the whole sum, the max's 1 included), reciprocal and
  /// product. log-softmax is absolute: the argument z - max, log(sum)'s error (relative to rest
  /// only: rest is summed apart, see op/softmax.cuh), log1p's and the subtraction's roundings.
  static double op_tolerance(row_facts const& f, double z, double y, double delta, long cols,
                             bool accurate) {
    double const off_max = z == f.max ? 0.0 : 1.0;
    double const others = f.rest / (1.0 + f.rest);
    double const argument = off_max * (2 * delta + 4 * u * std::fabs(z - f.max));
    if constexpr (Log)
      return argument + 4 * others * (2 * delta + exp_error(accurate) + sum_error(cols)) +
             4 * u * (std::fabs(f.log_sum) + std::fabs(y));
    else
      return std::fabs(y) * (argument + off_max * exp_error(accurate) +
                             others * (2 * delta + exp_error(accurate)) + sum_error(cols) + 4 * u);
  }
};

template <bool Layernorm> struct norm_family {
  static constexpr char const* name = Layernorm ? "layernorm" : "rmsnorm";
  static constexpr bool norm = true;
  template <class Bufs, class L, class S, class A>
  static std::vector<double> reference(Bufs& b, L const& load, S const& store, A const& affine) {
    float* rstd = b.c.stats_given ? b.rstd_ref.h() : nullptr;
    if constexpr (Layernorm)
      return rf::reference::layernorm(
          load, store, affine, b.c.eps,
          rf::row_stats{b.c.stats_given ? b.mean_ref.h() : nullptr, rstd});
    else
      return rf::reference::rmsnorm(load, store, affine, b.c.eps, rstd);
  }
  template <class Bufs, class L, class S, class A>
  static rf::plan run(Bufs& b, L const& load, S const& store, A const& affine,
                      rf::launch_options o) {
    float* rstd = b.c.stats_given ? b.rstd.d() : nullptr;
    if constexpr (Layernorm)
      return rf::layernorm(load, store, affine, b.c.eps, nullptr,
                           rf::row_stats{b.c.stats_given ? b.mean.d() : nullptr, rstd}, o);
    else
      return rf::rmsnorm(load, store, affine, b.c.eps, nullptr, rstd, o);
  }
  static cudaError_t wait() { return cudaDeviceSynchronize(); }
  static double facts_mean(std::vector<double> const& z) {
    if (!Layernorm || z.empty())
      return 0.0;
    double s = 0.0;
    for (double v : z)
      s += v - z[0];
    return z[0] + s / double(z.size());
  }
  static void facts(std::vector<double> const& z, row_facts& f, float eps) {
    double const mean = facts_mean(z);
    double var = 0.0;
    for (double v : z)
      var += (v - mean) * (v - mean);
    var /= double(std::max<std::size_t>(z.size(), 1));
    f.rstd = 1.0 / std::sqrt(var + double(eps));
  }
  /// |y_gpu - y| of the op's output (before the store chain), with g the element's effective
  /// gamma: fp32 arithmetic to 1e-5 relative (norm_support.cuh), the chain's error through rstd
  /// and gamma, 16 u of the row's largest output near zero.
  static double op_tolerance(row_facts const& f, double y, double delta, double g) {
    return 1e-5 * std::fabs(y) + std::fabs(g) * f.rstd * 2 * delta + 16 * u * f.largest_output;
  }
};

// ---- comparison ---------------------------------------------------------------------------------

/// Whether a rounded output `got_raw` of type T matches the exact value `e` within `tol`, the
/// overflow of a non-saturating rounding (to inf, or NaN for e4m3) included: next to the
/// overflow threshold either side is right.
///
/// The poison (all bits set) is a NaN in every type; in the 16- and 32-bit types not the NaN
/// the kernels write, so it fails even where NaN is due. In fp8 it is -NaN, which is what a
/// negative NaN or a non-saturating overflow of a negative value rounds to: there it counts as a
/// NaN, and an element never written still fails wherever a number is due.
template <class T> bool matches(T got_raw, double e, double tol, bool saturate) {
  if (sizeof(T) > 1 && test::is_poison(got_raw))
    return false;
  double const g = rf::detail::widen<double>(got_raw);
  auto const same = [&](double x) {
    double const r = rf::detail::widen<double>(rf::detail::narrow<T>(x, saturate));
    return std::isnan(g) ? std::isnan(r) : g == r;
  };
  if (std::isnan(e))
    return std::isnan(g);
  if (std::isinf(e))
    return same(e);
  if (std::isfinite(g))
    return std::fabs(g - e) <= tol;
  return same(e) || same(e - tol) || same(e + tol);
}

/// Rounding to T at |e|: one unit in the last place (half for the rounding, half for a
/// neighbouring binade); fp32: its ulp, subnormals included.
template <class T> double rounding(double e) {
  return test::ulp<T>(e);
}

struct failure_log {
  long failures = 0;
  bool sticky = false; // a CUDA error that leaves the context unusable: stop the run
  std::string first;
  void add(std::string const& what) {
    if (failures++ == 0)
      first = what;
  }
};

template <class T>
void check_padding(std::vector<T> const& got, layout l, long rows, long cols, char const* what,
                   failure_log& log) {
  if (long const i = test::written_outside(got, rows, cols, l.ld, l.offset); i >= 0) {
    std::ostringstream s;
    s << what << ": element " << i << " outside the view was written";
    log.add(s.str());
  }
}

// ---- one case -----------------------------------------------------------------------------------

/// A combo of the family: op, input, output, load chain, store chain, gamma and beta types (void:
/// no affine).
template <class Op, class In, class Out, class Load, class Store, class G = void, class B = G>
struct combo {
  using op = Op;
  using in = In;
  using out = Out;
  using load = Load;
  using store = Store;
  static constexpr bool has_affine = !std::is_void_v<G>;
  using gamma_t = std::conditional_t<has_affine, G, float>;
  using beta_t = std::conditional_t<has_affine, B, float>;
  static std::string name() {
    std::ostringstream s;
    s << Op::name << " " << rf::element_traits<In>::name << "->" << rf::element_traits<Out>::name
      << " " << Load::name << " / " << Store::name;
    if constexpr (has_affine)
      s << " / affine " << rf::element_traits<G>::name << "," << rf::element_traits<B>::name;
    return s.str();
  }
};

template <class Combo, class Bufs> auto make_affine(Bufs& b) {
  if constexpr (!Combo::has_affine) {
    return rf::no_affine;
  } else {
    using G = typename Combo::gamma_t;
    using B = typename Combo::beta_t;
    G const* gamma = b.pick_const(b.gamma, b.c.gamma.offset);
    B const* beta = b.pick_const(b.beta, b.c.gamma.offset);
    bool const layernorm = std::string_view(Combo::op::name) == "layernorm";
    if (b.c.affine_variant == 2)
      return rf::affine_params<G, B>{rf::dense(gamma, 1),
                                     rf::dense(static_cast<B const*>(nullptr), 1), true};
    if (b.c.affine_variant == 0 && layernorm)
      return rf::affine_params<G, B>{rf::dense(gamma, 1), rf::dense(beta, 1), false};
    return rf::affine_params<G, B>{rf::dense(gamma, 1),
                                   rf::dense(static_cast<B const*>(nullptr), 1), false};
  }
}

/// The effective gamma at column c: gamma, 1 + gamma (zero-centred) or 1.
template <class Combo, class Bufs> double effective_gamma(Bufs& b, long c) {
  if constexpr (!Combo::has_affine) {
    return 1.0;
  } else {
    double const g = rf::detail::widen<double>(b.gamma.host[std::size_t(b.c.gamma.offset + c)]);
    return b.c.affine_variant == 2 ? 1.0 + g : g;
  }
}

template <class T> T narrow_to(double v) {
  return rf::detail::narrow<T>(v);
}

/// Fills the case's data (every view's padding NaN), runs the reference, then the plans, and
/// returns the failures.
template <class Combo> failure_log run_case(case_params const& c, std::mt19937_64& rng) {
  using In = typename Combo::in;
  using Out = typename Combo::out;
  using Op = typename Combo::op;
  using Load = typename Combo::load;
  using Store = typename Combo::store;
  buffers<In, Out, typename Combo::gamma_t, typename Combo::beta_t> b(c);
  failure_log log;
  long const rows = c.rows, cols = c.cols;
  double const in_max = rf::element_traits<In>::max_finite;

  // ---- data
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  auto const fill_nan = [](auto& v) {
    using T = typename std::remove_reference_t<decltype(v)>::value_type;
    std::fill(v.begin(), v.end(), rf::detail::narrow<T>(std::nan("")));
  };
  fill_nan(b.x.host);
  for (long r = 0; r < rows; ++r) {
    row_kind const kind = c.kinds[std::size_t(r)];
    double const sigma = std::pow(10.0, -2.0 + 3.3 * uniform(rng));
    double const centre =
        kind == row_kind::far_from_zero
            ? (uniform(rng) < 0.5 ? -1 : 1) * std::pow(10.0, 1.0 + 3.0 * uniform(rng))
            : 0.0;
    double const huge = Op::norm ? std::pow(10.0, 6.0 + 9.0 * uniform(rng))
                                 : std::pow(10.0, 20.0 + 16.0 * uniform(rng));
    double const top = normal(rng) * sigma;
    long const special = long(uniform(rng) * double(cols));
    for (long col = 0; col < cols; ++col) {
      double v = centre + normal(rng) * sigma;
      switch (kind) {
      case row_kind::constant:
        v = top;
        break;
      case row_kind::dominated:
        v = col == special ? top : top - 15.0 - 75.0 * uniform(rng);
        break;
      case row_kind::spread:
        v = -100.0 * uniform(rng);
        break;
      case row_kind::has_nan:
        v = col == special ? std::nan("") : v;
        break;
      case row_kind::has_pos_inf:
        v = col == special ? inf : v;
        break;
      case row_kind::some_neg_inf:
        v = uniform(rng) < 0.3 ? -inf : v;
        break;
      case row_kind::all_neg_inf:
        v = -inf;
        break;
      case row_kind::huge:
        v = (uniform(rng) < 0.5 ? -1 : 1) * std::min(huge, in_max / 2) * (0.5 + uniform(rng));
        break;
      default:
        break;
      }
      if (std::isfinite(v))
        v = std::clamp(v, -in_max / 2, in_max / 2);
      b.x.host[std::size_t(c.in.offset + r * c.in.ld + col)] = narrow_to<In>(v);
    }
  }
  fill_nan(b.a.host);
  for (long r = 0; r < rows; ++r)
    for (long col = 0; col < cols; ++col)
      b.a.host[std::size_t(c.operand.offset + r * c.operand.ld + col)] =
          narrow_to<In>(normal(rng) * 2.0);
  for (auto& v : b.bias.host)
    v = float(normal(rng));
  for (auto& v : b.a_broadcast.host)
    v = narrow_to<bf16>(normal(rng));
  // Masks: a density for the case, some rows fully masked.
  double const density = uniform(rng) < 0.4 ? 0.0 : 0.5 * uniform(rng);
  std::fill(b.mask.host.begin(), b.mask.host.end(), std::uint8_t(1));
  for (long r = 0; r < rows; ++r) {
    bool const full = uniform(rng) < 0.08;
    for (long col = 0; col < cols; ++col)
      b.mask.host[std::size_t(c.mask.offset + r * c.mask.ld + col)] =
          full || uniform(rng) < density;
  }
  long const broadcast_rows = c.shape[0] * c.shape[1] * c.shape[2];
  for (long r = 0; r < broadcast_rows; ++r) {
    bool const full = uniform(rng) < 0.08;
    for (long col = 0; col < cols; ++col)
      b.mask_broadcast.host[std::size_t(r * cols + col)] = full || uniform(rng) < density;
  }
  fill_nan(b.gamma.host);
  fill_nan(b.beta.host);
  for (long col = 0; col < cols; ++col) {
    b.gamma.host[std::size_t(c.gamma.offset + col)] = narrow_to<typename Combo::gamma_t>(
        c.affine_variant == 2 ? 0.5 * normal(rng) : 1.0 + 0.5 * normal(rng));
    b.beta.host[std::size_t(c.gamma.offset + col)] = narrow_to<typename Combo::beta_t>(normal(rng));
  }
  for (auto* m : {&b.x, &b.a, &b.h})
    m->upload();
  b.a_broadcast.upload();
  b.bias.upload();
  b.mask.upload();
  b.mask_broadcast.upload();
  b.gamma.upload();
  b.beta.upload();

  // ---- the reference
  b.host = true;
  test::poison(b.y_ref.host);
  test::poison(b.h.host);
  test::poison(b.keep_in.host);
  test::poison(b.keep_out.host);
  test::poison(b.mean_ref.host);
  test::poison(b.rstd_ref.host);
  b.amax.host[0] = 0.0f;
  auto const load_host = Load::make(b);
  auto const store_host = Store::make(b);
  auto const affine_host = make_affine<Combo>(b);
  std::vector<double> const exact = Op::reference(b, load_host, store_host, affine_host);
  float const amax_ref = b.amax.host[0];
  std::vector<In> const h_ref = b.h.host;
  std::vector<std::uint8_t> const keep_in_ref = b.keep_in.host, keep_out_ref = b.keep_out.host;

  // Per-row facts from the chain's double values, and each element's T.
  auto const bound = rf::detail::bind(load_host, "random_differential");
  rf::load_context quiet{false, cols};
  std::vector<double> z(static_cast<std::size_t>(rows * cols)),
      delta(static_cast<std::size_t>(rows));
  std::vector<row_facts> facts(static_cast<std::size_t>(rows));
  std::vector<double> row_z(static_cast<std::size_t>(cols));
  for (long r = 0; r < rows; ++r) {
    row_facts& f = facts[std::size_t(r)];
    for (long col = 0; col < cols; ++col) {
      double v[1];
      bound.template load<1>(r, col, v, quiet);
      row_z[std::size_t(col)] = z[std::size_t(r * cols + col)] = v[0];
      double const t = Load::terms(b, r, col);
      if (std::isfinite(t))
        f.terms = std::max(f.terms, t);
    }
    if (Load::masks && std::isfinite(c.mask_fill))
      f.terms = std::max(f.terms, double(std::fabs(c.mask_fill)));
    delta[std::size_t(r)] = 2.0 * Load::roundings * u * f.terms;
    if constexpr (Op::norm) {
      Op::facts(row_z, f, c.eps);
      for (long col = 0; col < cols; ++col) {
        double const fac = Store::factor(b, r, col);
        double const e = exact[std::size_t(r * cols + col)];
        if (fac != 0.0 && std::isfinite(e))
          f.largest_output = std::max(f.largest_output, std::fabs(e / fac));
      }
    } else {
      Op::facts(row_z, f);
    }
  }
  bool const accurate = std::is_same_v<Out, float>;
  std::vector<double> tolerance(exact.size());
  double amax_tolerance = 0.0;
  for (long r = 0; r < rows; ++r) {
    row_facts const& f = facts[std::size_t(r)];
    for (long col = 0; col < cols; ++col) {
      std::size_t const i = std::size_t(r * cols + col);
      double const fac = Store::factor(b, r, col);
      double const y = fac == 0.0 ? 0.0 : exact[i] / fac;
      double op_tol;
      if constexpr (Op::norm)
        op_tol = Op::op_tolerance(f, y, delta[std::size_t(r)], effective_gamma<Combo>(b, col));
      else
        op_tol = Op::op_tolerance(f, z[i], y, delta[std::size_t(r)], cols, accurate);
      // 0 * inf (a masked element's argument) and NaN rows: the exact value decides alone.
      // Otherwise the op's error through the store chain's factor, the chain's own roundings,
      // and fp32's subnormal spacing 2^-149 at each step (an output of e^-100 scaled up later).
      double const arithmetic = fac == 0.0 || std::isnan(op_tol)
                                    ? 0.0
                                    : fac * (op_tol + 4 * 0x1p-149) + 8 * u * std::fabs(exact[i]);
      if (std::isfinite(arithmetic))
        amax_tolerance = std::max(amax_tolerance, arithmetic / std::fabs(double(c.cast_scale)));
      tolerance[i] = std::isfinite(exact[i]) ? rounding<Out>(exact[i]) + arithmetic : 0.0;
    }
  }
  b.host = false;

  // ---- the plans
  auto const run_plan = [&](rf::launch_options options) {
    test::poison(b.y.host);
    b.y.upload();
    test::poison(b.h.host);
    b.h.upload();
    test::poison(b.keep_in.host);
    b.keep_in.upload();
    test::poison(b.keep_out.host);
    b.keep_out.upload();
    test::poison(b.mean.host);
    b.mean.upload();
    test::poison(b.rstd.host);
    b.rstd.upload();
    b.amax.host[0] = 0.0f;
    b.amax.upload();
    rf::plan const p = Op::run(b, Load::make(b), Store::make(b), make_affine<Combo>(b), options);
    cudaError_t const status = Op::wait();
    std::string const where = rf::explain(p) + ": ";
    if (status != cudaSuccess) {
      log.add(where + "CUDA error " + cudaGetErrorString(status));
      (void)cudaGetLastError();               // clears an error that does not stick
      log.sticky = Op::wait() != cudaSuccess; // one that sticks fails every call after it
      return;
    }
    // Outputs.
    std::vector<typename decltype(b.y)::stored> const got = b.y.download();
    for (long r = 0; r < rows && log.failures == 0; ++r)
      for (long col = 0; col < cols; ++col) {
        std::size_t const i = std::size_t(r * cols + col);
        auto const raw = got[std::size_t(c.out.offset + r * c.out.ld + col)];
        if (!matches<Out>(raw, exact[i], tolerance[i], Store::has_cast && c.saturate)) {
          std::ostringstream s;
          s.precision(9);
          s << where << "output row " << r << " (" << to_string(c.kinds[std::size_t(r)]) << ") col "
            << col << ": got " << rf::detail::widen<double>(raw) << ", exact " << exact[i]
            << ", tolerance " << tolerance[i];
          log.add(s.str());
          break;
        }
      }
    check_padding(got, c.out, rows, cols, (where + "output").c_str(), log);
    // The tee target: the sum rounded to In, within a rounding and the chain's error.
    if constexpr (std::is_same_v<Load, load_residual>) {
      std::vector<In> const h = b.h.download();
      for (long r = 0; r < rows && log.failures == 0; ++r)
        for (long col = 0; col < cols; ++col) {
          std::size_t const at = std::size_t(c.tee.offset + r * c.tee.ld + col);
          double const want = rf::detail::widen<double>(h_ref[at]);
          double const tol = 2 * test::ulp<In>(want) + delta[std::size_t(r)];
          double const got_h = rf::detail::widen<double>(h[at]);
          bool const ok =
              !test::is_poison(h[at]) && (std::isnan(want)   ? std::isnan(got_h)
                                          : std::isinf(want) ? got_h == want
                                                             : std::fabs(got_h - want) <= tol);
          if (!ok) {
            std::ostringstream s;
            s << where << "tee row " << r << " col " << col << ": got " << got_h << ", reference "
              << want;
            log.add(s.str());
            break;
          }
        }
      check_padding(h, c.tee, rows, cols, (where + "tee").c_str(), log);
      if (c.keep_in_given) {
        std::vector<std::uint8_t> const keep = b.keep_in.download();
        if (keep != keep_in_ref)
          log.add(where + "load-side keep mask differs from the reference's");
      }
    }
    if constexpr (Store::has_dropout) {
      if (c.keep_out_given && b.keep_out.download() != keep_out_ref)
        log.add(where + "store-side keep mask differs from the reference's");
    }
    if constexpr (Store::has_cast) {
      if (c.amax_given) {
        double const got_amax = b.amax.download()[0];
        bool const ok = std::isinf(double(amax_ref))
                            ? got_amax == double(amax_ref)
                            : std::fabs(got_amax - amax_ref) <= amax_tolerance + 2e-5 * amax_ref;
        if (!ok) {
          std::ostringstream s;
          s.precision(9);
          s << where << "amax " << got_amax << ", reference " << amax_ref << ", tolerance "
            << amax_tolerance;
          log.add(s.str());
        }
      }
    }
    if constexpr (Op::norm) {
      if (c.stats_given) {
        std::vector<float> const rstd = b.rstd.download(), mean = b.mean.download();
        bool const layernorm = std::string_view(Op::name) == "layernorm";
        for (long r = 0; r < rows && log.failures == 0; ++r) {
          double const want = b.rstd_ref.host[std::size_t(r)], got_r = rstd[std::size_t(r)];
          double const d = delta[std::size_t(r)] * facts[std::size_t(r)].rstd;
          bool ok =
              !test::is_poison(rstd[std::size_t(r)]) &&
              (std::isnan(want) ? std::isnan(got_r)
                                : std::fabs(got_r - want) <= std::fabs(want) * (1e-5 + 4 * d));
          if (layernorm && ok) {
            double const want_m = b.mean_ref.host[std::size_t(r)], got_m = mean[std::size_t(r)];
            double const spread = 1.0 / want;
            ok = !test::is_poison(mean[std::size_t(r)]) &&
                 (std::isnan(want_m) ? std::isnan(got_m)
                  : std::isinf(want_m)
                      ? !std::isfinite(got_m)
                      : std::fabs(got_m - want_m) <= 0x1p-22 * std::fabs(want_m) + 1e-6 * spread +
                                                         2 * delta[std::size_t(r)]);
          }
          if (!ok) {
            std::ostringstream s;
            s.precision(9);
            s << where << "statistics of row " << r << ": rstd " << got_r << ", reference " << want;
            log.add(s.str());
          }
        }
        if (!test::is_poison(rstd[std::size_t(rows)]))
          log.add(where + "rstd written past the last row");
      }
    }
  };

  run_plan({});
  if (c.try_forced && log.failures == 0) {
    rf::launch_options forced{c.forced, c.forced_pack, true};
    // Where that engine or pack cannot run this case, the automatic plan did.
    bool const runnable =
        Op::run(b, Load::make(b), Store::make(b), make_affine<Combo>(b), forced).refused.empty();
    forced.dry_run = false;
    if (runnable)
      run_plan(forced);
  }
  return log;
}

// ---- drawing a case -----------------------------------------------------------------------------

template <class Combo> case_params draw_case(std::mt19937_64& rng) {
  using Out = typename Combo::out;
  using Op = typename Combo::op;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  auto const chance = [&](double p) { return uniform(rng) < p; };
  auto const log_uniform = [&](double lo, double hi) {
    return long(std::exp(std::log(lo) + (std::log(hi + 1) - std::log(lo)) * uniform(rng)));
  };
  case_params c;
  bool const small = test::small_mode();

  // Width: narrow, medium, wide, very wide; some snapped to pack multiples.
  double const bucket = uniform(rng);
  long cols = bucket < 0.35   ? log_uniform(1, 64)
              : bucket < 0.6  ? log_uniform(65, 2048)
              : bucket < 0.82 ? log_uniform(2049, 32768)
                              : log_uniform(32769, 300000);
  if (chance(0.4))
    cols = std::max(8L, cols / 8 * 8) + (chance(0.3) ? 1 : 0);
  if (small)
    cols = std::min(cols, chance(0.8) ? 2048L : 70000L);
  c.cols = std::clamp(cols, 1L, 300000L);
  long const budget = small ? (1L << 14) : log_uniform(1L << 12, 1L << 21);
  long const most_rows = std::max(1L, std::min(small ? 64L : 4096L, budget / c.cols));
  long rows = log_uniform(1, double(most_rows));
  // Leading dimensions: rows = batch * heads * queries.
  c.queries = std::max(1L, std::min(rows, log_uniform(1, 64)));
  c.heads = 1 + long(uniform(rng) * 4);
  c.batch = std::max(1L, rows / (c.heads * c.queries));
  c.rows = rows = c.batch * c.heads * c.queries;
  long const full[3] = {c.batch, c.heads, c.queries};
  for (int d = 0; d < 3; ++d)
    c.shape[d] = chance(0.5) ? 1 : full[d];

  auto const draw_layout = [&](long extra_max) {
    layout l;
    l.ld = c.cols + (chance(0.3) ? 1 + long(uniform(rng) * double(extra_max)) : 0);
    l.offset = chance(0.3) ? 1 : 0;
    return l;
  };
  c.in = draw_layout(9);
  c.out = draw_layout(9);
  c.operand = draw_layout(5);
  c.mask = draw_layout(17);
  c.tee = draw_layout(3);
  c.keep_in = draw_layout(7);
  c.keep_out = draw_layout(7);
  c.gamma = layout{c.cols, chance(0.3) ? 1L : 0L};

  c.scale = float((chance(0.2) ? -1 : 1) * std::pow(2.0, -3.0 + 5.0 * uniform(rng)));
  c.q_len = 1 + index_t(uniform(rng) * double(std::max(1L, c.queries * 2)));
  c.causal_offset = index_t(uniform(rng) * double(c.cols + c.q_len + 4)) - c.q_len - 2;
  c.mask_fill = chance(0.8) ? -INFINITY : float(-1e4 * uniform(rng));
  c.p_in = chance(0.2) ? 0.0f : float(0.9 * uniform(rng));
  c.p_out = chance(0.2) ? 0.0f : float(0.9 * uniform(rng));
  c.seed_in = rng();
  c.seed_out = rng();
  c.offset_in = rng() >> 8;
  c.offset_out = rng() >> 8;
  c.keep_in_given = chance(0.7);
  c.keep_out_given = chance(0.7);
  c.cap = float(4.0 + 60.0 * uniform(rng));
  c.shift = float(uniform(rng));
  c.store_scale = float(std::pow(2.0, -2.0 + 4.0 * uniform(rng)));
  // fp8 casts scale the largest outputs near the format's range, and sometimes past it.
  double const out_max = rf::element_traits<Out>::max_finite;
  c.cast_scale = float(rf::fp8_element<Out> ? out_max / (Op::norm ? 4.0 : 1.0) *
                                                  std::pow(2.0, -4.0 + 5.0 * uniform(rng))
                                            : std::pow(2.0, -3.0 + 6.0 * uniform(rng)));
  c.saturate = chance(0.7);
  c.amax_given = chance(0.8);
  constexpr float epsilons[] = {1e-5f, 1e-6f, 1e-3f, 1.0f};
  c.eps = epsilons[std::size_t(uniform(rng) * 4) % 4];
  c.affine_variant = int(uniform(rng) * 3) % 3;
  c.stats_given = chance(0.7);

  c.try_forced = chance(0.6);
  constexpr rf::engine_kind engines[] = {
      rf::engine_kind::warp_rows,  rf::engine_kind::block_rows,    rf::engine_kind::cluster_rows,
      rf::engine_kind::block_smem, rf::engine_kind::block_cluster, rf::engine_kind::block_uncached};
  c.forced = engines[std::size_t(uniform(rng) * 6) % 6];
  c.forced_pack = chance(0.3) ? 1 : 0;
  if (c.forced == rf::engine_kind::block_uncached && c.forced_pack == 1 && c.cols > 20000)
    c.forced_pack = 0; // scalar re-reads of a wide row: seconds, and nothing new

  // Rows: mostly ordinary, every special kind in a few.
  c.kinds.resize(std::size_t(rows));
  for (auto& k : c.kinds) {
    double const p = uniform(rng);
    k = p < 0.55   ? row_kind::ordinary
        : p < 0.63 ? row_kind::far_from_zero
        : p < 0.68 ? row_kind::constant
        : p < 0.76 ? row_kind::dominated
        : p < 0.82 ? row_kind::spread
        : p < 0.85 ? row_kind::has_nan
        : p < 0.88 ? row_kind::has_pos_inf
        : p < 0.92 ? row_kind::some_neg_inf
        : p < 0.95 ? row_kind::all_neg_inf
                   : row_kind::huge;
  }
  return c;
}

// ---- the combos of each executable --------------------------------------------------------------
//
// One per executable (random_differential_<op>[_cast].cu), over the op type `Op` (softmax_family
// or norm_family above, or a stand-in that runs the chains on the host). Four combos each;
// between the two of an op, every input type, every output type, every load chain that suits the
// op and every store chain. Each combo instantiates every engine: two files of four compile in
// minutes where one of eight took over ten.

template <class Op> auto softmax_combos() {
  return hana::make_tuple(combo<Op, float, float, load_plain, store_plain>{},
                          combo<Op, __half, __half, load_scaled_causal, store_dropout>{},
                          combo<Op, float, bf16, load_residual, store_plain>{},
                          combo<Op, float, __half, load_broadcast, store_dropout>{});
}
template <class Op> auto softmax_cast_combos() {
  return hana::make_tuple(combo<Op, bf16, e4m3, load_operands, store_scaled_cast>{},
                          combo<Op, __half, bf16, load_broadcast, store_weighted_dropout_cast>{},
                          combo<Op, float, e5m2, load_scaled_causal, store_scaled_cast>{},
                          combo<Op, bf16, float, load_operands, store_weighted_dropout_cast>{});
}
template <class Op> auto log_softmax_combos() {
  return hana::make_tuple(combo<Op, bf16, bf16, load_scaled_causal, store_plain>{},
                          combo<Op, float, float, load_operands, store_dropout>{},
                          combo<Op, float, bf16, load_plain, store_plain>{},
                          combo<Op, float, __half, load_broadcast, store_plain>{});
}
template <class Op> auto log_softmax_cast_combos() {
  return hana::make_tuple(
      combo<Op, __half, e5m2, load_plain, store_weighted_dropout_cast>{},
      combo<Op, bf16, __half, load_broadcast, store_scaled_cast>{},
      combo<Op, __half, e4m3, load_residual, store_scaled_cast>{},
      combo<Op, __half, float, load_scaled_causal, store_weighted_dropout_cast>{});
}
template <class Op> auto layernorm_combos() {
  return hana::make_tuple(
      combo<Op, float, float, load_plain, store_plain, float, float>{},
      combo<Op, __half, __half, load_scaled_positional, store_dropout, __half, __half>{},
      combo<Op, float, __half, load_residual, store_plain, bf16, bf16>{},
      combo<Op, bf16, bf16, load_scaled_positional, store_plain>{});
}
template <class Op> auto layernorm_cast_combos() {
  return hana::make_tuple(
      combo<Op, bf16, e4m3, load_bias_add, store_scaled_cast, bf16, float>{},
      combo<Op, __half, bf16, load_residual, store_weighted_dropout_cast>{},
      combo<Op, bf16, e5m2, load_plain, store_scaled_cast, float, bf16>{},
      combo<Op, __half, float, load_bias_add, store_weighted_dropout_cast, float, float>{});
}
template <class Op> auto rmsnorm_combos() {
  return hana::make_tuple(combo<Op, float, float, load_bias_add, store_plain, float>{},
                          combo<Op, __half, __half, load_residual, store_dropout, __half>{},
                          combo<Op, bf16, __half, load_plain, store_dropout, bf16>{},
                          combo<Op, float, bf16, load_scaled_positional, store_plain>{});
}
template <class Op> auto rmsnorm_cast_combos() {
  return hana::make_tuple(
      combo<Op, bf16, e4m3, load_plain, store_scaled_cast, bf16>{},
      combo<Op, __half, bf16, load_scaled_positional, store_weighted_dropout_cast>{},
      combo<Op, float, e5m2, load_residual, store_scaled_cast, float>{},
      combo<Op, __half, float, load_bias_add, store_weighted_dropout_cast, float>{});
}

// ---- the run ------------------------------------------------------------------------------------

/// Draws and runs the cases of `family` (a hana tuple of combos): case k takes combo
/// k-th draw % size. Prints the seed first and a reproducer line per failing case.
template <class Family> void run_family(Family family, char const* what, long default_cases) {
  options const o = read_options(default_cases);
  constexpr std::size_t combos = decltype(hana::length(family))::value;
  std::vector<std::function<failure_log(std::mt19937_64&, std::string&)>> runners;
  std::vector<std::string> names;
  hana::for_each(family, [&](auto combo) {
    using C = decltype(combo);
    names.push_back(C::name());
    runners.push_back([](std::mt19937_64& rng, std::string& description) {
      case_params const c = draw_case<C>(rng);
      description = describe(c);
      return run_case<C>(c, rng);
    });
  });
  std::printf("random differential %s: seed %" PRIu64 ", %ld cases over %zu combos%s "
              "(rerun: %s --seed %" PRIu64 ")\n",
              what, o.seed, o.cases, combos, test::small_mode() ? " (small)" : "",
              o.program.c_str(), o.seed);
  std::fflush(stdout);
  long failed = 0, ran = 0;
  for (long k = 0; k < o.cases; ++k) {
    if (o.only >= 0 && k != o.only)
      continue;
    std::mt19937_64 rng(case_seed(o.seed, k));
    std::size_t const which = std::size_t(rng() % combos);
    std::string description;
    failure_log log;
    try {
      log = runners[which](rng, description);
    } catch (std::exception const& e) {
      log.add(std::string("exception: ") + e.what());
    }
    ++ran;
    if (log.failures > 0) {
      ++failed;
      std::printf("FAILED case %ld: %s --seed %" PRIu64 " --case %ld # %s; %s; %s\n", k,
                  o.program.c_str(), o.seed, k, names[which].c_str(), description.c_str(),
                  log.first.c_str());
      std::fflush(stdout);
      if (log.sticky)
        break; // nothing after a sticky CUDA error can be trusted
    }
  }
  std::printf("random differential %s: %ld cases, %ld passed, %ld failed (seed %" PRIu64 ")\n",
              what, ran, ran - failed, failed, o.seed);
  CHECK(ran > 0);
  CHECK(failed == 0);
}

} // namespace random_differential
