// imagegen: writes the harness's built-in input as a PNG, e.g. to look at it or to make a big
// test image:   build/bin/imagegen --size 8192x8192 --channels 3 --seed 1 --out big.png
#include <cxxopts.hpp>
#include <iostream>

#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/cli/options.hpp"
#include "common/core/synthetic.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    cxxopts::Options parser("imagegen", "write convlab's synthetic (or random) image as a PNG");
    parser.add_options()("size", "WxH or N", cxxopts::value<std::string>()->default_value("512x512"))(
        "channels", "1 or 3", cxxopts::value<int>()->default_value("3"))("seed", "seed", cxxopts::value<uint64_t>()->default_value("1"))(
        "random", "uniform random bytes instead of the synthetic picture")("out", "the PNG to write", cxxopts::value<std::string>())(
        "h,help", "this help");
    try {
        const auto args = parser.parse(argc, argv);
        if (args.count("help")) {
            std::cout << parser.help();
            return kExitPass;
        }
        if (!args.count("out")) throw InputError("--out FILE is required");
        int width = 0, height = 0;
        parse_size(args["size"].as<std::string>(), "--size", &width, &height);
        const int channels = args["channels"].as<int>();
        const uint64_t seed = args["seed"].as<uint64_t>();
        const Image image = args.count("random") ? make_random_image(width, height, channels, seed)
                                                 : make_synthetic_image(width, height, channels, seed);
        save_png(args["out"].as<std::string>(), image.pixels.data(), width, height, channels);
        return kExitPass;
    } catch (const cxxopts::exceptions::exception& e) {
        std::cerr << "imagegen: error: " << e.what() << "\n";
    } catch (const InputError& e) {
        std::cerr << "imagegen: error: " << e.what() << "\n";
    }
    return kExitBadInput;
}
