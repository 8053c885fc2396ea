// convlab harness — do not edit in a lab.
#include "common/canny.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/errors.hpp"
#include "common/separable.hpp"

namespace convlab {

namespace {

int thread_count(int threads) { return threads <= 0 ? omp_get_max_threads() : threads; }

// The value a tap reads from a float plane under the border rule (0 outside under zero).
float tap(const float* plane, int width, int height, int x, int y, Border border) {
    const int sx = border_index(x, width, border), sy = border_index(y, height, border);
    return sx < 0 || sy < 0 ? 0.0f : plane[size_t(sy) * width + sx];
}

}  // namespace

void canny_smooth(const Image& grey, const Mask& mask, Border border, float* out, int threads) {
    if (grey.channels != 1)
        throw InputError("the Canny reference takes one channel, not " + std::to_string(grey.channels));
    require_separable(mask);
    const int w = grey.width, h = grey.height, k = mask.k, r = k / 2;
    std::vector<float> rows(size_t(w) * h);
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float acc = 0.0f;
            for (int j = 0; j < k; ++j) {
                const int sx = border_index(x + j - r, w, border);
                const float v = sx < 0 ? 0.0f : float(grey.pixels[size_t(y) * w + sx]);
                acc = std::fmaf(mask.row[j], v, acc);
            }
            rows[size_t(y) * w + x] = acc;
        }
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float acc = 0.0f;
            for (int i = 0; i < k; ++i) acc = std::fmaf(mask.col[i], tap(rows.data(), w, h, x, y + i - r, border), acc);
            out[size_t(y) * w + x] = acc;
        }
}

void canny_gradients(const float* smoothed, int width, int height, Border border, float* magnitude,
                     uint8_t* direction, int threads) {
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float n[3][3];
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) n[i][j] = tap(smoothed, width, height, x + j - 1, y + i - 1, border);
            const Gradient g = sobel_gradient(n);
            const size_t at = size_t(y) * width + x;
            magnitude[at] = gradient_magnitude(g);
            direction[at] = uint8_t(quantise_direction(g));
        }
}

void canny_suppress(const float* magnitude, const uint8_t* direction, int width, int height, float* suppressed,
                    int threads) {
    const auto at = [&](int x, int y) {
        return x < 0 || x >= width || y < 0 || y >= height ? 0.0f : magnitude[size_t(y) * width + x];
    };
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            int dx = 0, dy = 0;
            direction_step(EdgeDirection(direction[size_t(y) * width + x]), &dx, &dy);
            suppressed[size_t(y) * width + x] = suppress(at(x, y), at(x - dx, y - dy), at(x + dx, y + dy));
        }
}

CannyThresholds absolute_thresholds(CannyThresholds t, const float* magnitude, size_t count) {
    if (!(t.low > 0 && t.low <= t.high))
        throw InputError("Canny thresholds need 0 < low <= high, not low " + std::to_string(t.low) + ", high " +
                         std::to_string(t.high));
    if (!t.relative) return t;
    const float largest = count ? *std::max_element(magnitude, magnitude + count) : 0.0f;
    return {t.low * largest, t.high * largest, false};
}

void canny_threshold(const float* suppressed, size_t count, CannyThresholds absolute, uint8_t* labels, int threads) {
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (size_t i = 0; i < count; ++i) labels[i] = uint8_t(threshold_label(suppressed[i], absolute.low, absolute.high));
}

namespace {

// Rows [first, end) of a flood fill: marks (edges = 255) the weak pixels 8-connected to the
// pixels already on `pending` through weak pixels of those rows, and says whether it marked any.
bool flood_rows(const uint8_t* labels, int width, int first, int end, uint8_t* edges, std::vector<size_t>& pending) {
    bool marked = false;
    while (!pending.empty()) {
        const size_t i = pending.back();
        pending.pop_back();
        const int x = int(i % width), y = int(i / width);
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int nx = x + dx, ny = y + dy;
                if (nx < 0 || nx >= width || ny < first || ny >= end) continue;
                const size_t n = size_t(ny) * width + nx;
                if (edges[n] == 0 && labels[n] == uint8_t(EdgeLabel::Weak)) {
                    edges[n] = 255;  // marked when pushed: each pixel enters the stack once
                    pending.push_back(n);
                    marked = true;
                }
            }
    }
    return marked;
}

// Rows [first, end): marks the strong pixels and floods from them.
void flood_from_strong(const uint8_t* labels, int width, int first, int end, uint8_t* edges) {
    std::vector<size_t> pending;
    for (size_t i = size_t(first) * width; i < size_t(end) * width; ++i)
        if (labels[i] == uint8_t(EdgeLabel::Strong)) {
            edges[i] = 255;
            pending.push_back(i);
        }
    flood_rows(labels, width, first, end, edges, pending);
}

// Rows [first, end): the weak pixels of boundary row `row` (first or end - 1) next to an edge pixel
// of the neighbouring band's row `outside`, marked and flooded from. Says whether it marked any.
bool flood_across(const uint8_t* labels, int width, int first, int end, int row, int outside, uint8_t* edges) {
    std::vector<size_t> pending;
    const uint8_t* beyond = edges + size_t(outside) * width;
    for (int x = 0; x < width; ++x) {
        const size_t i = size_t(row) * width + x;
        if (edges[i] || labels[i] != uint8_t(EdgeLabel::Weak)) continue;
        if ((x > 0 && beyond[x - 1]) || beyond[x] || (x + 1 < width && beyond[x + 1])) {
            edges[i] = 255;
            pending.push_back(i);
        }
    }
    const bool seeded = !pending.empty();
    flood_rows(labels, width, first, end, edges, pending);
    return seeded;
}

}  // namespace

void canny_hysteresis(const uint8_t* labels, int width, int height, uint8_t* edges) {
    std::fill(edges, edges + size_t(width) * height, uint8_t(0));
    flood_from_strong(labels, width, 0, height, edges);
}

int canny_hysteresis_omp(const uint8_t* labels, int width, int height, uint8_t* edges, int threads) {
    threads = thread_count(threads);
    const int bands = std::max(1, std::min(height, 4 * threads));  // a few bands a thread, for balance
    const auto first_row = [&](int band) { return int(int64_t(height) * band / bands); };
#pragma omp parallel for num_threads(threads) schedule(dynamic)
    for (int band = 0; band < bands; ++band) {
        std::fill(edges + size_t(first_row(band)) * width, edges + size_t(first_row(band + 1)) * width, uint8_t(0));
        flood_from_strong(labels, width, first_row(band), first_row(band + 1), edges);
    }
    int rounds = 0;
    while (bands > 1) {
        bool changed = false;
        for (int parity = 0; parity < 2; ++parity) {
#pragma omp parallel for num_threads(threads) schedule(dynamic) reduction(|| : changed)
            for (int band = parity; band < bands; band += 2) {
                const int first = first_row(band), end = first_row(band + 1);
                if (band > 0) changed = flood_across(labels, width, first, end, first, first - 1, edges) || changed;
                if (band + 1 < bands) changed = flood_across(labels, width, first, end, end - 1, end, edges) || changed;
            }
        }
        if (!changed) break;
        ++rounds;
    }
    return rounds;
}

CannyStages canny_reference(const Image& grey, const Mask& mask, Border border, CannyThresholds thresholds,
                            int threads) {
    CannyStages s;
    s.width = grey.width;
    s.height = grey.height;
    const size_t count = size_t(grey.width) * grey.height;
    s.smoothed.resize(count);
    s.magnitude.resize(count);
    s.suppressed.resize(count);
    s.direction.resize(count);
    s.labels.resize(count);
    s.edges.resize(count);
    canny_smooth(grey, mask, border, s.smoothed.data(), threads);
    canny_gradients(s.smoothed.data(), s.width, s.height, border, s.magnitude.data(), s.direction.data(), threads);
    canny_suppress(s.magnitude.data(), s.direction.data(), s.width, s.height, s.suppressed.data(), threads);
    s.thresholds = absolute_thresholds(thresholds, s.magnitude.data(), count);
    canny_threshold(s.suppressed.data(), count, s.thresholds, s.labels.data(), threads);
    if (threads == 1)
        canny_hysteresis(s.labels.data(), s.width, s.height, s.edges.data());
    else
        canny_hysteresis_omp(s.labels.data(), s.width, s.height, s.edges.data(), threads);
    return s;
}

EdgeAgreement compare_edges(const uint8_t* tested, const uint8_t* reference, size_t count) {
    EdgeAgreement a;
    for (size_t i = 0; i < count; ++i) {
        const bool t = tested[i] != 0, r = reference[i] != 0;
        a.tp += t && r;
        a.fn += r && !t;
        a.fp += t && !r;
        a.ni += t;
        a.nb += r;
    }
    const size_t most = std::max(a.ni, a.nb);
    if (most) {
        a.pco = double(a.tp) / double(most);
        a.pnd = double(a.fn) / double(most);
        a.pfa = double(a.fp) / double(most);
    }
    return a;
}

}  // namespace convlab
