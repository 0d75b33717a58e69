// The plain name of an Itanium-mangled function: builtins are declared
// overloadable, so the module names them _Z<length><name><parameters>.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstddef>

namespace imex_l0::compiler {

// _Z15sub_group_electv -> sub_group_elect; "" for a name that is not mangled.
inline llvm::StringRef unmangledName(llvm::StringRef name) {
    if (!name.consume_front("_Z"))
        return "";
    size_t length = 0;
    if (name.consumeInteger(10, length) || length > name.size())
        return "";
    return name.take_front(length);
}

} // namespace imex_l0::compiler
