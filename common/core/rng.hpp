// convlab harness — do not edit in a lab.
// Counter-based random numbers: the value at (seed, a, b, c) never depends on the order in which
// values are drawn, so generated images and masks are the same on every machine and thread count.
#pragma once
#include <cstdint>

// The same functions on the host and, compiled by nvcc, on the device (the grader's fresh inputs
// are generated on the GPU and must match the host's images bit for bit).
#ifdef __CUDACC__
#define CONVLAB_HOST_DEVICE __host__ __device__
#else
#define CONVLAB_HOST_DEVICE
#endif

namespace convlab {

CONVLAB_HOST_DEVICE inline uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

CONVLAB_HOST_DEVICE inline uint64_t hash4(uint64_t seed, uint64_t a, uint64_t b, uint64_t c) {
    return splitmix64(splitmix64(splitmix64(splitmix64(seed) ^ a) ^ b) ^ c);
}

// Value number i of a random image (make_random_image, and the grader's fresh inputs on the GPU).
CONVLAB_HOST_DEVICE inline uint8_t random_pixel(uint64_t seed, uint64_t i) { return uint8_t(hash4(seed, 7, i, 0) >> 56); }

// Uniform in [0, 1) with 53 random bits.
CONVLAB_HOST_DEVICE inline double unit_double(uint64_t bits) { return double(bits >> 11) * (1.0 / 9007199254740992.0); }

}  // namespace convlab
