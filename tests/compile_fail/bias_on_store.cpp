// expect: this is a load transform
// rf::bias adds to the op's input; piping it into a store expression must not compile.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  float* out = nullptr;
  float const* b = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto store = rf::store(out) | rf::bias(b);
#else
  auto store = rf::store(out) | rf::scale(1.0f);
  (void)b;
#endif
  (void)store;
}
