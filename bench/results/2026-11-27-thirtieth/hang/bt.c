#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>
#include <string.h>
static void handler(int sig) {
  void* frames[64];
  int n = backtrace(frames, 64);
  const char msg[] = "---- backtrace ----\n";
  write(2, msg, sizeof msg - 1);
  backtrace_symbols_fd(frames, n, 2);
}
__attribute__((constructor)) static void install(void) {
  struct sigaction sa; memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler; sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, 0);
}
