// convlab harness — do not edit in a lab.
// sqrtf's own result without its branch, for kernels that take many roots. nvcc's sqrtf (correctly
// rounded, the default) is, for x from 2^-101 to the largest float, an approximate reciprocal square
// root and one correction (sqrt_fast_path); for any other x (0 included) it calls a slower routine.
// Each sqrtf therefore costs a test, a branch and the barrier that joins the warp after it. A
// kernel that tests its roots together (sqrt_fast_range) and takes sqrtf only for those outside
// pays for one branch. tests/gpu_exact_sqrt.cu holds sqrt_fast_path to sqrtf on every float in
// the range, on the GPU the suite runs on.
#pragma once
#include <cuda_runtime.h>

namespace convlab {

// Whether sqrt_fast_path(x) is sqrtf(x): 2^-101 <= x <= FLT_MAX (x's bits from 0x0d000000 to 0x7f7fffff).
__device__ __forceinline__ bool sqrt_fast_range(float x) { return __float_as_uint(x) - 0x0d000000u <= 0x727fffffu; }

// sqrtf's steps for x in sqrt_fast_range, each rounded as sqrtf rounds it: r ~ 1/sqrt(x), y = x r,
// then y + (x - y^2) r / 2.
__device__ __forceinline__ float sqrt_fast_path(float x) {
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    const float y = __fmul_rn(x, r), half_r = __fmul_rn(r, 0.5f);
    return __fmaf_rn(__fmaf_rn(-y, y, x), half_r, y);
}

}  // namespace convlab
