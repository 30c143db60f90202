// The library's version, from the host runtime (so a consumer's link is checked too).
#pragma once

namespace rowfuse {

/// "MAJOR.MINOR.PATCH" of the rowfuse runtime this program is linked against.
char const* version();

} // namespace rowfuse
