// convlab lab 5 — do not edit: the kernels' contracts. The baselines (variant A of each
// experiment) are given in given_kernels.cu; you write the others in coalescing.cu,
// divergence.cu, block_config.cu and bank_conflicts.cu.
//
// Every launch function enqueues its kernel on the default stream and returns; it checks the
// launch (CUDA_CHECK_LAUNCH) but does not synchronise. Every element index is a size_t
// (global_index() in lab5_device.cuh): --elements goes up to 2e9, close to int's limit.
#pragma once
#include <cstddef>

// One thread per element, enough blocks of `threads` to cover n.
inline unsigned blocks_for(size_t n, int threads) { return unsigned((n + threads - 1) / threads); }

// ---- experiment 1: memory access --------------------------------------------------------------
// Swap each pair of neighbours: out[i ^ 1] = in[i]. When n is odd the last element has no
// partner and is copied to its own place.
void launch_swap_write_swapped(const float* d_in, float* d_out, size_t n);  // A (given): read in order, write swapped
void launch_swap_read_swapped(const float* d_in, float* d_out, size_t n);   // B (yours): read swapped, write in order
void launch_swap_read_only(const float* d_in, float* d_out, size_t n);      // C (yours): B through the read-only path

// Given sweeps: out[i*stride] = in[i*stride] for every i*stride < n; and out[j] = in[j] for
// offset <= j < n, thread i taking j = i + offset (the warps' accesses start `offset` floats late).
void launch_copy_strided(const float* d_in, float* d_out, size_t n, int stride);
void launch_copy_offset(const float* d_in, float* d_out, size_t n, int offset);

// ---- experiment 2: divergence and memory access -----------------------------------------------
// out[i] = sqrt(2 * in[i-1] + 0.5 * in[i+1]); element 0 uses itself for its missing left
// neighbour, element n-1 for its missing right one.
void launch_neighbours_branchy(const float* d_in, float* d_out, size_t n);    // A (given): if/else loads
void launch_neighbours_read_only(const float* d_in, float* d_out, size_t n);  // B (yours): A through the read-only path
void launch_neighbours_clamped(const float* d_in, float* d_out, size_t n);    // C (yours): clamped indices, no branches

// ---- experiment 3: divergence and logical expressions -----------------------------------------
// theta = ceil((in[i] - 22) / 45), in 0..3 for inputs in [-22, 157]; with the parity of i it picks
// a direction (dx, dy) and out[i] = dx + dy:
//   theta:      0        1         2        3
//   i even:  ( 1, 0)  ( 1, 1)  ( 0, 1)  (-1, 1)
//   i odd:   (-1, 0)  (-1,-1)  ( 0,-1)  ( 1,-1)
void launch_direction_nested_ifs(const float* d_in, int* d_out, size_t n);   // A (given): nested ifs
void launch_direction_branch_free(const float* d_in, int* d_out, size_t n);  // B (yours): arithmetic only

// Given sweep: each element runs one of `paths` code paths (kPathWork dependent FMAs with the
// path's own constants). by_warp = false: path = lane % paths, so a warp splits `paths` ways;
// by_warp = true: path = warp % paths, the same count of paths but never inside one warp.
constexpr int kMaxPaths = 32;
constexpr int kPathWork = 64;
void launch_paths(const float* d_in, float* d_out, size_t n, int paths, bool by_warp);
// The constants of path p: x = fma(x, scale, offset), kPathWork times. Scales just below 1 and
// small offsets keep x bounded however many steps run.
float path_scale(int path);
float path_offset(int path);
void load_path_constants();   // into constant memory, once before the first launch_paths

// ---- experiment 4: block and grid configuration -----------------------------------------------
// out[i] = in[i] + 1, one element per thread.
void launch_add_one(const float* d_in, float* d_out, size_t n, int threads_per_block);  // given kernel, any block size
void launch_add_one_tuned(const float* d_in, float* d_out, size_t n);                    // B (yours): your choice of block and grid
const void* add_one_kernel_address();  // for the occupancy API

// ---- experiment 5: shared-memory bank conflicts -----------------------------------------------
// Each block of kSharedThreads copies the first kSharedRows x 32 floats of d_in into shared
// memory, as rows of 32 words (A) or of 33 (B, padded). Then lane l of every warp reads the
// logical word l*stride + 32*m for m = 0 .. kSharedReads-1, `repeats` times over, adding in that
// order, and writes its sum to d_out[block * kSharedThreads + thread]. d_in holds at least
// kSharedRows * 32 floats.
constexpr int kSharedThreads = 256;
constexpr int kSharedReads = 64;
constexpr int kMaxSharedStride = 32;
constexpr int kSharedRows = (31 * kMaxSharedStride) / 32 + kSharedReads;  // the highest row read, plus one
void launch_shared_stride(const float* d_in, float* d_out, int blocks, int stride, int repeats);         // A (given)
void launch_shared_stride_padded(const float* d_in, float* d_out, int blocks, int stride, int repeats);  // B (yours)
