#include "dump.hpp"

#include <filesystem>
#include <fstream>

namespace imex_l0::compiler {
namespace {

void writeFile(const std::string &path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

} // namespace

void dumpBuild(const std::string &dir, const std::string &keyHex, const CompileRequest &request,
               const CompileResult &result) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::string base = dir + "/" + keyHex.substr(0, 16);
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
