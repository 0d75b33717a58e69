#include "restricted_fs.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace imex_l0::compiler {

RestrictedFileSystem::RestrictedFileSystem(std::vector<std::string> allowedDirs)
    : ProxyFileSystem(llvm::vfs::createPhysicalFileSystem().release()) {
    for (std::string &dir : allowedDirs) {
        while (dir.size() > 1 && dir.back() == '/')
            dir.pop_back();
        allowedDirs_.push_back(std::move(dir));
    }
}

std::error_code RestrictedFileSystem::setCurrentWorkingDirectory(const llvm::Twine &path) {
    llvm::SmallString<256> p;
    path.toVector(p);
    if (!llvm::sys::path::is_absolute(p))
        llvm::sys::fs::make_absolute(cwd_, p);
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
    cwd_ = std::string(p.str());
    return {};
}

std::string RestrictedFileSystem::allowed(const llvm::Twine &path) const {
    llvm::SmallString<256> p;
    path.toVector(p);
    // Never against the process's working directory.
    if (!llvm::sys::path::is_absolute(p))
        llvm::sys::fs::make_absolute(cwd_, p);
    // A path spelled from an allowed directory may leave it through "..":
    // clang looks up a quoted include relative to the including file first
    // (`#include "../common/defs.h"` in a header under -I), as C compilers
    // and OpenCL implementations do. What is never seen is a path that does
    // not start in an allowed directory: the working directory's, an
    // absolute one elsewhere.
    llvm::SmallString<256> lexical = p;
    llvm::sys::path::remove_dots(lexical, /*remove_dot_dot=*/false);
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
    auto under = [](llvm::StringRef s, const std::string &dir) {
        return s == dir || (s.startswith(dir) && (dir == "/" || s[dir.size()] == '/'));
    };
    for (const std::string &dir : allowedDirs_) {
        if (under(p.str(), dir) || under(lexical.str(), dir))
            return std::string(p.str());
    }
    return {};
}

llvm::ErrorOr<llvm::vfs::Status> RestrictedFileSystem::status(const llvm::Twine &path) {
    std::string real = allowed(path);
    if (real.empty())
        return std::make_error_code(std::errc::no_such_file_or_directory);
    return ProxyFileSystem::status(real);
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
RestrictedFileSystem::openFileForRead(const llvm::Twine &path) {
    std::string real = allowed(path);
    if (real.empty())
        return std::make_error_code(std::errc::no_such_file_or_directory);
    return ProxyFileSystem::openFileForRead(real);
}

llvm::vfs::directory_iterator RestrictedFileSystem::dir_begin(const llvm::Twine &dir,
                                                             std::error_code &ec) {
    std::string real = allowed(dir);
    if (real.empty()) {
        ec = std::make_error_code(std::errc::no_such_file_or_directory);
        return {};
    }
    return ProxyFileSystem::dir_begin(real, ec);
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compilerFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory,
                   const std::vector<std::string> &includeDirs, const char *workingDir) {
    std::vector<std::string> allowed = {std::string(IMEX_L0_CLANG_RESOURCE_DIR) + "/include"};
    allowed.insert(allowed.end(), includeDirs.begin(), includeDirs.end());
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
        new llvm::vfs::OverlayFileSystem(new RestrictedFileSystem(std::move(allowed))));
    overlay->pushOverlay(std::move(memory));
    overlay->setCurrentWorkingDirectory(workingDir);
    return overlay;
}

} // namespace imex_l0::compiler
