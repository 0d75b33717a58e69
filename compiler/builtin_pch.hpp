// The builtin header every compile includes (opencl-c-base.h on the fast
// path, the whole opencl-c.h on the full-header path), precompiled once per
// set of language options and kept in memory. Parsing it is most of a small
// kernel's front end, and about 0.1 s for opencl-c.h; loading the
// precompiled form costs a fraction of that (docs/compiler.md).
//
// A compile uses it only when its result cannot differ from parsing the
// header: the header was precompiled with the compile's own arguments, -D,
// -U and -I aside, and none of the compile's -D/-U names a macro identifier
// the header's text contains (such a macro would have changed its parse).
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <llvm/Support/VirtualFileSystem.h>

namespace imex_l0::compiler {

class BuiltinPch : public std::enable_shared_from_this<BuiltinPch> {
public:
    // The virtual paths a compile's file system must hold while it loads
    // the PCH: the PCH itself, and the empty file it was built from.
    static constexpr const char *kPchPath = "/imex_l0_virtual/imex_l0_builtins.pch";
    static constexpr const char *kSourcePath = "/imex_l0_virtual/imex_l0_builtins.h";

    // The PCH for a compile with these cc1 arguments (all but its input),
    // built when first worth it (builtin_pch.cpp); null until then, if it
    // cannot be built, or if the compile's -D/-U names collide with the
    // header. Thread-safe; a crash while building is contained by the
    // caller's crash recovery.
    static std::shared_ptr<const BuiltinPch> forCompile(const std::vector<std::string> &cc1Args);

    // Puts the two files into a compile's in-memory file system, which then
    // keeps this PCH alive.
    void addFiles(llvm::vfs::InMemoryFileSystem &files) const;

private:
    static std::shared_ptr<const BuiltinPch> build(const std::vector<std::string> &args);
    bool collidesWith(const std::vector<std::string> &cc1Args) const;

    std::vector<char> bytes_;
    // Every identifier in the text of the headers the PCH holds.
    std::unordered_set<std::string> identifiers_;
};

} // namespace imex_l0::compiler
