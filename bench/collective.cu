// rowfuse-collective-bench: the middle step of the attention micro-kernel
// (examples/attention_microkernel.cuh), rowfuse's warp collective against the hand-written
// one-row-at-a-time softmax, on 16 x 16 fp32 tiles of scores:
//
//  1. cycles per tile of the middle step (clock64 inside the kernel, from S complete in the
//     mma.sync accumulators to P complete in them; for the shared-memory variants that includes
//     the round trip through shared memory), at full occupancy (a warp per tile, 4 warps a
//     block, every SM full) and with one warp per SM (latency alone);
//  2. the whole micro-kernel's throughput (S = Q K^T, middle step, O = P V; no clock).
//
// The transforms are scale and causal mask (no dropout: the hand-written version would draw
// Philox element by element, which measures Philox rather than the softmax). Every variant's O
// is cross-checked against the collective on registers. Without a GPU: a message, exit 2.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../examples/attention_microkernel.cuh"
#include "../examples/common.hpp"

namespace {

namespace rf = rowfuse;
namespace rfc = rowfuse::collective;
using attention::head_dim;
using attention::softmax_stage;
using attention::tile;

struct options {
  long heads = 1L << 16; // 2^20 query rows, 24 MiB of Q, K, V and 16 MiB of O
  int reps = 21;
};

void usage() {
  std::puts("usage: rowfuse-collective-bench [--heads N] [--reps N]\n"
            "  --heads N  16 x 16 x 64 attention heads, one tile each (default 65536)\n"
            "  --reps N   timed launches per variant for the throughput median (default 21)\n"
            "Prints the middle step's cycles per 16 x 16 fp32 tile (collective vs hand-written)\n"
            "and the micro-kernel's throughput. Needs a CUDA GPU (exit 2 without one).");
}

bool parse(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string const arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      usage();
      std::exit(0);
    }
    if (i + 1 >= argc)
      return false;
    if (arg == "--heads")
      o.heads = std::atol(argv[++i]);
    else if (arg == "--reps")
      o.reps = std::atoi(argv[++i]);
    else
      return false;
  }
  return o.heads > 0 && o.reps > 0;
}

struct variant {
  softmax_stage stage;
  rfc::exp_precision precision;
  char const* exp_name;
};

/// The four stages, fast exp everywhere (the hand-written one uses __expf), and the collective
/// on registers with the accurate exp too.
constexpr variant variants[] = {
    {softmax_stage::hand_written, rfc::exp_precision::fast, "__expf"},
    {softmax_stage::collective_shared_16, rfc::exp_precision::fast, "fast"},
    {softmax_stage::collective_shared, rfc::exp_precision::fast, "fast"},
    {softmax_stage::collective_registers, rfc::exp_precision::fast, "fast"},
    {softmax_stage::collective_registers, rfc::exp_precision::accurate, "accurate"},
};

struct measured {
  double cycles_full = 0;  // per tile, every SM full
  double cycles_alone = 0; // per tile, one warp per SM
  double ms = 0;           // one launch over all heads, median
};

template <softmax_stage Stage, rfc::exp_precision Precision, class Scores, class Probabilities>
measured measure(options const& o, int sms, example::device<__half> const& q,
                 example::device<__half> const& k, example::device<__half> const& v,
                 example::device<float> const& out, float scale,
                 rfc::tile_transforms<Scores> const& scores,
                 rfc::tile_transforms<Probabilities> const& probs) {
  measured m;
  example::device<unsigned long long> counters(2);
  auto const cycles = [&](unsigned blocks, unsigned threads) {
    example::ok(cudaMemset(counters.data(), 0, 2 * sizeof(unsigned long long)));
    attention::attention_tiles<Stage, Precision>
        <<<blocks, threads>>>(q.data(), k.data(), v.data(), out.data(), o.heads, scale, scores,
                              probs, attention::stage_clock{counters.data()});
    example::ok(cudaGetLastError());
    auto const totals = counters.host();
    return double(totals[0]) / double(totals[1]);
  };
  cycles(attention::blocks_for(o.heads), 32 * attention::warps_per_block); // warm-up
  m.cycles_full = cycles(attention::blocks_for(o.heads), 32 * attention::warps_per_block);
  m.cycles_alone = cycles(unsigned(sms), 32);
  m.ms = example::time_ms(
      [&] {
        attention::attention_tiles<Stage, Precision>
            <<<attention::blocks_for(o.heads), 32 * attention::warps_per_block>>>(
                q.data(), k.data(), v.data(), out.data(), o.heads, scale, scores, probs,
                attention::no_clock{});
      },
      o.reps);
  return m;
}

template <class Scores, class Probabilities>
measured run(variant const& which, options const& o, int sms, example::device<__half> const& q,
             example::device<__half> const& k, example::device<__half> const& v,
             example::device<float> const& out, float scale,
             rfc::tile_transforms<Scores> const& scores,
             rfc::tile_transforms<Probabilities> const& probs) {
  auto const go = [&](auto stage_constant, auto precision_constant) {
    return measure<decltype(stage_constant)::value, decltype(precision_constant)::value>(
        o, sms, q, k, v, out, scale, scores, probs);
  };
  using fast = std::integral_constant<rfc::exp_precision, rfc::exp_precision::fast>;
  using accurate = std::integral_constant<rfc::exp_precision, rfc::exp_precision::accurate>;
  switch (which.stage) {
  case softmax_stage::hand_written:
    return go(std::integral_constant<softmax_stage, softmax_stage::hand_written>{}, fast{});
  case softmax_stage::collective_shared_16:
    return go(std::integral_constant<softmax_stage, softmax_stage::collective_shared_16>{}, fast{});
  case softmax_stage::collective_shared:
    return go(std::integral_constant<softmax_stage, softmax_stage::collective_shared>{}, fast{});
  default:
    if (which.precision == rfc::exp_precision::fast)
      return go(std::integral_constant<softmax_stage, softmax_stage::collective_registers>{},
                fast{});
    return go(std::integral_constant<softmax_stage, softmax_stage::collective_registers>{},
              accurate{});
  }
}

} // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, o)) {
    usage();
    return 1;
  }
  int devices = 0;
  cudaError_t const status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::fprintf(stderr,
                 "rowfuse-collective-bench: no CUDA GPU (%s): nothing to measure. Run it on a "
                 "machine with an NVIDIA GPU (sm_90 build).\n",
                 status != cudaSuccess ? cudaGetErrorString(status) : "0 devices");
    return 2;
  }
  cudaDeviceProp props{};
  example::ok(cudaGetDeviceProperties(&props, 0));
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  std::printf("%s, %d SMs, %.0f MHz; %ld heads of 16 queries x 16 keys x 64 dims\n", props.name,
              props.multiProcessorCount, clock_khz / 1e3, o.heads);

  long const rows = o.heads * tile;
  float const scale = 0.125f;
  example::device<__half> q(example::random<__half>(rows * head_dim, -1.0f, 1.0f, 1));
  example::device<__half> k(example::random<__half>(rows * head_dim, -1.0f, 1.0f, 2));
  example::device<__half> v(example::random<__half>(rows * head_dim, -1.0f, 1.0f, 3));
  example::device<float> out(rows * head_dim);
  auto const scores =
      rfc::bind(rfc::tile_load(rows, tile) | rf::scale(scale) | rf::causal_mask(tile));
  auto const probs = rfc::bind(rfc::tile_store(rows, tile));

  // The cross-check's reference: O from the collective on registers, accurate exp.
  attention::attention_tiles<softmax_stage::collective_registers, rfc::exp_precision::accurate>
      <<<attention::blocks_for(o.heads), 32 * attention::warps_per_block>>>(
          q.data(), k.data(), v.data(), out.data(), o.heads, scale, scores, probs,
          attention::no_clock{});
  std::vector<float> const reference = out.host();
  std::vector<measured> results;
  bool agree = true;
  for (variant const& which : variants) {
    results.push_back(run(which, o, props.multiProcessorCount, q, k, v, out, scale, scores, probs));
    // Every variant's O within the fp16 rounding of P (2^-11 relative, |v| <= 1, rows of P sum
    // to 1: 5e-4) of the reference's; 2e-3 leaves room for the fast exp and fp32 sums.
    auto const got = out.host();
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      worst = std::max(worst, double(std::fabs(got[i] - reference[i])));
    if (!(worst <= 2e-3)) {
      std::printf("cross-check FAILED: %s (%s exp): max |O - reference| = %.2e > 2e-3\n",
                  attention::describe(which.stage), which.exp_name, worst);
      agree = false;
    }
  }
  if (agree)
    std::puts("cross-check: every variant's O within 2e-3 of the collective's (accurate exp)");

  double const flops = 4.0 * tile * tile * head_dim; // two 16 x 16 x 64 products, 2 flops a MAC
  double const bytes = 3.0 * tile * head_dim * sizeof(__half) + tile * head_dim * sizeof(float);
  double const baseline_full = results[0].cycles_full, baseline_alone = results[0].cycles_alone;
  std::printf("\nmiddle step, cycles per 16 x 16 fp32 tile (S in accumulators -> P in "
              "accumulators; speed-up = hand-written / this):\n");
  std::printf("  %-78s %-8s %14s %14s\n", "variant", "exp", "full SMs", "1 warp/SM");
  for (std::size_t i = 0; i < results.size(); ++i) {
    std::printf("  %-78s %-8s %8.1f %4.2fx %8.1f %4.2fx\n", attention::describe(variants[i].stage),
                variants[i].exp_name, results[i].cycles_full,
                baseline_full / results[i].cycles_full, results[i].cycles_alone,
                baseline_alone / results[i].cycles_alone);
  }
  std::printf("\nwhole micro-kernel (S = Q K^T, middle step, O = P V), median of %d launches:\n",
              o.reps);
  std::printf("  %-78s %-8s %9s %10s %8s %8s\n", "variant", "exp", "ms", "M tiles/s", "TFLOP/s",
              "GB/s");
  for (std::size_t i = 0; i < results.size(); ++i) {
    double const seconds = results[i].ms * 1e-3;
    std::printf("  %-78s %-8s %9.3f %10.1f %8.2f %8.0f\n", attention::describe(variants[i].stage),
                variants[i].exp_name, results[i].ms, o.heads / seconds / 1e6,
                o.heads * flops / seconds / 1e12, o.heads * bytes / seconds / 1e9);
  }
  return agree ? 0 : 1;
}
