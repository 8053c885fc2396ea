// convlab harness — do not edit in a lab.
#include "common/cli/options.hpp"

#include <omp.h>

#include <algorithm>
#include <cxxopts.hpp>

#include "common/cli/command_line.hpp"
#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/core/image.hpp"
#include "common/runner/lab.hpp"
#include "common/core/mask.hpp"
#include "common/grading/peer_link.hpp"

namespace convlab {

namespace {

// A --help line's name in a column of 20 and its description after it; a longer name pushes the
// description one space along (20 - size, unsigned, would wrap round to a string too long to make).
std::string help_line(const std::string& name, const std::string& description) {
    return "  " + name + std::string(name.size() < 20 ? 20 - name.size() : 1, ' ') + description + "\n";
}

std::string variant_list(const LabSpec& spec) {
    std::string text;
    for (const auto& v : spec.cpu) text += help_line(v.name, v.description);
    for (const auto& v : spec.gpu) text += help_line(v.name, v.description);
    return text;
}

// --mask takes one spec or a comma-separated sweep. Every mask is checked before anything runs.
// A mask smaller than the lab's kernels take is bad input (parse_mask refused larger ones).
Mask within_lab_sizes(Mask mask, const LabSpec& spec) {
    if (mask.k < spec.min_mask_size)
        throw InputError("mask '" + mask.spec + "' is " + std::to_string(mask.k) + "x" + std::to_string(mask.k) +
                         "; this lab's kernels take masks from " + std::to_string(spec.min_mask_size) + "x" +
                         std::to_string(spec.min_mask_size) + " to " + std::to_string(spec.max_mask_size) + "x" +
                         std::to_string(spec.max_mask_size));
    return mask;
}

std::vector<Mask> parse_masks(const std::string& list, const LabSpec& spec) {
    std::vector<Mask> masks;
    for (const std::string& item : split_list(list)) masks.push_back(within_lab_sizes(parse_mask(item, spec.max_mask_size), spec));
    if (masks.empty()) throw InputError("--mask is empty; accepted: " + mask_spec_help());
    return masks;
}

std::string preset_list(const LabSpec& spec) {
    std::string text;
    for (const Preset& p : spec.presets) {
        std::string args;
        for (const std::string& a : p.args) args += " " + a;
        text += help_line(p.name, p.description) + std::string(22, ' ') + "=" + args + "\n";
    }
    return text;
}

// The command line with --preset NAME's options put first, so that the user's own come after them
// and win; *name gets the preset's name (empty without --preset).
std::vector<std::string> with_preset(int argc, char** argv, const LabSpec& spec, std::string* name) {
    std::vector<std::string> args(argv, argv + argc);
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--preset" && i + 1 < argc) *name = argv[i + 1];
        else if (arg.rfind("--preset=", 0) == 0) *name = arg.substr(9);
        else continue;
        break;
    }
    if (name->empty()) return args;
    const auto found = std::find_if(spec.presets.begin(), spec.presets.end(), [&](const Preset& p) { return p.name == *name; });
    if (found == spec.presets.end()) {
        std::string names;
        for (const Preset& p : spec.presets) names += (names.empty() ? "" : ", ") + p.name;
        throw InputError("unknown preset '" + *name + "'; accepted: " + (names.empty() ? "none (this lab has no presets)" : names));
    }
    args.insert(args.begin() + 1, found->args.begin(), found->args.end());
    return args;
}

}  // namespace

void parse_size(const std::string& text, const std::string& what, int* width, int* height) {
    const size_t x = text.find('x');
    const std::string w = x == std::string::npos ? text : text.substr(0, x);
    const std::string h = x == std::string::npos ? text : text.substr(x + 1);
    long long wv = -1, hv = -1;
    try {
        wv = parse_whole(w, what);
        hv = parse_whole(h, what);
    } catch (const InputError&) {
        wv = -1;
    }
    if (wv < 1 || hv < 1 || wv > kMaxImageSide || hv > kMaxImageSide)
        throw InputError(what + " '" + text + "' is not allowed; accepted: WxH or N, 1 to " +
                         std::to_string(kMaxImageSide) + " pixels a side");
    *width = int(wv);
    *height = int(hv);
}

std::vector<int> default_thread_counts(int cores) {
    std::vector<int> counts;
    for (int t = 1; t <= 2 * cores; t *= 2) counts.push_back(t);
    for (int t : {cores, 2 * cores})
        if (std::find(counts.begin(), counts.end(), t) == counts.end()) counts.push_back(t);
    std::sort(counts.begin(), counts.end());
    return counts;
}

// The shared options' wording for an image lab.
static RunOptionsText image_lab_text() {
    RunOptionsText text;
    text.seed_help = "seed of the generated image and of random masks";
    text.raw_out_help = "write each variant's result as raw float32 (VARIANT.f32, interleaved) into this existing folder: the first run's, or with "
                        "timing the last timed repetition's, with its spot-checked values beside it (VARIANT.f32.spots, labs 0 to 7); none for a GPU "
                        "variant that launched no kernel. Such a run computes no reference and checks nothing itself: the grader's --compare "
                        "does. Lab 8's grades one stage alone (--stage, --stage-inputs)";
    text.compare_help = "check a raw float32 result (from --raw-out), or every .f32 file of a folder, against the reference; runs no variant. "
                        "With --fresh-input-each-rep (--seed the checked run's): the results of timed runs, each with its spot record";
    text.peer_accepts = "one --mask, --image random, no --tile-to";
    return text;
}

Options parse_options(int argc, char** argv, const LabSpec& spec) {
    const std::string program = "lab" + std::to_string(spec.number);
    const RunOptionsText shared = image_lab_text();
    cxxopts::Options parser(program, "convlab lab " + std::to_string(spec.number) + ": " + spec.title);
    // clang-format off
    parser.add_options("Input")
        ("image", "'synthetic' (built in), 'random', 'bright' (random bytes 224..255), 'spiral' (one long edge), 'lines' (long lines at 16 angles, crossing), 'scene' (a star, text, a texture and colour shapes: --demo's), or an image file (PNG, JPEG, PGM/PPM, BMP)", cxxopts::value<std::string>()->default_value("synthetic"))
        ("size", "size of a generated image, WxH or N", cxxopts::value<std::string>()->default_value(std::to_string(spec.default_width) + "x" + std::to_string(spec.default_height)))
        ("channels", "1 or 3; converts an image file (default: the file's own; generated: " + std::to_string(spec.default_channels) + ")", cxxopts::value<std::string>())
        ("tile-to", "repeat the image to this size, WxH or N", cxxopts::value<std::string>())
        ("mask", mask_spec_help() + "; K odd, " + std::to_string(spec.min_mask_size) + " to " + std::to_string(spec.max_mask_size) + "; a comma-separated list runs a sweep", cxxopts::value<std::string>()->default_value(spec.default_mask))
        ("row-mask", "with --col-mask, in place of --mask: a separable mask's row (across x) as K comma-separated weights", cxxopts::value<std::string>())
        ("col-mask", "with --row-mask: the mask's column (down y), K weights; the mask is column times row", cxxopts::value<std::string>())
        ("border", "zero, clamp, wrap or mirror", cxxopts::value<std::string>()->default_value("zero"))
        ("preset", "a source's experiment (listed below): its options, which those given here override", cxxopts::value<std::string>());
    parser.add_options("Run")
        ("threads", "comma-separated OpenMP thread counts for CPU sweeps", cxxopts::value<std::string>())
        ("cpu-reps", "timed repetitions of CPU variants", cxxopts::value<std::string>()->default_value(std::to_string(spec.default_cpu_reps)))
        ("demo", "lecture mode: a " + std::string(kDemoSize) + " scene (colour where the lab takes colour), pictures saved to demo-output/lab" +
                     std::to_string(spec.number));
    parser.add_options("Output")
        ("out", "save input, reference, each result and its difference as PNG in this folder", cxxopts::value<std::string>());
    parser.add_options("Grading")
        ("fresh-input-each-rep", "with --image random: every timed run (warm-ups too) gets a new random input, seed + 1 + its number; the raw result is the last one's (input seed + warmup + reps for a GPU variant, seed + cpu-reps for a CPU one)");
    // clang-format on
    if (!spec.lab_options.empty()) {
        auto add = parser.add_options("Lab");
        for (const LabOption& o : spec.lab_options) {
            if (o.flag) add(o.name, o.help);
            else add(o.name, o.help, cxxopts::value<std::string>()->default_value(o.default_value));
        }
    }
    add_run_options(parser, shared);
    parser.custom_help("[options]");

    Options options;
    const std::vector<std::string> words = with_preset(argc, argv, spec, &options.preset);
    std::vector<char*> pointers;
    for (const std::string& w : words) pointers.push_back(const_cast<char*>(w.c_str()));
    const cxxopts::ParseResult args = parse_command_line(parser, int(pointers.size()), pointers.data(), program);
    if (args.count("help")) {
        options.help = true;
        std::vector<std::string> groups{"Input", "Run", "Output", "Grading"};
        if (!spec.lab_options.empty()) groups.insert(groups.begin() + 2, "Lab");
        options.help_text = parser.help(groups) + "\nVariants:\n" + variant_list(spec) +
                            (spec.presets.empty() ? "" : "\nPresets (the sources' experiments, for the handout's \"Then and now\"):\n" +
                                                             preset_list(spec)) +
                            exit_status_help();
        return options;
    }
    auto text = [&](const char* name) { return args[name].as<std::string>(); };
    read_run_options(args, shared, options);
    for (const LabOption& o : spec.lab_options)
        options.lab_values[o.name] = o.flag ? (args.count(o.name) ? "true" : "false") : text(o.name.c_str());

    options.demo = args.count("demo") > 0;
    options.image = options.demo && !args.count("image") ? "scene" : text("image");
    const std::string size = options.demo && !args.count("size") ? std::string(kDemoSize) : text("size");
    parse_size(size, "--size", &options.width, &options.height);
    if (args.count("channels")) options.channels = parse_count(text("channels"), "--channels", 1, 3);
    if (options.channels == 2) throw InputError("--channels 2 is not allowed; accepted: 1 or 3");
    if (args.count("tile-to")) parse_size(text("tile-to"), "--tile-to", &options.tile_width, &options.tile_height);
    if (args.count("row-mask") || args.count("col-mask")) {
        if (!args.count("row-mask") || !args.count("col-mask"))
            throw InputError(std::string(args.count("row-mask") ? "--row-mask without --col-mask" : "--col-mask without --row-mask") +
                             "; accepted: both, a separable mask's row and column");
        if (args.count("mask")) throw InputError("--mask with --row-mask and --col-mask; accepted: one or the other");
        options.masks = {within_lab_sizes(mask_from_vectors(text("row-mask"), text("col-mask"), spec.max_mask_size), spec)};
    } else {
        options.masks = parse_masks(text("mask"), spec);
    }
    options.border = parse_border(text("border"));

    for (const std::string& name : options.variants) {
        const bool known = std::any_of(spec.cpu.begin(), spec.cpu.end(), [&](auto& v) { return v.name == name; }) ||
                           std::any_of(spec.gpu.begin(), spec.gpu.end(), [&](auto& v) { return v.name == name; });
        if (!known) {
            std::string names;
            for (const auto& v : spec.cpu) names += (names.empty() ? "" : ", ") + v.name;
            for (const auto& v : spec.gpu) names += (names.empty() ? "" : ", ") + v.name;
            throw InputError("unknown variant '" + name + "'; accepted: " + names);
        }
    }
    if (args.count("threads")) {
        for (const std::string& t : split_list(text("threads"))) options.threads.push_back(parse_count(t, "--threads", 1, 1024));
        if (options.threads.empty()) throw InputError("--threads is empty; accepted: a comma-separated list such as 1,2,4");
    } else {
        options.threads = default_thread_counts(omp_get_num_procs());
    }
    // --demo keeps a lecture's pace: a CPU variant timed once (lab 0's sequential run on the colour
    // scene takes seconds), unless --cpu-reps says otherwise.
    options.cpu_reps = options.demo && !args.count("cpu-reps") ? 1 : parse_count(text("cpu-reps"), "--cpu-reps", 1, 100000);
    // ... and each GPU variant timed 5 times after one warm-up: lab 7's end-to-end runs, from
    // pageable and from pinned memory, made its demo take 56 s on an H100 with the usual 15 and 2.
    options.demo_gpu_reps = options.demo && apply_demo_timing(args, options);
    options.fresh_input = args.count("fresh-input-each-rep") > 0;
    if (options.fresh_input && options.image != "random")
        throw InputError("--fresh-input-each-rep needs --image random (each repetition's input is generated from the seed)");
    if (options.fresh_input && options.tile_width)
        throw InputError("--fresh-input-each-rep does not take --tile-to (each repetition's input is generated whole)");
    if (!options.compare_file.empty() && options.masks.size() > 1)
        throw InputError("--compare takes one mask, not a sweep; accepted: --mask SPEC");
    if (options.timer_of >= 0 || options.timed_by >= 0) {  // read_run_options refused the shared conflicts
        const std::string peer = options.timer_of >= 0 ? "--timer-of" : "--timed-by";
        const std::string accepted = "; accepted: " + shared.peer_accepts;
        if (options.masks.size() > 1) throw InputError(peer + " times one mask, not a sweep of " + std::to_string(options.masks.size()) + accepted);
        if (options.image != "random") throw InputError(peer + " times a random image, not --image " + options.image + accepted);
        if (options.tile_width) throw InputError(peer + " makes its own input, which --tile-to cannot repeat" + accepted);
    }
    if (args.count("out")) options.out_dir = text("out");
    else if (options.demo) options.out_dir = "demo-output/lab" + std::to_string(spec.number);
    if (!options.out_dir.empty() && !options.raw_out_dir.empty())
        throw InputError("--out draws each result beside the reference, which a --raw-out run does not compute; accepted: one of "
                         "--out, --demo and --raw-out");
    return options;
}

Options parse_one_mask_options(int argc, char** argv, const LabSpec& spec, const std::string& verb, const std::string& accepted) {
    Options options = parse_options(argc, argv, spec);
    if (options.help) return options;
    const std::string lab = "lab " + std::to_string(spec.number);
    if (options.fresh_input)
        throw InputError(lab + " has no fresh inputs for each repetition; accepted: a run without --fresh-input-each-rep");
    if (options.masks.size() != 1)
        throw InputError(lab + " " + verb + " one mask, not a sweep of " + std::to_string(options.masks.size()) + "; accepted: " + accepted);
    return options;
}

}  // namespace convlab
