#include "service.hpp"

#include "config.hpp"
#include "dump.hpp"
#include "hash.hpp"
#include "large_stack.hpp"

namespace imex_l0::compiler {
namespace {

std::shared_ptr<CompileResult> failure(std::string log) {
    auto r = std::make_shared<CompileResult>();
    r->log = std::move(log);
    return r;
}

void appendField(std::string &key, std::string_view field) {
    uint64_t size = field.size();
    key.append(reinterpret_cast<const char *>(&size), sizeof size);
    key.append(field.data(), field.size());
}

} // namespace

Service &Service::instance() {
    static Service service;
    return service;
}

Service::Service()
    : memory_(config().cacheEntries, config().cacheBytes), disk_(config().cacheDirMaxBytes) {
    if (!config().cacheDir.empty())
        disk_.setDirectory(config().cacheDir); // an unusable directory leaves it off
}

void Service::stats(imex_l0_cache_stats_t *out) const {
    out->memory_hits = memoryHits_.load();
    out->memory_misses = memoryMisses_.load();
    out->disk_hits = diskHits_.load();
    out->disk_misses = diskMisses_.load();
}

Service::Outcome Service::compile(std::string_view source, const char *optionText,
                                  size_t ndefines, const imex_l0_define_t *defines,
                                  size_t nheaders, const imex_l0_header_t *headers,
                                  uint32_t spirvVersion) {
    if (spirvVersion == 0)
        spirvVersion = 0x00010200;
    if (spirvVersion < 0x00010000 || spirvVersion > 0x00010400 || (spirvVersion & 0xffff00ffu) != 0x00010000u)
        return {imex_l0_invalid_arguments,
                failure("error: unsupported SPIR-V version (1.0 to 1.4 are supported)\n")};
    BuildOptions options = parseBuildOptions(optionText, ndefines, defines);
    if (!options.error.empty())
        return {imex_l0_compile_error, failure("error: " + options.error + "\n")};

    CompileRequest request;
    request.source = source;
    request.options = &options;
    if (nheaders == 0) {
        request.headers = HeaderRegistry::instance().snapshot();
    } else {
        std::vector<std::pair<std::string, std::string>> own;
        for (size_t i = 0; i < nheaders; ++i) {
            if (!headers[i].name || !headers[i].contents)
                return {imex_l0_invalid_arguments,
                        failure("error: headers[" + std::to_string(i) +
                                "] has a NULL name or contents\n")};
            own.emplace_back(headers[i].name, headers[i].contents);
        }
        std::string why;
        request.headers = HeaderRegistry::instance().snapshotWith(own, &why);
        if (!request.headers)
            return {imex_l0_invalid_arguments, failure("error: " + why + "\n")};
    }
    request.spirvVersion = spirvVersion;

    // After an in-process compile crashed, the rest go through the
    // subprocess compiler (compiler.hpp), and their logs say so.
    const bool untrusted = config().mode != "subprocess" && !inProcessTrusted();
    const bool subprocess = config().mode == "subprocess" || untrusted;
    // Everything that decides the output, each field length-prefixed. The
    // digest of the registry's headers the source includes stands for them.
    std::string key = "imex_l0 compiler key 1";
    appendField(key, identity());
    appendField(key, subprocess ? "subprocess" : "inprocess");
    appendField(key, std::to_string(spirvVersion));
    appendField(key, options.canonical());
    Digest included = includedHeadersDigest(source, *request.headers);
    appendField(key, std::string_view(reinterpret_cast<const char *>(included.data()),
                                      included.size()));
    // Files under user -I directories are outside the registry digest: for
    // such builds the key holds the preprocessed source, which contains them.
    // If preprocessing fails the build runs uncached and reports the error.
    bool cacheable = true;
    if (options.includeDirs.empty()) {
        appendField(key, source);
    } else {
        std::optional<std::string> preprocessed;
        runOnLargeStack([&] { preprocessed = preprocessInProcess(request); });
        if (preprocessed)
            appendField(key, *preprocessed);
        else
            cacheable = false;
    }

    auto buildOnce = [&]() -> MemoryCache::Result {
        Digest digest = sha256(key);
        const bool diskUsable = cacheable && disk_.enabled();
        if (diskUsable) {
            if (std::optional<CompileResult> cached = disk_.load(digest)) {
                ++diskHits_;
                return std::make_shared<CompileResult>(std::move(*cached));
            }
            ++diskMisses_;
        }
        auto result = std::make_shared<CompileResult>();
        if (subprocess)
            *result = compileSubprocess(request);
        else
            runOnLargeStack([&] { *result = compileInProcess(request); });
        // The subprocess compiler's failures may be its environment's (no
        // clang-15 on PATH, a killed child): not kept.
        if (subprocess && !result->ok)
            result->reproducible = false;
        result->log.insert(0, options.warnings);
        if (untrusted)
            result->log.insert(0, "note: an in-process compile crashed earlier in this process; "
                                  "this one ran in the subprocess compiler\n");
        if (!config().dumpDir.empty())
            dumpBuild(config().dumpDir, toHex(digest), request, *result);
        if (diskUsable)
            disk_.store(digest, *result);
        return result;
    };
    // The memory cache's waiters depend on build never throwing.
    auto build = [&]() -> MemoryCache::Result {
        std::shared_ptr<CompileResult> failed;
        try {
            return buildOnce();
        } catch (const std::bad_alloc &) {
            failed = failure("error: out of memory while compiling\n");
        } catch (const std::exception &e) {
            failed = failure(std::string("error: internal compiler error: ") + e.what() + "\n");
        } catch (...) {
            failed = failure("error: internal compiler error\n");
        }
        failed->reproducible = false;
        return failed;
    };

    MemoryCache::Result result;
    if (!cacheable) {
        ++memoryMisses_;
        result = build();
    } else {
        bool hit = false;
        result = memory_.getOrBuild(key, build, &hit);
        ++(hit ? memoryHits_ : memoryMisses_);
    }
    return {result->ok ? imex_l0_success : imex_l0_compile_error, result};
}

} // namespace imex_l0::compiler
