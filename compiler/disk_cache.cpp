#include "disk_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <vector>

namespace imex_l0::compiler {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'I', 'M', 'X', 'L', '0', 'S', 'P', 'V'};
// 2: failed builds are stored too (no SPIR-V, the log); format 1 held
// successes only, and a reader of it would take a failure for one.
constexpr uint32_t kFormat = 2;
constexpr const char *kSuffix = ".imex_l0_spirv";

bool readAll(int fd, std::string &out) {
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 0)
        return false;
    out.resize(size_t(st.st_size));
    size_t done = 0;
    while (done < out.size()) {
        ssize_t n = ::read(fd, &out[done], out.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += size_t(n);
    }
    return true;
}

bool writeAll(int fd, const char *data, size_t size) {
    while (size > 0) {
        ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

} // namespace

std::string DiskCache::setDirectory(const std::string &dir) {
    if (!dir.empty()) {
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec || !fs::is_directory(dir, ec))
            return "cannot create the cache directory '" + dir + "': " + ec.message();
        if (access(dir.c_str(), R_OK | W_OK | X_OK) != 0)
            return "the cache directory '" + dir + "' is not writable";
    }
    std::lock_guard<std::mutex> lock(mutex_);
    dir_ = dir;
    return {};
}

std::string DiskCache::directory() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return dir_;
}

bool DiskCache::enabled() const { return !directory().empty(); }

std::string DiskCache::entryPath(const Digest &key) const {
    std::string dir = directory();
    return dir.empty() ? std::string() : dir + "/" + toHex(key) + kSuffix;
}

std::optional<CompileResult> DiskCache::load(const Digest &key) {
    std::string path = entryPath(key);
    if (path.empty())
        return std::nullopt;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    std::string bytes;
    bool read = readAll(fd, bytes);
    ::close(fd);

    DiskCacheHeader h;
    bool valid = read && bytes.size() >= sizeof h;
    if (valid) {
        std::memcpy(&h, bytes.data(), sizeof h);
        valid = std::memcmp(h.magic, kMagic, sizeof kMagic) == 0 && h.format == kFormat &&
                std::memcmp(h.key, key.data(), 32) == 0 &&
                h.spirvSize <= bytes.size() && h.logSize <= bytes.size() &&
                sizeof h + h.spirvSize + h.logSize == bytes.size();
    }
    if (valid) {
        Digest sum = sha256(std::string_view(bytes).substr(sizeof h));
        valid = std::memcmp(sum.data(), h.checksum, 32) == 0;
    }
    if (!valid) {
        // Truncated by a crash, written by another format, or damaged: drop
        // it so the rebuild can write a good one.
        ::unlink(path.c_str());
        return std::nullopt;
    }
    // The modification time is the LRU clock for eviction.
    utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
    CompileResult result;
    result.ok = h.spirvSize > 0; // every module has at least its header
    result.spirv = bytes.substr(sizeof h, h.spirvSize);
    result.log = bytes.substr(sizeof h + h.spirvSize);
    return result;
}

void DiskCache::store(const Digest &key, const CompileResult &result) {
    std::string dir = directory();
    if (dir.empty() || !result.reproducible || (result.ok && result.spirv.empty()))
        return;
    DiskCacheHeader h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.format = kFormat;
    h.spirvSize = result.spirv.size();
    h.logSize = result.log.size();
    std::memcpy(h.key, key.data(), 32);
    std::string payload = result.spirv + result.log;
    Digest sum = sha256(payload);
    std::memcpy(h.checksum, sum.data(), 32);

    // Unique per process and per call, so concurrent writers never share a
    // temporary file; rename() makes the entry appear whole.
    static std::atomic<uint64_t> counter{0};
    std::string finalPath = dir + "/" + toHex(key) + kSuffix;
    std::string tempPath = dir + "/.tmp." + toHex(key).substr(0, 16) + "." +
                           std::to_string(getpid()) + "." + std::to_string(counter++);
    int fd = ::open(tempPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    bool ok = writeAll(fd, reinterpret_cast<const char *>(&h), sizeof h) &&
              writeAll(fd, payload.data(), payload.size());
    ok = (::close(fd) == 0) && ok;
    if (!ok || ::rename(tempPath.c_str(), finalPath.c_str()) != 0) {
        ::unlink(tempPath.c_str());
        return;
    }
    evictBeyondBound(dir);
}

void DiskCache::evictBeyondBound(const std::string &dir) {
    struct Entry {
        fs::path path;
        uint64_t size;
        fs::file_time_type time;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    std::error_code ec;
    auto now = fs::file_time_type::clock::now();
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path &p = it->path();
        std::string name = p.filename().string();
        std::error_code e;
        auto time = fs::last_write_time(p, e);
        if (e)
            continue;
        if (name.rfind(".tmp.", 0) == 0) {
            // A writer that died between open() and rename().
            if (now - time > std::chrono::hours(1))
                fs::remove(p, e);
            continue;
        }
        if (p.extension() != kSuffix)
            continue;
        uint64_t size = fs::file_size(p, e);
        if (e)
            continue;
        entries.push_back({p, size, time});
        total += size;
    }
    if (total <= maxBytes_)
        return;
    std::sort(entries.begin(), entries.end(),
              [](const Entry &a, const Entry &b) { return a.time < b.time; });
    // Down to 90% of the bound, so the next store does not scan again at once.
    uint64_t target = maxBytes_ / 10 * 9;
    for (const Entry &e : entries) {
        if (total <= target)
            break;
        std::error_code rmError;
        // Another process may have evicted it already; a reader that has it
        // open keeps its data.
        fs::remove(e.path, rmError);
        total -= e.size;
    }
}

} // namespace imex_l0::compiler
