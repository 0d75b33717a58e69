// SHA-256 (llvm::SHA256 from libLLVM) for cache keys, header digests and the
// disk cache's entry checksums.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace imex_l0::compiler {

using Digest = std::array<uint8_t, 32>;

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void update(std::string_view bytes);
    // Length-prefixed, so ("ab","c") and ("a","bc") hash differently.
    void updateField(std::string_view bytes);
    Digest final();

private:
    struct Impl;
    Impl *impl_;
};

Digest sha256(std::string_view bytes);
std::string toHex(const Digest &digest);

} // namespace imex_l0::compiler
