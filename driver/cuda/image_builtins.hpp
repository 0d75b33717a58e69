// OpenCL C's image builtins on the CUDA backend (image_builtins.cl): linked
// into a translated module that calls them, before its address spaces
// become NVPTX's.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace ze_cuda {

// Whether `name` is an OpenCL image or sampler builtin (a read, a write, a
// query, a constant sampler's initializer).
bool isImageBuiltin(llvm::StringRef name);

// Links the builtins `module` calls and defines what they ask of the
// translation: an image argument's descriptor, a sampler's bits, constant
// samplers. False, with the reason in `log`, if the library does not load.
// Builtins it does not define (mipmapped and multisampled images)
// stay declared.
bool linkImageBuiltins(llvm::Module &module, std::string *log);

} // namespace ze_cuda
