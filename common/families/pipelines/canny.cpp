// convlab harness — do not edit in a lab.
#include "common/families/pipelines/canny.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/core/errors.hpp"
#include "common/core/separable.hpp"

namespace convlab {

namespace {

int thread_count(int threads) { return threads <= 0 ? omp_get_max_threads() : threads; }

// Stages 1 to 3 resolve the border rule once per row (a padded line, or a pointer to each source
// row) and leave the columns between to plain loops with no checks, the per-row functions below.
// On x86-64 GCC compiles those that fuse twice, and the loader picks one for the CPU
// (target_clones, which asks __builtin_cpu_supports): for x86-64-v3 (AVX2 and FMA) std::fmaf is
// one vfmadd instruction and the loops vectorise; the default clone is the portable code, where
// fmaf is a libm call. fmaf is correctly rounded in both, so both give the same bits, and
// -ffp-contract=off holds in both: only the explicit fmaf calls fuse. (clang, whose __GNUC__ is 4,
// keeps the portable code.)
#if defined(__x86_64__) && defined(__GNUC__) && __GNUC__ >= 12
#define CONVLAB_FMA_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define CONVLAB_FMA_CLONES
#endif

// The value a tap reads from a float plane under the border rule (0 outside under zero).
float tap(const float* plane, int width, int height, int x, int y, Border border) {
    const int sx = border_index(x, width, border), sy = border_index(y, height, border);
    return sx < 0 || sy < 0 ? 0.0f : plane[size_t(sy) * width + sx];
}

// Row `y` of a plane under the border rule: the row y reads, or `zeros` (a row of 0.0f) when it
// reads zero. Every column of it is then in the image, so a row pass over it needs no checks.
const float* border_row(const float* plane, int width, int height, int y, Border border, const float* zeros) {
    const int sy = border_index(y, height, border);
    return sy < 0 ? zeros : plane + size_t(sy) * width;
}

// Stage 1's sum over k lines: out[x] = acc after acc = fmaf(weights[i], lines[i][x], acc) for i =
// 0 .. k - 1 from acc = 0, each pixel's operations in canny_smooth's order. i is the outer loop so
// that x, the inner one, vectorises; the columns go a block at a time so that the block's partial
// sums stay in L1 across the k lines on any width.
CONVLAB_FMA_CLONES void weighted_sum(const float* weights, const float* const* lines, int k, int width, float* out) {
    constexpr int kBlock = 1024;  // 4 KiB of sums
    for (int first = 0; first < width; first += kBlock) {
        const int end = std::min(width, first + kBlock);
        std::fill(out + first, out + end, 0.0f);
        for (int i = 0; i < k; ++i) {
            const float weight = weights[i], *line = lines[i];
#pragma omp simd  // no line overlaps out
            for (int x = first; x < end; ++x) out[x] = std::fmaf(weight, line[x], out[x]);
        }
    }
}

// Row y of the image as floats with r columns more on each side by the border rule: line[t] is
// column t - r, 0.0f where a zero-border tap reads nothing (fmaf then adds a zero product, as the
// per-tap sum did). line holds width + 2r floats.
void padded_line(const Image& grey, int y, int r, Border border, float* line) {
    const int w = grey.width;
    const uint8_t* row = grey.pixels.data() + size_t(y) * w;
    const auto outside = [&](int x) {
        const int sx = border_index(x, w, border);
        return sx < 0 ? 0.0f : float(row[sx]);
    };
    for (int t = 0; t < r; ++t) {
        line[t] = outside(t - r);
        line[r + w + t] = outside(w + t);
    }
    for (int x = 0; x < w; ++x) line[r + x] = float(row[x]);
}

// Output rows per band of stage 1 (at least; see canny_smooth).
constexpr int kSmoothBand = 64;

// One thread's scratch space for stage 1.
struct SmoothScratch {
    std::vector<float> line;         // an image row padded by r columns on each side
    std::vector<float> rows;         // the row pass of a band's rows and of r rows above and below
    std::vector<const float*> taps;  // the k lines weighted_sum() reads
    SmoothScratch(int width, int k, int band)
        : line(size_t(width) + k - 1), rows(size_t(width) * (band + k - 1)), taps(k) {}
};

// Stage 1's row pass of row y, any integer: the row it reads by the border rule, or a row of
// zeros, which the column pass then adds as the per-tap sum added the zero taps.
void row_pass(const Image& grey, const Mask& mask, Border border, int y, SmoothScratch& scratch, float* out) {
    const int sy = border_index(y, grey.height, border);
    if (sy < 0) {
        std::fill(out, out + grey.width, 0.0f);
        return;
    }
    padded_line(grey, sy, mask.radius(), border, scratch.line.data());
    for (int j = 0; j < mask.k; ++j) scratch.taps[j] = scratch.line.data() + j;  // tap j of column x: line[x + j]
    weighted_sum(mask.row.data(), scratch.taps.data(), mask.k, grey.width, out);
}

// Stage 2 at one pixel from its 3x3 neighbourhood n (canny_rules.hpp).
inline void store_gradient(const float n[3][3], float* magnitude, uint8_t* direction) {
    const Gradient g = sobel_gradient(n);
    *magnitude = gradient_magnitude(g);
    *direction = uint8_t(quantise_direction(g));
}

// Stage 2 at (x, y), every tap through the border rule: the definition, run on the first and last
// columns, whose taps leave the image sideways.
void gradient_at(const float* smoothed, int width, int height, int x, int y, Border border, float* magnitude,
                 uint8_t* direction) {
    float n[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) n[i][j] = tap(smoothed, width, height, x + j - 1, y + i - 1, border);
    const size_t at = size_t(y) * width + x;
    store_gradient(n, magnitude + at, direction + at);
}

// Stage 2 on columns 1 .. width - 2 of a row, from its rows above, at and below as border_row()
// gives them: no tap of these columns leaves the rows, so n is read straight from them.
CONVLAB_FMA_CLONES void gradient_row(const float* const rows[3], int width, float* magnitude, uint8_t* direction) {
    for (int x = 1; x + 1 < width; ++x) {
        float n[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) n[i][j] = rows[i][x + j - 1];
        store_gradient(n, magnitude + x, direction + x);
    }
}

// A magnitude plane at (x, y): 0 outside the image, as non-maximum suppression reads it.
float magnitude_at(const float* magnitude, int width, int height, int x, int y) {
    return x < 0 || x >= width || y < 0 || y >= height ? 0.0f : magnitude[size_t(y) * width + x];
}

// Stage 3 at (x, y) with every neighbour bounds checked: the definition, run on the first and last
// columns.
float suppressed_at(const float* magnitude, const uint8_t* direction, int width, int height, int x, int y) {
    int dx = 0, dy = 0;
    direction_step(EdgeDirection(direction[size_t(y) * width + x]), &dx, &dy);
    return suppress(magnitude_at(magnitude, width, height, x, y),
                    magnitude_at(magnitude, width, height, x - dx, y - dy),
                    magnitude_at(magnitude, width, height, x + dx, y + dy));
}

// Stage 3 on columns 1 .. width - 2 of a row, from the magnitude rows above, at and below it (a row
// of zeros outside the image): a neighbour of these columns is never outside sideways. A direction
// byte that is no EdgeDirection steps nowhere (0, 0), as in suppressed_at().
void suppress_row(const float* const rows[3], const uint8_t* direction, int width, float* suppressed) {
    for (int x = 1; x + 1 < width; ++x) {
        int dx = 0, dy = 0;
        direction_step(EdgeDirection(direction[x]), &dx, &dy);
        suppressed[x] = suppress(rows[1][x], rows[1 - dy][x - dx], rows[1 + dy][x + dx]);
    }
}

}  // namespace

void canny_smooth(const Image& grey, const Mask& mask, Border border, float* out, int threads) {
    if (grey.channels != 1)
        throw InputError("the Canny reference takes one channel, not " + std::to_string(grey.channels));
    require_separable(mask);
    const int w = grey.width, h = grey.height, k = mask.k, r = mask.radius();
    // Bands of output rows, each with its own row pass of the rows its column pass reads: they
    // stay in cache between the passes, and no image-sized buffer is needed (allocating and first
    // touching one took longer than both passes). The 2r rows a band shares with its neighbours
    // are computed twice, to the same bits; the band is long enough to keep that under half.
    const int band = std::max(kSmoothBand, 4 * r), bands = (h + band - 1) / band;
#pragma omp parallel num_threads(thread_count(threads))
    {
        SmoothScratch scratch(w, k, band);
#pragma omp for schedule(static)
        for (int b = 0; b < bands; ++b) {
            const int first = b * band, end = std::min(h, first + band);
            // scratch.rows row t: the row pass of row first - r + t.
            for (int t = 0; t < end - first + 2 * r; ++t)
                row_pass(grey, mask, border, first - r + t, scratch, scratch.rows.data() + size_t(t) * w);
            for (int y = first; y < end; ++y) {
                for (int i = 0; i < k; ++i) scratch.taps[i] = scratch.rows.data() + size_t(y - first + i) * w;
                weighted_sum(mask.col.data(), scratch.taps.data(), k, w, out + size_t(y) * w);
            }
        }
    }
}

void canny_gradients(const float* smoothed, int width, int height, Border border, float* magnitude,
                     uint8_t* direction, int threads) {
    const std::vector<float> zeros(width, 0.0f);
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (int y = 0; y < height; ++y) {
        const float* rows[3];
        for (int i = 0; i < 3; ++i) rows[i] = border_row(smoothed, width, height, y + i - 1, border, zeros.data());
        const size_t at = size_t(y) * width;
        gradient_row(rows, width, magnitude + at, direction + at);
        gradient_at(smoothed, width, height, 0, y, border, magnitude, direction);
        if (width > 1) gradient_at(smoothed, width, height, width - 1, y, border, magnitude, direction);
    }
}

void canny_suppress(const float* magnitude, const uint8_t* direction, int width, int height, float* suppressed,
                    int threads) {
    const std::vector<float> zeros(width, 0.0f);
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (int y = 0; y < height; ++y) {
        const float* rows[3];
        for (int i = 0; i < 3; ++i)
            rows[i] = border_row(magnitude, width, height, y + i - 1, Border::Zero, zeros.data());  // 0 outside
        const size_t at = size_t(y) * width;
        suppress_row(rows, direction + at, width, suppressed + at);
        suppressed[at] = suppressed_at(magnitude, direction, width, height, 0, y);
        if (width > 1) suppressed[at + width - 1] = suppressed_at(magnitude, direction, width, height, width - 1, y);
    }
}

float largest_magnitude(const float* magnitude, size_t count, int threads) {
    float largest = 0.0f;  // magnitudes are never negative, nor NaN from a finite image
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static) reduction(max : largest)
    for (size_t i = 0; i < count; ++i) largest = std::max(largest, magnitude[i]);
    return largest;
}

CannyThresholds absolute_thresholds(CannyThresholds t, float largest) {
    if (!(t.low > 0 && t.low <= t.high))
        throw InputError("Canny thresholds need 0 < low <= high, not low " + std::to_string(t.low) + ", high " +
                         std::to_string(t.high));
    return t.relative ? CannyThresholds{t.low * largest, t.high * largest, false} : t;
}

CannyThresholds absolute_thresholds(CannyThresholds t, const float* magnitude, size_t count, int threads) {
    return absolute_thresholds(t, t.relative ? largest_magnitude(magnitude, count, threads) : 0.0f);
}

void canny_threshold(const float* suppressed, size_t count, CannyThresholds absolute, uint8_t* labels, int threads) {
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (size_t i = 0; i < count; ++i) labels[i] = uint8_t(threshold_label(suppressed[i], absolute.low, absolute.high));
}

namespace {

// Rows [first, end) of a flood fill: marks (edges = 255) the weak pixels 8-connected to the
// pixels already on `pending` through weak pixels of those rows, and says how many it marked.
size_t flood_rows(const uint8_t* labels, int width, int first, int end, uint8_t* edges, std::vector<size_t>& pending) {
    size_t marked = 0;
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
                    ++marked;
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

// The weak pixels of boundary row `row` not yet marked and next to an edge pixel of the
// neighbouring band's row `outside`: marked, and pushed on `pending`.
void seed_across(const uint8_t* labels, int width, int row, int outside, uint8_t* edges, std::vector<size_t>& pending) {
    const uint8_t* beyond = edges + size_t(outside) * width;
    for (int x = 0; x < width; ++x) {
        const size_t i = size_t(row) * width + x;
        if (edges[i] || labels[i] != uint8_t(EdgeLabel::Weak)) continue;
        if ((x > 0 && beyond[x - 1]) || beyond[x] || (x + 1 < width && beyond[x + 1])) {
            edges[i] = 255;
            pending.push_back(i);
        }
    }
}

}  // namespace

void canny_hysteresis(const uint8_t* labels, int width, int height, uint8_t* edges) {
    std::fill(edges, edges + size_t(width) * height, uint8_t(0));
    flood_from_strong(labels, width, 0, height, edges);
}

size_t canny_hysteresis_omp(const uint8_t* labels, int width, int height, uint8_t* edges, int threads) {
    threads = thread_count(threads);
    const int bands = std::max(1, std::min(height, 4 * threads));  // a few bands a thread, for balance
    const auto first_row = [&](int band) { return int(int64_t(height) * band / bands); };
#pragma omp parallel for num_threads(threads) schedule(dynamic)
    for (int band = 0; band < bands; ++band) {
        std::fill(edges + size_t(first_row(band)) * width, edges + size_t(first_row(band + 1)) * width, uint8_t(0));
        flood_from_strong(labels, width, first_row(band), first_row(band + 1), edges);
    }
    // Each band is now complete within itself: a weak pixel next to an edge but not marked lies
    // across a boundary. One flood over the whole image from those finishes the map, on one core.
    std::vector<size_t> pending;
    for (int band = 1; band < bands; ++band) {  // bands <= height: no band is empty
        const int boundary = first_row(band);
        seed_across(labels, width, boundary, boundary - 1, edges, pending);
        seed_across(labels, width, boundary - 1, boundary, edges, pending);
    }
    const size_t seeds = pending.size();
    return seeds + flood_rows(labels, width, 0, height, edges, pending);  // the pixels carried across
}

void canny_reference_into(const Image& grey, const Mask& mask, Border border, CannyThresholds thresholds, int threads,
                          CannyStages& s, CannyLastStage last) {
    s.width = grey.width;
    s.height = grey.height;
    s.smoothed.resize(size_t(grey.width) * grey.height);  // the other planes: canny_after_smoothing
    canny_smooth(grey, mask, border, s.smoothed.data(), threads);
    canny_after_smoothing(border, thresholds, threads, s, last);
}

void canny_after_smoothing(Border border, CannyThresholds thresholds, int threads, CannyStages& s, CannyLastStage last) {
    const size_t count = size_t(s.width) * s.height;
    if (s.smoothed.size() != count)
        throw InputError("a smoothed image of " + std::to_string(s.smoothed.size()) + " values for " + std::to_string(s.width) + "x" +
                         std::to_string(s.height) + " pixels");
    // Each plane sized where its stage runs, emptied where it does not: no stale plane of an
    // earlier image passes for this one's.
    using Stage = CannyLastStage;
    const auto sized = [&](Stage stage, auto& plane) { last >= stage ? plane.resize(count) : plane.clear(); };
    sized(Stage::Gradients, s.magnitude);
    sized(Stage::Gradients, s.direction);
    sized(Stage::Suppression, s.suppressed);
    sized(Stage::Thresholds, s.labels);
    sized(Stage::Hysteresis, s.edges);
    s.largest = 0;
    s.thresholds = thresholds;  // absolute from stage 4 on
    if (last < Stage::Gradients) return;
    canny_gradients(s.smoothed.data(), s.width, s.height, border, s.magnitude.data(), s.direction.data(), threads);
    s.largest = largest_magnitude(s.magnitude.data(), count, threads);
    if (last < Stage::Suppression) return;
    canny_suppress(s.magnitude.data(), s.direction.data(), s.width, s.height, s.suppressed.data(), threads);
    if (last < Stage::Thresholds) return;
    s.thresholds = absolute_thresholds(thresholds, s.largest);
    canny_threshold(s.suppressed.data(), count, s.thresholds, s.labels.data(), threads);
    if (last < Stage::Hysteresis) return;
    if (threads == 1)
        canny_hysteresis(s.labels.data(), s.width, s.height, s.edges.data());
    else
        canny_hysteresis_omp(s.labels.data(), s.width, s.height, s.edges.data(), threads);
}

CannyStages canny_reference(const Image& grey, const Mask& mask, Border border, CannyThresholds thresholds,
                            int threads) {
    CannyStages s;
    canny_reference_into(grey, mask, border, thresholds, threads, s);
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
