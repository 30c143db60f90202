// fp8 stores round like the host's conversion at the format's edges, saturating or not. The
// device converts two values with one instruction that only saturates and puts the format's
// overflow back with a select (detail::narrow_pack); these cases check that select's boundaries,
// the subnormal range and the sign, bit for bit, through the single-element path (1 column) and
// the 8-element pack path (8 columns).
#include <cstdint>
#include <cstring>

#include "support.cuh"

namespace {

/// Poison for the outputs: a byte no case below expects (checked), so an element left unwritten
/// is caught. (0xFF, the suites' usual poison, is e4m3's negative NaN: an expected value here.)
constexpr std::uint8_t poison_byte = 0x55;

/// Softmax over `cols` equal inputs gives exactly 1 / cols at every element (cols a power of two:
/// the max's own term and every other are 2^24, their sum and its reciprocal exact), so a
/// store-side scale of value * cols hands the cast exactly `value`.
template <class Out> void check_value(float value, bool saturate, long cols) {
  CAPTURE(value);
  CAPTURE(saturate);
  CAPTURE(cols);
  long const rows = 3;
  std::uint8_t const expected = rf::detail::narrow<Out>(double(value), saturate).__x;
  REQUIRE(expected != poison_byte);
  thrust::device_vector<float> x(std::size_t(rows * cols), 0.5f);
  thrust::device_vector<Out> y(std::size_t(rows * cols));
  cudaMemset(thrust::raw_pointer_cast(y.data()), poison_byte, y.size());
  auto const store = rf::store(thrust::raw_pointer_cast(y.data())) |
                     rf::scale(value * float(cols)) | rf::cast<Out>(1.0f, nullptr, saturate);
  rf::softmax<rf::cols_range{1, 8}>(rf::load(thrust::raw_pointer_cast(x.data()), rows, cols),
                                    store);
  test::sync_and_check();
  std::vector<Out> got(y.size());
  thrust::copy(y.begin(), y.end(), got.begin());
  for (Out const& element : got)
    CHECK(int(element.__x) == int(expected));
}

template <class Out> void check_values(std::initializer_list<float> values) {
  for (float value : values)
    for (float sign : {1.0f, -1.0f})
      for (bool saturate : {true, false})
        for (long cols : {1L, 8L})
          check_value<Out>(sign * value, saturate, cols);
}

} // namespace

TEST_CASE("fp8 e4m3 stores round like the host at the range's edge and in the subnormals") {
  // 448 the largest finite value; 464 the midpoint to the next step, which ties to 448; above it
  // NaN without saturation, 448 with. 2^-9 the smallest subnormal, 2^-10 half of it (ties to
  // 0), 1.5 * 2^-9 a tie between two subnormals.
  check_values<__nv_fp8_e4m3>({448.0f, 463.99997f, 464.0f, 464.00003f, 480.0f, 1e30f, 0.75f,
                               0x1p-9f, 0x1p-10f, 0x1.8p-9f, 0x1.8p-10f, 0.0f});
}

TEST_CASE("fp8 e5m2 stores round like the host at the range's edge and in the subnormals") {
  // 57344 the largest finite value; from the midpoint 61440 up, infinity without saturation.
  // 2^-16 the smallest subnormal.
  check_values<__nv_fp8_e5m2>({57344.0f, 61439.996f, 61440.0f, 61440.004f, 1e30f, 0.75f,
                               0x1p-16f, 0x1p-17f, 0x1.8p-16f, 0.0f});
}
