#include "header_registry.hpp"

#include "embedded_headers.hpp"

namespace imex_l0::compiler {
namespace {

Digest digestOf(const std::map<std::string, std::string> &headers) {
    Sha256 h;
    for (const auto &[name, contents] : headers) {
        h.updateField(name);
        h.updateField(contents);
    }
    return h.final();
}

} // namespace

bool isValidHeaderName(const std::string &name) {
    if (name.empty() || name[0] == '/' || name.find('\0') != std::string::npos ||
        name.find('\\') != std::string::npos)
        return false;
    size_t start = 0;
    while (start <= name.size()) {
        size_t end = name.find('/', start);
        if (end == std::string::npos)
            end = name.size();
        std::string part = name.substr(start, end - start);
        if (part.empty() || part == "." || part == "..")
            return false;
        start = end + 1;
    }
    return true;
}

HeaderRegistry::HeaderRegistry() {
    auto s = std::make_shared<Snapshot>();
    for (size_t i = 0; i < kEmbeddedHeaderCount; ++i)
        s->headers[kEmbeddedHeaders[i].name] =
            std::string(kEmbeddedHeaders[i].contents, kEmbeddedHeaders[i].size);
    s->digest = digestOf(s->headers);
    current_ = std::move(s);
}

HeaderRegistry &HeaderRegistry::instance() {
    static HeaderRegistry registry;
    return registry;
}

std::shared_ptr<const HeaderRegistry::Snapshot> HeaderRegistry::snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return current_;
}

std::string HeaderRegistry::add(const std::string &name, const std::string &contents) {
    if (!isValidHeaderName(name))
        return "invalid header name '" + name +
               "' (a relative path such as \"my/header.h\", without '.' or '..')";
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = current_->headers.find(name);
    if (it != current_->headers.end() && it->second == contents)
        return {};
    // Copy-on-write: registrations are rare, compiles are many.
    auto next = std::make_shared<Snapshot>(*current_);
    next->headers[name] = contents;
    next->digest = digestOf(next->headers);
    current_ = std::move(next);
    return {};
}

} // namespace imex_l0::compiler
