// A pre-norm transformer block's first step in one kernel: h = x + bias + residual is written
// out (the residual stream) and y = layernorm(h) is stored as fp8 e4m3 with a scale and amax.
#include "common.hpp"
#include <rowfuse/reference.hpp>
#include <rowfuse/rowfuse.cuh>
namespace rf = rowfuse;
using fp8 = __nv_fp8_e4m3;
int main() {
  if (example::no_gpu())
    return 77;
  long const rows = 4096, cols = 1024;
  float const scale = 64.0f; // fp8 recipes take it from an earlier step's amax
  auto const x = example::random<__half>(rows * cols, -4, 4, 1),
             r = example::random<__half>(rows * cols, -4, 4, 2);
  auto const b = example::random<__half>(cols, -0.5f, 0.5f, 3),
             g = example::random<__half>(cols, 0.5f, 1.5f, 4),
             be = example::random<__half>(cols, -0.5f, 0.5f, 5);
  example::device<__half> X(x), R(r), B(b), G(g), Be(be), H(rows * cols);
  example::device<fp8> Y(rows * cols);
  example::device<float> amax(std::vector<float>{0.0f});
  rf::layernorm(rf::load(X.data(), rows, cols) | rf::bias(B.data()) | rf::add(R.data()) |
                    rf::tee(H.data()),
                rf::store(Y.data()) | rf::cast<fp8>(scale, amax.data()),
                rf::affine(G.data(), Be.data()), 1e-5f);
  std::vector<__half> h(rows * cols);
  std::vector<fp8> y(rows * cols);
  float amax_exact = 0.0f;
  auto const y_exact = rf::reference::layernorm(
      rf::load(x.data(), rows, cols) | rf::bias(b.data()) | rf::add(r.data()) | rf::tee(h.data()),
      rf::store(y.data()) | rf::cast<fp8>(scale, &amax_exact), rf::affine(g.data(), be.data()),
      1e-5f);
  // e4m3 rounds within 2^-4 relative (2^-10 absolute among subnormals); h is fp16 either way.
  int failed = example::check("y (fp8 e4m3, scaled)", Y.host(), y_exact, 0x1p-4 * 1.01, 0x1p-6);
  failed +=
      example::check("h (fp16 tee)", H.host(), std::vector<double>(h.begin(), h.end()), 0x1p-10);
  return failed + example::check("amax", amax.host(), {double(amax_exact)}, 1e-5);
}
