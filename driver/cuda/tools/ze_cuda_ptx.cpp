// ze_cuda_ptx <in.spv> [out.ptx [build flags]] [-- LLVM options]: SPIR-V to
// PTX as libze_cuda.so's zeModuleCreate translates it (with those build
// flags, as one string); the log goes to stderr. What follows `--` goes to
// LLVM's option parser, for looking into the translation
// (-print-after=loop-unroll, -print-module-scope, -debug-only=... in a debug
// LLVM). Exit status 0 on success, 1 when the translation fails, 2 on a
// usage or file error.
#include "ptx_translator.hpp"

#include <llvm/Support/CommandLine.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--") {
            std::vector<const char *> llvmArgs = {argv[0]};
            llvmArgs.insert(llvmArgs.end(), argv + i + 1, argv + argc);
            llvm::cl::ParseCommandLineOptions(int(llvmArgs.size()), llvmArgs.data());
            argc = i;
            break;
        }
    if (argc < 2 || argc > 4) {
        std::fprintf(stderr, "usage: %s <in.spv> [out.ptx [build flags]] [-- LLVM options]\n",
                     argv[0]);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 2;
    }
    std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    ze_cuda::PtxModule ptx;
    std::string log;
    ze_result_t result = ze_cuda::translateSpirvToPtx(
        spirv.data(), spirv.size(), {}, &ptx, &log,
        ze_cuda::parseMathOptions(argc == 4 ? argv[3] : ""));
    std::fputs(log.c_str(), stderr);
    if (result != ZE_RESULT_SUCCESS)
        return 1;
    if (argc >= 3) {
        std::ofstream out(argv[2], std::ios::binary);
        out << ptx.ptx;
        return out ? 0 : 2;
    }
    std::fputs(ptx.ptx.c_str(), stdout);
    return 0;
}
