// expect: rf::dropout is a store transform
// rf::dropout acts on the op's result: piping it into a load expression must not compile.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  float const* scores = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto load = rf::load(scores, 4, 8) | rf::scale(0.5f) | rf::dropout(0.1f, 1234);
#else
  auto load = rf::load(scores, 4, 8) | rf::scale(0.5f);
#endif
  (void)load;
}
