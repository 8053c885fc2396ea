// convlab harness — do not edit in a lab.
#include "common/check/spot_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>

#include "common/grading/raw_result.hpp"
#include "common/core/rng.hpp"

namespace convlab {

SpotChecker::SpotChecker(int width, int height, int channels, int mask_radius, Tolerance tolerance)
    : width_(width), height_(height), channels_(channels), depth_(std::max(mask_radius, 1)), tolerance_(tolerance) {
    std::random_device entropy;
    state_ = (uint64_t(entropy()) << 32) ^ entropy();
    result_.values_per_run = kValuesPerRun;
}

uint64_t SpotChecker::next() { return splitmix64(state_++); }

// A value whose pixel lies within the mask's radius of one of the four edges.
size_t SpotChecker::edge_position() {
    const int side = int(next() % 4);
    const int along = int(next() % uint64_t(side < 2 ? width_ : height_));
    const int across = int(next() % uint64_t(std::min(depth_, side < 2 ? height_ : width_)));
    int x = along, y = across;                                  // top
    if (side == 1) y = height_ - 1 - across;                    // bottom
    if (side == 2) x = across, y = along;                       // left
    if (side == 3) x = width_ - 1 - across, y = along;          // right
    return (size_t(y) * width_ + x) * channels_ + size_t(next() % uint64_t(channels_));
}

const std::vector<size_t>& SpotChecker::draw() {
    const uint64_t values = uint64_t(width_) * height_ * channels_;
    positions_.resize(kValuesPerRun);
    for (int n = 0; n < kValuesPerRun; ++n) positions_[n] = n % 2 ? edge_position() : size_t(next() % values);
    return positions_;
}

void SpotChecker::check(int run, const float* got, const std::function<double(size_t)>& expected) {
    ++result_.runs;
    // With fresh inputs each expected value regenerates its K*K input pixels (a hash each): about
    // a millisecond a run at K = 31 on one core, so the cores share it.
    std::vector<double> wanted(positions_.size());
#pragma omp parallel for schedule(static)
    for (long long n = 0; n < (long long)positions_.size(); ++n) wanted[size_t(n)] = expected(positions_[size_t(n)]);
    for (size_t n = 0; n < positions_.size(); ++n) {
        const double want = wanted[n];
        if (std::isnan(want) || within_tolerance(got[n], want, tolerance_)) continue;  // NaN: a value the variant does not write
        if (++result_.failed_runs == 1) {
            const size_t i = positions_[n];
            char line[200];
            std::snprintf(line, sizeof line, "run %d: (x=%d, y=%d, channel %d): got %.6g, expected %.6g", run + 1,
                          int(i / channels_ % width_), int(i / channels_ / width_), int(i % channels_), double(got[n]), want);
            result_.first_failure = line;
        }
        return;
    }
}

void SpotRecord::add(uint64_t seed, const std::vector<size_t>& positions, const float* values) {
    for (size_t n = 0; n < positions.size(); ++n) values_.push_back({seed, positions[n], values[n]});
}

void SpotRecord::write(const std::string& path) const {
    write_raw_bytes(path, reinterpret_cast<const char*>(values_.data()), values_.size() * sizeof(SpotValue));
}

std::string spot_record_path(const std::string& dir, const std::string& result_name) {
    return raw_result_path(dir, result_name) + ".spots";
}

std::string check_spot_record(const std::string& path, uint64_t last_seed, int runs, size_t values, Tolerance tolerance,
                              const std::function<double(uint64_t, size_t)>& expected) {
    const size_t want = size_t(runs) * SpotChecker::kValuesPerRun;
    const std::vector<char> bytes = read_raw_bytes(path, (want + 1) * sizeof(SpotValue));
    if (bytes.size() != want * sizeof(SpotValue))
        return "the timed runs' spot record holds " + std::to_string(bytes.size()) + " bytes, not the " + std::to_string(runs) +
               " runs of " + std::to_string(SpotChecker::kValuesPerRun) + " values the run made";
    std::vector<SpotValue> record(want);
    std::memcpy(record.data(), bytes.data(), bytes.size());
    std::map<uint64_t, size_t> per_seed;
    for (const SpotValue& v : record) ++per_seed[v.seed];
    for (const auto& [seed, count] : per_seed)
        if (seed > last_seed || last_seed - seed >= uint64_t(runs) || count != size_t(SpotChecker::kValuesPerRun))
            return "the timed runs' spot record names input seed " + std::to_string(seed) + " (" + std::to_string(count) +
                   " values), which is not one of the run's " + std::to_string(runs) + " inputs";
    std::vector<double> wanted(record.size());
    for (const SpotValue& v : record)
        if (v.index >= values) return "the timed runs' spot record names value " + std::to_string(v.index) + " of a result of " + std::to_string(values);
#pragma omp parallel for schedule(static)
    for (long long n = 0; n < (long long)record.size(); ++n) wanted[size_t(n)] = expected(record[size_t(n)].seed, record[size_t(n)].index);
    int failed = 0;
    std::string first;
    for (size_t n = 0; n < record.size(); ++n) {
        if (std::isnan(wanted[n]) || within_tolerance(record[n].value, wanted[n], tolerance)) continue;
        if (++failed == 1) {
            char line[200];
            std::snprintf(line, sizeof line, "the timed run with input seed %llu: value %llu: got %.6g, expected %.6g",
                          (unsigned long long)record[n].seed, (unsigned long long)record[n].index, double(record[n].value), wanted[n]);
            first = line;
        }
    }
    if (!failed) return "";
    return std::to_string(failed) + " spot-checked values of the timed runs were wrong (" + first + ")";
}

}  // namespace convlab
