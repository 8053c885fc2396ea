// convlab harness — do not edit in a lab.
#include "common/cli/lab_input.hpp"

#include "common/check/check.hpp"
#include "common/core/synthetic.hpp"

namespace convlab {

Image make_lab_input(const Options& options, int default_channels, std::string* source) {
    const int channels = options.channels ? options.channels : default_channels;
    Image image;
    if (options.image == "synthetic") {
        image = make_synthetic_image(options.width, options.height, channels, options.seed);
        *source = "synthetic (seed " + std::to_string(options.seed) + ")";
    } else if (options.image == "random") {
        image = make_random_image(options.width, options.height, channels, options.seed);
        *source = "random (seed " + std::to_string(options.seed) + ")";
    } else if (options.image == "bright") {
        image = make_bright_image(options.width, options.height, channels, options.seed);
        *source = "bright (seed " + std::to_string(options.seed) + ")";
    } else if (options.image == "spiral") {
        image = make_spiral_image(options.width, options.height, channels);
        *source = "spiral";
    } else if (options.image == "scene") {
        image = make_scene_image(options.width, options.height, channels, options.seed);
        *source = "scene (seed " + std::to_string(options.seed) + ")";
    } else if (options.image == "lines") {
        image = make_lines_image(options.width, options.height, channels);
        *source = "lines";
    } else {
        image = load_image(options.image, options.channels);
        *source = options.image;
    }
    if (options.tile_width) {
        image = tile_image(image, options.tile_width, options.tile_height);
        *source += " tiled";
    }
    return image;
}

Report report_of_image_run(int lab, const std::string& title, const Options& options, const std::string& source, const Image& image) {
    Report report = report_of_run(lab, title, options);
    report.image_source = source;
    report.preset = options.preset;
    report.width = image.width;
    report.height = image.height;
    report.channels = image.channels;
    for (const Mask& mask : options.masks) {
        report.mask_specs.push_back(mask.spec);
        report.mask_sizes.push_back(mask.k);
        report.tolerances.push_back(tolerance_for(mask));
    }
    report.border = border_name(options.border);
    return report;
}

void report_cpu_reps(Report& report, const Options& options) {
    report.cpu_reps = options.cpu_reps;
    if (options.demo && options.cpu_reps == 1)  // options.cpp: --demo's own default
        report.notes.push_back("--demo: each CPU variant is timed once (--cpu-reps 1)");
}

void report_demo_gpu_reps(Report& report, const Options& options) {
    if (options.demo_gpu_reps)
        report.notes.push_back("--demo: each GPU variant is timed " + std::to_string(options.reps) + " times after " +
                               std::to_string(options.warmup) + " warm-up (--reps and --warmup say otherwise)");
}

}  // namespace convlab
