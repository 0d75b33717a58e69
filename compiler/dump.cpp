#include "dump.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>

namespace imex_l0::compiler {
namespace {

// The first kernel the source defines ("kernel void NAME(" or with __kernel),
// to name the dump after; empty if there is none.
std::string firstKernelName(std::string_view source) {
    for (std::string_view keyword : {"__kernel", "kernel"}) {
        for (size_t at = source.find(keyword); at != std::string_view::npos;
             at = source.find(keyword, at + 1)) {
            bool startsWord = at == 0 || !(std::isalnum(static_cast<unsigned char>(source[at - 1])) ||
                                           source[at - 1] == '_');
            size_t p = at + keyword.size();
            if (!startsWord || p >= source.size() || !std::isspace(static_cast<unsigned char>(source[p])))
                continue;
            while (p < source.size() && std::isspace(static_cast<unsigned char>(source[p])))
                ++p;
            if (source.substr(p, 4) != "void")
                continue;
            p += 4;
            while (p < source.size() && std::isspace(static_cast<unsigned char>(source[p])))
                ++p;
            size_t end = p;
            while (end < source.size() &&
                   (std::isalnum(static_cast<unsigned char>(source[end])) || source[end] == '_'))
                ++end;
            if (end > p)
                return std::string(source.substr(p, end - p));
        }
    }
    return {};
}

void writeFile(const std::string &path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

} // namespace

void dumpBuild(const std::string &dir, const std::string &keyHex, const CompileRequest &request,
               const CompileResult &result) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    // <first kernel>-<key>: findable by kernel name, unique by content.
    std::string kernel = firstKernelName(request.source);
    std::string base = dir + "/" + (kernel.empty() ? "" : kernel + "-") + keyHex.substr(0, 16);
    writeFile(base + ".cl", request.source);
    // The processed source: what clang compiled after #include and macros.
    if (std::optional<std::string> processed = preprocessInProcess(request))
        writeFile(base + ".i", *processed);
    std::string options = request.options->canonical() + "\n";
    char version[32];
    snprintf(version, sizeof version, "0x%08x", request.spirvVersion);
    options += std::string("spirv-max-version ") + version + "\n";
    options += std::string("identity ") + identity() + "\n";
    for (const auto &entry : request.headers->headers)
        options += "header " + entry.first + "\n";
    writeFile(base + ".options", options);
    writeFile(base + ".log", result.log);
    if (result.ok)
        writeFile(base + ".spv", result.spirv);
}

} // namespace imex_l0::compiler
