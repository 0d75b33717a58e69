// C entry points of memory objects.
#include "common/c_enum.hpp"
#include "memory/memory.hpp"

#include <memory>

using namespace imex_l0;

namespace {

void checkKind(const imex_l0_memory_kind_t &kind) {
    auto raw = rawValue(kind);
    if (raw != imex_l0_memory_kind_device && raw != imex_l0_memory_kind_host &&
        raw != imex_l0_memory_kind_shared)
        failInvalid("kind " + std::to_string(raw) + " is not an imex_l0_memory_kind_t");
}

} // namespace

extern "C" {

imex_l0_status_t imex_l0_interop_memory_create(imex_l0_memory_t *memory, imex_l0_engine_t engine,
                                               imex_l0_memory_kind_t kind, size_t size,
                                               void *handle) {
    return guard(__func__, [&] {
        requireOutput(memory, "memory");
        auto *e = validate<Engine>(engine, "engine");
        checkKind(kind);
        auto m = std::make_unique<Memory>(e, kind);
        m->add(size, handle);
        *memory = reinterpret_cast<imex_l0_memory_t>(m.release());
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_memory_create_v2(imex_l0_memory_t *memory,
                                                  imex_l0_engine_t engine,
                                                  imex_l0_memory_kind_t kind, size_t nhandles,
                                                  const size_t *sizes, void **handles) {
    return guard(__func__, [&] {
        requireOutput(memory, "memory");
        auto *e = validate<Engine>(engine, "engine");
        checkKind(kind);
        if (nhandles == 0)
            failInvalid("nhandles is 0: a memory object holds at least one buffer");
        if (!sizes || !handles)
            failInvalid(std::string(sizes ? "handles" : "sizes") + " is NULL");
        auto m = std::make_unique<Memory>(e, kind);
        for (size_t i = 0; i < nhandles; ++i)
            m->add(sizes[i], handles[i]);
        *memory = reinterpret_cast<imex_l0_memory_t>(m.release());
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_memory_get_mem_object(imex_l0_memory_t memory, size_t index,
                                                       void **ptr) {
    return guard(__func__, [&] {
        auto *m = validate<Memory>(memory, "memory");
        requireOutput(ptr, "ptr");
        *ptr = m->get(index);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_memory_set_mem_object(imex_l0_memory_t memory, size_t index,
                                                       void *ptr) {
    return guard(__func__, [&] {
        validate<Memory>(memory, "memory")->set(index, ptr);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_memory_get_size(imex_l0_memory_t memory, size_t index, size_t *size) {
    return guard(__func__, [&] {
        auto *m = validate<Memory>(memory, "memory");
        requireOutput(size, "size");
        *size = m->size(index);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_memory_get_kind(imex_l0_memory_t memory, imex_l0_memory_kind_t *kind) {
    return guard(__func__, [&] {
        auto *m = validate<Memory>(memory, "memory");
        requireOutput(kind, "kind");
        *kind = m->kind();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_memory_destroy(imex_l0_memory_t memory) {
    return guard(__func__, [&] {
        delete validate<Memory>(memory, "memory");
        return imex_l0_success;
    });
}

} // extern "C"
