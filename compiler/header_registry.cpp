#include "header_registry.hpp"

#include "build_options.hpp"
#include "compiler.hpp"
#include "embedded_headers.hpp"

#include <vector>

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

std::string HeaderRegistry::refusal(const std::string &name) {
    if (!isValidHeaderName(name))
        return "invalid header name '" + name +
               "' (a relative path such as \"my/header.h\", without '.' or '..')";
    for (size_t i = 0; i < kEmbeddedHeaderCount; ++i)
        if (name == kEmbeddedHeaders[i].name)
            return "'" + name +
                   "' is one of the library's own headers, which kernels include as they are: "
                   "register yours under another name";
    if (name == kImplementationHeader || name == kMainFileName)
        return "'" + name + "' is a name the compiler gives its own input: register the header "
               "under another name";
    return "";
}

std::shared_ptr<const HeaderRegistry::Snapshot>
HeaderRegistry::snapshotWith(const std::vector<std::pair<std::string, std::string>> &own,
                             std::string *why) const {
    auto s = std::make_shared<Snapshot>(*snapshot());
    for (const auto &[name, contents] : own) {
        *why = refusal(name);
        if (!why->empty())
            return nullptr;
        s->headers[name] = contents;
    }
    s->digest = digestOf(s->headers);
    return s;
}

std::string HeaderRegistry::add(const std::string &name, const std::string &contents) {
    std::string why = refusal(name);
    if (!why.empty())
        return why;
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

namespace {

// The names of the #include lines of `text`; false when one is not a plain
// "name" or <name> (a macro, say), whose target cannot be known unparsed.
// `dir/name` with "." and ".." resolved; "" when it leaves the root.
std::string joined(std::string_view dir, std::string_view name) {
    std::vector<std::string_view> parts;
    std::string path = std::string(dir) + "/" + std::string(name);
    std::string_view rest = path;
    while (!rest.empty()) {
        size_t slash = rest.find('/');
        std::string_view part = rest.substr(0, slash);
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
        if (part.empty() || part == ".")
            continue;
        if (part == "..") {
            if (parts.empty())
                return "";
            parts.pop_back();
            continue;
        }
        parts.push_back(part);
    }
    std::string out;
    for (std::string_view part : parts)
        out += (out.empty() ? "" : "/") + std::string(part);
    return out;
}

// The registry names an include of `name` in a file of directory `dir` may
// read: clang looks in the including file's directory first, then from the
// root of the registry.
void addCandidates(std::string_view dir, std::string_view name, std::vector<std::string> &names) {
    if (!dir.empty()) {
        std::string relative = joined(dir, name);
        if (!relative.empty())
            names.push_back(std::move(relative));
    }
    names.emplace_back(name);
}

bool includedNames(std::string_view text, std::string_view dir, std::vector<std::string> &names) {
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        std::string_view line = text.substr(at, end == std::string_view::npos ? text.npos : end - at);
        at = end == std::string_view::npos ? text.size() : end + 1;
        size_t i = line.find_first_not_of(" \t");
        if (i == std::string_view::npos || line[i] != '#')
            continue;
        i = line.find_first_not_of(" \t", i + 1);
        if (i == std::string_view::npos || line.compare(i, 7, "include") != 0)
            continue;
        i = line.find_first_not_of(" \t", i + 7);
        if (i == std::string_view::npos)
            return false;
        char close = line[i] == '"' ? '"' : line[i] == '<' ? '>' : 0;
        size_t last = close ? line.find(close, i + 1) : std::string_view::npos;
        if (last == std::string_view::npos)
            return false;
        addCandidates(dir, line.substr(i + 1, last - i - 1), names);
    }
    return true;
}

std::string_view directoryOf(std::string_view name) {
    size_t slash = name.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : name.substr(0, slash);
}

} // namespace

Digest includedHeadersDigest(std::string_view source, const HeaderRegistry::Snapshot &headers) {
    std::map<std::string, const std::string *> used; // name -> contents, or null when absent
    std::vector<std::string> pending;
    if (!includedNames(source, "", pending))
        return headers.digest;
    while (!pending.empty()) {
        std::string name = std::move(pending.back());
        pending.pop_back();
        if (used.count(name))
            continue;
        auto it = headers.headers.find(name);
        const std::string *contents = it == headers.headers.end() ? nullptr : &it->second;
        used.emplace(name, contents);
        if (contents && !includedNames(*contents, directoryOf(name), pending))
            return headers.digest;
    }
    Sha256 h;
    for (const auto &[name, contents] : used) {
        h.updateField(name);
        h.updateField(contents ? std::string_view(*contents) : std::string_view("\0absent", 7));
    }
    return h.final();
}

} // namespace imex_l0::compiler
