#include "compiler_test_util.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char **environ;

namespace imex_l0_test {

std::string unique(const std::string &tag) {
    static std::atomic<int> counter{0};
    return tag + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
}

std::string readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const std::string &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

TempDir::TempDir() {
    char pattern[] = "/tmp/imex_l0_compiler_test_XXXXXX";
    path = mkdtemp(pattern) ? pattern : "";
}

TempDir::~TempDir() {
    std::error_code ec;
    if (!path.empty())
        std::filesystem::remove_all(path, ec);
}

static int spawnAndWait(const std::vector<std::string> &args, const std::vector<std::string> &env,
                        const std::string &outputPath) {
    std::vector<char *> argv;
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<std::string> envStrings;
    for (char **e = environ; *e; ++e)
        envStrings.push_back(*e);
    for (const std::string &e : env)
        envStrings.push_back(e);
    std::vector<char *> envp;
    for (std::string &e : envStrings)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!outputPath.empty()) {
        posix_spawn_file_actions_addopen(&actions, 1, outputPath.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
    }
    pid_t pid = 0;
    int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string spirvVal(const std::string &spirv, const char *env) {
    TempDir dir;
    std::string path = dir.path + "/module.spv";
    std::string out = dir.path + "/out.txt";
    writeFile(path, spirv);
    int rc = spawnAndWait({IMEX_L0_SPIRV_VAL_PATH, "--target-env", env, path}, {}, out);
    return rc == 0 ? std::string() : "spirv-val exit " + std::to_string(rc) + ": " + readFile(out);
}

int runSelf(const std::string &filter, const std::vector<std::string> &env) {
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    return spawnAndWait({self, "--gtest_filter=" + filter}, env, "");
}

} // namespace imex_l0_test
