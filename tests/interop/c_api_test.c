/*
 * The public headers compile as C11 (with -Wall -Wextra -Werror), and a
 * minimal flow works from C: a default engine, its stream, ALLOCATEd memory,
 * a fill and a copy with returned events, a wait, the result checked on the
 * host, and everything destroyed. Exit status 0 on success.
 */
#include "imex_gpu_runtime.h"
#include "imex_l0_interop.h"

#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        imex_l0_status_t s_ = (call);                                                              \
        if (s_ != imex_l0_success) {                                                               \
            fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call,              \
                    imex_l0_status_str(s_), imex_l0_last_error_message());                         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#define EXPECT_STATUS(expected, call)                                                              \
    do {                                                                                           \
        imex_l0_status_t s_ = (call);                                                              \
        if (s_ != (expected)) {                                                                    \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call,     \
                    imex_l0_status_str(s_), imex_l0_status_str(expected));                         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

enum { kBytes = 1000 };

static int run(void) {
    /* The gpu* ABI types are usable from C, with their documented terminators. */
    ParamDesc params[1] = {{NULL, 0}};
    EventDesc deps[1] = {{NULL}};
    imex_gpu_l0_stream_t user = {NULL, NULL, NULL};
    imex_gpu_error_handler_t handler = NULL;
    (void)params;
    (void)deps;
    (void)user;
    (void)handler;

    imex_l0_engine_t engine = NULL;
    CHECK(imex_l0_engine_create(&engine, 0));
    const char *name = NULL;
    CHECK(imex_l0_engine_get_device_name(engine, &name));
    printf("device: %s\n", name);

    imex_l0_stream_t stream = NULL;
    CHECK(imex_l0_stream_create(&stream, engine));
    imex_l0_memory_t src = NULL, dst = NULL;
    CHECK(imex_l0_interop_memory_create(&src, engine, imex_l0_memory_kind_device, kBytes,
                                        IMEX_L0_MEMORY_ALLOCATE));
    CHECK(imex_l0_interop_memory_create(&dst, engine, imex_l0_memory_kind_shared, kBytes,
                                        IMEX_L0_MEMORY_ALLOCATE));
    void *s = NULL, *d = NULL;
    CHECK(imex_l0_interop_memory_get_mem_object(src, 0, &s));
    CHECK(imex_l0_interop_memory_get_mem_object(dst, 0, &d));
    memset(d, 0, kBytes);

    const uint16_t pattern = 0xa55a;
    ze_event_handle_t filled = NULL, copied = NULL;
    CHECK(imex_l0_interop_memset(stream, s, &pattern, sizeof(pattern), kBytes, 0, NULL, &filled));
    CHECK(imex_l0_interop_memcpy(stream, d, s, kBytes, 1, &filled, &copied));
    CHECK(imex_l0_stream_wait(stream));
    for (size_t i = 0; i < kBytes / 2; ++i) {
        if (((const uint16_t *)d)[i] != pattern) {
            fprintf(stderr, "element %zu is 0x%x, expected 0x%x\n", i,
                    (unsigned)((const uint16_t *)d)[i], (unsigned)pattern);
            return 1;
        }
    }
    CHECK(imex_l0_event_release(engine, filled));
    CHECK(imex_l0_event_release(engine, copied));
    EXPECT_STATUS(imex_l0_invalid_arguments, imex_l0_event_release(engine, copied));

    /* Children first: the engine refuses to go while they live. */
    EXPECT_STATUS(imex_l0_invalid_arguments, imex_l0_engine_destroy(engine));
    CHECK(imex_l0_memory_destroy(src));
    CHECK(imex_l0_memory_destroy(dst));
    CHECK(imex_l0_stream_destroy(stream));
    CHECK(imex_l0_engine_destroy(engine));
    return 0;
}

int main(void) {
    int failed = run();
    printf("%s\n", failed ? "FAILED" : "PASSED");
    return failed;
}
