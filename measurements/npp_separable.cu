// NPP's separable filter, the peer DESIGN section 8 names for lab 6: nppiFilterRowBorder then
// nppiFilterColumnBorder (32-bit float; NPP has no 8-bit-in, float-out separable filter, so it
// reads a float image, 4 B a value where lab 6 reads 1), replicated border, on 8192x8192, one
// channel, for each K of lab 6's sweep with the same Gaussian weights. CUDA events, 3 warm-ups, L2
// evicted before each rep, median of 15; NPP's result checked at a few points against a sum in
// double, so a call that did nothing cannot pass for a fast one. Prints one JSON object.
//   nvcc -O3 -arch=sm_90 -o /tmp/npp_separable measurements/npp_separable.cu -lnppif -lnppc && /tmp/npp_separable
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "npp_peer.cuh"

namespace {

constexpr int kSide = 8192;

// lab 6's sweep: gauss:K:SIGMA, normalised as convlab's mask.cpp does (sum 1).
struct Case { int k; double sigma; };
const Case kCases[] = {{3, 1}, {5, 1.5}, {7, 2}, {9, 2.5}, {15, 4}, {31, 8}, {63, 16}};

std::vector<float> gauss(int k, double sigma) {
    std::vector<double> w(k);
    double sum = 0;
    for (int i = 0; i < k; ++i) sum += w[i] = std::exp(-0.5 * (i - k / 2) * (i - k / 2) / (sigma * sigma));
    std::vector<float> f(k);
    for (int i = 0; i < k; ++i) f[i] = float(w[i] / sum);
    return f;
}

}  // namespace

using npp_peer::context;

int main() {
    const size_t n = size_t(kSide) * kSide;
    const std::vector<float> h_in = npp_peer::random_pixels<float>(n);  // 0..255, as 8-bit pixels
    float *d_in, *d_mid, *d_out, *d_taps;
    cudaDeviceProp prop{};
    CUDA(cudaGetDeviceProperties(&prop, 0));
    CUDA(cudaMalloc(&d_in, n * 4));
    CUDA(cudaMalloc(&d_mid, n * 4));
    CUDA(cudaMalloc(&d_out, n * 4));
    CUDA(cudaMalloc(&d_taps, 64 * 4));
    CUDA(cudaMemcpy(d_in, h_in.data(), n * 4, cudaMemcpyHostToDevice));
    const NppStreamContext ctx = context();
    const NppiSize size{kSide, kSide};
    const int step = kSide * 4;
    const npp_peer::RepTimer timer;
    std::printf("{\"device\": \"%s\", \"side\": %d, \"cases\": [", prop.name, kSide);
    for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c) {
        const int k = kCases[c].k;
        const std::vector<float> taps = gauss(k, kCases[c].sigma);
        CUDA(cudaMemcpy(d_taps, taps.data(), k * 4, cudaMemcpyHostToDevice));
        const auto filter = [&] {
            NPP(nppiFilterRowBorder_32f_C1R_Ctx(d_in, step, size, NppiPoint{0, 0}, d_mid, step, size, d_taps, k, k / 2,
                                                NPP_BORDER_REPLICATE, ctx));
            NPP(nppiFilterColumnBorder_32f_C1R_Ctx(d_mid, step, size, NppiPoint{0, 0}, d_out, step, size, d_taps, k, k / 2,
                                                   NPP_BORDER_REPLICATE, ctx));
        };
        const std::vector<float> ms = timer.time([&] { CUDA(cudaMemset(d_out, 0xFF, n * 4)); }, filter);
        // A few interior points against the sum in double (symmetric taps: flipped or not, the same).
        double worst = 0;
        for (int p = 0; p < 16; ++p) {
            const int x = k + (p * 977) % (kSide - 2 * k), y = k + (p * 1543) % (kSide - 2 * k);
            double want = 0;
            for (int i = 0; i < k; ++i)
                for (int j = 0; j < k; ++j) want += double(taps[i]) * taps[j] * h_in[size_t(y + i - k / 2) * kSide + x + j - k / 2];
            float got = 0;
            CUDA(cudaMemcpy(&got, d_out + size_t(y) * kSide + x, 4, cudaMemcpyDeviceToHost));
            worst = std::max(worst, std::fabs(got - want));
        }
        npp_peer::print_case(c == 0, k, ms, worst);
        if (!(worst < 0.01)) {
            std::fprintf(stderr, "NPP's result at K = %d is off by %g: not a valid peer\n", k, worst);
            return 1;
        }
    }
    std::printf("]}\n");
    return 0;
}
