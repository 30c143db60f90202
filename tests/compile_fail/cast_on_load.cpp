// expect: rf::cast<T> is a store transform
// rf::cast rounds the op's result: piping it into a load expression must not compile.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  __half const* x = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto load = rf::load(x, 4, 8) | rf::cast<__half>();
#else
  auto load = rf::load(x, 4, 8);
#endif
  (void)load;
}
