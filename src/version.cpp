#include "rowfuse/version.hpp"

namespace rowfuse {

char const* version() {
  return "0.1.0";
}

} // namespace rowfuse
