// Every function the public headers declare with IMEX_L0_API (or
// IMEX_GPU_API, the gpu* wrappers' shared header) is exported by
// libimex_l0_interop.so. The headers are parsed at test time, so a function
// added to a header without being exported (hidden visibility, a typo, a
// missing definition in a file not compiled) fails here.
#include "imex_gpu_runtime.h"
#include "imex_l0_interop.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdio>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string readHeader(const char *path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Removes comments and preprocessor lines (e.g. "#define IMEX_L0_API ...",
// whose __attribute__(...) would otherwise look like a declaration).
std::string stripNonDeclarations(const std::string &text) {
    std::string noBlock = std::regex_replace(text, std::regex(R"(/\*[\s\S]*?\*/)"), " ");
    std::string noLine = std::regex_replace(noBlock, std::regex(R"(//[^\n]*)"), " ");
    return std::regex_replace(noLine, std::regex(R"((^|\n)[ \t]*#[^\n]*)"), "\n");
}

// The names of every `IMEX_L0_API <return type> name(` (or IMEX_GPU_API)
// declaration, which may span lines.
std::set<std::string> declaredFunctions(const char *path) {
    std::string text = stripNonDeclarations(readHeader(path));
    std::set<std::string> names;
    std::regex declaration(R"(IMEX_(?:L0|GPU)_API\s+[^;(]*?\b([A-Za-z_]\w*)\s*\()");
    for (std::sregex_iterator it(text.begin(), text.end(), declaration), end; it != end; ++it)
        names.insert((*it)[1].str());
    return names;
}

// The Level Zero flavour's gpu* functions: its header and the shared one.
std::set<std::string> gpuRuntimeFunctions() {
    std::set<std::string> names = declaredFunctions(INTEROP_HEADER_GPU_RUNTIME);
    for (const auto &n : declaredFunctions(INTEROP_HEADER_GPU_ABI))
        names.insert(n);
    return names;
}

void expectExported(const std::set<std::string> &names) {
    for (const auto &name : names)
        EXPECT_NE(dlsym(RTLD_DEFAULT, name.c_str()), nullptr)
            << name << " is declared IMEX_L0_API but not exported";
}

TEST(ExportsTest, InteropHeaderSymbolsAreExported) {
    // Keeps the library linked even under --as-needed: a real reference.
    ASSERT_NE(imex_l0_status_str(imex_l0_success), nullptr);
    std::set<std::string> names = declaredFunctions(INTEROP_HEADER_INTEROP);
    // The parser found the API (not an empty or unreadable header).
    ASSERT_GE(names.size(), 35u);
    for (const char *known : {"imex_l0_interop_engine_create", "imex_l0_interop_kernel_execute",
                              "imex_l0_event_release", "imex_l0_free", "imex_l0_status_str",
                              "imex_l0_interop_stream_create_regular", "imex_l0_get_cache_stats"})
        EXPECT_TRUE(names.count(known)) << known << " not found by the header parser";
    expectExported(names);
}

TEST(ExportsTest, GpuRuntimeHeaderSymbolsAreExported) {
    ASSERT_NE(imex_l0_status_str(imex_l0_success), nullptr);
    std::set<std::string> names = gpuRuntimeFunctions();
    ASSERT_GE(names.size(), 10u);
    for (const char *known : {"gpuCreateStream", "gpuStreamDestroy", "gpuDestroyStream",
                              "gpuMemAlloc", "gpuMemFree", "gpuModuleLoad", "gpuModuleUnload", "gpuKernelGet",
                              "gpuLaunchKernel", "gpuWait", "gpuRecordEvent", "gpuWaitEvents", "gpuMemFill",
                              "gpuCreateDevice", "gpuCreateContext", "gpuDestroyContext",
                              "gpuSetErrorHandler"})
        EXPECT_TRUE(names.count(known)) << known << " not found by the header parser";
    expectExported(names);
}

TEST(ExportsTest, ExportedSymbolsComeFromTheLibrary) {
    // dlsym(RTLD_DEFAULT) could find a same-named symbol elsewhere; check
    // that each resolves inside libimex_l0_interop.so.
    ASSERT_NE(imex_l0_status_str(imex_l0_success), nullptr);
    std::set<std::string> names = declaredFunctions(INTEROP_HEADER_INTEROP);
    for (const auto &n : gpuRuntimeFunctions())
        names.insert(n);
    for (const auto &name : names) {
        void *symbol = dlsym(RTLD_DEFAULT, name.c_str());
        if (!symbol)
            continue; // reported by the tests above
        Dl_info info{};
        ASSERT_NE(dladdr(symbol, &info), 0) << name;
        ASSERT_NE(info.dli_fname, nullptr) << name;
        EXPECT_NE(std::string(info.dli_fname).find("libimex_l0_interop.so"), std::string::npos)
            << name << " resolves to " << info.dli_fname;
    }
}

// The strong function symbols in a library's dynamic symbol table (weak ones
// are standard-library template instances, which libstdc++ marks visible
// whatever the library's visibility settings); empty when nm is missing.
std::set<std::string> exportedFunctions(const char *library) {
    std::string command = std::string("nm -D --defined-only ") + library + " 2>/dev/null";
    FILE *nm = popen(command.c_str(), "r");
    std::set<std::string> names;
    if (!nm)
        return names;
    std::string listing;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, nm))
        listing.append(buffer, n);
    if (pclose(nm) != 0)
        return {};
    std::istringstream lines(listing);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string address, type, name;
        if ((fields >> address >> type >> name) && type == "T")
            names.insert(name);
    }
    return names;
}

TEST(ExportsTest, NoUndocumentedFunctionIsExported) {
    // The other direction: every function the library exports is declared in
    // a public header, or is imex_l0_mgpu_table, the internal interface that
    // libimex_l0_mlir_runtime.so calls (src/mlir_runtime/mgpu_table.h).
    std::set<std::string> exported = exportedFunctions(INTEROP_LIBRARY);
    if (exported.empty())
        GTEST_SKIP() << "nm is not available to list the library's symbols";
    std::set<std::string> documented = declaredFunctions(INTEROP_HEADER_INTEROP);
    for (const auto &n : gpuRuntimeFunctions())
        documented.insert(n);
    for (const auto &n : declaredFunctions(INTEROP_MGPU_TABLE_HEADER))
        documented.insert(n);
    for (const auto &name : exported)
        EXPECT_TRUE(documented.count(name)) << name << " is exported but not in a public header";
    EXPECT_GE(exported.size(), documented.size());
}

TEST(ExportsTest, MlirRuntimeExportsExactlyItsHeader) {
    // libimex_l0_mlir_runtime.so: MLIR's mgpu* names and the binding calls,
    // all of them and nothing else (no mgpu* symbol in the interop library).
    std::set<std::string> exported = exportedFunctions(MLIR_RUNTIME_LIBRARY);
    if (exported.empty())
        GTEST_SKIP() << "nm is not available to list the library's symbols";
    std::set<std::string> declared = declaredFunctions(MLIR_RUNTIME_HEADER);
    EXPECT_GE(declared.size(), 20u);
    EXPECT_EQ(exported, declared);
    for (const auto &name : exportedFunctions(INTEROP_LIBRARY))
        EXPECT_NE(name.rfind("mgpu", 0), 0u) << name << " is exported by the interop library";
}

TEST(ExportsTest, SyclFlavourExportsExactlyItsHeaders) {
#ifdef GPU_SYCL_LIBRARY
    // libimex_gpu_sycl.so: the SYCL flavour's gpu* names, all and only them.
    std::set<std::string> exported = exportedFunctions(GPU_SYCL_LIBRARY);
    if (exported.empty())
        GTEST_SKIP() << "nm is not available to list the library's symbols";
    std::set<std::string> declared = declaredFunctions(GPU_SYCL_HEADER);
    for (const auto &n : declaredFunctions(INTEROP_HEADER_GPU_ABI))
        declared.insert(n);
    EXPECT_GE(declared.size(), 20u);
    EXPECT_EQ(exported, declared);
#else
    GTEST_SKIP() << "the SYCL flavour is not built (IMEX_L0_BUILD_SYCL)";
#endif
}

} // namespace
