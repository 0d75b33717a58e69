// Enums that arrive from C callers, as parameters or struct fields.
//
// C lets a caller put any int into an enum; in C++ reading a value outside
// the enumerators' range as the enum type is undefined behaviour (and
// UndefinedBehaviorSanitizer stops there). So the library reads such inputs
// as their underlying integer, through the object's bytes, before it checks
// them; only checked values are used as the enum.
#pragma once

#include <cstring>
#include <type_traits>

namespace imex_l0 {

template <typename Enum>
std::underlying_type_t<Enum> rawValue(const Enum &value) {
    static_assert(std::is_enum_v<Enum>, "rawValue reads enums only");
    std::underlying_type_t<Enum> raw;
    std::memcpy(&raw, &value, sizeof raw);
    return raw;
}

} // namespace imex_l0
