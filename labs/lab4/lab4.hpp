// convlab lab 4 — do not edit: the shapes the driver sweeps and the functions it calls. You
// write them in conv2d_coarse.cu (G x G outputs per thread) and conv2d_window.cu (1 x 8 outputs
// per thread with the input row in registers).
#pragma once
#include "common/core/conv_args.hpp"
#include "common/core/mask.hpp"

constexpr int kLab4MaxMaskSize = 31;

// X(GX, GY, BX, BY): each thread computes GX x GY outputs; the block is BX x BY threads, so it
// computes a (BX*GX) x (BY*GY) output tile. First G x G for G = 1..8 on 16x8 blocks, then
// 1 x G rows, then other block shapes for 4 x 4.
#define LAB4_COARSE_SHAPES(X)                                                                       \
    X(1, 1, 16, 8) X(2, 2, 16, 8) X(3, 3, 16, 8) X(4, 4, 16, 8) X(5, 5, 16, 8) X(6, 6, 16, 8)       \
    X(7, 7, 16, 8) X(8, 8, 16, 8) X(2, 1, 32, 8) X(4, 1, 32, 8) X(8, 1, 32, 8) X(4, 4, 8, 8)        \
    X(4, 4, 32, 4) X(4, 4, 32, 8)

// X(GY): the window kernel's output rows per thread (it always computes 8 outputs across).
#define LAB4_WINDOW_ROWS(X) X(1) X(2) X(4)

// The window kernel's fixed shape: 32x8 threads, 8 outputs across per thread (two runs of 4,
// 128 apart), GY rows: a 256 x (8*GY) output tile.
constexpr int kWindowBlockX = 32;
constexpr int kWindowBlockY = 8;
constexpr int kWindowRun = 4;  // outputs per run: one float4

// The register kernel: no shared memory at all. A thread computes 4 outputs across (one float4)
// and GY rows, reading its input rows straight from global memory (the L1 cache catches what
// neighbouring threads share) into a window of registers. The mask size is a template
// parameter, so the window's indices and the weights' addresses are compile-time constants.
// It covers the image's interior, where no tap leaves the image; a second, plain kernel
// computes the frame around it (and the whole image when the fast path cannot apply).
#define LAB4_REGISTER_ROWS(X) X(1) X(2) X(4) X(8)
#define LAB4_REGISTER_SIZES(X) X(1) X(3) X(5) X(7) X(9)
constexpr int kRegisterMaxMaskSize = 9;
constexpr int kRegisterThreads = 256;  // a block: 256 threads along a row, 1024 outputs across
constexpr int kRegisterRun = 4;

void copy_mask_to_coarse_constant(const convlab::Mask& mask);    // the k*k weights into c_coarse_mask
void copy_mask_to_register_constant(const convlab::Mask& mask);  // the k*k weights into c_register_mask

template <int GX, int GY, int BX, int BY>
void launch_conv2d_coarse(const convlab::ConvArgs& args);

template <int GY>
void launch_conv2d_window(const convlab::ConvArgs& args);  // reads the mask from args.d_mask

// Launches the instantiation for args.k; throws convlab::Unsupported for k > kRegisterMaxMaskSize.
template <int GY>
void launch_conv2d_register(const convlab::ConvArgs& args);
