// Smallest user of rowfuse: include the one public header, call into the library.
#include <rowfuse/rowfuse.cuh>

#include <cstdio>

int main() {
  std::printf("rowfuse %s\n", rowfuse::version());
  return rowfuse::version()[0] ? 0 : 1;
}
