// doctest's main() for the host tests, compiled once and linked into every host_<stem>.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
