/*
 * Linked into every test program of an AddressSanitizer build: runs
 * LeakSanitizer's check when main() returns, before the shared libraries'
 * destructors, instead of at the very end of exit().
 *
 * LeakSanitizer registers its own end-of-process check while the program is
 * being loaded, so it runs last, after the libraries' destructors (PoCL's
 * among them) have run and may have ended threads. Its tracer suspends and
 * scans every thread, and a thread that exits meanwhile can crash it:
 * "Tracer caught signal 11 ... LeakSanitizer has encountered a fatal error"
 * (google/sanitizers #1353), which ended one of our CI runs after every test
 * had passed. The handler below is registered from this program's
 * constructor, after the C library registered the libraries' destructors, so
 * exit() calls it first, while PoCL's threads are parked. LeakSanitizer then
 * skips its own check. What counts as a leak does not change.
 */
#include <sanitizer/lsan_interface.h>
#include <stdlib.h>

static void check_leaks(void) { __lsan_do_leak_check(); }

__attribute__((constructor)) static void register_leak_check(void) { atexit(check_leaks); }
