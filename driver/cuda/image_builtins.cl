// OpenCL C's image builtins for the CUDA backend, in software over the
// pixels in device memory that image.cpp allocates. Compiled at build time
// for SPIR (clang-15, bitcode embedded in the driver) and linked by the PTX
// translation into modules that call image builtins (image_builtins.hpp),
// before their address spaces become NVPTX's: an image argument is the
// address of its descriptor (ze_image_t), a sampler its sampler_t bits. The
// definitions carry the builtins' own names and types, so clang mangles them
// as the SPIR-V reader names the calls. __ze_image and __ze_sampler, which
// only declare here, are defined by the translation: the first gives the
// descriptor an image argument points to, the second a sampler's bits.
//
// Reads convert each format as OpenCL's image format conversion rules say;
// sampled reads apply the sampler's addressing and filtering (nearest, or
// linear between 2, 4 or 8 pixels), with the border color outside the image
// for CLK_ADDRESS_CLAMP; array layers are the rounded, clamped coordinate.
// Reads and writes outside the image are clamped (a read) or dropped (a
// write): OpenCL leaves them undefined, and a fault would lose the device.

// 16-bit float pixels are converted by the conversions of half values.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// image_descriptor.hpp's ImageDescriptor, field by field.
typedef struct {
    ulong pixels;
    ulong row_pitch;
    ulong slice_pitch;
    int extent[3];
    int width, height, depth, array_size;
    int channel_type, channel_order, pixel_bytes;
} ze_image_t;

typedef const global ze_image_t *image_ref;

#define OVERLOAD __attribute__((overloadable))

#define DECLARE_IMAGE(type, access)                                                               \
    image_ref OVERLOAD __ze_image(access type image);
#define DECLARE_ALL_ACCESSES(type)                                                                \
    DECLARE_IMAGE(type, read_only) DECLARE_IMAGE(type, write_only) DECLARE_IMAGE(type, read_write)
DECLARE_ALL_ACCESSES(image1d_t)
DECLARE_ALL_ACCESSES(image1d_buffer_t)
DECLARE_ALL_ACCESSES(image1d_array_t)
DECLARE_ALL_ACCESSES(image2d_t)
DECLARE_ALL_ACCESSES(image2d_array_t)
DECLARE_ALL_ACCESSES(image3d_t)
// Depth images (cl_khr_depth_images): one-component images read as a float.
#pragma OPENCL EXTENSION cl_khr_depth_images : enable
DECLARE_ALL_ACCESSES(image2d_depth_t)
DECLARE_ALL_ACCESSES(image2d_array_depth_t)
uint __ze_sampler(sampler_t sampler);

// OpenCL's channel types and orders (image.hpp's channel values).
#define SNORM_INT8 0x10D0
#define SNORM_INT16 0x10D1
#define UNORM_INT8 0x10D2
#define UNORM_INT16 0x10D3
#define SIGNED_INT8 0x10D7
#define SIGNED_INT16 0x10D8
#define SIGNED_INT32 0x10D9
#define UNSIGNED_INT8 0x10DA
#define UNSIGNED_INT16 0x10DB
#define UNSIGNED_INT32 0x10DC
#define HALF_FLOAT 0x10DD
#define FLOAT 0x10DE
// 32-bit normalized components (image.hpp: not OpenCL's).
#define UNORM_INT32 0x7E08
#define SNORM_INT32 0x7E09
// Packed layouts (image.hpp): every component in one 16- or 32-bit word.
#define UNORM_SHORT_565 0x10D4
#define UNORM_SHORT_5551 0x7E00
#define UNORM_SHORT_4444 0x7E01
#define UNORM_INT_1010102 0x7E02
#define SNORM_INT_1010102 0x7E03
#define UNSIGNED_INT_1010102 0x7E04
#define SIGNED_INT_1010102 0x7E05
#define FLOAT_1010102 0x7E06
#define FLOAT_111110 0x7E07
#define ORDER_R 0x10B0
#define ORDER_A 0x10B1
#define ORDER_RG 0x10B2
#define ORDER_RGB 0x10B4
#define ORDER_RGBA 0x10B5
#define ORDER_BGRA 0x10B6
#define ORDER_ARGB 0x10B7
#define ORDER_ABGR 0x10C3

// sampler_t's bits.
#define NORMALIZED 0x1
#define ADDRESS_MASK 0xe
#define CLAMP_TO_EDGE 0x2
#define CLAMP 0x4
#define REPEAT 0x6
#define MIRRORED_REPEAT 0x8
#define LINEAR 0x20

static int components(int order) {
    return order == ORDER_R || order == ORDER_A ? 1 : order == ORDER_RG ? 2 : 4;
}

static global uchar *pixel(image_ref im, int4 c) {
    return (global uchar *)im->pixels + (size_t)c.x * im->pixel_bytes + (size_t)c.y * im->row_pitch +
           (size_t)c.z * im->slice_pitch;
}

// The pixel's memory components (0 where it has fewer than four) as rgba.
#define FROM_MEMORY(T, one)                                                                        \
    static T##4 from_memory_##T(T##4 m, int order) {                                               \
        switch (order) {                                                                           \
        case ORDER_R: return (T##4)(m.x, 0, 0, one);                                               \
        case ORDER_A: return (T##4)(0, 0, 0, m.x);                                                 \
        case ORDER_RG: return (T##4)(m.x, m.y, 0, one);                                            \
        case ORDER_RGB: return (T##4)(m.x, m.y, m.z, one);                                         \
        case ORDER_BGRA: return m.zyxw;                                                            \
        case ORDER_ARGB: return m.yzwx;                                                            \
        case ORDER_ABGR: return m.wzyx;                                                            \
        default: return m;                                                                         \
        }                                                                                          \
    }                                                                                              \
    static T##4 to_memory_##T(T##4 v, int order) {                                                 \
        switch (order) {                                                                           \
        case ORDER_A: return (T##4)(v.w, 0, 0, 0);                                                 \
        case ORDER_BGRA: return v.zyxw;                                                            \
        case ORDER_ARGB: return v.wxyz;                                                            \
        case ORDER_ABGR: return v.wzyx;                                                            \
        default: return v;                                                                         \
        }                                                                                          \
    }
FROM_MEMORY(float, 1.0f)
FROM_MEMORY(int, 1)
FROM_MEMORY(uint, 1u)

static float load_float(const global uchar *p, int type, int k) {
    switch (type) {
    case UNORM_INT8: return p[k] / 255.0f;
    case UNORM_INT16: return ((const global ushort *)p)[k] / 65535.0f;
    case SNORM_INT8: return fmax(((const global char *)p)[k] / 127.0f, -1.0f);
    case SNORM_INT16: return fmax(((const global short *)p)[k] / 32767.0f, -1.0f);
    case UNORM_INT32: return ((const global uint *)p)[k] / 4294967295.0f;
    case SNORM_INT32: return fmax(((const global int *)p)[k] / 2147483647.0f, -1.0f);
    case FLOAT: return ((const global float *)p)[k];
    case HALF_FLOAT: return ((const global half *)p)[k];
    case SIGNED_INT8: return ((const global char *)p)[k];
    case SIGNED_INT16: return ((const global short *)p)[k];
    case UNSIGNED_INT8: return p[k];
    case UNSIGNED_INT16: return ((const global ushort *)p)[k];
    case SIGNED_INT32: return ((const global int *)p)[k];
    default: return ((const global uint *)p)[k];
    }
}

static int load_int(const global uchar *p, int type, int k) {
    switch (type) {
    case SIGNED_INT8: return ((const global char *)p)[k];
    case SIGNED_INT16: return ((const global short *)p)[k];
    case UNSIGNED_INT8:
    case UNORM_INT8:
    case SNORM_INT8: return p[k];
    case UNSIGNED_INT16:
    case UNORM_INT16:
    case SNORM_INT16:
    case HALF_FLOAT: return ((const global ushort *)p)[k];
    default: return ((const global int *)p)[k];
    }
}

static uint load_uint(const global uchar *p, int type, int k) {
    return (uint)load_int(p, type, k);
}

static void store_float(global uchar *p, int type, int k, float v) {
    switch (type) {
    case UNORM_INT8: p[k] = convert_uchar_sat_rte(v * 255.0f); break;
    case UNORM_INT16: ((global ushort *)p)[k] = convert_ushort_sat_rte(v * 65535.0f); break;
    case SNORM_INT8: ((global char *)p)[k] = convert_char_sat_rte(v * 127.0f); break;
    case SNORM_INT16: ((global short *)p)[k] = convert_short_sat_rte(v * 32767.0f); break;
    case UNORM_INT32: ((global uint *)p)[k] = convert_uint_sat_rte(v * 4294967295.0f); break;
    case SNORM_INT32:
        ((global int *)p)[k] = max(convert_int_sat_rte(v * 2147483647.0f), -2147483647);
        break;
    case HALF_FLOAT: ((global half *)p)[k] = (half)v; break; // rounded to nearest even
    case FLOAT: ((global float *)p)[k] = v; break;
    default: break; // write_imagef of an integer format is undefined
    }
}

// SPIR-V has no signedness: its reader calls write_imagei for OpenCL C's
// write_imageui too (read_imagei for read_imageui), so each integer write
// takes the format's own signedness.
static void store_uint(global uchar *p, int type, int k, uint v);
static void store_int(global uchar *p, int type, int k, int v) {
    switch (type) {
    case SIGNED_INT8: ((global char *)p)[k] = convert_char_sat(v); break;
    case SIGNED_INT16: ((global short *)p)[k] = convert_short_sat(v); break;
    case SIGNED_INT32: ((global int *)p)[k] = v; break;
    default: store_uint(p, type, k, (uint)v); break;
    }
}

static void store_uint(global uchar *p, int type, int k, uint v) {
    switch (type) {
    case UNSIGNED_INT8: p[k] = convert_uchar_sat(v); break;
    case UNSIGNED_INT16: ((global ushort *)p)[k] = convert_ushort_sat(v); break;
    case UNSIGNED_INT32: ((global uint *)p)[k] = v; break;
    case SIGNED_INT8:
    case SIGNED_INT16:
    case SIGNED_INT32: store_int(p, type, k, (int)v); break;
    default: break; // write_imageui of a format of floats is undefined
    }
}

// Packed layouts. Component k (r, g, b, a in memory's order) of a packed
// word: its lowest bit and its width (0 where the layout has no such
// component), at the bits of Intel's surface formats of the layout.
static int packed_shift(int type, int k) {
    switch (type) {
    case UNORM_SHORT_565: return (int4)(11, 5, 0, 0)[k];
    case UNORM_SHORT_5551: return (int4)(10, 5, 0, 15)[k];
    case UNORM_SHORT_4444: return (int4)(8, 4, 0, 12)[k];
    case FLOAT_111110: return (int4)(0, 11, 22, 0)[k];
    default: return 10 * k; // 10_10_10_2
    }
}

static int packed_width(int type, int k) {
    switch (type) {
    case UNORM_SHORT_565: return (int4)(5, 6, 5, 0)[k];
    case UNORM_SHORT_5551: return (int4)(5, 5, 5, 1)[k];
    case UNORM_SHORT_4444: return 4;
    case FLOAT_111110: return (int4)(11, 11, 10, 0)[k];
    default: return k < 3 ? 10 : 2; // 10_10_10_2
    }
}

static bool is_packed(int type) {
    return type == UNORM_SHORT_565 || (type >= UNORM_SHORT_5551 && type <= FLOAT_111110);
}

// Whether component k of `type` is an unsigned float of 5 exponent bits
// (bias 15) and the rest mantissa, as 11_11_10 and 10_10_10_2 FLOAT's r, g, b.
static bool is_small_float(int type, int k) {
    return (type == FLOAT_111110 || type == FLOAT_1010102) && k < 3;
}

static float from_small_float(uint bits, int width) {
    int m = width - 5;
    uint e = bits >> m, f = bits & ((1u << m) - 1);
    if (e == 31)
        return as_float(0x7f800000u | (f << (23 - m))); // infinity, or NaN with its payload
    if (e == 0)
        return (float)f * as_float((uint)(113 - m) << 23); // f * 2^(-14 - m)
    return as_float(((e + 112) << 23) | (f << (23 - m)));
}

// `v` rounded to the nearest small float (ties to even); negative values
// and -0 become 0, as the format has no sign; beyond its largest, infinity.
static uint to_small_float(float v, int width) {
    int m = width - 5;
    uint u = as_uint(v), infinity = 31u << m;
    if (isnan(v)) {
        // A NaN read from such a format (its payload in the top bits of the
        // mantissa) keeps its payload; any other, the GPU's canonical NaN
        // among them, becomes the format's quiet NaN.
        uint payload = u & 0x7fffffu;
        bool from_format = (payload & ((1u << (23 - m)) - 1)) == 0;
        return infinity | (from_format ? payload >> (23 - m) : 1u << (m - 1));
    }
    if (!(v > 0.0f))
        return 0;
    int e = (int)(u >> 23) - 112; // the biased exponent of the result
    uint mantissa = (u & 0x7fffffu) | 0x800000u;
    int shift = 23 - m + (e < 1 ? 1 - e : 0); // below the smallest normal: denormal
    if (shift > 24)
        return 0;
    uint kept = mantissa >> shift, dropped = mantissa & ((1u << shift) - 1),
         halfway = 1u << (shift - 1);
    if (dropped > halfway || (dropped == halfway && (kept & 1)))
        ++kept; // a carry out of the mantissa raises the exponent, as it should
    uint bits = e < 1 ? kept : ((uint)e << m) + kept - (1u << m);
    return min(bits, infinity);
}

static int sign_extended(uint bits, int width) {
    return (int)(bits << (32 - width)) >> (32 - width);
}

// A packed pixel's word: 16 or 32 bits, the image's pixel size.
static uint packed_word(image_ref im, const global uchar *p) {
    return im->pixel_bytes == 2 ? *(const global ushort *)p : *(const global uint *)p;
}

static void store_packed_word(image_ref im, global uchar *p, uint word) {
    if (im->pixel_bytes == 2)
        *(global ushort *)p = (ushort)word;
    else
        *(global uint *)p = word;
}

static uint packed_bits(int type, uint word, int k) {
    int width = packed_width(type, k);
    return width == 0 ? 0 : (word >> packed_shift(type, k)) & ((1u << width) - 1);
}

// Component k of a packed word as read_imagef, read_imagei and read_imageui
// return it (a component the layout lacks reads 0; the channel order gives
// alpha 1 where it has none).
static float decode_float(int type, uint word, int k) {
    uint bits = packed_bits(type, word, k);
    int width = packed_width(type, k);
    if (width == 0)
        return 0.0f;
    if (is_small_float(type, k))
        return from_small_float(bits, width);
    switch (type) {
    case UNSIGNED_INT_1010102: return bits;
    case SIGNED_INT_1010102: return sign_extended(bits, width);
    case SNORM_INT_1010102:
        return fmax(sign_extended(bits, width) / (float)((1 << (width - 1)) - 1), -1.0f);
    default: return bits / (float)((1u << width) - 1); // normalized unsigned
    }
}

static int decode_int(int type, uint word, int k) {
    uint bits = packed_bits(type, word, k);
    int width = packed_width(type, k);
    return type == SIGNED_INT_1010102 && width > 0 ? sign_extended(bits, width) : (int)bits;
}

static uint decode_uint(int type, uint word, int k) {
    return (uint)decode_int(type, word, k);
}

// Component k of a write, in its place in the packed word: rounded and
// saturated as the layout's type says; 0 for a write the format's type
// does not take (write_imagef of integers, write_imagei of normalized
// values: undefined in OpenCL) and for components the layout lacks.
static uint place(int type, int k, uint bits) {
    int width = packed_width(type, k);
    return width == 0 ? 0 : (bits & ((1u << width) - 1)) << packed_shift(type, k);
}

static uint encode_float(int type, float v, int k) {
    int width = packed_width(type, k);
    if (width == 0 || type == UNSIGNED_INT_1010102 || type == SIGNED_INT_1010102)
        return 0;
    if (is_small_float(type, k))
        return place(type, k, to_small_float(v, width));
    if (type == SNORM_INT_1010102) {
        int most = (1 << (width - 1)) - 1;
        return place(type, k, (uint)clamp(convert_int_sat_rte(v * (float)most), -most, most));
    }
    uint most = (1u << width) - 1;
    return place(type, k, min(convert_uint_sat_rte(v * (float)most), most));
}

static uint encode_uint(int type, uint v, int k);
static uint encode_int(int type, int v, int k) {
    if (type != SIGNED_INT_1010102)
        return encode_uint(type, (uint)v, k); // SPIR-V's write_imagei of write_imageui
    int low = -(1 << (packed_width(type, k) - 1));
    return place(type, k, (uint)clamp(v, low, -low - 1));
}

static uint encode_uint(int type, uint v, int k) {
    if (type == SIGNED_INT_1010102)
        return encode_int(type, (int)v, k);
    if (type != UNSIGNED_INT_1010102)
        return 0;
    return place(type, k, min(v, (1u << packed_width(type, k)) - 1));
}

#define PACKED(T)                                                                                  \
    static T##4 unpack_##T(image_ref im, const global uchar *p) {                                  \
        int type = im->channel_type;                                                               \
        uint w = packed_word(im, p);                                                               \
        return (T##4)(decode_##T(type, w, 0), decode_##T(type, w, 1), decode_##T(type, w, 2),      \
                      decode_##T(type, w, 3));                                                     \
    }                                                                                              \
    static void pack_##T(image_ref im, global uchar *p, T##4 m) {                                  \
        int type = im->channel_type;                                                               \
        store_packed_word(im, p,                                                                   \
                          encode_##T(type, m.x, 0) | encode_##T(type, m.y, 1) |                    \
                              encode_##T(type, m.z, 2) | encode_##T(type, m.w, 3));                \
    }
PACKED(float)
PACKED(int)
PACKED(uint)

// Whether `c` (x, y, z: the layer of an array in its coordinate's place) is
// inside the image.
static bool inside(image_ref im, int4 c) {
    return c.x >= 0 && c.x < im->extent[0] && c.y >= 0 && c.y < im->extent[1] && c.z >= 0 &&
           c.z < im->extent[2];
}

static int4 clamped(image_ref im, int4 c) {
    return (int4)(clamp(c.x, 0, im->extent[0] - 1), clamp(c.y, 0, im->extent[1] - 1),
                  clamp(c.z, 0, im->extent[2] - 1), 0);
}

#define FETCH_AND_STORE(T)                                                                         \
    static T##4 fetch_##T(image_ref im, int4 c) {                                                  \
        const global uchar *p = pixel(im, clamped(im, c));                                         \
        if (is_packed(im->channel_type))                                                           \
            return from_memory_##T(unpack_##T(im, p), im->channel_order);                          \
        int n = components(im->channel_order);                                                     \
        T##4 m = (T##4)(0);                                                                        \
        m.x = load_##T(p, im->channel_type, 0);                                                    \
        if (n > 1)                                                                                 \
            m.y = load_##T(p, im->channel_type, 1);                                                \
        if (n > 2) {                                                                               \
            m.z = load_##T(p, im->channel_type, 2);                                                \
            m.w = load_##T(p, im->channel_type, 3);                                                \
        }                                                                                          \
        return from_memory_##T(m, im->channel_order);                                              \
    }                                                                                              \
    static void put_##T(image_ref im, int4 c, T##4 v) {                                            \
        if (!inside(im, c))                                                                        \
            return;                                                                                \
        global uchar *p = pixel(im, c);                                                            \
        T##4 m = to_memory_##T(v, im->channel_order);                                              \
        if (is_packed(im->channel_type)) {                                                         \
            pack_##T(im, p, m);                                                                    \
            return;                                                                                \
        }                                                                                          \
        int n = components(im->channel_order);                                                     \
        store_##T(p, im->channel_type, 0, m.x);                                                    \
        if (n > 1)                                                                                 \
            store_##T(p, im->channel_type, 1, m.y);                                                \
        if (n > 2) {                                                                               \
            store_##T(p, im->channel_type, 2, m.z);                                                \
            store_##T(p, im->channel_type, 3, m.w);                                                \
        }                                                                                          \
    }
FETCH_AND_STORE(float)
FETCH_AND_STORE(int)
FETCH_AND_STORE(uint)

// The border color of CLK_ADDRESS_CLAMP: transparent black, or opaque
// black for a format without alpha.
static bool has_alpha(int order) {
    return order != ORDER_R && order != ORDER_RG && order != ORDER_RGB;
}

// Pixels along spatial dimension `d` (they come before an array's layers).
static int size_along(image_ref im, int d) {
    return im->extent[d];
}

// The pixel index of coordinate `s` along a dimension of `n` pixels, for
// nearest filtering; *border when CLK_ADDRESS_CLAMP puts it outside.
static int nearest(float s, int n, uint bits, bool *border) {
    int address = bits & ADDRESS_MASK;
    if (address == REPEAT) {
        int i = (int)floor((s - floor(s)) * n);
        return i > n - 1 ? i - n : i;
    }
    if (address == MIRRORED_REPEAT) {
        float m = fabs(s - 2.0f * rint(0.5f * s));
        return min((int)floor(m * n), n - 1);
    }
    float u = (bits & NORMALIZED) ? s * n : s;
    int i = (int)floor(u);
    if (address == CLAMP && (i < 0 || i >= n))
        *border = true;
    return clamp(i, 0, n - 1);
}

// The two pixels and the weight of the second, for linear filtering.
static float linear(float s, int n, uint bits, int *i0, int *i1, bool *border0, bool *border1) {
    int address = bits & ADDRESS_MASK;
    float u;
    if (address == REPEAT) {
        u = (s - floor(s)) * n;
        *i0 = (int)floor(u - 0.5f);
        *i1 = *i0 + 1;
        if (*i0 < 0)
            *i0 += n;
        if (*i1 > n - 1)
            *i1 -= n;
    } else if (address == MIRRORED_REPEAT) {
        u = fabs(s - 2.0f * rint(0.5f * s)) * n;
        *i0 = max((int)floor(u - 0.5f), 0);
        *i1 = min((int)floor(u - 0.5f) + 1, n - 1);
    } else {
        u = (bits & NORMALIZED) ? s * n : s;
        *i0 = (int)floor(u - 0.5f);
        *i1 = *i0 + 1;
        if (address == CLAMP) {
            *border0 = *i0 < 0 || *i0 >= n;
            *border1 = *i1 < 0 || *i1 >= n;
        }
        *i0 = clamp(*i0, 0, n - 1);
        *i1 = clamp(*i1, 0, n - 1);
    }
    float t = u - 0.5f;
    return t - floor(t);
}

// The layer of an array read at coordinate `s`.
static int layer(image_ref im, float s) {
    return clamp((int)rint(s), 0, im->array_size - 1);
}

// The pixel coordinates of a read of `dims` spatial dimensions with only
// the layer set (an array's, in the coordinate after the spatial ones).
static int4 layer_only(image_ref im, float4 coord, int dims, bool arrayed) {
    int4 c = (int4)(0);
    if (arrayed) {
        if (dims == 1)
            c.y = layer(im, coord.y);
        else
            c.z = layer(im, coord.z);
    }
    return c;
}

// The pixel a nearest read takes; *border when CLK_ADDRESS_CLAMP puts it
// outside the image.
static int4 nearest_pixel(image_ref im, uint bits, float4 coord, int dims, bool arrayed,
                          bool *border) {
    int4 c = layer_only(im, coord, dims, arrayed);
    c.x = nearest(coord.x, size_along(im, 0), bits, border);
    if (dims > 1)
        c.y = nearest(coord.y, size_along(im, 1), bits, border);
    if (dims > 2)
        c.z = nearest(coord.z, size_along(im, 2), bits, border);
    return c;
}

#define BORDER_COLOR(T, zero, one)                                                                 \
    ((T##4)(zero, zero, zero, has_alpha(im->channel_order) ? zero : one))

// A sampled read of floats: nearest, or linear between 2, 4 or 8 pixels.
static float4 sample_float(image_ref im, uint bits, float4 coord, int dims, bool arrayed) {
    bool border = false;
    if (!(bits & LINEAR)) {
        int4 c = nearest_pixel(im, bits, coord, dims, arrayed, &border);
        return border ? BORDER_COLOR(float, 0.0f, 1.0f) : fetch_float(im, c);
    }
    float s[3] = {coord.x, coord.y, coord.z};
    int4 c = layer_only(im, coord, dims, arrayed);
    int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool border_lo[3] = {false, false, false}, border_hi[3] = {false, false, false};
    float w[3] = {0, 0, 0};
    for (int d = 0; d < dims; ++d)
        w[d] = linear(s[d], size_along(im, d), bits, &lo[d], &hi[d], &border_lo[d], &border_hi[d]);
    float4 sum = (float4)(0);
    for (int corner = 0; corner < (1 << dims); ++corner) {
        float weight = 1.0f;
        int at[3] = {c.x, c.y, c.z};
        border = false;
        for (int d = 0; d < dims; ++d) {
            bool upper = (corner >> d) & 1;
            at[d] = upper ? hi[d] : lo[d];
            border = border || (upper ? border_hi[d] : border_lo[d]);
            weight *= upper ? w[d] : 1.0f - w[d];
        }
        float4 texel = border ? BORDER_COLOR(float, 0.0f, 1.0f)
                              : fetch_float(im, (int4)(at[0], at[1], at[2], 0));
        sum += texel * weight;
    }
    return sum;
}

// Integer images are read nearest only (OpenCL leaves linear filtering of
// them undefined).
#define SAMPLE_INTEGER(T, zero, one)                                                               \
    static T##4 sample_##T(image_ref im, uint bits, float4 coord, int dims, bool arrayed) {        \
        bool border = false;                                                                       \
        int4 c = nearest_pixel(im, bits, coord, dims, arrayed, &border);                           \
        return border ? BORDER_COLOR(T, zero, one) : fetch_##T(im, c);                             \
    }
SAMPLE_INTEGER(int, 0, 1)
SAMPLE_INTEGER(uint, 0u, 1u)

// Integer coordinates through a sampler: unnormalized and nearest, as OpenCL
// requires of such a sampler; the pixel's center.
static float4 centered(int4 c) {
    return convert_float4(c) + (float4)(0.5f, 0.5f, 0.5f, 0.0f);
}
static uint integer_coordinates(uint bits) {
    return bits & ADDRESS_MASK;
}

// The four coordinate shapes: a scalar (1D), two (1D arrays, 2D), four (2D
// arrays, 3D); as (x, y, z, 0).
static float4 widen_float(float c) { return (float4)(c, 0, 0, 0); }
static float4 widen_float2(float2 c) { return (float4)(c, 0, 0); }
static float4 widen_float4(float4 c) { return c; }
static int4 widen_int(int c) { return (int4)(c, 0, 0, 0); }
static int4 widen_int2(int2 c) { return (int4)(c, 0, 0); }
static int4 widen_int4(int4 c) { return c; }

// The builtins of one image type: `dims` spatial dimensions, `arrayed`,
// coordinates of `N` components (float##N / int##N, N empty for scalars).
#define SAMPLED_READS(type, dims, arrayed, N)                                                     \
    float4 OVERLOAD read_imagef(read_only type image, sampler_t sampler, float##N c) {            \
        return sample_float(__ze_image(image), __ze_sampler(sampler), widen_float##N(c), dims,     \
                            arrayed);                                                              \
    }                                                                                              \
    int4 OVERLOAD read_imagei(read_only type image, sampler_t sampler, float##N c) {              \
        return sample_int(__ze_image(image), __ze_sampler(sampler), widen_float##N(c), dims,       \
                          arrayed);                                                                \
    }                                                                                              \
    uint4 OVERLOAD read_imageui(read_only type image, sampler_t sampler, float##N c) {            \
        return sample_uint(__ze_image(image), __ze_sampler(sampler), widen_float##N(c), dims,      \
                           arrayed);                                                               \
    }                                                                                              \
    float4 OVERLOAD read_imagef(read_only type image, sampler_t sampler, int##N c) {              \
        return sample_float(__ze_image(image), integer_coordinates(__ze_sampler(sampler)),         \
                            centered(widen_int##N(c)), dims, arrayed);                             \
    }                                                                                              \
    int4 OVERLOAD read_imagei(read_only type image, sampler_t sampler, int##N c) {                \
        return sample_int(__ze_image(image), integer_coordinates(__ze_sampler(sampler)),           \
                          centered(widen_int##N(c)), dims, arrayed);                               \
    }                                                                                              \
    uint4 OVERLOAD read_imageui(read_only type image, sampler_t sampler, int##N c) {              \
        return sample_uint(__ze_image(image), integer_coordinates(__ze_sampler(sampler)),          \
                           centered(widen_int##N(c)), dims, arrayed);                              \
    }

#define PLAIN_READS(type, access, N)                                                              \
    float4 OVERLOAD read_imagef(access type image, int##N c) {                                    \
        return fetch_float(__ze_image(image), widen_int##N(c));                                    \
    }                                                                                              \
    int4 OVERLOAD read_imagei(access type image, int##N c) {                                      \
        return fetch_int(__ze_image(image), widen_int##N(c));                                      \
    }                                                                                              \
    uint4 OVERLOAD read_imageui(access type image, int##N c) {                                    \
        return fetch_uint(__ze_image(image), widen_int##N(c));                                     \
    }

#define WRITES(type, access, N)                                                                   \
    void OVERLOAD write_imagef(access type image, int##N c, float4 v) {                           \
        put_float(__ze_image(image), widen_int##N(c), v);                                          \
    }                                                                                              \
    void OVERLOAD write_imagei(access type image, int##N c, int4 v) {                             \
        put_int(__ze_image(image), widen_int##N(c), v);                                            \
    }                                                                                              \
    void OVERLOAD write_imageui(access type image, int##N c, uint4 v) {                           \
        put_uint(__ze_image(image), widen_int##N(c), v);                                           \
    }

#define QUERIES(type, access)                                                                     \
    int OVERLOAD get_image_width(access type image) { return __ze_image(image)->width; }          \
    int OVERLOAD get_image_channel_data_type(access type image) {                                 \
        return __ze_image(image)->channel_type;                                                    \
    }                                                                                              \
    int OVERLOAD get_image_channel_order(access type image) {                                     \
        return __ze_image(image)->channel_order;                                                   \
    }
#define HEIGHT(type, access)                                                                      \
    int OVERLOAD get_image_height(access type image) { return __ze_image(image)->height; }
#define ARRAY_SIZE(type, access)                                                                  \
    size_t OVERLOAD get_image_array_size(access type image) {                                     \
        return __ze_image(image)->array_size;                                                      \
    }
#define DIM2(type, access)                                                                        \
    int2 OVERLOAD get_image_dim(access type image) {                                              \
        return (int2)(__ze_image(image)->width, __ze_image(image)->height);                        \
    }

#define ALL_ACCESSES(what, type)                                                                  \
    what(type, read_only) what(type, write_only) what(type, read_write)

// image1d_t
SAMPLED_READS(image1d_t, 1, false, )
PLAIN_READS(image1d_t, read_only, )
PLAIN_READS(image1d_t, read_write, )
WRITES(image1d_t, write_only, )
WRITES(image1d_t, read_write, )
ALL_ACCESSES(QUERIES, image1d_t)

// image1d_buffer_t: no sampler
PLAIN_READS(image1d_buffer_t, read_only, )
PLAIN_READS(image1d_buffer_t, read_write, )
WRITES(image1d_buffer_t, write_only, )
WRITES(image1d_buffer_t, read_write, )
ALL_ACCESSES(QUERIES, image1d_buffer_t)

// image1d_array_t: (x, layer)
SAMPLED_READS(image1d_array_t, 1, true, 2)
PLAIN_READS(image1d_array_t, read_only, 2)
PLAIN_READS(image1d_array_t, read_write, 2)
WRITES(image1d_array_t, write_only, 2)
WRITES(image1d_array_t, read_write, 2)
ALL_ACCESSES(QUERIES, image1d_array_t)
ALL_ACCESSES(ARRAY_SIZE, image1d_array_t)

// image2d_t
SAMPLED_READS(image2d_t, 2, false, 2)
PLAIN_READS(image2d_t, read_only, 2)
PLAIN_READS(image2d_t, read_write, 2)
WRITES(image2d_t, write_only, 2)
WRITES(image2d_t, read_write, 2)
ALL_ACCESSES(QUERIES, image2d_t)
ALL_ACCESSES(HEIGHT, image2d_t)
ALL_ACCESSES(DIM2, image2d_t)

// image2d_array_t: (x, y, layer)
SAMPLED_READS(image2d_array_t, 2, true, 4)
PLAIN_READS(image2d_array_t, read_only, 4)
PLAIN_READS(image2d_array_t, read_write, 4)
WRITES(image2d_array_t, write_only, 4)
WRITES(image2d_array_t, read_write, 4)
ALL_ACCESSES(QUERIES, image2d_array_t)
ALL_ACCESSES(HEIGHT, image2d_array_t)
ALL_ACCESSES(ARRAY_SIZE, image2d_array_t)
ALL_ACCESSES(DIM2, image2d_array_t)

// image3d_t
#define DEPTH_AND_DIM3(type, access)                                                              \
    int OVERLOAD get_image_depth(access type image) { return __ze_image(image)->depth; }          \
    int4 OVERLOAD get_image_dim(access type image) {                                              \
        image_ref im = __ze_image(image);                                                          \
        return (int4)(im->width, im->height, im->depth, 0);                                        \
    }
SAMPLED_READS(image3d_t, 3, false, 4)
PLAIN_READS(image3d_t, read_only, 4)
PLAIN_READS(image3d_t, read_write, 4)
WRITES(image3d_t, write_only, 4)
WRITES(image3d_t, read_write, 4)
ALL_ACCESSES(QUERIES, image3d_t)
ALL_ACCESSES(HEIGHT, image3d_t)
ALL_ACCESSES(DEPTH_AND_DIM3, image3d_t)

// Depth images: the first component of a one-component image (a 32-bit
// float or 16-bit normalized value, say) as one float; a write stores the
// float into it. Sampled reads filter as those of 2D images do.
#define DEPTH_SAMPLED_READS(type, arrayed, N)                                                      \
    float OVERLOAD read_imagef(read_only type image, sampler_t sampler, float##N c) {             \
        return sample_float(__ze_image(image), __ze_sampler(sampler), widen_float##N(c), 2,        \
                            arrayed)                                                               \
            .x;                                                                                    \
    }                                                                                              \
    float OVERLOAD read_imagef(read_only type image, sampler_t sampler, int##N c) {               \
        return sample_float(__ze_image(image), integer_coordinates(__ze_sampler(sampler)),         \
                            centered(widen_int##N(c)), 2, arrayed)                                 \
            .x;                                                                                    \
    }
#define DEPTH_PLAIN_READS(type, access, N)                                                        \
    float OVERLOAD read_imagef(access type image, int##N c) {                                     \
        return fetch_float(__ze_image(image), widen_int##N(c)).x;                                  \
    }
#define DEPTH_WRITES(type, access, N)                                                             \
    void OVERLOAD write_imagef(access type image, int##N c, float v) {                            \
        put_float(__ze_image(image), widen_int##N(c), (float4)(v, 0.0f, 0.0f, 1.0f));              \
    }

// image2d_depth_t
DEPTH_SAMPLED_READS(image2d_depth_t, false, 2)
DEPTH_PLAIN_READS(image2d_depth_t, read_only, 2)
DEPTH_PLAIN_READS(image2d_depth_t, read_write, 2)
DEPTH_WRITES(image2d_depth_t, write_only, 2)
DEPTH_WRITES(image2d_depth_t, read_write, 2)
ALL_ACCESSES(QUERIES, image2d_depth_t)
ALL_ACCESSES(HEIGHT, image2d_depth_t)
ALL_ACCESSES(DIM2, image2d_depth_t)

// image2d_array_depth_t: (x, y, layer)
DEPTH_SAMPLED_READS(image2d_array_depth_t, true, 4)
DEPTH_PLAIN_READS(image2d_array_depth_t, read_only, 4)
DEPTH_PLAIN_READS(image2d_array_depth_t, read_write, 4)
DEPTH_WRITES(image2d_array_depth_t, write_only, 4)
DEPTH_WRITES(image2d_array_depth_t, read_write, 4)
ALL_ACCESSES(QUERIES, image2d_array_depth_t)
ALL_ACCESSES(HEIGHT, image2d_array_depth_t)
ALL_ACCESSES(ARRAY_SIZE, image2d_array_depth_t)
ALL_ACCESSES(DIM2, image2d_array_depth_t)
