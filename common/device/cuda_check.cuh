// convlab harness — do not edit in a lab.
// CUDA_CHECK(call): every CUDA runtime call goes through it. A failure throws CudaError whose
// message names the call, the file and the line, e.g.
//   cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice) failed at labs/lab1/x.cu:42: invalid argument (cudaErrorInvalidValue)
// CUDA_CHECK_LAUNCH() after a kernel launch catches a bad launch configuration at once.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "common/core/errors.hpp"

namespace convlab {

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
    if (status == cudaSuccess) return;
    throw CudaError(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")");
}

}  // namespace convlab

#define CUDA_CHECK(call) ::convlab::cuda_check((call), #call, __FILE__, __LINE__)
#define CUDA_CHECK_LAUNCH() ::convlab::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
