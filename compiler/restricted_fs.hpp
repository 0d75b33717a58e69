// A view of the real file system that only shows files reached from a fixed
// set of absolute directories: clang's resource headers and the user's -I
// paths (a path spelled from one may leave it through "..", as a quoted
// include relative to its including file does). Everything else (the
// working directory above all) does not exist for the compiler, so a build
// never depends on where the process runs.
#pragma once

#include <string>
#include <vector>

#include <llvm/Support/VirtualFileSystem.h>

namespace imex_l0::compiler {

class RestrictedFileSystem : public llvm::vfs::ProxyFileSystem {
public:
    // Over a real file system of its own (llvm::vfs::createPhysicalFileSystem),
    // not the process-wide one of llvm::vfs::getRealFileSystem(): that is a
    // function-local static of libLLVM, which compiles on several threads
    // would share without any synchronisation ThreadSanitizer can see.
    explicit RestrictedFileSystem(std::vector<std::string> allowedDirs);

    llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override;
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
    openFileForRead(const llvm::Twine &path) override;
    llvm::vfs::directory_iterator dir_begin(const llvm::Twine &dir,
                                            std::error_code &ec) override;
    // A working directory of its own, never the process's: relative paths
    // resolve against it, and it need not exist on disk (the compiler sets
    // it to its virtual directory).
    llvm::ErrorOr<std::string> getCurrentWorkingDirectory() const override { return cwd_; }
    std::error_code setCurrentWorkingDirectory(const llvm::Twine &path) override;

private:
    // The absolute, dot-free form of path if it lies under an allowed
    // directory or is spelled from one, otherwise "".
    std::string allowed(const llvm::Twine &path) const;

    std::vector<std::string> allowedDirs_; // absolute, without trailing '/'
    std::string cwd_ = "/";
};

// What a clang run of the compiler sees: `memory` over the disk as a
// RestrictedFileSystem shows it, clang's resource headers and `includeDirs`
// only. Relative names ("kernel.cl", and the "." clang looks up for the
// predefines buffer) resolve in `workingDir` on every layer.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compilerFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory,
                   const std::vector<std::string> &includeDirs, const char *workingDir);

} // namespace imex_l0::compiler
