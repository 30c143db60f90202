// The online softmax over a loop of key tiles gives the P V of the two-pass form (rf::softmax
// over the whole rows, then P V) within fp32 rounding: 1e-6 relative, over 64 key tiles.
//
// Both forms sum P V in the same blocked order (a tile's 16 products, then the running total),
// as an mma-based kernel does; they differ only in where the normalisation happens (online:
// exp(s - running max), rescaled as the max grows, divided by the sum at the end; two-pass:
// exp(s - max) / sum per element). V is positive ([0.5, 1.5)), so no output is a cancellation
// and 1e-6 relative per element is a meaningful bound.
#include "collective_support.cuh"

namespace {

constexpr std::uint64_t seed = 0xabcdef12345ull;

/// One scope (a warp for warp scope: blocks of 32 threads; a block) per query tile of
/// Scores::rows rows. For each of `key_tiles` tiles: S's tile into registers, update, rescale O,
/// P into shared memory, O += P V_tile (blocked: the tile's sum first). Then finish.
template <class Scores, class Output, class Scope, class In, class Out>
__global__ void online_kernel(float const* s, float const* v, float* o, float* log_sum_exp,
                              long keys, int key_tiles, rfc::tile_transforms<In> in,
                              rfc::tile_transforms<Out> out) {
  constexpr int width = Output::cols; // the head dimension
  __shared__ float p[Scores::rows * Scores::cols];
  __shared__ typename rfc::online_softmax<Scores, Scope>::TempStorage storage;
  rfc::online_softmax<Scores, Scope> state(storage);
  int const thread = Scope::thread_rank();
  long const row0 = long(blockIdx.x) * Scores::rows;
  float acc[Output::values] = {};
  for (int k = 0; k < key_tiles; ++k) {
    rfc::tile_origin const origin{row0, long(k) * Scores::cols};
    float scores[Scores::values];
    ctest::gather<Scores>(scores, s, keys, origin, thread);
    state.update(scores, origin, in, out);
    state.template rescale<Output>(acc);
    ctest::scatter<Scores>(scores, p, Scores::cols, rfc::tile_origin{}, thread);
    __syncthreads();
    for (int slot = 0; slot < Output::row_slots; ++slot)
      for (int q = 0; q < Output::packs_per_row; ++q)
        for (int j = 0; j < Output::pack; ++j) {
          int const r = Output::tile_row(thread, slot), d = Output::tile_col(thread, q) + j;
          if (r >= Output::rows || d >= width)
            continue;
          float tile_sum = 0.0f;
          for (int kk = 0; kk < Scores::cols; ++kk)
            tile_sum = fmaf(p[r * Scores::cols + kk], v[(origin.col + kk) * width + d], tile_sum);
          acc[Output::value_index(slot, q, j)] += tile_sum;
        }
    __syncthreads();
  }
  state.template finish<Output>(acc);
  ctest::scatter<Output>(acc, o, width, rfc::tile_origin{row0, 0}, thread);
  for (int slot = 0; slot < Scores::row_slots; ++slot)
    if (thread % Scores::threads_per_row == 0 && rfc::holds_row<Scores>(thread, slot))
      log_sum_exp[row0 + Scores::tile_row(thread, slot)] = state.log_sum_exp(slot);
}

/// The two-pass form's second pass: o = P v, summed in the same blocked order.
__global__ void pv_kernel(float const* p, float const* v, float* o, long keys, int width,
                          int tile_keys) {
  long const r = blockIdx.x;
  int const d = int(threadIdx.x);
  float total = 0.0f;
  for (long k0 = 0; k0 < keys; k0 += tile_keys) {
    float tile_sum = 0.0f;
    for (long k = k0; k < k0 + tile_keys; ++k)
      tile_sum = fmaf(p[r * keys + k], v[k * width + d], tile_sum);
    total += tile_sum;
  }
  o[r * width + d] = total;
}

struct online_case {
  long rows;
  long key_tiles;
  long q_len;
  long causal_offset; // -1: rows r % q_len == 0 see no key
  bool dropout;
};

template <class Scores, class Output, class Scope> void check_online(online_case const& c) {
  CAPTURE(c.rows);
  CAPTURE(c.key_tiles);
  CAPTURE(c.causal_offset);
  CAPTURE(c.dropout);
  CAPTURE(Scores::threads_per_row);
  long const rows = c.rows, keys = c.key_tiles * Scores::cols;
  constexpr int width = Output::cols;
  std::mt19937 rng(unsigned(rows + keys + c.dropout));
  test::mirrored<float> s(std::size_t(rows * keys)), v(std::size_t(keys * width));
  test::mirrored<float> p(std::size_t(rows * keys));
  test::mirrored<float> online(std::size_t(rows * width)), two_pass(std::size_t(rows * width));
  test::mirrored<float> log_sum_exp{std::size_t(rows)};
  test::fill_uniform(s.host, rng, -4.0f, 4.0f);
  test::fill_uniform(v.host, rng, 0.5f, 1.5f);
  s.upload();
  v.upload();
  test::poison(online.host);
  online.upload();
  test::poison(log_sum_exp.host);
  log_sum_exp.upload();
  float const drop = c.dropout ? 0.2f : 0.0f;
  auto const load = [&](auto expr) {
    return expr | rf::scale(0.4f) | rf::causal_mask(c.q_len, c.causal_offset);
  };

  // Two passes: rf::softmax over whole rows, then P V.
  rf::softmax(load(rf::load(static_cast<float const*>(s.d()), rows, keys)),
              rf::store(p.d()) | rf::dropout(drop, seed, 3));
  pv_kernel<<<unsigned(rows), unsigned(width)>>>(p.d(), v.d(), two_pass.d(), keys, width,
                                                 Scores::cols);
  // Online, tile by tile.
  auto const in = rfc::bind(load(rfc::tile_load(rows, keys)));
  auto const out = rfc::bind(rfc::tile_store(rows, keys) | rf::dropout(drop, seed, 3));
  online_kernel<Scores, Output, Scope><<<unsigned(rows / Scores::rows), Scores::threads>>>(
      s.d(), v.d(), online.d(), log_sum_exp.d(), keys, int(c.key_tiles), in, out);
  test::sync_and_check();

  // The exact P V, from the double reference of the same softmax and dropout.
  std::vector<float> p_rounded(p.host.size());
  auto const p_exact = rf::reference::softmax(
      load(rf::load(s.h(), rows, keys)), rf::store(p_rounded.data()) | rf::dropout(drop, seed, 3));
  std::vector<double> o_exact(std::size_t(rows * width), 0.0);
  for (long r = 0; r < rows; ++r)
    for (long k = 0; k < keys; ++k)
      for (int d = 0; d < width; ++d)
        o_exact[std::size_t(r * width + d)] +=
            p_exact[std::size_t(r * keys + k)] * double(v.host[std::size_t(k * width + d)]);

  auto const got = online.download();
  auto const two = two_pass.download();
  std::vector<double> two_wide(two.begin(), two.end());
  // The target: within 1e-6 relative of the two-pass form, element by element (fully masked
  // rows: both exactly 0).
  CHECK_MATCHES(test::compare_within(got, two_wide, rows, width, width, 0,
                                     [](double e) { return 1e-6 * std::fabs(e); }));
  // And both near the exact value: a sum of `keys` positive fp32 terms in blocks of 16 is within
  // (keys / 16 + 16) u of its value, the terms within a few u (exp, the division): 3e-5 holds
  // for 1024 keys with room.
  CHECK_MATCHES(test::compare_within(got, o_exact, rows, width, width, 0,
                                     [](double e) { return 3e-5 * std::fabs(e); }));
  CHECK_MATCHES(test::compare_within(two, o_exact, rows, width, width, 0,
                                     [](double e) { return 3e-5 * std::fabs(e); }));
  // log(sum of exp) of each row's transformed scores (dropout plays no part): -inf where the row
  // sees nothing; elsewhere the max plus the log of a sum known to a few u, whose rounding is
  // a few u of |lse| plus a few u absolute.
  auto const lse = log_sum_exp.download();
  for (long r = 0; r < rows; ++r) {
    double total = 0.0;
    for (long k = 0; k < keys; ++k)
      if (k <= r % c.q_len + c.causal_offset)
        total += std::exp(0.4 * double(s.host[std::size_t(r * keys + k)]));
    double const want = total == 0.0 ? -INFINITY : std::log(total);
    INFO("log_sum_exp of row " << r << ": got " << lse[std::size_t(r)] << ", exact " << want);
    if (std::isinf(want))
      CHECK(lse[std::size_t(r)] == -INFINITY);
    else
      CHECK(std::fabs(lse[std::size_t(r)] - want) <= 1e-6 * std::fabs(want) + 1e-6);
  }
  if (c.causal_offset == -1) { // rows r % q_len == 0 see no key: exactly 0
    for (long r = 0; r < rows; r += c.q_len)
      for (int d = 0; d < width; ++d)
        CHECK(got[std::size_t(r * width + d)] == 0.0f);
  }
}

using scores16 = rfc::mma_accumulator_layout<16, 16>;
using output32 = rfc::mma_accumulator_layout<16, 32>;

} // namespace

TEST_CASE("online softmax over 64 key tiles equals the two-pass P V within 1e-6 (mma layout)") {
  // Queries at the end of the keys (offset keys - q_len): every row sees most keys.
  check_online<scores16, output32, rfc::warp_scope>({64, 64, 64, 1024 - 64, false});
  check_online<scores16, output32, rfc::warp_scope>({64, 64, 64, 1024 - 64, true});
  // Queries at the start: row r of a block sees keys 0..r, the first row of each block none
  // (offset -1): zeros, and most key tiles fully masked for the first rows.
  check_online<scores16, output32, rfc::warp_scope>({64, 64, 16, -1, true});
}

TEST_CASE("online softmax in striped layouts, warp and block scope") {
  // Two lanes a row, packs of 8; the output 16 x 32 in the same rows.
  check_online<rfc::striped_layout<16, 16>, rfc::striped_layout<16, 32, 32, 2>, rfc::warp_scope>(
      {64, 64, 64, 1024 - 64, true});
  // Rows across two warps: 2 rows of 128 keys over 128 threads, 8 key tiles of 128.
  check_online<rfc::striped_layout<2, 128, 128>, rfc::striped_layout<2, 64, 128, 64>,
               rfc::block_scope>({16, 8, 8, 1024 - 8, true});
  check_online<rfc::striped_layout<2, 128, 128>, rfc::striped_layout<2, 64, 128, 64>,
               rfc::block_scope>({16, 8, 8, -1, false});
}
