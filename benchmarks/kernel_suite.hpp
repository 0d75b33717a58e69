// A suite of OpenCL C kernels to run with given inputs: the cases of
// bench_cuda_vs_opencl, read from a text file, one case per line, so that a
// suite of kernels from elsewhere (which this repository does not hold) runs
// the same way as the project's own (kernels/math/cases.txt).
//
//   # a comment
//   name  file[+file...]  kernel  global  local  [-Dname=value -I...]  arg...
//
// Files are relative to the suite file's directory and concatenated in order
// (a kernel file after the header its host program would have prepended);
// the first file's directory is added as -I. global and local are sizes of
// one to three dimensions, 1024,512. Each argument, in the kernel's order:
//   TYPE[N]          a buffer of N elements, random over the type's range
//                    (floats in [0, 1))
//   TYPE[N:lo:hi]    uniform in [lo, hi)
//   TYPE[N:v]        every element v
//   TYPE[A|B|...]    parts of those three forms one after the other, as
//                    f32[1000:1.4|3000:0] (a structure of arrays)
//   TYPE=v[,v...]    a scalar (several values: a vector or a struct of them,
//                    float3 as four)
//   local[BYTES]     local memory
// TYPE is f32 f64 i8 u8 i16 u16 i32 u32 i64 u64. The inputs are the same on
// every run and every machine (seeded by the case's name).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bench::suite {

enum class Element { f32, f64, i8, u8, i16, u16, i32, u32, i64, u64 };

size_t elementSize(Element e);

struct Buffer {
    std::vector<uint8_t> init; // its size is the buffer's
    Element element;
};

// An argument: a buffer of the case (its index), local memory, or a
// scalar's bytes.
struct Arg {
    int buffer = -1;
    size_t localBytes = 0;
    std::vector<uint8_t> value;
};

struct Case {
    std::string name, kernel;
    std::vector<std::string> files; // paths
    std::string options;            // the case's own build options
    std::vector<Buffer> buffers;
    std::vector<Arg> args;
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    unsigned dimensions = 1;

    std::string source() const; // the files, concatenated
};

// The cases of a suite file (only the one named `only`, if not empty: the
// others' inputs are not made); std::runtime_error naming the file and line
// where one is malformed.
std::vector<Case> readSuite(const std::string &path, const std::string &only = "");

// How two versions of a buffer differ: elements that differ and, for
// floating-point ones, the largest difference relative to the largest
// magnitude in the second version (elementwise relative differences mean
// nothing where a result is a sum that cancels, as an FFT's near-zero
// outputs; infinite where one side is NaN or infinite and the other not).
struct Difference {
    size_t differ = 0, count = 0;
    double largestScaled = 0;
};
Difference compare(const Buffer &buffer, const std::vector<uint8_t> &ours,
                   const std::vector<uint8_t> &theirs);

} // namespace bench::suite
