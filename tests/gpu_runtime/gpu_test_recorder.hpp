// What every gpu* runtime test needs whichever flavour it links (Level Zero
// or SYCL): reading the SPIR-V test kernels, and an error handler that
// records instead of aborting. No gpu* header: each flavour declares the
// same names with its own types.
#pragma once

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace gputest {

inline std::vector<char> readFile(const char *path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Records failures reported to gpuSetErrorHandler instead of aborting.
struct Recorder {
    std::vector<std::string> messages;
    static void handle(const char *message, void *self) {
        static_cast<Recorder *>(self)->messages.push_back(message);
    }
};

} // namespace gputest
