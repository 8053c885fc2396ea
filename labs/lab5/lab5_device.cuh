// convlab lab 5 — do not edit: what every lab 5 kernel shares on the device.
#pragma once
#include <cstddef>

#include "labs/lab5/lab5.hpp"

// This thread's element in a 1-D launch. size_t: --elements goes up to 2e9, where int arithmetic
// such as i + 1 or i * stride would overflow.
__device__ __forceinline__ size_t global_index() { return blockIdx.x * size_t(blockDim.x) + threadIdx.x; }
