// Lab 7 — the generic convolution through texture memory. Reference solution.
//
// The image goes into a cudaArray (the texture unit's own 2-D layout) on every launch: the
// input may change between launches, so nothing of it is kept. One channel is a plain
// device-to-device copy into an array of uchar1; three channels are padded to uchar4 (arrays
// have 1, 2 or 4 channels) by a small kernel that writes the array through a surface object.
// A block then fills lab 3's shared tile with tex2D fetches, and the texture unit does the border:
//   zero    cudaAddressModeBorder   (reads 0 outside)             unnormalised coordinates
//   clamp   cudaAddressModeClamp    (the edge texel)              unnormalised coordinates
//   wrap    cudaAddressModeWrap     (only with normalised ones: u = (x + 0.5) / width)
//   mirror  not the hardware's: cudaAddressModeMirror repeats the edge texel (..b a | a b c..),
//           the kit's mirror does not (..c b | a b c..). The tile maps its coordinates with
//           border_index and fetches inside the image (clamp mode, never used).
// Every fetch is at a texel's centre (x + 0.5): with point sampling an integer coordinate lands
// on the boundary between two texels, and a rounding error picks the left one.
//
// Why a tile at all, not a fetch a tap: the texture unit returns a few texels a clock per SM,
// while shared memory serves 32 words a clock, and a K x K mask reads each pixel K^2 times.
//
// The array, the surface and one texture object per border are made on the first launch of a
// shape and kept (made again when the shape changes).
//
// Build and run:   make lab7 SOLUTION=1 && ./lab7 --variant texture --mask gauss:9:2
#include <cstdint>

#include "common/device/cuda_check.cuh"
#include "labs/lab7/lab7.hpp"

using namespace convlab;

__constant__ float c_texture_mask[kLab7MaxMaskSize * kLab7MaxMaskSize];

namespace {

constexpr int kTile = kLab7TextureTile;
constexpr int kBorders = 4;

// The array holding the image, and a texture object over it for each border.
struct TextureImage {
    int width = 0, height = 0, channels = 0;
    cudaArray_t array = nullptr;
    cudaSurfaceObject_t surface = 0;
    cudaTextureObject_t texture[kBorders] = {};

    void release() {
        CUDA_CHECK(cudaDeviceSynchronize());  // no kernel may still read what is destroyed
        for (cudaTextureObject_t& t : texture)
            if (t) CUDA_CHECK(cudaDestroyTextureObject(t)), t = 0;
        if (surface) CUDA_CHECK(cudaDestroySurfaceObject(surface)), surface = 0;
        if (array) CUDA_CHECK(cudaFreeArray(array)), array = nullptr;
    }

    void ensure(int w, int h, int c) {
        if (array && w == width && h == height && c == channels) return;
        release();
        const cudaChannelFormatDesc format = c == 1 ? cudaCreateChannelDesc<uchar1>() : cudaCreateChannelDesc<uchar4>();
        CUDA_CHECK(cudaMallocArray(&array, &format, w, h, cudaArraySurfaceLoadStore));
        width = w, height = h, channels = c;
        cudaResourceDesc resource{};
        resource.resType = cudaResourceTypeArray;
        resource.res.array.array = array;
        CUDA_CHECK(cudaCreateSurfaceObject(&surface, &resource));
    }

    cudaTextureObject_t texture_for(Border border) {
        cudaTextureObject_t& t = texture[int(border)];
        if (t) return t;
        cudaResourceDesc resource{};
        resource.resType = cudaResourceTypeArray;
        resource.res.array.array = array;
        cudaTextureDesc desc{};
        const cudaTextureAddressMode mode = border == Border::Zero  ? cudaAddressModeBorder
                                            : border == Border::Wrap ? cudaAddressModeWrap
                                                                     : cudaAddressModeClamp;
        desc.addressMode[0] = desc.addressMode[1] = mode;
        desc.filterMode = cudaFilterModePoint;
        desc.readMode = cudaReadModeElementType;  // the bytes as they are; float conversion is ours
        desc.normalizedCoords = border == Border::Wrap;  // wrap works on normalised coordinates only
        CUDA_CHECK(cudaCreateTextureObject(&t, &resource, &desc, nullptr));
        return t;
    }
};

TextureImage g_image;

// Three interleaved channels into the uchar4 array, a pixel a thread.
__global__ void pack_rgb_kernel(const uint8_t* in, int width, int height, cudaSurfaceObject_t surface) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const uint8_t* p = in + (size_t(y) * width + x) * 3;
    surf2Dwrite(make_uchar4(p[0], p[1], p[2], 0), surface, x * int(sizeof(uchar4)), y);  // x in bytes
}

// The texel of image coordinate (x, y), which may lie outside: the texture's address mode
// applies the border, except the kit's mirror, mapped here.
template <int C>
__device__ void fetch(cudaTextureObject_t texture, int x, int y, const ConvArgs& a, float* value) {
    float u, v;
    if (a.border == Border::Wrap) {
        u = (x + 0.5f) / a.width;
        v = (y + 0.5f) / a.height;
    } else {
        if (a.border == Border::Mirror) {
            x = border_index(x, a.width, Border::Mirror);
            y = border_index(y, a.height, Border::Mirror);
        }
        u = x + 0.5f;
        v = y + 0.5f;
    }
    if constexpr (C == 1) {
        value[0] = tex2D<uchar1>(texture, u, v).x;
    } else {
        const uchar4 p = tex2D<uchar4>(texture, u, v);
        value[0] = p.x, value[1] = p.y, value[2] = p.z;
    }
}

// Lab 3's kernel with the tile fetched through the texture unit: a 16x16 block, a 16x16 output
// tile, the (16 + K - 1)^2 input tile in shared memory, channels interleaved.
template <int C>
__global__ void conv2d_texture_kernel(ConvArgs a, cudaTextureObject_t texture) {
    extern __shared__ float s_tile[];
    const int k = a.k, r = k / 2;
    const int tile_w = kTile + k - 1;
    const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
    const int tid = threadIdx.y * kTile + threadIdx.x;
    for (int n = tid; n < tile_w * tile_w; n += kTile * kTile) {
        const int row = n / tile_w, col = n - row * tile_w;
        fetch<C>(texture, x0 - r + col, y0 - r + row, a, &s_tile[n * C]);
    }
    __syncthreads();

    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= a.width || y >= a.height) return;
    for (int c = 0; c < C; ++c) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) {
            const float* row = &s_tile[((threadIdx.y + i) * tile_w + threadIdx.x) * C + c];
            for (int j = 0; j < k; ++j) sum += c_texture_mask[i * k + j] * row[j * C];
        }
        a.d_out[(size_t(y) * a.width + x) * C + c] = sum;
    }
}

template <int C>
void launch_for_channels(const ConvArgs& args) {
    g_image.ensure(args.width, args.height, C);
    if (C == 1) {
        CUDA_CHECK(cudaMemcpy2DToArrayAsync(g_image.array, 0, 0, args.d_in, args.width, args.width, args.height,
                                            cudaMemcpyDeviceToDevice));
    } else {
        const dim3 block(32, 8), grid((args.width + 31) / 32, (args.height + 7) / 8);
        pack_rgb_kernel<<<grid, block>>>(args.d_in, args.width, args.height, g_image.surface);
    }
    const int tile = kTile + args.k - 1;
    const size_t shared_bytes = size_t(tile) * tile * C * sizeof(float);  // 25 KB at k = 31, 3 channels
    const dim3 grid((args.width + kTile - 1) / kTile, (args.height + kTile - 1) / kTile);
    conv2d_texture_kernel<C><<<grid, dim3(kTile, kTile), shared_bytes>>>(args, g_image.texture_for(args.border));
}

}  // namespace

void copy_mask_to_texture_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_texture_mask, mask.weights.data(), mask.weights.size() * sizeof(float)));
}

void launch_conv2d_texture(const ConvArgs& args) {
    if (args.channels == 1)
        launch_for_channels<1>(args);
    else
        launch_for_channels<3>(args);
}
