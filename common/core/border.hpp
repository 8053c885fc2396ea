// convlab harness — do not edit in a lab.
// Border modes: what a mask tap that falls outside the image reads. This header is the one
// definition of the semantics; the CPU references and the kernels all call border_index().
#pragma once
#include <string>

#if defined(__CUDACC__)
#define CONVLAB_HD __host__ __device__ __forceinline__
#else
#define CONVLAB_HD inline
#endif

namespace convlab {

enum class Border : int {
    Zero,    // outside pixels read 0                      ..0 0 | a b c d | 0 0..
    Clamp,   // replicate the edge pixel                   ..a a | a b c d | d d..
    Wrap,    // periodic                                   ..c d | a b c d | a b..
    Mirror,  // reflect without repeating the edge pixel   ..c b | a b c d | c b..  (OpenCV's BORDER_REFLECT_101)
};

// Maps coordinate i (any integer, however far outside [0, n)) to the coordinate it reads, or -1
// when it reads zero. n >= 1. Taps far outside happen when the mask is wider than the image.
CONVLAB_HD int border_index(int i, int n, Border border) {
    if (i >= 0 && i < n) return i;
    switch (border) {
        case Border::Zero:
            return -1;
        case Border::Clamp:
            return i < 0 ? 0 : n - 1;
        case Border::Wrap: {
            const int m = i % n;
            return m < 0 ? m + n : m;
        }
        case Border::Mirror: {
            if (n == 1) return 0;
            const int period = 2 * n - 2;
            int m = i % period;
            if (m < 0) m += period;
            return m < n ? m : period - m;
        }
    }
    return -1;
}

// "zero", "clamp", "wrap", "mirror" <-> Border. parse_border throws InputError on anything else.
Border parse_border(const std::string& name);
const char* border_name(Border border);

}  // namespace convlab
