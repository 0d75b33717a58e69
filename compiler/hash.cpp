#include "hash.hpp"

#include <cstring>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/SHA256.h>

namespace imex_l0::compiler {

struct Sha256::Impl {
    llvm::SHA256 state;
};

Sha256::Sha256() : impl_(new Impl) {}
Sha256::~Sha256() { delete impl_; }

void Sha256::update(std::string_view bytes) {
    impl_->state.update(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

void Sha256::updateField(std::string_view bytes) {
    uint64_t size = bytes.size();
    update(std::string_view(reinterpret_cast<const char *>(&size), sizeof size));
    update(bytes);
}

Digest Sha256::final() {
    std::array<uint8_t, 32> raw = impl_->state.final();
    Digest d;
    std::memcpy(d.data(), raw.data(), d.size());
    return d;
}

Digest sha256(std::string_view bytes) {
    Sha256 h;
    h.update(bytes);
    return h.final();
}

std::string toHex(const Digest &digest) {
    static const char kHex[] = "0123456789abcdef";
    std::string s;
    s.reserve(64);
    for (uint8_t b : digest) {
        s += kHex[b >> 4];
        s += kHex[b & 15];
    }
    return s;
}

} // namespace imex_l0::compiler
