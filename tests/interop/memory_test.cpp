// Memory objects: wrapping the framework's USM (checked: USM of the engine's
// context, of the declared kind, large enough), ALLOCATE (owned, freed),
// NONE (deferred), several buffers per object, and get/set per index.
#include "interop_fixtures.hpp"

#include <cstdlib>

using namespace interop_test;

namespace {

class MemoryTest : public WithEngine {
protected:
    // The type Level Zero reports for ptr in the framework's context.
    ze_memory_type_t typeOf(const void *ptr) {
        ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        EXPECT_ZE(zeMemGetAllocProperties(context.get(), ptr, &props, nullptr));
        return props.type;
    }
    UsmBuffer alloc(imex_l0_memory_kind_t kind, size_t bytes, ze_context_handle_t ctx = nullptr) {
        switch (kind) {
        case imex_l0_memory_kind_device:
            return allocDevice(bytes, ctx);
        case imex_l0_memory_kind_host:
            return allocHost(bytes, ctx);
        case imex_l0_memory_kind_shared:
            break;
        }
        return allocShared(bytes, ctx);
    }
};

const imex_l0_memory_kind_t kKinds[] = {imex_l0_memory_kind_device, imex_l0_memory_kind_host,
                                        imex_l0_memory_kind_shared};
const ze_memory_type_t kTypes[] = {ZE_MEMORY_TYPE_DEVICE, ZE_MEMORY_TYPE_HOST,
                                   ZE_MEMORY_TYPE_SHARED};

imex_l0_memory_t sentinelMemory() { return reinterpret_cast<imex_l0_memory_t>(uintptr_t(0x5e5e)); }

TEST_F(MemoryTest, WrapsUserUsmOfEveryKindWithoutOwningIt) {
    for (int k = 0; k < 3; ++k) {
        SCOPED_TRACE(k);
        UsmBuffer buffer = alloc(kKinds[k], 1024);
        imex_l0_memory_t memory = nullptr;
        ASSERT_IMEX(imex_l0_interop_memory_create(&memory, engine.get(), kKinds[k], 1024,
                                                  buffer.get()));
        void *p = nullptr;
        size_t size = 0;
        imex_l0_memory_kind_t kind = imex_l0_memory_kind_t(-1);
        ASSERT_IMEX(imex_l0_interop_memory_get_mem_object(memory, 0, &p));
        ASSERT_IMEX(imex_l0_memory_get_size(memory, 0, &size));
        ASSERT_IMEX(imex_l0_memory_get_kind(memory, &kind));
        EXPECT_EQ(p, buffer.get());
        EXPECT_EQ(size, 1024u);
        EXPECT_EQ(kind, kKinds[k]);
        ASSERT_IMEX(imex_l0_memory_destroy(memory));

        // Still the user's: still USM, still writable through the user's list,
        // and ~UsmBuffer's zeMemFree succeeds (no double free).
        EXPECT_EQ(typeOf(buffer.get()), kTypes[k]);
        ZeList list = newImmediateList();
        userFill(list.get(), buffer.get(), 0x42, 1024);
    }
}

TEST_F(MemoryTest, WrapsAnInteriorPointerUpToTheEndOfItsAllocation) {
    UsmBuffer buffer = allocShared(1024);
    char *inside = buffer.as<char>() + 256;
    Memory memory;
    EXPECT_IMEX(imex_l0_interop_memory_create(memory.out(), engine.get(),
                                              imex_l0_memory_kind_shared, 768, inside));
    EXPECT_EQ(ptrOf(memory.get()), inside);
    imex_l0_memory_t m = sentinelMemory();
    EXPECT_INVALID(imex_l0_interop_memory_create(&m, engine.get(), imex_l0_memory_kind_shared,
                                                 769, inside),
                   "size");
    EXPECT_EQ(m, sentinelMemory());
}

TEST_F(MemoryTest, AllocateGivesOwnedUsmOfTheKindAndFreesIt) {
    for (int k = 0; k < 3; ++k) {
        SCOPED_TRACE(k);
        imex_l0_memory_t memory = nullptr;
        ASSERT_IMEX(imex_l0_interop_memory_create(&memory, engine.get(), kKinds[k], 3000,
                                                  IMEX_L0_MEMORY_ALLOCATE));
        void *p = nullptr;
        ASSERT_IMEX(imex_l0_interop_memory_get_mem_object(memory, 0, &p));
        ASSERT_NE(p, nullptr);
        ASSERT_NE(p, IMEX_L0_MEMORY_ALLOCATE);
        // Allocated in the engine's (here: the user's) context, with the kind's call.
        EXPECT_EQ(typeOf(p), kTypes[k]);
        size_t size = 0;
        ASSERT_IMEX(imex_l0_memory_get_size(memory, 0, &size));
        EXPECT_EQ(size, 3000u);
        void *base = nullptr;
        size_t allocated = 0;
        ASSERT_ZE(zeMemGetAddressRange(context.get(), p, &base, &allocated));
        EXPECT_GE(allocated, 3000u);
        ASSERT_IMEX(imex_l0_memory_destroy(memory));
        // What the library allocated, it freed.
        EXPECT_EQ(typeOf(p), ZE_MEMORY_TYPE_UNKNOWN);
    }
}

TEST_F(MemoryTest, AllocatedMemoryHoldsData) {
    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    Memory dev = newMemory(imex_l0_memory_kind_device, 4096);
    Memory host = newMemory(imex_l0_memory_kind_host, 4096);
    for (int i = 0; i < 1024; ++i)
        static_cast<int *>(ptrOf(host.get()))[i] = i * i;
    ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), ptrOf(dev.get()), ptrOf(host.get()), 4096, 0,
                                       nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    std::memset(ptrOf(host.get()), 0, 4096);
    ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), ptrOf(host.get()), ptrOf(dev.get()), 4096, 0,
                                       nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < 1024; ++i)
        ASSERT_EQ(static_cast<int *>(ptrOf(host.get()))[i], i * i);
}

TEST_F(MemoryTest, NoneDefersTheBuffer) {
    Memory memory;
    ASSERT_IMEX(imex_l0_interop_memory_create(memory.out(), engine.get(),
                                              imex_l0_memory_kind_device, 512,
                                              IMEX_L0_MEMORY_NONE));
    EXPECT_EQ(ptrOf(memory.get()), nullptr);
    size_t size = 0;
    ASSERT_IMEX(imex_l0_memory_get_size(memory.get(), 0, &size));
    EXPECT_EQ(size, 512u);

    UsmBuffer buffer = allocDevice(512);
    ASSERT_IMEX(imex_l0_interop_memory_set_mem_object(memory.get(), 0, buffer.get()));
    EXPECT_EQ(ptrOf(memory.get()), buffer.get());
    // Back to NONE: the user pointer is dropped, never freed.
    ASSERT_IMEX(imex_l0_interop_memory_set_mem_object(memory.get(), 0, IMEX_L0_MEMORY_NONE));
    EXPECT_EQ(ptrOf(memory.get()), nullptr);
    EXPECT_EQ(typeOf(buffer.get()), ZE_MEMORY_TYPE_DEVICE);
}

TEST_F(MemoryTest, SetFreesAnOwnedBufferItReplaces) {
    Memory memory = newMemory(imex_l0_memory_kind_shared, 256);
    void *owned = ptrOf(memory.get());
    UsmBuffer user = allocShared(256);
    ASSERT_IMEX(imex_l0_interop_memory_set_mem_object(memory.get(), 0, user.get()));
    EXPECT_EQ(ptrOf(memory.get()), user.get());
    EXPECT_EQ(typeOf(owned), ZE_MEMORY_TYPE_UNKNOWN) << "the replaced ALLOCATEd buffer leaked";
    // The user's buffer is never freed: ~UsmBuffer frees it successfully.
    memory.reset();
    EXPECT_EQ(typeOf(user.get()), ZE_MEMORY_TYPE_SHARED);
}

TEST_F(MemoryTest, SetToNoneFreesAnOwnedBuffer) {
    Memory memory = newMemory(imex_l0_memory_kind_device, 256);
    void *owned = ptrOf(memory.get());
    ASSERT_IMEX(imex_l0_interop_memory_set_mem_object(memory.get(), 0, IMEX_L0_MEMORY_NONE));
    EXPECT_EQ(ptrOf(memory.get()), nullptr);
    EXPECT_EQ(typeOf(owned), ZE_MEMORY_TYPE_UNKNOWN) << "the replaced ALLOCATEd buffer leaked";
    size_t size = 0;
    ASSERT_IMEX(imex_l0_memory_get_size(memory.get(), 0, &size));
    EXPECT_EQ(size, 256u);
}

TEST_F(MemoryTest, SetChecksThePointerAsCreateDoes) {
    Memory memory;
    ASSERT_IMEX(imex_l0_interop_memory_create(memory.out(), engine.get(),
                                              imex_l0_memory_kind_shared, 256,
                                              IMEX_L0_MEMORY_NONE));
    std::vector<uint8_t> plain(256);
    UsmBuffer host = allocHost(256), small = allocShared(128);
    ZeContext other = newContext();
    UsmBuffer foreign = allocShared(256, other.get());
    EXPECT_INVALID(imex_l0_interop_memory_set_mem_object(memory.get(), 0, plain.data()), "USM");
    EXPECT_INVALID(imex_l0_interop_memory_set_mem_object(memory.get(), 0, host.get()), "host");
    EXPECT_INVALID(imex_l0_interop_memory_set_mem_object(memory.get(), 0, small.get()), "size");
    EXPECT_INVALID(imex_l0_interop_memory_set_mem_object(memory.get(), 0, foreign.get()), "USM");
    EXPECT_INVALID(imex_l0_interop_memory_set_mem_object(memory.get(), 1, host.get()), "index");
    // A refused set leaves the object as it was.
    EXPECT_EQ(ptrOf(memory.get()), nullptr);
}

TEST_F(MemoryTest, RejectsAPlainHostPointer) {
    void *plain = std::malloc(1024);
    imex_l0_memory_t memory = sentinelMemory();
    for (auto kind : kKinds)
        EXPECT_INVALID(imex_l0_interop_memory_create(&memory, engine.get(), kind, 1024, plain),
                       "USM");
    std::vector<int> stack(16);
    EXPECT_INVALID(imex_l0_interop_memory_create(&memory, engine.get(), imex_l0_memory_kind_host,
                                                 64, stack.data()),
                   "USM");
    EXPECT_EQ(memory, sentinelMemory());
    std::free(plain);
}

TEST_F(MemoryTest, RejectsUsmOfAnotherContext) {
    ZeContext other = newContext();
    imex_l0_memory_t memory = sentinelMemory();
    for (int k = 0; k < 3; ++k) {
        UsmBuffer foreign = alloc(kKinds[k], 256, other.get());
        EXPECT_INVALID(imex_l0_interop_memory_create(&memory, engine.get(), kKinds[k], 256,
                                                     foreign.get()),
                       "context");
    }
    EXPECT_EQ(memory, sentinelMemory());
}

TEST_F(MemoryTest, RejectsAKindMismatch) {
    imex_l0_memory_t memory = sentinelMemory();
    for (int have = 0; have < 3; ++have) {
        UsmBuffer buffer = alloc(kKinds[have], 256);
        for (int declared = 0; declared < 3; ++declared) {
            if (declared == have)
                continue;
            SCOPED_TRACE(std::to_string(have) + " declared as " + std::to_string(declared));
            EXPECT_INVALID(imex_l0_interop_memory_create(&memory, engine.get(), kKinds[declared],
                                                         256, buffer.get()),
                           "declared");
        }
    }
    EXPECT_EQ(memory, sentinelMemory());
}

TEST_F(MemoryTest, RejectsASizeBeyondTheAllocation) {
    UsmBuffer buffer = allocDevice(1000);
    imex_l0_memory_t memory = sentinelMemory();
    EXPECT_INVALID(imex_l0_interop_memory_create(&memory, engine.get(),
                                                 imex_l0_memory_kind_device, 1001, buffer.get()),
                   "size");
    EXPECT_INVALID(imex_l0_interop_memory_create(&memory, engine.get(),
                                                 imex_l0_memory_kind_device, SIZE_MAX,
                                                 buffer.get()),
                   "size");
    EXPECT_EQ(memory, sentinelMemory());
    Memory exact;
    EXPECT_IMEX(imex_l0_interop_memory_create(exact.out(), engine.get(),
                                              imex_l0_memory_kind_device, 1000, buffer.get()));
}

TEST_F(MemoryTest, RejectsBadArguments) {
    imex_l0_memory_t memory = sentinelMemory();
    EXPECT_INVALID(imex_l0_interop_memory_create(nullptr, engine.get(), imex_l0_memory_kind_host,
                                                 64, IMEX_L0_MEMORY_ALLOCATE),
                   "memory");
    EXPECT_INVALID(imex_l0_interop_memory_create(&memory, nullptr, imex_l0_memory_kind_host, 64,
                                                 IMEX_L0_MEMORY_ALLOCATE),
                   "engine");
    EXPECT_INVALID(imex_l0_interop_memory_create(&memory, engine.get(),
                                                 static_cast<imex_l0_memory_kind_t>(7), 64,
                                                 IMEX_L0_MEMORY_ALLOCATE),
                   "kind");
    EXPECT_INVALID(imex_l0_interop_memory_create(&memory, engine.get(), imex_l0_memory_kind_host,
                                                 0, IMEX_L0_MEMORY_ALLOCATE),
                   "size");
    EXPECT_EQ(memory, sentinelMemory());
    // No refused creation left a child behind.
    EXPECT_IMEX(imex_l0_engine_destroy(engine.release()));
}

TEST_F(MemoryTest, CallsRejectNullWrongHandleAndIndex) {
    Memory memory = newMemory(imex_l0_memory_kind_host, 64);
    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    auto notMemory = reinterpret_cast<imex_l0_memory_t>(stream.get());
    void *p = &p;
    size_t size = 77;
    imex_l0_memory_kind_t kind = imex_l0_memory_kind_shared;
    EXPECT_INVALID(imex_l0_interop_memory_get_mem_object(nullptr, 0, &p), "memory");
    EXPECT_INVALID(imex_l0_interop_memory_get_mem_object(notMemory, 0, &p), "memory");
    EXPECT_INVALID(imex_l0_interop_memory_get_mem_object(memory.get(), 1, &p), "index");
    EXPECT_INVALID(imex_l0_interop_memory_get_mem_object(memory.get(), SIZE_MAX, &p), "index");
    EXPECT_EQ(p, &p);
    EXPECT_INVALID(imex_l0_interop_memory_set_mem_object(nullptr, 0, nullptr), "memory");
    EXPECT_INVALID(imex_l0_memory_get_size(nullptr, 0, &size), "memory");
    EXPECT_INVALID(imex_l0_memory_get_size(memory.get(), 1, &size), "index");
    EXPECT_EQ(size, 77u);
    EXPECT_INVALID(imex_l0_memory_get_kind(nullptr, &kind), "memory");
    EXPECT_INVALID(imex_l0_memory_get_kind(notMemory, &kind), "memory");
    EXPECT_EQ(kind, imex_l0_memory_kind_shared);
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_interop_memory_get_mem_object(memory.get(), 0, nullptr));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, imex_l0_memory_get_size(memory.get(), 0, nullptr));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, imex_l0_memory_get_kind(memory.get(), nullptr));
    EXPECT_INVALID(imex_l0_memory_destroy(nullptr), "memory");
    EXPECT_INVALID(imex_l0_memory_destroy(notMemory), "memory");
    // The stream mistaken for memory is intact.
    EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
}

// ---------------------------------------------------------------- v2

TEST_F(MemoryTest, V2HoldsSeveralBuffersOfMixedOrigin) {
    UsmBuffer user = allocShared(300);
    size_t sizes[3] = {100, 200, 300};
    void *handles[3] = {IMEX_L0_MEMORY_ALLOCATE, IMEX_L0_MEMORY_NONE, user.get()};
    imex_l0_memory_t memory = nullptr;
    ASSERT_IMEX(imex_l0_interop_memory_create_v2(&memory, engine.get(),
                                                 imex_l0_memory_kind_shared, 3, sizes, handles));
    void *owned = ptrOf(memory, 0);
    EXPECT_NE(owned, nullptr);
    EXPECT_EQ(typeOf(owned), ZE_MEMORY_TYPE_SHARED);
    EXPECT_EQ(ptrOf(memory, 1), nullptr);
    EXPECT_EQ(ptrOf(memory, 2), user.get());
    for (size_t i = 0; i < 3; ++i) {
        size_t size = 0;
        ASSERT_IMEX(imex_l0_memory_get_size(memory, i, &size));
        EXPECT_EQ(size, sizes[i]);
    }
    imex_l0_memory_kind_t kind;
    ASSERT_IMEX(imex_l0_memory_get_kind(memory, &kind));
    EXPECT_EQ(kind, imex_l0_memory_kind_shared);

    // Index 1 is set later; index 3 does not exist.
    UsmBuffer late = allocShared(200);
    ASSERT_IMEX(imex_l0_interop_memory_set_mem_object(memory, 1, late.get()));
    EXPECT_EQ(ptrOf(memory, 1), late.get());
    void *p = nullptr;
    EXPECT_INVALID(imex_l0_interop_memory_get_mem_object(memory, 3, &p), "index");
    EXPECT_INVALID(imex_l0_interop_memory_set_mem_object(memory, 3, nullptr), "index");
    size_t size = 0;
    EXPECT_INVALID(imex_l0_memory_get_size(memory, 3, &size), "index");

    ASSERT_IMEX(imex_l0_memory_destroy(memory));
    EXPECT_EQ(typeOf(owned), ZE_MEMORY_TYPE_UNKNOWN) << "the ALLOCATEd buffer leaked";
    EXPECT_EQ(typeOf(user.get()), ZE_MEMORY_TYPE_SHARED);
    EXPECT_EQ(typeOf(late.get()), ZE_MEMORY_TYPE_SHARED);
}

TEST_F(MemoryTest, V2RejectsBadArgumentsAndLeavesNothingBehind) {
    UsmBuffer user = allocDevice(64);
    std::vector<char> plain(64);
    size_t sizes[2] = {64, 64};
    void *handles[2] = {user.get(), IMEX_L0_MEMORY_ALLOCATE};
    imex_l0_memory_t memory = sentinelMemory();
    EXPECT_INVALID(imex_l0_interop_memory_create_v2(&memory, engine.get(),
                                                    imex_l0_memory_kind_device, 0, sizes, handles),
                   "nhandles");
    EXPECT_INVALID(imex_l0_interop_memory_create_v2(&memory, engine.get(),
                                                    imex_l0_memory_kind_device, 2, nullptr,
                                                    handles),
                   "sizes");
    EXPECT_INVALID(imex_l0_interop_memory_create_v2(&memory, engine.get(),
                                                    imex_l0_memory_kind_device, 2, sizes, nullptr),
                   "handles");
    EXPECT_INVALID(imex_l0_interop_memory_create_v2(&memory, nullptr, imex_l0_memory_kind_device,
                                                    2, sizes, handles),
                   "engine");
    // The second buffer is bad after the first was ALLOCATEd: all or nothing.
    void *bad[2] = {IMEX_L0_MEMORY_ALLOCATE, plain.data()};
    EXPECT_INVALID(imex_l0_interop_memory_create_v2(&memory, engine.get(),
                                                    imex_l0_memory_kind_device, 2, sizes, bad),
                   "USM");
    EXPECT_EQ(memory, sentinelMemory());
    EXPECT_IMEX(imex_l0_engine_destroy(engine.release()));
}

TEST_F(MemoryTest, EngineWithOwnContextAllocatesThere) {
    // ALLOCATE on an engine whose context the library owns: the user's
    // context never sees the allocation, and user USM of it is foreign there.
    Engine owning;
    ASSERT_IMEX(imex_l0_interop_engine_create(owning.out(), driver, device, nullptr));
    ze_context_handle_t ownedContext = nullptr;
    ASSERT_IMEX(imex_l0_interop_engine_get_context(owning.get(), &ownedContext));
    Memory memory = newMemory(imex_l0_memory_kind_host, 64, owning.get());
    EXPECT_EQ(typeOf(ptrOf(memory.get())), ZE_MEMORY_TYPE_UNKNOWN);
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ASSERT_ZE(zeMemGetAllocProperties(ownedContext, ptrOf(memory.get()), &props, nullptr));
    EXPECT_EQ(props.type, ZE_MEMORY_TYPE_HOST);

    UsmBuffer user = allocHost(64);
    imex_l0_memory_t m = sentinelMemory();
    EXPECT_INVALID(imex_l0_interop_memory_create(&m, owning.get(), imex_l0_memory_kind_host, 64,
                                                 user.get()),
                   "context");
    memory.reset();
}

} // namespace
