// rf::dropout's decisions on the device against the host's, at the places where a compare can go
// wrong: an element's 16-bit number equal to the threshold (kept) and one below it (dropped),
// p = 0 (every element kept) and p just below 1 (threshold 65536: every element dropped). The
// device compares both halves of a Philox word at once (sm_90) where the host compares each
// half alone; both paths of a pack are checked: the drawn bits (draw<8>, draw<4>, draw<1>) and
// the in-place apply of the store side, which compares as the words come.
#include <cstdint>

#include "support.cuh"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

/// What apply's context needs of the row: its width.
struct row_context {
  rf::index_t cols;
};

constexpr int packs = 512; // packs of 8 a case, at consecutive aligned columns of a few rows
constexpr rf::index_t cols = 1001, rows = packs * 8 / cols + 1; // packs cross rows

constexpr int words_a_pack = 5;

/// Thread t, for the pack of 8 at linear index 8t (row 8t / cols), words from 5t: draw<8>; the two
/// draw<4> (low nibble, high nibble); the eight draw<1>; the in-place apply's decisions on a pack
/// of 8 ones (bit j: element j nonzero); the same for two packs of 4 (the low and the high half of
/// a Philox block, fp32's packs).
__global__ void decide(rf::dropout_node node, u32* words) {
  int const t = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (t >= packs)
    return;
  rf::index_t const i = rf::index_t(t) * 8, row = i / cols, col0 = i % cols;
  u32 four = 0, one = 0, in_place = 0, in_place_fours = 0;
  if (col0 + 8 <= cols) {
    four = node.draw<4>(row, col0, cols) | node.draw<4>(row, col0 + 4, cols) << 4;
    row_context context{cols};
    float x[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    node.apply<8>(x, row, col0, context);
    float low[4] = {1, 1, 1, 1}, high[4] = {1, 1, 1, 1};
    node.apply<4>(low, row, col0, context);
    node.apply<4>(high, row, col0 + 4, context);
    for (int j = 0; j < 8; ++j) {
      in_place |= u32(x[j] != 0.0f) << j;
      in_place_fours |= u32((j < 4 ? low[j] : high[j - 4]) != 0.0f) << j;
    }
  }
  for (int j = 0; j < 8 && col0 + j < cols; ++j)
    one |= node.draw<1>(row, col0 + j, cols) << j;
  u32* const out = words + words_a_pack * t;
  out[0] = col0 + 8 <= cols ? node.draw<8>(row, col0, cols) : 0u;
  out[1] = four;
  out[2] = one;
  out[3] = in_place;
  out[4] = in_place_fours;
}

/// The elements `decide`'s draw<1> words cover: each pack's columns up to its row's end.
constexpr long covered() {
  long n = 0;
  for (long i = 0; i < long(packs) * 8; i += 8)
    n += i % cols + 8 <= cols ? 8 : cols - i % cols;
  return n;
}

/// Runs `decide` for p and compares every word with the host's draws; returns how many of the
/// covered elements it keeps.
long check(float p, u64 seed, u64 offset) {
  auto const node = rf::dropout(p, seed, offset).bind("test", rows, cols);
  test::mirrored<u32> words(words_a_pack * packs);
  std::fill(words.host.begin(), words.host.end(), 0xa5a5a5a5u); // poison
  words.upload();
  decide<<<(packs + 127) / 128, 128>>>(node, words.d());
  test::sync_and_check();
  auto const got = words.download();
  long wrong = 0, kept = 0;
  for (int t = 0; t < packs; ++t) {
    rf::index_t const i = rf::index_t(t) * 8, row = i / cols, col0 = i % cols;
    bool const whole = col0 + 8 <= cols;
    u32 one = 0;
    for (int j = 0; j < 8 && col0 + j < cols; ++j)
      one |= node.draw<1>(row, col0 + j, cols) << j;
    u32 const eight = whole ? node.draw<8>(row, col0, cols) : 0u;
    u32 const* const word = got.data() + words_a_pack * t;
    wrong += word[0] != eight;
    wrong += word[1] != eight;
    wrong += word[2] != one;
    wrong += word[3] != eight;
    wrong += word[4] != eight;
    wrong += whole && eight != one; // the host's own paths agree
    kept += __builtin_popcount(one);
  }
  CHECK_MESSAGE(wrong == 0, "p ", p, " (threshold ", node.threshold, "): ", wrong,
                " of the words differ from the host's");
  return kept;
}

} // namespace

TEST_CASE("dropout: the device keeps an element whose number equals the threshold, as the host") {
  u64 const seed = 0x9e3779b97f4a7c15ull, offset = 0xc0ffee0000000001ull;
  // Thresholds pinned to elements' own numbers (kept at t, dropped at t + 1), low and high halves
  // of words, from blocks of the first row and the last.
  int pinned = 0;
  for (u64 block : {u64(0), u64(3), u64(packs - 2)}) {
    auto const u = rf::detail::philox_quad(seed, offset, block);
    for (int half = 0; half < 8; half += 3) {
      u32 const number = half % 2 == 0 ? u.v[half / 2] & 0xffffu : u.v[half / 2] >> 16;
      if (number == 0xffffu)
        continue; // t + 1 would need p = 1
      CAPTURE(block);
      CAPTURE(half);
      check(float(number) / 65536.0f, seed, offset);
      check(float(number + 1) / 65536.0f, seed, offset);
      ++pinned;
    }
  }
  CHECK(pinned >= 6);
}

TEST_CASE("dropout: p = 0 keeps every element and p just below 1 drops every one, on the device") {
  long const elements = covered();
  CHECK(check(0.0f, 7, 11) == elements);
  CHECK(check(std::nextafter(1.0f, 0.0f), 7, 11) == 0); // threshold 65536
  long const some = check(0.3f, 7, 11);                 // both outcomes common
  CHECK(some > elements / 2);
  CHECK(some < elements * 9 / 10);
}
