// convlab lab 0 driver — do not edit. Your work is in conv2d_omp.cpp.
#include "build/gen/lab0/manifest.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "common/core/reference.hpp"
#include "labs/lab0/lab0.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab0/manifest
    spec.default_width = 1021;  // primes: no thread count divides the rows evenly
    spec.default_height = 769;
    spec.cpu = {
        {"sequential", "conv2d_cpu: the definition, one thread",
         [](const Problem& p, float* out, int) { conv2d_cpu(p.image, p.mask, p.border, out); }, false, {}, false, true},
        {"openmp", "your conv2d_omp, one row chunk per thread",
         [](const Problem& p, float* out, int threads) { conv2d_omp(p.image, p.mask, p.border, out, threads); }, true},
    };
    spec.baseline = "sequential";
    // Dani & Niccoli's OpenMP thread sweep (a box blur, 3 to 31, images 512^2 to 8192^2).
    spec.presets = {
        {"dani-niccoli", "Dani & Niccoli: OpenMP thread sweep, box masks 3 to 31, colour (their sizes: 512 to 8192; add --size)",
         {"--image", "random", "--size", "2048", "--channels", "3", "--border", "zero", "--mask", "box:3,box:5,box:9,box:15,box:31",
          "--threads", "1,2,4,8,16,32"}},
    };
    return run_lab(argc, argv, spec);
}
