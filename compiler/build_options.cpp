#include "build_options.hpp"

#include "macro_name.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstring>

namespace imex_l0::compiler {
namespace {

// Splits on whitespace; double or single quotes group, backslash escapes.
std::vector<std::string> tokenize(const char *text, std::string &error) {
    std::vector<std::string> tokens;
    std::string current;
    bool inToken = false;
    char quote = 0;
    for (const char *p = text; *p; ++p) {
        char c = *p;
        if (quote) {
            if (c == quote)
                quote = 0;
            else if (c == '\\' && p[1] == quote)
                current += *++p;
            else
                current += c;
        } else if (c == '"' || c == '\'') {
            quote = c;
            inToken = true;
        } else if (c == '\\' && p[1]) {
            current += *++p;
            inToken = true;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (inToken)
                tokens.push_back(std::move(current));
            current.clear();
            inToken = false;
        } else {
            current += c;
            inToken = true;
        }
    }
    if (quote)
        error = "unterminated quote in build options";
    if (inToken)
        tokens.push_back(std::move(current));
    return tokens;
}

bool startsWith(const std::string &s, const char *prefix) {
    return s.compare(0, std::strlen(prefix), prefix) == 0;
}

// The directory of a -I option as the restricted file system compares it:
// absolute (against the process's working directory at compile time) and
// without "." or ".." components, so "-I .", "-I ./sub" and "-I a/../sub" name
// what they say (and one directory has one cache key).
std::string absolutePath(const std::string &path) {
    llvm::SmallString<256> p(path);
    if (!llvm::sys::path::is_absolute(p))
        llvm::sys::fs::make_absolute(p);
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
    return std::string(p.str());
}

} // namespace

std::string BuildOptions::canonical() const {
    std::string s = "-cl-std=" + clStd + " -O" + std::to_string(optLevel);
    for (const std::string &dir : includeDirs)
        s += " -I" + dir;
    for (const std::string &arg : ccArgs)
        s += " " + arg;
    if (!warnings.empty())
        s += "\n" + warnings;
    return s;
}

BuildOptions parseBuildOptions(const char *options, size_t ndefines,
                               const imex_l0_define_t *defines) {
    BuildOptions out;
    std::vector<std::string> tokens = tokenize(options ? options : "", out.error);
    bool optDisable = false;
    for (size_t i = 0; i < tokens.size() && out.error.empty(); ++i) {
        const std::string &t = tokens[i];
        // Flags that take their value as the next token ("-D N=4", "-I dir").
        auto value = [&](size_t prefixLength) -> std::string {
            if (t.size() > prefixLength)
                return t.substr(prefixLength);
            if (i + 1 < tokens.size())
                return tokens[++i];
            out.error = "build option '" + t + "' needs a value";
            return {};
        };
        if (startsWith(t, "-cl-std=")) {
            std::string v = t.substr(8);
            if (v == "CL1.2" || v == "CL2.0" || v == "CL3.0")
                out.clStd = v;
            else
                out.error = "unsupported " + t + " (supported: CL1.2, CL2.0, CL3.0)";
        } else if (t == "-cl-opt-disable") {
            optDisable = true;
        } else if (t.size() == 3 && startsWith(t, "-O") && t[2] >= '0' && t[2] <= '3') {
            out.optLevel = unsigned(t[2] - '0');
        } else if (t == "-O" || t == "-Os" || t == "-Oz") {
            out.optLevel = 2;
        } else if (startsWith(t, "-D") || startsWith(t, "-U")) {
            std::string v = value(2);
            if (!v.empty())
                out.ccArgs.push_back(t.substr(0, 2) + v);
        } else if (startsWith(t, "-I")) {
            std::string v = value(2);
            if (!v.empty())
                out.includeDirs.push_back(absolutePath(v));
        } else if (startsWith(t, "-cl-") || startsWith(t, "-W") || t == "-w") {
            // Passed to cc1 as is; clang rejects the ones it does not know,
            // with its own diagnostic in the build log.
            out.ccArgs.push_back(t);
        } else if (t == "-g") {
            // Translator 15 writes OpenCL.DebugInfo.100 that SPIRV-Tools
            // rejects (DebugSource's Text operand), so a -g build could never
            // pass validation; build without debug info and say so.
            out.warnings += "warning: -g ignored: LLVMSPIRVLib 15 emits debug information that "
                            "does not validate\n";
        } else {
            // Everything else (-o, -x, -mllvm, -load, -triple, ...) could change
            // the target, write files or touch LLVM's process-global options.
            out.error = "unsupported build option '" + t + "'";
        }
    }
    if (optDisable)
        out.optLevel = 0;
    for (size_t i = 0; i < ndefines && out.error.empty(); ++i) {
        const char *name = defines[i].name;
        if (!name || !*name) {
            out.error = "define " + std::to_string(i) + " has no name";
            break;
        }
        if (!isMacroName(name)) {
            out.error = "define " + std::to_string(i) + " name '" + name +
                        "' is not a macro name (letters, digits and '_', not starting with a "
                        "digit)";
            break;
        }
        std::string arg = std::string("-D") + name;
        if (defines[i].value)
            arg += std::string("=") + defines[i].value;
        out.ccArgs.push_back(std::move(arg));
    }
    return out;
}

std::vector<std::string> implementationArguments(const BuildOptions &options) {
    // "CL1.2" -> 120, the value of CL_VERSION_1_2.
    std::string version = std::string(1, options.clStd[2]) + options.clStd[4] + "0";
    return {"-D__OPENCL_VERSION__=" + version,
            "-cl-ext=-cl_amd_media_ops,-cl_amd_media_ops2,-cl_khr_gl_msaa_sharing,"
            "-cl_arm_integer_dot_product_int8,-cl_arm_integer_dot_product_accumulate_int8,"
            "-cl_arm_integer_dot_product_accumulate_int16,"
            "-cl_arm_integer_dot_product_accumulate_saturate_int8",
            "-include", kImplementationHeader};
}

std::string implementationHeader(uint32_t spirvVersion) {
    // The translator makes integer dot products (SPV_KHR_integer_dot_product)
    // and sub-group rotates (SPV_KHR_subgroup_rotate) into an exit()
    // (compiler/screen.hpp refuses them first).
    std::vector<const char *> removed = {
        "cl_khr_integer_dot_product", "__opencl_c_integer_dot_product_input_4x8bit",
        "__opencl_c_integer_dot_product_input_4x8bit_packed", "cl_khr_subgroup_rotate",
        // No driver of this library has a device queue or
        // pipes (compiler/screen.hpp refuses their builtins).
        "__opencl_c_device_enqueue", "__opencl_c_pipes"};
    // GroupNonUniform* instructions and the SubgroupXxMask built-ins are
    // SPIR-V 1.3 (compiler/screen.hpp refuses their builtins below it).
    if (spirvVersion < 0x00010300)
        removed.insert(removed.end(), {"cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
                                       "cl_khr_subgroup_non_uniform_arithmetic",
                                       "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
                                       "cl_khr_subgroup_clustered_reduce"});
    std::string text;
    for (const char *name : removed)
        text += std::string("#undef ") + name + "\n";
    return text;
}

} // namespace imex_l0::compiler
