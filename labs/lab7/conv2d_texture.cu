// Lab 7 — the generic convolution (any mask, lab 3's meaning) through texture memory.
//
// The texture unit reads a 2-D array with caching for 2-D neighbourhoods, converts formats, and
// applies a border for you: its address modes. Four steps:
//   1. A cudaArray of the image's shape (cudaMallocArray; uchar1 for grey; for colour uchar4,
//      since arrays have 1, 2 or 4 channels, filled by a kernel that writes a surface object).
//      Copy args.d_in into it on every launch (cudaMemcpy2DToArrayAsync): the input may change
//      between launches, so keep the array but never its contents.
//   2. A texture object over it (cudaCreateTextureObject): point filtering, element reads, and
//      the address mode of the border: zero = cudaAddressModeBorder, clamp =
//      cudaAddressModeClamp, wrap = cudaAddressModeWrap (which needs normalised coordinates,
//      u = (x + 0.5) / width). The hardware's cudaAddressModeMirror is not the kit's mirror: find
//      out how it differs (the handout draws both) and handle mirror yourself.
//   3. A kernel like lab 3's: the input tile in shared memory, but each tile element fetched
//      with tex2D<uchar1>(texture, x + 0.5f, y + 0.5f) (texel centres: why the 0.5?).
//   4. The mask in c_texture_mask, copied by copy_mask_to_texture_constant.
// Keep the array and the texture objects between launches (made again when the shape changes).
//
// Build and run:   make lab7 && ./lab7 --variant texture --mask gauss:9:2 --border wrap
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab7/lab7.hpp"

using namespace convlab;

__constant__ float c_texture_mask[kLab7MaxMaskSize * kLab7MaxMaskSize];

void copy_mask_to_texture_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_texture_mask, mask.weights.data(), mask.weights.size() * sizeof(float)));
}

void launch_conv2d_texture(const ConvArgs& args) {
    // TODO(lab7): the array, the texture object and the kernel (steps 1 to 3 above).
    (void)args;
    todo("launch_conv2d_texture (conv2d_texture.cu)");
}
