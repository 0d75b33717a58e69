#include "mlir_runtime/mgpu_module.hpp"

#include "compute/kernel_cache.hpp"
#include "compute/spirv_reflect.hpp"

#include <unordered_map>

namespace imex_l0::mgpu {

namespace {

// Never destroyed, like the default engines (binding.cpp): global
// destructors of lowered programs unload modules at exit.
struct Registry {
    std::mutex mutex; // guards modules and every Module's loads_
    std::unordered_map<std::string, std::unique_ptr<Module>> modules;
};
Registry &registry() {
    static Registry *r = new Registry;
    return *r;
}

} // namespace

KernelEntry &Function::on(Engine &engine) {
    const Built *last = last_.load(std::memory_order_acquire);
    if (last && last->engineSerial == engine.serial())
        return *last->kernel;
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Built &b : kernels_) {
        if (b.engineSerial == engine.serial()) {
            last_.store(&b, std::memory_order_release);
            return *b.kernel;
        }
    }
    // Engines are never re-created under a serial, so entries of destroyed
    // engines are only never matched again.
    const std::string &spirv = module_->spirv();
    KernelCache &cache = engine.kernels();
    KernelEntry &k = *cache.kernelOf(cache.loadModule(spirv.data(), spirv.size(), nullptr),
                                     name_.c_str());
    kernels_.push_back({engine.serial(), &k});
    last_.store(&kernels_.back(), std::memory_order_release);
    return k;
}

Module *Module::load(const void *data, size_t size) {
    if (!data || size == 0)
        failInvalid("data is NULL or size is 0");
    std::string spirv(static_cast<const char *>(data), size);
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.modules.find(spirv);
    if (it == r.modules.end()) {
        // The kernel names are read now, so a bad blob or an unknown kernel
        // name is reported where it happens, not at the first launch.
        std::string problem;
        auto kernels = reflectSpirv(spirv.data(), spirv.size(), problem);
        if (!problem.empty())
            failInvalid("data is not a usable SPIR-V module: " + problem);
        std::unique_ptr<Module> m(new Module(spirv));
        for (auto &k : kernels)
            m->kernelNames_.insert(k.name);
        it = r.modules.emplace(std::move(spirv), std::move(m)).first;
    }
    ++it->second->loads_;
    return it->second.get();
}

void Module::unload(Module *module) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (--module->loads_ == 0)
        r.modules.erase(r.modules.find(module->spirv_));
}

Function &Module::function(const char *name) {
    if (!name)
        failInvalid("name is NULL");
    if (!kernelNames_.count(name)) {
        std::string known;
        for (auto &n : kernelNames_)
            known += (known.empty() ? "" : ", ") + n;
        fail(imex_l0_not_found, std::string("no kernel named '") + name +
                                    "' in the module; its kernels are: " +
                                    (known.empty() ? "(none)" : known));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = functions_.find(name);
    if (it == functions_.end())
        it = functions_.emplace(name, std::make_unique<Function>(this, name)).first;
    return *it->second;
}

} // namespace imex_l0::mgpu
