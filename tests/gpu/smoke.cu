// The smallest end-to-end check: one fused kernel runs on the device and matches the host.
#include "support.cuh"

TEST_CASE("smoke: scale -> softmax -> fp16 matches the host reference") {
  long const rows = 64, cols = 100;
  std::mt19937 rng(42);
  test::mirrored<__half> x(rows * cols), y(rows * cols), y_ref(rows * cols);
  test::fill_uniform(x.host, rng);
  x.upload();
  test::poison(y.host);
  y.upload();
  auto const exact =
      rf::reference::softmax(rf::load(x.h(), rows, cols) | rf::scale(0.5f), rf::store(y_ref.h()));
  rf::softmax(rf::load(static_cast<__half const*>(x.d()), rows, cols) | rf::scale(0.5f),
              rf::store(y.d()));
  test::sync_and_check();
  CHECK_MATCHES(test::compare(y.download(), exact, rows, cols, cols, 0));
}
