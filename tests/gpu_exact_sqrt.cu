// The GPU suite's check of common/families/pipelines/exact_sqrt.cuh: sqrt_fast_path(x) against sqrtf(x), bit for bit,
// for every float x in sqrt_fast_range (about 1.9 billion), and the floats just outside the range
// not in it. Prints the count checked and the first difference; exits 1 on any.
#include <cstdio>

#include "common/families/pipelines/exact_sqrt.cuh"

using namespace convlab;

// Every bit pattern from first - 1 to last + 1: inside [first, last] in range and equal to sqrtf,
// the two outside not in range.
__global__ void compare(unsigned first, unsigned last, unsigned long long* differ, unsigned* first_bits) {
    const unsigned long long step = size_t(gridDim.x) * blockDim.x;
    for (unsigned long long b = first - 1ull + blockIdx.x * size_t(blockDim.x) + threadIdx.x; b <= last + 1ull; b += step) {
        const float x = __uint_as_float(unsigned(b));
        const bool inside = b >= first && b <= last;
        const bool wrong = inside ? !sqrt_fast_range(x) || __float_as_uint(sqrt_fast_path(x)) != __float_as_uint(sqrtf(x))
                                  : sqrt_fast_range(x);
        if (wrong) {
            atomicAdd(differ, 1ull);
            atomicMin(first_bits, unsigned(b));
        }
    }
}

int main() {
    constexpr unsigned kFirst = 0x0d000000u, kLast = 0x7f7fffffu;
    unsigned long long* differ = nullptr;
    unsigned* first_bits = nullptr;
    if (cudaMallocManaged(&differ, sizeof *differ) != cudaSuccess || cudaMallocManaged(&first_bits, sizeof *first_bits) != cudaSuccess) {
        std::fprintf(stderr, "gpu_exact_sqrt: no GPU memory\n");
        return 2;
    }
    *differ = 0, *first_bits = ~0u;
    compare<<<4096, 256>>>(kFirst, kLast, differ, first_bits);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        std::fprintf(stderr, "gpu_exact_sqrt: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 2;
    }
    std::printf("checked %u floats, %llu differ\n", kLast - kFirst + 3, *differ);
    if (*differ) std::printf("first difference at bits 0x%08x\n", *first_bits);
    return *differ == 0 ? 0 : 1;
}
