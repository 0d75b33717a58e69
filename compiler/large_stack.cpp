#include "large_stack.hpp"

#include "config.hpp"

#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <vector>

namespace imex_l0::compiler {
namespace {

// The signal handlers' own stack on a compile thread: what a handler needs
// when the thread's stack is exhausted.
constexpr size_t kAlternateStackBytes = 256 << 10;

// A thread with a large stack that runs one job at a time and then waits for
// the next. Making one costs about 150 us (mapping the stack, faulting in the
// pages a compile touches), 10% of a small compile, so they are kept: one
// per compile that ran concurrently at some point, for the process's life.
class Worker {
public:
    // The thread that serves this worker (never read by that thread).
    void setThread(pthread_t thread) { thread_ = thread; }

    // Runs job on this worker and returns when it is done. The worker runs
    // on the caller's CPU, which the caller leaves while it waits: on
    // another one the compile would start with cold caches (measured: a
    // small compile 20% slower).
    void run(llvm::function_ref<void()> job) {
        int cpu = sched_getcpu();
        if (cpu >= 0 && cpu != cpu_) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            if (pthread_setaffinity_np(thread_, sizeof set, &set) == 0)
                cpu_ = cpu;
        }
        std::unique_lock<std::mutex> lock(mutex_);
        job_ = &job;
        wake_.notify_one();
        done_.wait(lock, [&] { return job_ == nullptr; });
    }

    static void *main(void *self) {
        auto *worker = static_cast<Worker *>(self);
        worker->installAlternateStack();
        worker->serve();
        return nullptr;
    }

private:
    void installAlternateStack() {
        // Never freed: the thread lives as long as the process. Kept here
        // too, where leak checkers see it is still in use.
        alternate_ = std::malloc(kAlternateStackBytes);
        if (alternate_) {
            stack_t ss{};
            ss.ss_sp = alternate_;
            ss.ss_size = kAlternateStackBytes;
            sigaltstack(&ss, nullptr);
        }
    }

    void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return job_ != nullptr; });
            (*job_)(); // does not throw: runOnLargeStack's job catches
            job_ = nullptr;
            done_.notify_one();
        }
    }

    pthread_t thread_{};
    void *alternate_ = nullptr; // the thread's alternate signal stack
    int cpu_ = -1; // the CPU the worker is bound to
    std::mutex mutex_; // guards job_
    std::condition_variable wake_, done_;
    llvm::function_ref<void()> *job_ = nullptr;
};

std::mutex idleMutex; // guards idle
// Leaked with their threads: a static destructor must not run while a worker
// waits on its condition variable at exit.
std::vector<Worker *> &idle = *new std::vector<Worker *>;

// An idle worker, or a new one; null if no thread can be made.
Worker *takeWorker() {
    {
        std::lock_guard<std::mutex> lock(idleMutex);
        if (!idle.empty()) {
            Worker *w = idle.back();
            idle.pop_back();
            return w;
        }
        idle.reserve(idle.size() + 1); // so giving it back cannot fail
    }
    auto *w = new Worker;
    pthread_attr_t attr;
    bool made = false;
    if (pthread_attr_init(&attr) == 0) {
        pthread_t thread;
        made = pthread_attr_setstacksize(&attr, size_t(config().stackBytes)) == 0 &&
               pthread_create(&thread, &attr, Worker::main, w) == 0;
        if (made) {
            pthread_detach(thread);
            w->setThread(thread);
        }
        pthread_attr_destroy(&attr);
    }
    if (!made) {
        delete w;
        return nullptr;
    }
    return w;
}

} // namespace

void runOnLargeStack(llvm::function_ref<void()> body) {
    std::exception_ptr failure;
    auto job = [&] {
        try {
            body();
        } catch (...) {
            failure = std::current_exception();
        }
    };
    if (Worker *w = takeWorker()) {
        w->run(job);
        std::lock_guard<std::mutex> lock(idleMutex);
        idle.push_back(w);
    } else {
        job(); // no thread (resource limits): the caller's stack
    }
    if (failure)
        std::rethrow_exception(failure);
}

void crashHandlersOnAlternateStack() {
    for (int signal : {SIGSEGV, SIGBUS}) {
        struct sigaction action {};
        if (sigaction(signal, nullptr, &action) != 0 || action.sa_handler == SIG_DFL ||
            action.sa_handler == SIG_IGN)
            continue;
        action.sa_flags |= SA_ONSTACK;
        sigaction(signal, &action, nullptr);
    }
}

} // namespace imex_l0::compiler
