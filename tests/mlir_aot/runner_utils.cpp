// The printing functions MLIR's end-to-end programs call (from MLIR's
// runner utilities), for programs lowered ahead of time and run where
// MLIR's own libraries are not installed (libmlir_c_runner_utils.so needs
// libMLIR and libLLVM 22). The memref printers are MLIR's header templates
// (RunnerUtils.h), so the output is exactly mlir-runner-22's.
#include <mlir/ExecutionEngine/RunnerUtils.h>

#include <cinttypes>
#include <cstdio>

namespace {

template <typename T> void printUnranked(int64_t rank, void *descriptor) {
    // Memref output is C++ stream output, scalars C stdio: the two stay in
    // order as in MLIR's runtime, where std::cout is synced with stdio.
    UnrankedMemRefType<T> memref = {rank, descriptor};
    impl::printMemRef(memref);
}

} // namespace

extern "C" {

void printMemrefF32(int64_t rank, void *descriptor) { printUnranked<float>(rank, descriptor); }
void printMemrefI32(int64_t rank, void *descriptor) { printUnranked<int32_t>(rank, descriptor); }
void printMemrefI64(int64_t rank, void *descriptor) { printUnranked<int64_t>(rank, descriptor); }
// The same, as functions compiled with llvm-request-c-wrappers call them.
void _mlir_ciface_printMemrefF32(UnrankedMemRefType<float> *m) { impl::printMemRef(*m); }
void _mlir_ciface_printMemrefI32(UnrankedMemRefType<int32_t> *m) { impl::printMemRef(*m); }
void _mlir_ciface_printMemrefI64(UnrankedMemRefType<int64_t> *m) { impl::printMemRef(*m); }
void printF32(float value) { std::fprintf(stdout, "%g", value); }
void printI64(int64_t value) { std::fprintf(stdout, "%" PRId64, value); }
void printNewline() { std::fputc('\n', stdout); }

} // extern "C"
