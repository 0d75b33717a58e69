// Images and samplers: properties, kernels that read through samplers and
// write images, every image copy command, and the refusals of bad input.
#include "ze_test_common.hpp"

#include <array>
#include <cmath>

namespace zetest {
namespace {

using Image = ZeHandle<ze_image_handle_t, zeImageDestroy>;
using Sampler = ZeHandle<ze_sampler_handle_t, zeSamplerDestroy>;
using Float4 = std::array<float, 4>;
using Int4 = std::array<int32_t, 4>;

// A 2D image of float RGBA pixels.
ze_image_desc_t float4Image(uint32_t width, uint32_t height) {
    return imageDesc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32,
                     ZE_IMAGE_FORMAT_TYPE_FLOAT, width, height);
}

Float4 pixelValue(uint32_t x, uint32_t y) {
    return {float(x), float(y), float(x * y), float(x + 100 * y)};
}

class ImageTest : public WithQueueAndList {
protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithQueueAndList::SetUp());
        ASSERT_NO_FATAL_FAILURE(loadModule(module_, "images"));
    }
    void TearDown() override {
        module_.reset();
        WithQueueAndList::TearDown();
    }
    void createImage(Image &image, const ze_image_desc_t &desc) {
        ASSERT_ZE_SUCCESS(zeImageCreate(context_, device_, &desc, image.out()));
    }
    void createSampler(Sampler &sampler, ze_sampler_address_mode_t address,
                       ze_sampler_filter_mode_t filter, bool normalized) {
        ze_sampler_desc_t desc = {ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, address, filter,
                                  normalized};
        ASSERT_ZE_SUCCESS(zeSamplerCreate(context_, device_, &desc, sampler.out()));
    }
    // A float RGBA image of `width` x `height` holding pixelValue(x, y).
    void createFilledImage(Image &image, uint32_t width, uint32_t height) {
        ASSERT_NO_FATAL_FAILURE(createImage(image, float4Image(width, height)));
        std::vector<Float4> pixels(size_t(width) * height);
        for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x)
                pixels[y * width + x] = pixelValue(x, y);
        ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyFromMemory(list_, image, pixels.data(),
                                                                 nullptr, nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
        ASSERT_NO_FATAL_FAILURE(execute(list_));
        ASSERT_ZE_SUCCESS(zeCommandListReset(list_));
    }
    // Two images of `desc`: `pixels` copied into the first, `kernelName`
    // (groups of groupX x groupY covering the image) run on (first, second);
    // the second's pixels in `out`.
    template <class Pixel>
    void throughKernel(const ze_image_desc_t &desc, const std::vector<Pixel> &pixels,
                       const char *kernelName, uint32_t groupX, uint32_t groupY,
                       std::vector<Pixel> *out) {
        Image src, dst;
        ASSERT_NO_FATAL_FAILURE(createImage(src, desc));
        ASSERT_NO_FATAL_FAILURE(createImage(dst, desc));
        ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyFromMemory(list_, src, pixels.data(), nullptr,
                                                                 nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
        Kernel kernel;
        ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, kernelName, groupX, groupY));
        ze_image_handle_t srcHandle = src, dstHandle = dst;
        ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(srcHandle), byValue(dstHandle)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel,
                                 {uint32_t(desc.width) / groupX, desc.height / groupY, 1}));
        ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
        ASSERT_NO_FATAL_FAILURE(execute(list_));
        ASSERT_ZE_SUCCESS(zeCommandListReset(list_));
        *out = readImage<Pixel>(dst, pixels.size());
    }
    template <class Pixel> std::vector<Pixel> readImage(ze_image_handle_t image, size_t pixels) {
        std::vector<Pixel> out(pixels);
        EXPECT_ZE_SUCCESS(zeCommandListAppendImageCopyToMemory(list_, out.data(), image, nullptr,
                                                               nullptr, 0, nullptr));
        EXPECT_ZE_SUCCESS(zeCommandListClose(list_));
        execute(list_);
        EXPECT_ZE_SUCCESS(zeCommandListReset(list_));
        return out;
    }

    Module module_;
};

TEST_F(ImageTest, DeviceReportsOpenClImageLimits) {
    ze_device_image_properties_t p = {ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetImageProperties(device_, &p));
    EXPECT_GE(p.maxImageDims1D, 4096u);
    EXPECT_GE(p.maxImageDims2D, 4096u);
    EXPECT_GE(p.maxImageDims3D, 256u);
    EXPECT_GT(p.maxImageArraySlices, 1u);
    EXPECT_GE(p.maxSamplers, 8u);
    EXPECT_GT(p.maxReadImageArgs, 0u);
    EXPECT_GT(p.maxWriteImageArgs, 0u);
}

TEST_F(ImageTest, FormatPropertiesSayWhichFiltersApply) {
    ze_image_properties_t p = {ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
    ze_image_desc_t unorm = imageDesc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
                                      ZE_IMAGE_FORMAT_TYPE_UNORM, 16, 16);
    ASSERT_ZE_SUCCESS(zeImageGetProperties(device_, &unorm, &p));
    EXPECT_EQ(p.samplerFilterFlags,
              ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR);
    // OpenCL filters integer images with nearest only.
    ze_image_desc_t integer = imageDesc(ZE_IMAGE_TYPE_3D, ZE_IMAGE_FORMAT_LAYOUT_32,
                                        ZE_IMAGE_FORMAT_TYPE_UINT, 8, 8, 8);
    ASSERT_ZE_SUCCESS(zeImageGetProperties(device_, &integer, &p));
    EXPECT_EQ(p.samplerFilterFlags, ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT);
    // Media layouts: held by neither backend.
    ze_image_desc_t media = imageDesc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_NV12,
                                      ZE_IMAGE_FORMAT_TYPE_UNORM, 16, 16);
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
                     zeImageGetProperties(device_, &media, &p));
    Image image;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
                     zeImageCreate(context_, device_, &media, image.out()));
    EXPECT_EQ(image.get(), nullptr);
    // Packed floats, which OpenCL has not: refused where the device's
    // OpenCL holds the images, filtered linearly where the driver converts
    // pixels itself (the CUDA backend).
    ze_image_desc_t packed = imageDesc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_11_11_10,
                                       ZE_IMAGE_FORMAT_TYPE_FLOAT, 16, 16);
    const ze_result_t r = zeImageGetProperties(device_, &packed, &p);
    if (r == ZE_RESULT_SUCCESS)
        EXPECT_EQ(p.samplerFilterFlags,
                  ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR);
    else
        EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, r);
    // A layout's type it has not is refused everywhere.
    packed.format.type = ZE_IMAGE_FORMAT_TYPE_UINT;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
                     zeImageGetProperties(device_, &packed, &p));
}

// Unsigned integers through read_imageui and write_imageui (which SPIR-V,
// without signedness, carries as read_imagei and write_imagei), saturated
// to the format's range on the write.
TEST_F(ImageTest, UnsignedPixelsSaturateOnWrite) {
    constexpr uint32_t kWidth = 8, kHeight = 4;
    const ze_image_desc_t desc = imageDesc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
                                           ZE_IMAGE_FORMAT_TYPE_UINT, kWidth, kHeight);
    std::vector<std::array<uint8_t, 4>> pixels(kWidth * kHeight), out;
    for (uint32_t i = 0; i < pixels.size(); ++i)
        pixels[i] = {uint8_t(i), uint8_t(2 * i), uint8_t(250 + i % 6), uint8_t(i % 3)};
    ASSERT_NO_FATAL_FAILURE(throughKernel(desc, pixels, "add_unsigned", 4, 2, &out));
    const unsigned added[4] = {1, 2, 3, 300};
    for (uint32_t i = 0; i < pixels.size(); ++i)
        for (int c = 0; c < 4; ++c)
            ASSERT_EQ(out[i][c], std::min(pixels[i][c] + added[c], 255u))
                << "pixel " << i << " channel " << c;
}

// 16-bit float pixels read as floats and written back rounded, where the
// device offers them (PoCL's CPU device does not: its values are wrong).
TEST_F(ImageTest, HalfFloatPixelsConvert) {
    constexpr uint32_t kWidth = 4, kHeight = 4;
    const ze_image_desc_t desc = imageDesc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16,
                                           ZE_IMAGE_FORMAT_TYPE_FLOAT, kWidth, kHeight);
    ze_image_properties_t p = {ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
    if (zeImageGetProperties(device_, &desc, &p) == ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
        GTEST_SKIP() << "the device has no 16-bit float images";
    // Halves 0.5, 1, 1.5, 2, 3, 4, 6, 8 (exact when doubled, but 8 -> 16).
    const uint16_t halves[] = {0x3800, 0x3c00, 0x3e00, 0x4000, 0x4200, 0x4400, 0x4600, 0x4800};
    const uint16_t doubled[] = {0x3c00, 0x4000, 0x4200, 0x4400, 0x4600, 0x4800, 0x4a00, 0x4c00};
    std::vector<std::array<uint16_t, 4>> pixels(kWidth * kHeight), out;
    for (uint32_t i = 0; i < pixels.size(); ++i)
        for (uint32_t c = 0; c < 4; ++c)
            pixels[i][c] = halves[(i + c) % 8];
    ASSERT_NO_FATAL_FAILURE(throughKernel(desc, pixels, "double_pixels", 4, 4, &out));
    for (uint32_t i = 0; i < pixels.size(); ++i)
        for (uint32_t c = 0; c < 4; ++c)
            ASSERT_EQ(out[i][c], doubled[(i + c) % 8]) << "pixel " << i << " channel " << c;
}

// A kernel reads through a clamping, nearest sampler (reads left of the
// image return the left edge) and writes another image.
TEST_F(ImageTest, KernelReadsThroughASamplerAndWritesAnImage) {
    constexpr uint32_t kWidth = 16, kHeight = 8;
    constexpr int kShift = -3;
    Image src, dst;
    ASSERT_NO_FATAL_FAILURE(createFilledImage(src, kWidth, kHeight));
    ASSERT_NO_FATAL_FAILURE(createImage(dst, float4Image(kWidth, kHeight)));
    Sampler sampler;
    ASSERT_NO_FATAL_FAILURE(createSampler(sampler, ZE_SAMPLER_ADDRESS_MODE_CLAMP,
                                          ZE_SAMPLER_FILTER_MODE_NEAREST, false));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "scale_sampled", 4, 2));
    ze_image_handle_t srcHandle = src, dstHandle = dst;
    ze_sampler_handle_t samplerHandle = sampler;
    ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(srcHandle), byValue(samplerHandle),
                                       byValue(dstHandle), byValue(kShift)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {kWidth / 4, kHeight / 2, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    ASSERT_ZE_SUCCESS(zeCommandListReset(list_));

    std::vector<Float4> out = readImage<Float4>(dst, kWidth * kHeight);
    for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
            uint32_t from = uint32_t(std::max(int(x) + kShift, 0));
            Float4 expected = pixelValue(from, y);
            for (float &c : expected)
                c *= 2;
            ASSERT_EQ(out[y * kWidth + x], expected) << "x=" << x << " y=" << y;
        }
}

// Linear filtering halfway between two pixel centres gives their mean, in
// normalized and in unnormalized coordinates.
TEST_F(ImageTest, LinearSamplerInterpolates) {
    constexpr uint32_t kWidth = 4, kHeight = 1;
    Image src;
    ASSERT_NO_FATAL_FAILURE(createFilledImage(src, kWidth, kHeight));
    UsmBuffer<Float4> out;
    allocate(out, UsmKind::Shared, 1);
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "sample_at"));
    for (bool normalized : {false, true}) {
        Sampler sampler;
        ASSERT_NO_FATAL_FAILURE(createSampler(sampler, ZE_SAMPLER_ADDRESS_MODE_CLAMP,
                                              ZE_SAMPLER_FILTER_MODE_LINEAR, normalized));
        // Between the centres of pixels 1 (1.5) and 2 (2.5).
        std::array<float, 2> at = {2.0f, 0.5f};
        if (normalized)
            at = {2.0f / kWidth, 0.5f / kHeight};
        ze_image_handle_t srcHandle = src;
        ze_sampler_handle_t samplerHandle = sampler;
        ASSERT_ZE_SUCCESS(
            setArgs(kernel, {byValue(srcHandle), byValue(samplerHandle), usm(out), byValue(at)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {1, 1, 1}));
        ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
        ASSERT_NO_FATAL_FAILURE(execute(list_));
        ASSERT_ZE_SUCCESS(zeCommandListReset(list_));
        Float4 left = pixelValue(1, 0), right = pixelValue(2, 0);
        for (int c = 0; c < 4; ++c)
            EXPECT_NEAR(out[0][c], (left[c] + right[c]) / 2, 1e-3)
                << "channel " << c << (normalized ? " normalized" : " unnormalized");
    }
}

// write_imagei on 3D images and 2D arrays, whose builtins PoCL's library
// names differently from the SPIR-V translator.
TEST_F(ImageTest, KernelsWriteThreeDimensionalImagesAndArrays) {
    constexpr uint32_t kW = 4, kH = 3, kD = 2;
    for (bool array : {false, true}) {
        Image image;
        ze_image_desc_t desc =
            array ? imageDesc(ZE_IMAGE_TYPE_2DARRAY, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32,
                              ZE_IMAGE_FORMAT_TYPE_SINT, kW, kH, 1, kD)
                  : imageDesc(ZE_IMAGE_TYPE_3D, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32,
                              ZE_IMAGE_FORMAT_TYPE_SINT, kW, kH, kD);
        ASSERT_NO_FATAL_FAILURE(createImage(image, desc));
        Kernel kernel;
        ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_,
                                           array ? "write_coords_2d_array" : "write_coords_3d"));
        ze_image_handle_t handle = image;
        ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(handle)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {kW, kH, kD}));
        ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
        ASSERT_NO_FATAL_FAILURE(execute(list_));
        ASSERT_ZE_SUCCESS(zeCommandListReset(list_));
        std::vector<Int4> out = readImage<Int4>(image, kW * kH * kD);
        for (int z = 0; z < int(kD); ++z)
            for (int y = 0; y < int(kH); ++y)
                for (int x = 0; x < int(kW); ++x)
                    ASSERT_EQ(out[(z * kH + y) * kW + x], (Int4{x, y, z, x + 10 * y + 100 * z}))
                        << (array ? "2D array" : "3D") << " x=" << x << " y=" << y << " z=" << z;
    }
}

TEST_F(ImageTest, KernelSeesTheSizeOfAnImageArray) {
    Image image;
    ASSERT_NO_FATAL_FAILURE(createImage(image, imageDesc(ZE_IMAGE_TYPE_2DARRAY,
                                                         ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
                                                         ZE_IMAGE_FORMAT_TYPE_UNORM, 5, 7, 1, 3)));
    UsmBuffer<int> out;
    allocate(out, UsmKind::Shared, 3);
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "array_size"));
    ze_image_handle_t handle = image;
    ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(handle), usm(out)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {1, 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    EXPECT_EQ(out[0], 5);
    EXPECT_EQ(out[1], 7);
    EXPECT_EQ(out[2], 3);
}

// Memory -> image (a region), image -> image (a region, elsewhere), image ->
// image (whole), image -> memory (with pitches), chained by events in one
// list; the host checks every pixel.
TEST_F(ImageTest, EveryCopyCommandMovesTheRightPixels) {
    constexpr uint32_t kW = 8, kH = 6;
    using Pixel = std::array<uint8_t, 4>;
    const ze_image_desc_t desc = imageDesc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
                                           ZE_IMAGE_FORMAT_TYPE_UINT, kW, kH);
    Image a, b, c;
    ASSERT_NO_FATAL_FAILURE(createImage(a, desc));
    ASSERT_NO_FATAL_FAILURE(createImage(b, desc));
    ASSERT_NO_FATAL_FAILURE(createImage(c, desc));
    auto pixel = [](uint32_t x, uint32_t y, uint8_t tag) {
        return Pixel{uint8_t(x), uint8_t(y), tag, uint8_t(x ^ y)};
    };
    std::vector<Pixel> whole(kW * kH), patch(3 * 2);
    for (uint32_t y = 0; y < kH; ++y)
        for (uint32_t x = 0; x < kW; ++x)
            whole[y * kW + x] = pixel(x, y, 1);
    for (uint32_t y = 0; y < 2; ++y)
        for (uint32_t x = 0; x < 3; ++x)
            patch[y * 3 + x] = pixel(x, y, 2);
    // Rows of 8 pixels plus 3 of padding, slices padded too.
    constexpr uint32_t kRowPitch = (kW + 3) * sizeof(Pixel), kSlicePitch = kRowPitch * (kH + 1);
    UsmBuffer<uint8_t> out;
    allocate(out, UsmKind::Host, kSlicePitch);
    std::fill(out.data(), out.data() + kSlicePitch, 0xee);

    Event e[4];
    for (uint32_t i = 0; i < 4; ++i)
        ASSERT_NO_FATAL_FAILURE(createEvent(e[i], i + 1));
    ze_event_handle_t h[4] = {e[0], e[1], e[2], e[3]};
    const ze_image_region_t patchAt = {4, 3, 0, 3, 2, 1}, patchFrom = {0, 0, 0, 3, 2, 1},
                            patchTo = {1, 1, 0, 3, 2, 1};
    // a <- whole; a(4..6, 3..4) <- patch; b(1..3, 1..2) <- a(4..6, 3..4);
    // c <- b entirely (b's other pixels: never written, so only compare the
    // copied ones); out <- a with pitches.
    ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyFromMemory(list_, a, whole.data(), nullptr, h[0],
                                                             0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyFromMemory(list_, a, patch.data(), &patchAt,
                                                             h[1], 1, &h[0]));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendImageCopyRegion(list_, b, a, &patchTo, &patchAt, h[2], 1, &h[1]));
    ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopy(list_, c, b, h[3], 1, &h[2]));
    ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyToMemoryExt(list_, out.data(), a, nullptr,
                                                              kRowPitch, kSlicePitch, nullptr, 1,
                                                              &h[3]));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    ASSERT_ZE_SUCCESS(zeCommandListReset(list_));

    for (uint32_t y = 0; y < kH; ++y) {
        for (uint32_t x = 0; x < kW; ++x) {
            bool inPatch = x >= 4 && x < 7 && y >= 3 && y < 5;
            Pixel expected = inPatch ? pixel(x - 4, y - 3, 2) : pixel(x, y, 1);
            Pixel got;
            std::memcpy(got.data(), out.data() + y * kRowPitch + x * sizeof(Pixel), sizeof(Pixel));
            ASSERT_EQ(got, expected) << "a at x=" << x << " y=" << y;
        }
        for (uint32_t pad = kW * sizeof(Pixel); pad < kRowPitch; ++pad)
            ASSERT_EQ(out[y * kRowPitch + pad], 0xee) << "row padding written, row " << y;
    }
    std::vector<Pixel> fromC = readImage<Pixel>(c, kW * kH);
    for (uint32_t y = 0; y < 2; ++y)
        for (uint32_t x = 0; x < 3; ++x)
            ASSERT_EQ(fromC[(1 + y) * kW + 1 + x], pixel(x, y, 2)) << "c at x=" << x << " y=" << y;
}

TEST_F(ImageTest, BadRegionsAndArgumentsAreRefused) {
    Image image, other;
    ASSERT_NO_FATAL_FAILURE(createImage(image, float4Image(4, 4)));
    ASSERT_NO_FATAL_FAILURE(createImage(other, float4Image(8, 8)));
    std::vector<Float4> host(64);
    const ze_image_region_t outside = {2, 2, 0, 4, 1, 1};
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                     zeCommandListAppendImageCopyToMemory(list_, host.data(), image, &outside,
                                                          nullptr, 0, nullptr));
    // z is not a dimension of a 2D image: ignored, as the depth is.
    const ze_image_region_t withZ = {1, 1, 1, 2, 2, 1};
    EXPECT_ZE_SUCCESS(zeCommandListAppendImageCopyToMemory(list_, host.data(), image, &withZ,
                                                           nullptr, 0, nullptr));
    // Whole images of different sizes.
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                     zeCommandListAppendImageCopy(list_, other, image, nullptr, 0, nullptr));

    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "scale_sampled"));
    ze_image_handle_t handle = image;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
                     zeKernelSetArgumentValue(kernel, 0, 4, &handle));
    // An image where the kernel takes a sampler.
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                     zeKernelSetArgumentValue(kernel, 1, sizeof(handle), &handle));
}

} // namespace
} // namespace zetest
