// NPP's box filter, the peer issue 16 names for lab 7: nppiFilterBoxBorder_8u_C1R (8-bit in,
// 8-bit out: it moves 2 B a value where lab 7 moves 5, which favours NPP), replicated border (the
// kit's clamp), on 8192x8192, one channel, K = 3 ... 31. CUDA events, 3 warm-ups, L2 evicted
// before each rep, median of 15; NPP's result checked at a few points against the mean in double
// (within one 8-bit step, as NPP rounds), so a call that did nothing cannot pass for a fast one.
// Prints one JSON object.
//   nvcc -O3 -arch=sm_90 -o /tmp/npp_box measurements/npp_box.cu -lnppif -lnppc && /tmp/npp_box
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "npp_peer.cuh"

namespace {

constexpr int kSide = 8192;
const int kSizes[] = {3, 5, 7, 9, 15, 21, 31};

}  // namespace

using npp_peer::context;

int main() {
    const size_t n = size_t(kSide) * kSide;
    const std::vector<uint8_t> h_in = npp_peer::random_pixels<uint8_t>(n);
    uint8_t *d_in, *d_out;
    cudaDeviceProp prop{};
    CUDA(cudaGetDeviceProperties(&prop, 0));
    CUDA(cudaMalloc(&d_in, n));
    CUDA(cudaMalloc(&d_out, n));
    CUDA(cudaMemcpy(d_in, h_in.data(), n, cudaMemcpyHostToDevice));
    const NppStreamContext ctx = context();
    const NppiSize size{kSide, kSide};
    const npp_peer::RepTimer timer;
    std::printf("{\"device\": \"%s\", \"side\": %d, \"function\": \"nppiFilterBoxBorder_8u_C1R_Ctx\", \"cases\": [", prop.name, kSide);
    for (size_t c = 0; c < sizeof kSizes / sizeof kSizes[0]; ++c) {
        const int k = kSizes[c], r = k / 2;
        const std::vector<float> ms = timer.time([&] { CUDA(cudaMemset(d_out, 0, n)); }, [&] {
            NPP(nppiFilterBoxBorder_8u_C1R_Ctx(d_in, kSide, size, NppiPoint{0, 0}, d_out, kSide, size, NppiSize{k, k},
                                               NppiPoint{r, r}, NPP_BORDER_REPLICATE, ctx));
        });
        double worst = 0;
        for (int p = 0; p < 16; ++p) {
            const int x = k + (p * 977) % (kSide - 2 * k), y = k + (p * 1543) % (kSide - 2 * k);
            double want = 0;
            for (int i = -r; i <= r; ++i)
                for (int j = -r; j <= r; ++j) want += h_in[size_t(y + i) * kSide + x + j];
            want /= double(k) * k;
            uint8_t got = 0;
            CUDA(cudaMemcpy(&got, d_out + size_t(y) * kSide + x, 1, cudaMemcpyDeviceToHost));
            worst = std::max(worst, std::fabs(got - want));
        }
        npp_peer::print_case(c == 0, k, ms, worst);
        if (!(worst <= 1.0)) {
            std::fprintf(stderr, "NPP's box at K = %d is off by %g: not a valid peer\n", k, worst);
            return 1;
        }
    }
    std::printf("]}\n");
    return 0;
}
