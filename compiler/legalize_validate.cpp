// validateSpirv: SPIRV-Tools' validator (what spirv-val runs), in-process.
// A module that fails here would fail, or worse crash, inside the device
// driver's zeModuleCreate; the caller reports it as a compile error instead.
#include "legalize.hpp"

#include <spirv-tools/libspirv.hpp>

#include <string>

namespace imex_l0::compiler {
namespace {

// The universal environment of exactly the requested SPIR-V version: it checks
// the rules of that version (and rejects a binary that claims a newer one)
// without the extra limits of one client API's environment.
spv_target_env environmentFor(uint32_t spirvVersion) {
    switch (spirvVersion) {
    case 0:
        return SPV_ENV_UNIVERSAL_1_2; // the compiler interface's default
    case 0x00010000:
        return SPV_ENV_UNIVERSAL_1_0;
    case 0x00010100:
        return SPV_ENV_UNIVERSAL_1_1;
    case 0x00010200:
        return SPV_ENV_UNIVERSAL_1_2;
    case 0x00010300:
        return SPV_ENV_UNIVERSAL_1_3;
    case 0x00010400:
        return SPV_ENV_UNIVERSAL_1_4;
    case 0x00010500:
        return SPV_ENV_UNIVERSAL_1_5;
    default:
        return SPV_ENV_UNIVERSAL_1_6;
    }
}

} // namespace

std::string validateSpirv(const void *data, size_t size, uint32_t spirvVersion) {
    if (!data || size == 0 || size % sizeof(uint32_t) != 0)
        return "the SPIR-V binary is empty or not a whole number of 32-bit words";
    if (spirvVersion != 0 && (spirvVersion < 0x00010000 || spirvVersion > 0x00010600))
        return "unknown SPIR-V version requested for validation";

    std::string messages;
    spvtools::SpirvTools tools(environmentFor(spirvVersion));
    tools.SetMessageConsumer([&messages](spv_message_level_t level, const char *,
                                         const spv_position_t &position, const char *message) {
        if (level > SPV_MSG_WARNING)
            return;
        if (!messages.empty())
            messages += '\n';
        messages += (level == SPV_MSG_WARNING ? "warning" : "error");
        messages += ": word " + std::to_string(position.index) + ": " + message;
    });
    const auto *words = static_cast<const uint32_t *>(data);
    const size_t count = size / sizeof(uint32_t);
    // Naming every id after its OpName for the messages is two thirds of the
    // validator's time (measured on a 35 KB module), and a valid module has
    // no message: validate without names, and again with them only to word
    // the failure.
    spvtools::ValidatorOptions quiet;
    quiet.SetFriendlyNames(false);
    if (tools.Validate(words, count, quiet))
        return "";
    messages.clear();
    tools.Validate(words, count); // again, for messages that name ids as the source does
    return messages.empty() ? std::string("SPIR-V validation failed") : messages;
}

} // namespace imex_l0::compiler
