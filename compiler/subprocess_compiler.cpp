// The subprocess back end (IMEX_L0_COMPILER=subprocess): the naive pipeline
//   clang-15 -cc1 ... -O<n> -emit-llvm-bc | llvm-spirv-15 --spirv-max-version
// with the same headers, flags and validation as the in-process back end, but
// with clang's own -O<n> pipeline and without the legalisation passes. It is
// the test oracle (an independent path to compare results against) and a
// fallback when loading clang into the process is not wanted; kernels hit by
// translator 15 defects (see legalize.hpp) can fail here and succeed in-process.
#include "compiler.hpp"

#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "legalize.hpp"

extern char **environ;

namespace imex_l0::compiler {
namespace {

namespace fs = std::filesystem;

bool writeFile(const fs::path &path, std::string_view bytes) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out);
}

std::string readFile(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs argv in dir with stdout/stderr appended to logPath. Returns nothing
// when the tool ran and exited 0; otherwise what to add to the log: "" for a
// tool that reported its own errors there, an "error: ..." line for one that
// could not start or that a signal ended (a crash or failed assertion of the
// translator).
std::optional<std::string> run(const std::vector<std::string> &args, const fs::path &dir, const fs::path &logPath) {
    std::vector<char *> argv;
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
    posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return "error: could not run " + args[0] + ": " + std::strerror(rc) + "\n";
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return "error: lost " + args[0] + ": " + std::strerror(errno) + "\n";
    }
    if (WIFSIGNALED(status))
        return "error: internal compiler error: " + args[0] + " was ended by signal " +
               std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) +
               "); the output above is what it wrote before\n";
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return "";
    return std::nullopt;
}

std::string versionText(uint32_t version) {
    return std::to_string((version >> 16) & 0xff) + "." + std::to_string((version >> 8) & 0xff);
}

} // namespace

CompileResult compileSubprocess(const CompileRequest &request) {
    CompileResult result;
    char pattern[] = "/tmp/imex_l0_compile_XXXXXX";
    if (!mkdtemp(pattern)) {
        result.log = "error: cannot create a temporary directory for the subprocess compiler\n";
        return result;
    }
    fs::path dir = pattern;
    // The same layout as the in-process virtual directory: the main file and
    // the registry's headers side by side, the directory on the include path.
    for (const auto &[name, contents] : request.headers->headers)
        if (name != kMainFileName)
            writeFile(dir / name, contents);
    writeFile(dir / kMainFileName, request.source);
    writeFile(dir / kImplementationHeader, implementationHeader(request.spirvVersion));

    const BuildOptions &options = *request.options;
    std::vector<std::string> clang = {
        IMEX_L0_CLANG_PATH, "-cc1", "-triple", "spir64-unknown-unknown",
        "-cl-std=" + options.clStd, "-no-opaque-pointers",
        "-fdeclare-opencl-builtins", "-finclude-default-header",
        "-O" + std::to_string(options.optLevel),
        "-I", dir.string()};
    for (std::string &arg : implementationArguments(options))
        clang.push_back(std::move(arg));
    for (const std::string &inc : options.includeDirs) {
        clang.push_back("-I");
        clang.push_back(inc);
    }
    for (const std::string &arg : options.ccArgs)
        clang.push_back(arg);
    clang.insert(clang.end(), {"-emit-llvm-bc", "-o", "kernel.bc", "-x", "cl", kMainFileName});

    fs::path logPath = dir / "log.txt";
    std::optional<std::string> failure = run(clang, dir, logPath);
    if (!failure) {
        std::vector<std::string> translate = {IMEX_L0_LLVM_SPIRV_PATH,
                                              "--spirv-max-version=" +
                                                  versionText(request.spirvVersion),
                                              "kernel.bc", "-o", "kernel.spv"};
        failure = run(translate, dir, logPath);
    }
    result.log = readFile(logPath);
    if (!failure) {
        result.spirv = readFile(dir / "kernel.spv");
        std::string error =
            validateSpirv(result.spirv.data(), result.spirv.size(), request.spirvVersion);
        if (error.empty()) {
            result.ok = true;
        } else {
            result.log += "error: SPIR-V validation failed: " + error + "\n";
            result.spirv.clear();
        }
    } else {
        result.log += *failure;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return result;
}

} // namespace imex_l0::compiler
