// The driver's native binary: what zeModuleGetNativeBinary returns and
// ZE_MODULE_FORMAT_NATIVE accepts.
//
// Layout, integers little-endian:
//   header (32 bytes): magic "ZEOCLBIN", u32 format version, u32 reserved (0),
//                      u64 payload size, u64 FNV-1a 64 checksum of the payload
//   payload:           string device signature (on OpenCL: the device name,
//                      device and driver version, since a PoCL binary is only
//                      good for the device and PoCL build that made it; on
//                      CUDA: the PTX's target and calling convention),
//                      blob program binary (CL_PROGRAM_BINARIES; PTX),
//                      u32 kernel count, then per kernel: string name,
//                      u32 x3 required group size, string attributes,
//                      u32 argument count, then per argument: u32 kind,
//                      u64 size, string type name
//   string/blob:       u64 byte count, then the bytes
#include "program_builder.hpp"

#include "program_internal.hpp"

#include <cstring>
#include <new>

namespace ze_driver {

namespace {

constexpr char kMagic[8] = {'Z', 'E', 'O', 'C', 'L', 'B', 'I', 'N'};
constexpr uint32_t kFormatVersion = 2; // 2: kernel source attributes
constexpr size_t kHeaderBytes = 32;

uint64_t fnv1a64(const uint8_t *data, size_t size) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; ++i) {
        hash ^= data[i];
        hash *= 0x100000001b3ull;
    }
    return hash;
}

class Writer {
public:
    void u32(uint32_t value) { put(value, 4); }
    void u64(uint64_t value) { put(value, 8); }
    void blob(const void *data, size_t size) {
        u64(size);
        const auto *bytes = static_cast<const uint8_t *>(data);
        out_.insert(out_.end(), bytes, bytes + size);
    }
    void string(const std::string &text) { blob(text.data(), text.size()); }
    std::vector<uint8_t> &bytes() { return out_; }

private:
    void put(uint64_t value, int count) {
        for (int i = 0; i < count; ++i)
            out_.push_back(static_cast<uint8_t>(value >> (8 * i)));
    }
    std::vector<uint8_t> out_;
};

// Reads what Writer wrote; every read is bounds-checked, and the first
// failure is remembered with what was being read.
class Reader {
public:
    Reader(const uint8_t *data, size_t size) : data_(data), left_(size) {}

    bool ok() const { return error_.empty(); }
    const std::string &error() const { return error_; }
    size_t left() const { return left_; }

    uint32_t u32(const char *what) { return static_cast<uint32_t>(get(4, what)); }
    uint64_t u64(const char *what) { return get(8, what); }
    std::string string(const char *what) {
        uint64_t size = u64(what);
        if (!ok() || !need(size, what))
            return {};
        std::string text(reinterpret_cast<const char *>(data_), static_cast<size_t>(size));
        advance(static_cast<size_t>(size));
        return text;
    }
    std::vector<uint8_t> blob(const char *what) {
        std::string text = string(what);
        return std::vector<uint8_t>(text.begin(), text.end());
    }
    // A count of records that each take at least minBytes: a count the
    // remaining bytes cannot hold is corruption, not a reason to allocate.
    uint32_t count(size_t minBytes, const char *what) {
        uint32_t value = u32(what);
        if (ok() && static_cast<uint64_t>(value) * minBytes > left_)
            fail(std::string(what) + " (" + std::to_string(value) + ") exceeds the data left");
        return ok() ? value : 0;
    }
    void fail(const std::string &reason) {
        if (error_.empty())
            error_ = reason;
    }

private:
    bool need(uint64_t size, const char *what) {
        if (size > left_) {
            fail(std::string("truncated while reading ") + what);
            return false;
        }
        return true;
    }
    uint64_t get(int count, const char *what) {
        if (!ok() || !need(count, what))
            return 0;
        uint64_t value = 0;
        for (int i = 0; i < count; ++i)
            value |= static_cast<uint64_t>(data_[i]) << (8 * i);
        advance(count);
        return value;
    }
    void advance(size_t size) {
        data_ += size;
        left_ -= size;
    }

    const uint8_t *data_;
    size_t left_;
    std::string error_;
};

std::string deviceString(cl_device_id device, cl_device_info param) {
    size_t size = 0;
    if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return {};
    std::string text(size, '\0');
    if (clGetDeviceInfo(device, param, size, text.data(), nullptr) != CL_SUCCESS)
        return {};
    text.resize(std::strlen(text.c_str()));
    return text;
}

std::string deviceSignature(cl_device_id device) {
    return deviceString(device, CL_DEVICE_NAME) + " | " + deviceString(device, CL_DEVICE_VERSION) +
           " | " + deviceString(device, CL_DRIVER_VERSION);
}

// The program binary for `device`, or an empty vector.
std::vector<uint8_t> programBinary(cl_program program, cl_device_id device) {
    cl_uint deviceCount = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof(deviceCount), &deviceCount,
                         nullptr) != CL_SUCCESS ||
        deviceCount == 0)
        return {};
    std::vector<cl_device_id> devices(deviceCount);
    std::vector<size_t> sizes(deviceCount);
    if (clGetProgramInfo(program, CL_PROGRAM_DEVICES, deviceCount * sizeof(cl_device_id),
                         devices.data(), nullptr) != CL_SUCCESS ||
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, deviceCount * sizeof(size_t),
                         sizes.data(), nullptr) != CL_SUCCESS)
        return {};
    std::vector<std::vector<uint8_t>> binaries(deviceCount);
    std::vector<unsigned char *> pointers(deviceCount);
    for (cl_uint i = 0; i < deviceCount; ++i) {
        binaries[i].resize(sizes[i]);
        pointers[i] = binaries[i].data();
    }
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, deviceCount * sizeof(unsigned char *),
                         pointers.data(), nullptr) != CL_SUCCESS)
        return {};
    for (cl_uint i = 0; i < deviceCount; ++i)
        if (devices[i] == device)
            return std::move(binaries[i]);
    return {};
}

ProgramBuildResult invalidNative(const std::string &reason) {
    ProgramBuildResult result;
    result.result = ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    result.log = "invalid native binary: " + reason + "\n";
    return result;
}

} // namespace

std::vector<uint8_t> packNative(const std::string &signature, const std::vector<uint8_t> &binary,
                                const std::vector<KernelInfo> &kernels) {
    try {
        Writer payload;
        payload.string(signature);
        payload.blob(binary.data(), binary.size());
        payload.u32(static_cast<uint32_t>(kernels.size()));
        for (const KernelInfo &kernel : kernels) {
            payload.string(kernel.name);
            for (uint32_t size : kernel.requiredGroupSize)
                payload.u32(size);
            payload.string(kernel.attributes);
            payload.u32(static_cast<uint32_t>(kernel.args.size()));
            for (const KernelArgInfo &arg : kernel.args) {
                payload.u32(static_cast<uint32_t>(arg.kind));
                payload.u64(arg.size);
                payload.string(arg.typeName);
            }
        }
        const std::vector<uint8_t> &body = payload.bytes();
        Writer out;
        for (char c : kMagic)
            out.bytes().push_back(static_cast<uint8_t>(c));
        out.u32(kFormatVersion);
        out.u32(0);
        out.u64(body.size());
        out.u64(fnv1a64(body.data(), body.size()));
        out.bytes().insert(out.bytes().end(), body.begin(), body.end());
        return std::move(out.bytes());
    } catch (const std::bad_alloc &) {
        return {};
    }
}

bool unpackNative(const uint8_t *data, size_t size, const std::string &signature,
                  NativeContents *out, std::string *reason) {
    if (!data || size < kHeaderBytes) {
        *reason = std::to_string(size) + " bytes, shorter than the " +
                  std::to_string(kHeaderBytes) + "-byte header";
        return false;
    }
    if (std::memcmp(data, kMagic, sizeof(kMagic)) != 0) {
        *reason = "not a binary made by this driver (wrong magic)";
        return false;
    }
    Reader header(data + sizeof(kMagic), kHeaderBytes - sizeof(kMagic));
    uint32_t version = header.u32("format version");
    header.u32("reserved");
    uint64_t payloadSize = header.u64("payload size");
    uint64_t checksum = header.u64("checksum");
    if (version != kFormatVersion) {
        *reason = "format version " + std::to_string(version) + ", this driver reads version " +
                  std::to_string(kFormatVersion);
        return false;
    }
    if (payloadSize != size - kHeaderBytes) {
        *reason = "payload of " + std::to_string(size - kHeaderBytes) +
                  " bytes, the header says " + std::to_string(payloadSize) +
                  " (truncated or padded)";
        return false;
    }
    const uint8_t *body = data + kHeaderBytes;
    if (fnv1a64(body, payloadSize) != checksum) {
        *reason = "checksum mismatch (corrupted)";
        return false;
    }
    Reader payload(body, payloadSize);
    std::string madeFor = payload.string("device signature");
    out->binary = payload.blob("program binary");
    out->kernels.resize(payload.count(24, "kernel count"));
    for (KernelInfo &kernel : out->kernels) {
        kernel.name = payload.string("kernel name");
        for (uint32_t &groupSize : kernel.requiredGroupSize)
            groupSize = payload.u32("required group size");
        kernel.attributes = payload.string("kernel attributes");
        kernel.args.resize(payload.count(20, "argument count"));
        for (KernelArgInfo &arg : kernel.args) {
            uint32_t kind = payload.u32("argument kind");
            if (kind > static_cast<uint32_t>(ArgKind::Sampler))
                payload.fail("unknown argument kind " + std::to_string(kind));
            arg.kind = static_cast<ArgKind>(kind);
            arg.size = payload.u64("argument size");
            arg.typeName = payload.string("argument type name");
        }
        if (!payload.ok())
            break;
    }
    if (payload.ok() && payload.left() != 0)
        payload.fail(std::to_string(payload.left()) + " unexpected bytes after the kernel list");
    if (!payload.ok()) {
        *reason = payload.error();
        return false;
    }
    if (madeFor != signature) {
        *reason = "built for device \"" + madeFor + "\", this device is \"" + signature + "\"";
        return false;
    }
    if (out->binary.empty()) {
        *reason = "empty program binary";
        return false;
    }
    return true;
}

std::vector<uint8_t> serializeNative(cl_program program, cl_device_id device,
                                     const std::vector<KernelInfo> &kernels) {
    try {
        std::vector<uint8_t> binary = programBinary(program, device);
        if (binary.empty())
            return {};
        return packNative(deviceSignature(device), binary, kernels);
    } catch (const std::bad_alloc &) {
        return {};
    }
}

ProgramBuildResult buildFromNative(cl_context context, cl_device_id device, const uint8_t *data,
                                   size_t size, const char *buildFlags) {
    try {
        if (!context || !device) {
            ProgramBuildResult result;
            result.result = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
            result.log = "no OpenCL context or device\n";
            return result;
        }
        NativeContents contents;
        std::string reason;
        if (!unpackNative(data, size, deviceSignature(device), &contents, &reason))
            return invalidNative(reason);
        std::string ignored;
        std::string options = detail::openclBuildOptions(buildFlags, &ignored);
        ProgramBuildResult built = detail::buildOpenclProgram(
            context, device, contents.binary, options, ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
        detail::ProgramPtr program = detail::holdProgram(built.program);
        built.program = nullptr;
        if (!ignored.empty())
            built.log = "ignored build flags: " + ignored + "\n" + built.log;
        if (built.result == ZE_RESULT_SUCCESS)
            built.kernels = std::move(contents.kernels);
        built.program = program.release();
        return built;
    } catch (const std::bad_alloc &) {
        ProgramBuildResult result;
        result.result = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        result.log = "out of host memory while reading the native binary\n";
        return result;
    }
}

} // namespace ze_driver
