// Samplers: an OpenCL sampler of the driver's OpenCL context, for kernels'
// sampler_t arguments.
#pragma once

#include "backend_native.hpp"

namespace ze_driver {

class Context;

class Sampler : public Object {
public:
    static constexpr Tag kTag = Tag::Sampler;

    Sampler(Context *context, const ze_sampler_desc_t &desc);
    ~Sampler();
    cl_sampler cl() const { return cl_; }

private:
    Ref<Context> context_;
    cl_sampler cl_ = nullptr;
};

} // namespace ze_driver
