// convlab lab 9 driver — do not edit. Your work is in strips_serial.cu and strips_overlapped.cu.
#include "build/gen/lab9/manifest.hpp"
#include "common/families/strips/strip_lab.hpp"
#include "labs/lab9/lab9.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    StripLabSpec spec;
    spec.lab = spec_of(kManifest);  // number, title and student files: labs/lab9/manifest
    spec.lab.max_mask_size = kStripMaxMaskSize;
    spec.lab.default_mask = "gauss:7:2";
    spec.lab.default_width = 12007;  // 96 megapixels, awkward sides: several strips under the default budget
    spec.lab.default_height = 8009;
    spec.lab.default_channels = 1;
    spec.default_gpu_memory = "256MiB";
    const std::vector<HostMemory> both{HostMemory::Pageable, HostMemory::Pinned}, pinned{HostMemory::Pinned};
    spec.variants = {
        {"whole", "your serial code with no budget: the image in one piece (what the strips cost)", run_strips_serial, pinned, true},
        {"serial", "strips one after another: copy in with the halo, convolve, copy out", run_strips_serial, both},
        {"overlapped", "streams: strip i convolved while i+1 is copied in and i-1 copied out", run_strips_overlapped, both},
        {"multi-gpu", "the strips dealt to --gpus GPUs, each with its own streams", run_strips_multi_gpu, pinned, false, true},
    };
    spec.lab.baseline = "serial";
    spec.one_gpu = "overlapped";
    spec.set_mask = set_strip_mask;  // the given kernel's (strip_kernel.cu)
    // Mesa Hidalgo & Arenas 2015: 22400^2 colour, 7x7, on a GTX 660 Ti with 2 GB, cut into row
    // chunks with halos when it did not fit. The H100 holds it whole: the budget recreates theirs.
    spec.lab.presets = {
        {"mesa-hidalgo-2015", "Mesa Hidalgo & Arenas 2015: 22400x22400 colour, a 7x7 mask, zero border, a 2 GB GPU",
         {"--size", "22400", "--channels", "3", "--mask", "box:7", "--border", "zero", "--gpu-memory", "2GiB", "--warmup", "1",
          "--reps", "3"}},
        {"overlap-32768", "issue 18's bar: 32768x32768 grey, gauss:7:2, a 2 GiB budget",
         {"--size", "32768", "--channels", "1", "--mask", "gauss:7:2", "--gpu-memory", "2GiB", "--warmup", "1", "--reps", "5"}},
    };
    return run_strip_lab(argc, argv, spec);
}
