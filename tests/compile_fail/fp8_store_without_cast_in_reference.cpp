// expect: an fp8 output needs an explicit rf::cast
// The same through a reference op: an fp8 store without rf::cast does not compile.
#include <rowfuse/reference.hpp>

namespace rf = rowfuse;

int main() {
  float const x[4] = {1, 2, 3, 4};
  __nv_fp8_e5m2 out[4];
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  rf::reference::softmax(rf::load(x, 1, 4), rf::store(out));
#else
  rf::reference::softmax(rf::load(x, 1, 4), rf::store(out) | rf::cast<__nv_fp8_e5m2>());
#endif
}
