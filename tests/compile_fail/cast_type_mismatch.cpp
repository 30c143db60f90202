// expect: rf::cast<U> must name the output view's element type
// rf::cast<__half> into a float output: the cast's type must be the store's element type.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  float* out = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto store = rf::store(out) | rf::cast<__half>(0.5f);
#else
  auto store = rf::store(out) | rf::cast<float>(0.5f);
#endif
  (void)store;
}
