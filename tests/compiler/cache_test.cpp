// The compiler's caches: memory (LRU, stats), disk (atomic entries, a
// corrupted entry is rebuilt, several processes share one directory) and the
// dump directory. Child processes (this binary re-run with a filter) start
// with an empty memory cache.
#include "compiler_test_util.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

using namespace imex_l0_test;

namespace {

std::string kernelNamed(const std::string &name) {
    return "kernel void " + name + "(global int *o) { o[get_global_id(0)] = 42; }\n";
}

std::vector<std::string> entries(const std::string &dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (auto &e : std::filesystem::directory_iterator(dir, ec))
        if (e.path().extension() == ".imex_l0_spirv")
            out.push_back(e.path().string());
    return out;
}

// The child's side: compile IMEX_L0_TEST_SOURCE with IMEX_L0_TEST_CACHE_DIR
// and exit with a code that tells the parent which level answered:
// 10 = disk hit, 11 = disk miss (built), anything else = failure. With
// IMEX_L0_TEST_EXPECT_ERROR the source must fail to compile; with
// IMEX_L0_TEST_COMPILE_TWICE it is compiled again, and the code is 12 if the
// memory level answered that, 13 if not.
int childCompile() {
    const char *source = std::getenv("IMEX_L0_TEST_SOURCE");
    const char *dir = std::getenv("IMEX_L0_TEST_CACHE_DIR");
    if (!source || !dir)
        return 2;
    char *error = nullptr;
    if (api().set_cache_dir(dir, &error) != imex_l0_success)
        return 3;
    const bool expectError = std::getenv("IMEX_L0_TEST_EXPECT_ERROR") != nullptr;
    Build b = compile(source);
    if (expectError ? b.status != imex_l0_compile_error || b.log.empty()
                    : b.status != imex_l0_success || !spirvVal(b.spirv).empty())
        return 4;
    if (std::getenv("IMEX_L0_TEST_COMPILE_TWICE")) {
        imex_l0_cache_stats_t before = stats();
        Build again = compile(source);
        if (again.status != b.status || again.log != b.log)
            return 6;
        return stats().memory_hits > before.memory_hits ? 12 : 13;
    }
    imex_l0_cache_stats_t s = stats();
    if (s.disk_hits == 1 && s.disk_misses == 0)
        return 10;
    if (s.disk_hits == 0 && s.disk_misses == 1)
        return 11;
    return 5;
}

} // namespace

// Not a test of its own: the body of the child processes below.
TEST(CacheChild, Compile) {
    if (!std::getenv("IMEX_L0_TEST_SOURCE"))
        GTEST_SKIP() << "runs only as a child of the cache tests";
    std::exit(childCompile());
}

TEST(MemoryCache, HitAfterMiss) {
    std::string src = kernelNamed(unique("memory_hit"));
    imex_l0_cache_stats_t s0 = stats();
    Build first = compile(src);
    ASSERT_EQ(first.status, imex_l0_success) << first.log;
    imex_l0_cache_stats_t s1 = stats();
    EXPECT_EQ(s1.memory_misses, s0.memory_misses + 1);
    EXPECT_EQ(s1.memory_hits, s0.memory_hits);
    Build second = compile(src);
    ASSERT_EQ(second.status, imex_l0_success);
    imex_l0_cache_stats_t s2 = stats();
    EXPECT_EQ(s2.memory_hits, s1.memory_hits + 1);
    EXPECT_EQ(s2.memory_misses, s1.memory_misses);
    EXPECT_EQ(first.spirv, second.spirv);
    // Every part of the key matters: options, defines, SPIR-V version.
    compile(src, "-DX=1");
    compile(src, "", {{"Y", "1"}});
    compile(src, "", {}, 0x00010100);
    EXPECT_EQ(stats().memory_misses, s2.memory_misses + 3);
    // The same define spelled as an option or as an imex_l0_define_t is the
    // same build.
    compile(src, "", {{"X", "1"}});
    EXPECT_EQ(stats().memory_misses, s2.memory_misses + 3);
}

// A failing source is not compiled again: the error and its log are cached.
TEST(MemoryCache, FailuresAreCachedWithTheirLog) {
    if (subprocessMode())
        GTEST_SKIP() << "the subprocess back end's failures may be its environment's: not cached";
    std::string src = "kernel void " + unique("broken") + "() { syntax error }";
    imex_l0_cache_stats_t s0 = stats();
    Build a = compile(src);
    Build b = compile(src);
    EXPECT_EQ(a.status, imex_l0_compile_error);
    EXPECT_EQ(b.status, imex_l0_compile_error);
    EXPECT_EQ(a.log, b.log);
    EXPECT_NE(b.log.find("error"), std::string::npos) << b.log;
    imex_l0_cache_stats_t s1 = stats();
    EXPECT_EQ(s1.memory_misses, s0.memory_misses + 1);
    EXPECT_EQ(s1.memory_hits, s0.memory_hits + 1);
}

TEST(DiskCache, FailuresAreStoredWithTheirLog) {
    if (subprocessMode())
        GTEST_SKIP() << "the subprocess back end's failures may be its environment's: not cached";
    TempDir dir;
    std::vector<std::string> env = {
        "IMEX_L0_TEST_SOURCE=kernel void " + unique("broken_disk") + "() { syntax error }",
        "IMEX_L0_TEST_CACHE_DIR=" + dir.path, "IMEX_L0_TEST_EXPECT_ERROR=1"};
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 11);
    ASSERT_EQ(entries(dir.path).size(), 1u);
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 10);
}

// The memory level is bounded by bytes too: an entry larger than the bound
// is not kept, so the second compile is built again.
TEST(MemoryCache, ByteBoundFromEnvironment) {
    TempDir dir;
    const std::string source = kernelNamed(unique("bytes"));
    std::vector<std::string> env = {"IMEX_L0_TEST_SOURCE=" + source,
                                    "IMEX_L0_TEST_CACHE_DIR=" + dir.path,
                                    "IMEX_L0_TEST_COMPILE_TWICE=1"};
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 12);
    env.push_back("IMEX_L0_COMPILER_CACHE_BYTES=64");
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 13);
}

TEST(DiskCache, SharedByTwoProcessesAndCorruptionIsRebuilt) {
    TempDir dir;
    std::string src = kernelNamed(unique("disk"));
    std::vector<std::string> env = {"IMEX_L0_TEST_SOURCE=" + src,
                                    "IMEX_L0_TEST_CACHE_DIR=" + dir.path};
    // The first process builds and writes the entry, the second reads it.
    ASSERT_EQ(runSelf("CacheChild.Compile", env), 11);
    ASSERT_EQ(entries(dir.path).size(), 1u);
    std::string entry = entries(dir.path)[0];
    std::string good = readFile(entry);
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 10);

    // Flipped payload byte: checksum mismatch -> rebuilt and rewritten.
    std::string flipped = good;
    flipped[flipped.size() - 5] ^= 0x5a;
    writeFile(entry, flipped);
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 11);
    EXPECT_EQ(readFile(entry), good);
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 10);

    // Truncated (a crash mid-write of a non-atomic writer), and garbage.
    writeFile(entry, good.substr(0, good.size() / 2));
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 11);
    writeFile(entry, "garbage");
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 11);
    writeFile(entry, "");
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 11);
    EXPECT_EQ(readFile(entry), good);
    // No temporary files are left behind.
    size_t files = 0;
    for (auto &e : std::filesystem::directory_iterator(dir.path))
        files += e.is_regular_file() ? 1 : 0;
    EXPECT_EQ(files, 1u);
}

TEST(DiskCache, InThisProcess) {
    TempDir dir;
    char *error = nullptr;
    ASSERT_EQ(api().set_cache_dir(dir.path.c_str(), &error), imex_l0_success);
    std::string src = kernelNamed(unique("disk_in_process"));
    imex_l0_cache_stats_t s0 = stats();
    ASSERT_EQ(compile(src).status, imex_l0_success);
    imex_l0_cache_stats_t s1 = stats();
    EXPECT_EQ(s1.disk_misses, s0.disk_misses + 1);
    EXPECT_EQ(entries(dir.path).size(), 1u);
    // A memory hit never reaches the disk.
    ASSERT_EQ(compile(src).status, imex_l0_success);
    EXPECT_EQ(stats().disk_hits, s1.disk_hits);
    EXPECT_EQ(stats().disk_misses, s1.disk_misses);
    ASSERT_EQ(api().set_cache_dir(nullptr, &error), imex_l0_success);
    // Disabled: no disk lookups.
    ASSERT_EQ(compile(kernelNamed(unique("no_disk"))).status, imex_l0_success);
    EXPECT_EQ(stats().disk_misses, s1.disk_misses);
    // A path that cannot be a directory is refused with a reason.
    std::string file = dir.path + "/plain_file";
    writeFile(file, "x");
    EXPECT_EQ(api().set_cache_dir(file.c_str(), &error), imex_l0_invalid_arguments);
    ASSERT_NE(error, nullptr);
    std::free(error);
}

TEST(DiskCache, SizeBoundEvictsOldest) {
    TempDir dir;
    // A child with a small bound: every entry is ~1-2 KB, the bound 6 KB.
    for (int i = 0; i < 12; ++i) {
        std::vector<std::string> env = {"IMEX_L0_TEST_SOURCE=" + kernelNamed(unique("bound")),
                                        "IMEX_L0_TEST_CACHE_DIR=" + dir.path,
                                        "IMEX_L0_CACHE_DIR_MAX_BYTES=6000"};
        ASSERT_EQ(runSelf("CacheChild.Compile", env), 11);
    }
    uint64_t total = 0;
    for (const std::string &e : entries(dir.path))
        total += std::filesystem::file_size(e);
    EXPECT_LE(total, 6000u);
    EXPECT_GE(entries(dir.path).size(), 1u);
}

TEST(DumpDir, WritesSourceOptionsAndSpirv) {
    TempDir dir;
    std::string kernel = unique("dumped");
    std::string src = kernelNamed(kernel);
    TempDir cache;
    std::vector<std::string> env = {"IMEX_L0_TEST_SOURCE=" + src,
                                    "IMEX_L0_TEST_CACHE_DIR=" + cache.path,
                                    "IMEX_L0_DUMP_DIR=" + dir.path};
    ASSERT_EQ(runSelf("CacheChild.Compile", env), 11);
    std::vector<std::string> names;
    for (auto &e : std::filesystem::directory_iterator(dir.path))
        names.push_back(e.path().extension().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{".cl", ".i", ".log", ".options", ".spv"}));
    for (auto &e : std::filesystem::directory_iterator(dir.path)) {
        // Named after the source's kernel, then the key.
        EXPECT_EQ(e.path().filename().string().rfind(kernel + "-", 0), 0u) << e.path();
        if (e.path().extension() == ".cl")
            EXPECT_EQ(readFile(e.path().string()), src);
        if (e.path().extension() == ".options")
            EXPECT_NE(readFile(e.path().string()).find("-cl-std=CL1.2"), std::string::npos);
        if (e.path().extension() == ".i")
            EXPECT_NE(readFile(e.path().string()).find("o[get_global_id(0)] = 42"),
                      std::string::npos);
        if (e.path().extension() == ".spv")
            EXPECT_EQ(spirvVal(readFile(e.path().string())), "");
    }
}

TEST(MemoryCache, CapacityFromEnvironment) {
    // IMEX_L0_COMPILER_CACHE_ENTRIES=0 disables the memory level: the second
    // compile in the child goes to the disk.
    TempDir dir;
    std::vector<std::string> env = {"IMEX_L0_TEST_SOURCE=" + kernelNamed(unique("cap")),
                                    "IMEX_L0_TEST_CACHE_DIR=" + dir.path,
                                    "IMEX_L0_COMPILER_CACHE_ENTRIES=0"};
    EXPECT_EQ(runSelf("CacheChild.Compile", env), 11);
}

TEST(MemoryCache, IncludeDirectoryHeaderChangeIsAMiss) {
    // Headers under -I directories are keyed through the preprocessed source.
    TempDir dir;
    std::string header = dir.path + "/" + unique("value") + ".h";
    std::string name = header.substr(dir.path.size() + 1);
    std::string src = "#include \"" + name + "\"\nkernel void k(global int *o) { o[0] = VALUE; }";
    std::string option = "-I " + dir.path;
    writeFile(header, "#define VALUE 1\n");
    imex_l0_cache_stats_t s0 = stats();
    Build a = compile(src, option.c_str());
    Build b = compile(src, option.c_str());
    ASSERT_EQ(a.status, imex_l0_success) << a.log;
    imex_l0_cache_stats_t s1 = stats();
    EXPECT_EQ(s1.memory_misses, s0.memory_misses + 1);
    EXPECT_EQ(s1.memory_hits, s0.memory_hits + 1);
    writeFile(header, "#define VALUE 2\n");
    Build c = compile(src, option.c_str());
    ASSERT_EQ(c.status, imex_l0_success) << c.log;
    EXPECT_EQ(stats().memory_misses, s1.memory_misses + 1);
    EXPECT_NE(a.spirv, c.spirv);
}
