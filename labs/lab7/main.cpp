// convlab lab 7 driver — do not edit. Your work is in box_running_sum.cu, box_summed_area.cu and
// conv2d_texture.cu.
#include "build/gen/lab7/manifest.hpp"
#include "common/families/filters/box_filter.hpp"
#include "common/core/errors.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "common/core/separable.hpp"
#include "labs/lab1/lab1.hpp"
#include "labs/lab3/lab3.hpp"
#include "labs/lab6/lab6.hpp"
#include "labs/lab7/lab7.hpp"

namespace {

using namespace convlab;

void openmp_box(const Problem& p, float* h_out, int threads) {
    require_box(p.mask);
    box_filter_cpu(p.image, p.mask.k, p.border, h_out, threads);
}

void prepare_box(const Mask& mask) { require_box(mask); }

// Lab 1's constant-memory kernel and lab 3's tiled one hold K x K weights for K <= 31, as lab 7 does.
void prepare_lab1_naive(const Mask& mask) { copy_mask_to_constant(mask); }
void prepare_lab3_tiled(const Mask& mask) { copy_mask_to_tiled_constant(mask); }

// Lab 6's fused kernel takes a separable mask's factors: every box is one (1/K across, 1/K down).
void prepare_lab6_fused(const Mask& mask) {
    require_separable(mask);
    copy_factors_to_constant(mask);
}

}  // namespace

int main(int argc, char** argv) {
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab7/manifest
    spec.max_mask_size = kLab7MaxMaskSize;
    spec.default_mask = "box:3,box:5,box:9,box:15,box:21,box:31";  // the radius sweep
    spec.default_channels = 1;
    spec.default_cpu_reps = 1;
    spec.two_pass_reference = true;  // a box is separable: its reference sums the factors, in seconds at K = 31
    spec.float_intermediate = true;  // args.d_scratch: the summed-area table
    spec.transfers = true;           // every GPU variant also end to end, pageable and pinned
    // A running sum adds and subtracts 2 integers a value across and 2 down; the table 1 across, 1
    // down and 3 to combine four entries: the "GFLOP/s" of these rows count those integer operations.
    const WorkModel direct{}, fused{5, true}, running{5, false, true, 4}, table{5, false, true, 5};
    spec.cpu = {
        {"openmp-box", "running sums on every core: 32-bit integer sums, one division (box masks)", openmp_box, false,
         running, true, true},
    };
    spec.gpu = {
        {"lab1-naive", "your lab 1 kernel: every tap a global-memory load, mask in constant memory",
         launch_conv2d_naive_const, prepare_lab1_naive, nullptr, {}, direct},
        {"lab3-tiled", "your lab 3 kernel: the K x K sum from a shared-memory tile", launch_conv2d_tiled,
         prepare_lab3_tiled, nullptr, {kLab3Tile, kLab3Tile}, direct},
        {"lab6-fused", "your lab 6 fused kernel: a box is a row pass and a column pass of K taps each",
         launch_conv2d_fused, prepare_lab6_fused, nullptr, {kLab6TileWidth, kLab6TileHeight}, fused},
        {"running-sum", "a window sliding along rows, then down columns: O(1) adds a value (box masks)",
         launch_box_running_sum, prepare_box, nullptr, {kLab7StripWidth, kLab7StripHeight}, running},
        {"summed-area", "a summed-area table by scans in d_scratch, then four entries a value (box masks)",
         launch_box_summed_area, prepare_box, nullptr, {}, table},
        {"texture", "lab 3's tile fetched through a texture object, borders by the address mode (any mask)",
         launch_conv2d_texture, copy_mask_to_texture_constant, nullptr, {kLab7TextureTile, kLab7TextureTile}, direct},
    };
    spec.baseline = "lab3-tiled";
    // Kasuya 2021: CUDA Samples' boxFilter (a texture, a row pass and a column pass of running
    // sums) on a 2560x1440 colour image at r = 11, wrap at the borders; 1.86 ms of kernels, 9.57
    // ms end to end, 18.5 ms for OpenCV on one CPU thread.
    spec.presets = {
        {"kasuya-2021", "Kasuya 2021: a 2560x1440 colour image, box r = 11 (K = 23), wrap border",
         {"--image", "random", "--size", "2560x1440", "--channels", "3", "--border", "wrap", "--mask", "box:23"}},
        {"kasuya-2021-radii", "Kasuya 2021's image at every radius 1 to 15 (K = 3 to 31): is the running sum flat?",
         {"--image", "random", "--size", "2560x1440", "--channels", "3", "--border", "wrap", "--mask",
          "box:3,box:5,box:7,box:9,box:11,box:13,box:15,box:17,box:19,box:21,box:23,box:25,box:27,box:29,box:31"}},
    };
    return run_lab(argc, argv, spec);
}
