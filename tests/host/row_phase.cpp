// detail::row_phase: which views a phased call (rows read in packs from each row's first column on
// the 16-byte grid) may read and write in the same packs as its input. The rule, stated
// independently here: a pack at column c of row r starts at element index start + r * ld + c of
// each view, in units of that view's element; the engine picks c so the input's index is a
// multiple of N, and a view may share the pack when its own index is then a multiple of the
// elements its pack alignment spans, min(16 bytes, N elements) / its element size, in every row.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

#include <sys/mman.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <rowfuse/expr.hpp>

namespace rf = rowfuse;
using rf::index_t;

namespace {

/// A view of T whose first element is element `element` of the address space (never read).
template <class T>
rf::view<T> at_element(std::uintptr_t element, index_t rows, index_t cols, index_t ld) {
  return rf::dense(reinterpret_cast<T*>(element * sizeof(T)), rows, cols, ld);
}

/// The rule above, by brute force over the first rows and every column of each row.
template <int N, class In, class Other>
bool shares_packs(rf::view<In> const& input, rf::view<Other> const& other) {
  auto const index_of = [](auto const& v, index_t r, index_t c) {
    using element = std::remove_cv_t<typename std::remove_cvref_t<decltype(v)>::element_type>;
    auto const address = reinterpret_cast<std::uintptr_t>(v.data);
    return std::int64_t(address / sizeof(element)) + r * v.ld + c;
  };
  using other_t = std::remove_cv_t<Other>;
  std::int64_t const span = std::int64_t(rf::detail::pack_alignment<other_t, N> / sizeof(other_t));
  for (index_t r = 0; r < std::min<index_t>(input.rows, 40); ++r)
    for (index_t c = 0; c < input.cols; ++c)
      if (index_of(input, r, c) % N == 0 && index_of(other, r, c) % span != 0)
        return false;
  return true;
}

} // namespace

TEST_CASE("row_phase admits the views that share the input's packs in every row") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> small(0, 40);
  int cases = 0, admitted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    index_t const rows = 1 + small(rng) % 6, cols = 17 + small(rng);
    auto const input = at_element<__half const>(4096 + small(rng), rows, cols, cols + small(rng));
    auto const phase = rf::detail::row_phase::of(input);
    CAPTURE(trial);
    // fp16 (span 8), fp8 (8 bytes: span 8) and fp32 (16 bytes: span 4) views.
    auto const half_view = at_element<__half>(4096 + small(rng), rows, cols, cols + small(rng));
    auto const byte_view =
        at_element<std::uint8_t>(4096 + small(rng), rows, cols, cols + small(rng));
    auto const float_view = at_element<float>(4096 + small(rng), rows, cols, cols + small(rng));
    CHECK(phase.admits<8>(half_view) == shares_packs<8>(input, half_view));
    CHECK(phase.admits<8>(byte_view) == shares_packs<8>(input, byte_view));
    CHECK(phase.admits<8>(float_view) == shares_packs<8>(input, float_view));
    cases += 3;
    admitted +=
        phase.admits<8>(half_view) + phase.admits<8>(byte_view) + phase.admits<8>(float_view);
  }
  // Both answers are common, so the comparison above tests something.
  CHECK(admitted > cases / 20);
  CHECK(admitted < cases - cases / 20);
}

TEST_CASE("row_phase: the input itself, broadcast views and pointers off their element grid") {
  auto const input = at_element<__half const>(4097, 8, 1000, 1001);
  auto const phase = rf::detail::row_phase::of(input);
  CHECK(phase.admits<8>(input));
  // A broadcast operand's rows follow its own map: never phased.
  __half* const base = reinterpret_cast<__half*>(std::uintptr_t(4097 * 2));
  CHECK(!phase.admits<8>(rf::broadcast(base, {2, 1, 1000}, {2, 4, 1000})));
  // A 16-bit view at an odd byte address is off its element grid.
  auto const odd_bytes =
      rf::dense(reinterpret_cast<__half*>(std::uintptr_t(4097 * 2 + 1)), 8, 1000, 1001);
  CHECK(!phase.admits<8>(odd_bytes));
  // One row: the rows' stride does not matter.
  auto const one_row = rf::detail::row_phase::of(at_element<float const>(4099, 1, 300, 301));
  CHECK(one_row.admits<4>(at_element<float>(4103, 1, 300, 302)));
  CHECK(!one_row.admits<4>(at_element<float>(4100, 1, 300, 301)));
}

/// A page between two that neither read nor write: a read outside the middle one faults.
struct guarded_page {
  std::size_t size = std::size_t(sysconf(_SC_PAGESIZE));
  std::byte* mapping = static_cast<std::byte*>(
      mmap(nullptr, 3 * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  guarded_page() {
    REQUIRE(mapping != MAP_FAILED);
    REQUIRE(mprotect(mapping, size, PROT_NONE) == 0);
    REQUIRE(mprotect(mapping + 2 * size, size, PROT_NONE) == 0);
  }
  ~guarded_page() { munmap(mapping, 3 * size); }
  std::byte* page() const { return mapping + size; }
};

template <int N> void check_halfwords_off_grid(guarded_page const& guarded, std::mt19937& rng) {
  // Random halves, none zero: a shift by the wrong half or word shows.
  auto* const halves = reinterpret_cast<std::uint16_t*>(guarded.page());
  std::size_t const count = guarded.size / 2;
  for (std::size_t i = 0; i < count; ++i)
    halves[i] = std::uint16_t(1 + rng() % 65535u);
  // Packs at every element offset from a 16-byte boundary, at the page's start, in its middle and
  // ending at or just before its end: a read of more than the word holding the first element
  // through the last element (a whole 16-byte chunk past the pack, say) faults at the edges.
  for (std::size_t offset = 0; offset < 8; ++offset)
    for (std::size_t first : {offset, count / 2 + offset, count - N - offset}) {
      auto const* const from = reinterpret_cast<__half const*>(halves + first);
      auto const pack = rf::detail::read_halfwords_off_grid<N>(from);
      for (int j = 0; j < N; ++j) {
        std::uint16_t bits;
        __half const element = pack[j];
        std::memcpy(&bits, &element, sizeof(bits));
        CHECK(bits == halves[first + j]);
      }
    }
}

TEST_CASE("a 16-bit operand's pack off its grid, read as the words that hold it") {
  guarded_page const guarded;
  std::mt19937 rng(20261203);
  check_halfwords_off_grid<8>(guarded, rng);
  check_halfwords_off_grid<4>(guarded, rng);
  check_halfwords_off_grid<2>(guarded, rng);
}
