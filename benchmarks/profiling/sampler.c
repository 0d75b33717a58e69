// A sampling profiler of one thread, for machines without a profiler (the
// lent GPU machines): preloaded into a program, it samples the stack of the
// thread that loaded it (the main thread) on a timer of that thread's CPU
// time, and writes the samples and the process's mappings at exit; report.py
// turns them into time per function.
//
//   SAMPLER_OUT=samples.txt [SAMPLER_US=300] LD_PRELOAD=libbench_sampler.so program ...
//
// The timer counts the thread's CPU time, the handler's included: a sample
// costs some tens of microseconds (the stack is unwound from the unwind
// tables: the libraries have no frame pointers), so the period must be
// several times that or the handler takes the thread's time over.
// backtrace() is not async-signal-safe in general; it is safe once glibc
// has loaded libgcc's unwinder, which the constructor makes it do.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

enum { kMostSamples = 200000, kDepth = 24 };

static void *stacks[kMostSamples][kDepth];
static unsigned char depths[kMostSamples];
static atomic_int taken;
static timer_t timer;
static int running;

static void sample(int signal, siginfo_t *info, void *context) {
    (void)signal;
    (void)info;
    int i = atomic_fetch_add(&taken, 1);
    if (i >= kMostSamples)
        return;
    // The interrupted instruction, then its callers (backtrace's first two
    // frames are this handler and the signal trampoline).
    stacks[i][0] = (void *)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
    void *frames[kDepth + 2];
    int n = backtrace(frames, kDepth + 2);
    int depth = 1;
    for (int k = 2; k < n && depth < kDepth; ++k)
        stacks[i][depth++] = frames[k];
    depths[i] = (unsigned char)depth;
}

__attribute__((constructor)) static void start(void) {
    if (getenv("SAMPLER_OUT") == NULL)
        return;
    void *unused[2];
    backtrace(unused, 2);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = sample;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGPROF, &action, NULL);
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGPROF;
    event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    const char *period = getenv("SAMPLER_US");
    long us = period != NULL ? atol(period) : 300;
    if (us <= 0 || timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0) {
        perror("sampler: no timer");
        return;
    }
    struct itimerspec every = {{us / 1000000, us % 1000000 * 1000},
                               {us / 1000000, us % 1000000 * 1000}};
    timer_settime(timer, 0, &every, NULL);
    running = 1;
}

// Lines of the output: "M <line of /proc/self/maps>", "S <pc> <caller>...",
// and "D <pc> <symbol>" where dladdr names an exported symbol (for the
// libraries only the measured machine has, such as libcuda).
__attribute__((destructor)) static void stop(void) {
    if (!running)
        return;
    struct itimerspec off = {{0, 0}, {0, 0}};
    timer_settime(timer, 0, &off, NULL);
    FILE *out = fopen(getenv("SAMPLER_OUT"), "w");
    FILE *maps = fopen("/proc/self/maps", "r");
    if (out == NULL || maps == NULL) {
        perror("sampler: cannot write the samples");
        return;
    }
    char line[4096];
    while (fgets(line, sizeof line, maps) != NULL)
        fprintf(out, "M %s", line);
    fclose(maps);
    int n = taken < kMostSamples ? taken : kMostSamples;
    for (int i = 0; i < n; ++i) {
        fputc('S', out);
        for (int k = 0; k < depths[i]; ++k)
            fprintf(out, " %lx", (unsigned long)stacks[i][k]);
        fputc('\n', out);
    }
    // Each address once: an open-addressed set of those named so far (at
    // most 65535 of them; the rest go unnamed).
    static unsigned long named[1 << 16];
    unsigned count = 0;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < depths[i] && count < (1u << 16) - 1; ++k) {
            unsigned long pc = (unsigned long)stacks[i][k];
            unsigned slot = (unsigned)(pc * 0x9E3779B97F4A7C15ul >> 48);
            while (named[slot] != 0 && named[slot] != pc)
                slot = (slot + 1) & ((1 << 16) - 1);
            if (named[slot] == pc)
                continue;
            named[slot] = pc;
            ++count;
            Dl_info symbol;
            if (dladdr(stacks[i][k], &symbol) && symbol.dli_sname != NULL)
                fprintf(out, "D %lx %s\n", pc, symbol.dli_sname);
        }
    fclose(out);
}
