#include "kernel_suite.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

namespace bench::suite {
namespace {

struct TypeName {
    const char *name;
    Element element;
};
constexpr TypeName kTypes[] = {{"f32", Element::f32}, {"f64", Element::f64}, {"i8", Element::i8},
                               {"u8", Element::u8},   {"i16", Element::i16}, {"u16", Element::u16},
                               {"i32", Element::i32}, {"u32", Element::u32}, {"i64", Element::i64},
                               {"u64", Element::u64}};

bool isFloat(Element e) {
    return e == Element::f32 || e == Element::f64;
}

Element elementNamed(const std::string &name) {
    for (const TypeName &t : kTypes)
        if (name == t.name)
            return t.element;
    throw std::runtime_error("unknown element type '" + name +
                             "' (f32 f64 i8 u8 i16 u16 i32 u32 i64 u64)");
}

std::vector<std::string> split(const std::string &text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, separator))
        parts.push_back(part);
    return parts;
}

double number(const std::string &text) {
    size_t used = 0;
    double v = 0;
    try {
        // Integers (hexadecimal too) exactly, the rest as doubles.
        if (text.find_first_of(".eEnN") == std::string::npos || text.rfind("0x", 0) == 0 ||
            text.rfind("-0x", 0) == 0)
            v = double(std::stoll(text, &used, 0));
        else
            v = std::stod(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used != text.size() || text.empty())
        throw std::runtime_error("'" + text + "' is not a number");
    return v;
}

// One element of type e holding v, at dst.
void put(Element e, double v, uint8_t *dst) {
    auto store = [dst](auto x) { std::memcpy(dst, &x, sizeof(x)); };
    switch (e) {
    case Element::f32:
        return store(float(v));
    case Element::f64:
        return store(v);
    case Element::i8:
        return store(int8_t(v));
    case Element::u8:
        return store(uint8_t(int64_t(v)));
    case Element::i16:
        return store(int16_t(v));
    case Element::u16:
        return store(uint16_t(int64_t(v)));
    case Element::i32:
        return store(int32_t(v));
    case Element::u32:
        return store(uint32_t(int64_t(v)));
    case Element::i64:
        return store(int64_t(v));
    case Element::u64:
        return store(uint64_t(int64_t(v)));
    }
}

double get(Element e, const uint8_t *src) {
    auto load = [src](auto x) {
        std::memcpy(&x, src, sizeof(x));
        return double(x);
    };
    switch (e) {
    case Element::f32:
        return load(float());
    case Element::f64:
        return load(double());
    default:
        return 0; // integers are compared by their bytes
    }
}

uint64_t fnv1a(const std::string &text) {
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

// TYPE[N], TYPE[N:lo:hi] or TYPE[N:v], or such parts one after the other
// (TYPE[N:v|M:lo:hi|...]): a buffer's initial contents.
Buffer parseBuffer(const std::string &type, const std::string &spec, uint64_t seed) {
    Buffer b{{}, elementNamed(type)};
    const size_t size = elementSize(b.element);
    std::mt19937_64 random(seed);
    for (const std::string &part : split(spec, '|')) {
        const std::vector<std::string> fields = split(part, ':');
        if (fields.empty() || fields.size() > 3)
            throw std::runtime_error("a buffer is TYPE[N], TYPE[N:lo:hi] or TYPE[N:v], or such "
                                     "parts joined by '|'");
        const auto n = size_t(number(fields[0]));
        // The part's value, or its range [lo, hi), read once for all its elements.
        const double lo = fields.size() > 1 ? number(fields[1]) : 0,
                     hi = fields.size() > 2 ? number(fields[2]) : 0;
        if (fields.size() == 3 && !(lo < hi))
            throw std::runtime_error("a range [lo, hi) needs lo < hi: '" + part + "'");
        const size_t first = b.init.size() / size;
        b.init.resize((first + n) * size);
        for (size_t i = first; i < first + n; ++i) {
            uint8_t *dst = b.init.data() + i * size;
            if (fields.size() == 2) {
                put(b.element, lo, dst);
            } else if (fields.size() == 3) {
                if (isFloat(b.element))
                    put(b.element, std::uniform_real_distribution<double>(lo, hi)(random), dst);
                else
                    put(b.element,
                        double(std::uniform_int_distribution<int64_t>(int64_t(lo),
                                                                      int64_t(hi) - 1)(random)),
                        dst);
            } else if (isFloat(b.element)) {
                put(b.element, std::uniform_real_distribution<double>(0, 1)(random), dst);
            } else {
                const uint64_t bits = random();
                std::memcpy(dst, &bits, size);
            }
        }
    }
    return b;
}

std::vector<size_t> sizes(const std::string &text) {
    std::vector<size_t> dims;
    for (const std::string &d : split(text, ','))
        dims.push_back(size_t(number(d)));
    if (dims.empty() || dims.size() > 3)
        throw std::runtime_error("a size has one to three dimensions: '" + text + "'");
    return dims;
}

Case parseCase(const std::vector<std::string> &tokens, const std::string &dir) {
    if (tokens.size() < 5)
        throw std::runtime_error("a case is: name file[+file...] kernel global local "
                                 "[options] arg...");
    Case c;
    c.name = tokens[0];
    for (const std::string &f : split(tokens[1], '+'))
        c.files.push_back(dir + "/" + f);
    c.kernel = tokens[2];
    const std::vector<size_t> global = sizes(tokens[3]), local = sizes(tokens[4]);
    if (global.size() != local.size())
        throw std::runtime_error("global and local sizes of different dimensions");
    c.dimensions = unsigned(global.size());
    for (size_t d = 0; d < global.size(); ++d) {
        if (global[d] == 0 || local[d] == 0 || global[d] % local[d] != 0)
            throw std::runtime_error("a global size is 0 or not a multiple of the local size");
        c.global[d] = global[d];
        c.local[d] = local[d];
    }
    const std::string first = c.files.front();
    c.options = "-I " + first.substr(0, first.rfind('/'));
    for (size_t i = 5; i < tokens.size(); ++i) {
        const std::string &t = tokens[i];
        if (t[0] == '-') {
            c.options += " " + t;
            continue;
        }
        Arg a;
        const size_t bracket = t.find('['), equals = t.find('=');
        if (bracket != std::string::npos && t.back() == ']') {
            const std::string type = t.substr(0, bracket),
                              spec = t.substr(bracket + 1, t.size() - bracket - 2);
            if (type == "local") {
                a.localBytes = size_t(number(spec));
            } else {
                a.buffer = int(c.buffers.size());
                c.buffers.push_back(parseBuffer(type, spec, fnv1a(c.name) + c.buffers.size()));
            }
        } else if (equals != std::string::npos) {
            const Element e = elementNamed(t.substr(0, equals));
            for (const std::string &v : split(t.substr(equals + 1), ',')) {
                a.value.resize(a.value.size() + elementSize(e));
                put(e, number(v), a.value.data() + a.value.size() - elementSize(e));
            }
        } else {
            throw std::runtime_error("'" + t +
                                     "' is no argument (TYPE[N...], TYPE=v or "
                                     "local[BYTES])");
        }
        c.args.push_back(std::move(a));
    }
    return c;
}

} // namespace

size_t elementSize(Element e) {
    switch (e) {
    case Element::i8:
    case Element::u8:
        return 1;
    case Element::i16:
    case Element::u16:
        return 2;
    case Element::f32:
    case Element::i32:
    case Element::u32:
        return 4;
    default:
        return 8;
    }
}

std::string Case::source() const {
    std::string text;
    for (const std::string &f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in)
            throw std::runtime_error("cannot read " + f);
        std::ostringstream s;
        s << in.rdbuf();
        text += s.str() + "\n";
    }
    return text;
}

std::vector<Case> readSuite(const std::string &path, const std::string &only) {
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read the suite " + path);
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    std::vector<Case> cases;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        std::istringstream words(line);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;)
            tokens.push_back(w);
        if (tokens.empty() || tokens[0][0] == '#' || (!only.empty() && tokens[0] != only))
            continue;
        try {
            cases.push_back(parseCase(tokens, dir));
        } catch (const std::exception &e) {
            throw std::runtime_error(path + ":" + std::to_string(number) + ": " + e.what());
        }
    }
    return cases;
}

Difference compare(const Buffer &buffer, const std::vector<uint8_t> &ours,
                   const std::vector<uint8_t> &theirs) {
    const size_t size = elementSize(buffer.element);
    Difference d;
    d.count = std::min(ours.size(), theirs.size()) / size;
    double largestDifference = 0, largestMagnitude = 0;
    for (size_t i = 0; i < d.count; ++i) {
        const uint8_t *x = ours.data() + i * size, *y = theirs.data() + i * size;
        const double u = get(buffer.element, x), v = get(buffer.element, y);
        if (std::isfinite(v))
            largestMagnitude = std::max(largestMagnitude, std::fabs(v));
        if (std::memcmp(x, y, size) == 0 || (std::isnan(u) && std::isnan(v)))
            continue; // NaNs of different payloads are the same result
        ++d.differ;
        if (std::isfinite(u) && std::isfinite(v))
            largestDifference = std::max(largestDifference, std::fabs(u - v));
        else // one side NaN or infinite, the other not the same
            largestDifference = std::numeric_limits<double>::infinity();
    }
    if (largestDifference > 0)
        d.largestScaled = largestDifference / std::max(largestMagnitude, 1e-300);
    return d;
}

} // namespace bench::suite
