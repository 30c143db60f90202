// rmsnorm with a zero-centred gamma, y = x * rstd * (1 + gamma), in bf16, saving rstd for the
// backward pass: gamma initialised at zero trains like one initialised at one.
#include <rowfuse/reference.hpp>
#include <rowfuse/rowfuse.cuh>

#include "common.hpp"

namespace rf = rowfuse;
using bf16 = __nv_bfloat16;

int main() {
  if (example::no_gpu())
    return 77;
  long const rows = 2048, cols = 4096;
  auto const x = example::random<bf16>(rows * cols, -4.0f, 4.0f);
  auto const gamma = example::random<bf16>(cols, -0.1f, 0.1f, 2); // near zero, as trained
  example::device<bf16> X(x), G(gamma), Y(rows * cols);
  example::device<float> rstd(rows);

  rf::rmsnorm(rf::load(X.data(), rows, cols), rf::store(Y.data()),
              rf::zero_centered_gamma(G.data()), 1e-6f, nullptr, rstd.data());

  std::vector<bf16> y(rows * cols);
  std::vector<float> rstd_ref(rows);
  auto const exact =
      rf::reference::rmsnorm(rf::load(x.data(), rows, cols), rf::store(y.data()),
                             rf::zero_centered_gamma(gamma.data()), 1e-6f, rstd_ref.data());

  // bf16 rounds within 2^-9 relative; rstd is fp32 from an fp32 sum of squares.
  int const failed = example::check("y (bf16)", Y.host(), exact, 0x1p-8);
  return failed + example::check("rstd", rstd.host(),
                                 std::vector<double>(rstd_ref.begin(), rstd_ref.end()), 1e-5);
}
