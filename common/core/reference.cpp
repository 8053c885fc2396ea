// convlab harness — do not edit in a lab.
#include "common/core/reference.hpp"

#include <omp.h>

#include <string>
#include <vector>

#include "common/core/errors.hpp"
#include "common/core/rng.hpp"
#include "common/core/separable.hpp"

namespace convlab {

namespace {

// reference_value_at for any source of pixels: pixel(i) is input value number i.
template <class PixelAt>
double value_at(const PixelAt& pixel, int width, int height, int channels, const Mask& mask, Border border,
                size_t index) {
    const int c = int(index % channels), x = int(index / channels % width), y = int(index / channels / width);
    const int k = mask.k, r = mask.radius();
    double sum = 0.0;
    for (int i = 0; i < k; ++i) {
        const int sy = border_index(y + i - r, height, border);
        for (int j = 0; j < k; ++j) {
            const int sx = border_index(x + j - r, width, border);
            const double value = (sx < 0 || sy < 0) ? 0.0 : double(pixel((size_t(sy) * width + sx) * channels + c));
            sum += double(mask.weights[size_t(i) * k + j]) * value;
        }
    }
    return sum;
}

}  // namespace

double reference_value_at(const Image& in, const Mask& mask, Border border, size_t index) {
    const auto pixel = [&](size_t i) { return in.pixels[i]; };
    return value_at(pixel, in.width, in.height, in.channels, mask, border, index);
}

double reference_value_of_seed(uint64_t seed, int width, int height, int channels, const Mask& mask, Border border,
                               size_t index) {
    const auto pixel = [seed](size_t i) { return random_pixel(seed, i); };
    return value_at(pixel, width, height, channels, mask, border, index);
}

void conv2d_cpu(const Image& in, const Mask& mask, Border border, float* out) {
    for (size_t n = 0; n < in.elements(); ++n) out[n] = float(reference_value_at(in, mask, border, n));
}

namespace {

// Rows [first_row - r, first_row + rows + r) of the input with r extra pixels on each side, every
// pixel by the border rule of the whole image (zeros for Zero): the padded rows that output rows
// [first_row, first_row + rows) read. All rows: the whole image padded on every side.
std::vector<uint8_t> pad_rows(const Image& in, int r, Border border, int first_row, int rows) {
    const int pw = in.width + 2 * r, ph = rows + 2 * r, ch = in.channels;
    std::vector<uint8_t> padded(size_t(pw) * ph * ch);
    std::vector<int> source_x(pw);
    for (int px = 0; px < pw; ++px) source_x[px] = border_index(px - r, in.width, border);
#pragma omp parallel for schedule(static)
    for (int py = 0; py < ph; ++py) {
        const int sy = border_index(first_row + py - r, in.height, border);
        uint8_t* row = &padded[size_t(py) * pw * ch];
        for (int px = 0; px < pw; ++px)
            for (int c = 0; c < ch; ++c)
                row[px * ch + c] = (sy < 0 || source_x[px] < 0) ? 0 : in.at(source_x[px], sy, c);
    }
    return padded;
}

void require_rows(const Image& in, int first_row, int rows) {
    if (first_row < 0 || rows < 0 || first_row + rows > in.height)
        throw InputError("rows " + std::to_string(first_row) + " to " + std::to_string(first_row + rows) + " of an image of " +
                         std::to_string(in.height) + " rows");
}

// Every output row y of `out` (height rows of row_len floats), spread over the threads:
// add_taps(y, sum) adds the row's taps into sum (row_len doubles, zeroed first), then it is rounded.
template <class AddTaps>
void sum_rows(int height, int row_len, int threads, float* out, const AddTaps& add_taps) {
#pragma omp parallel num_threads(threads)
    {
        std::vector<double> sum(row_len);
#pragma omp for schedule(static)
        for (int y = 0; y < height; ++y) {
            std::fill(sum.begin(), sum.end(), 0.0);
            add_taps(y, sum.data());
            float* out_row = out + size_t(y) * row_len;
            for (int n = 0; n < row_len; ++n) out_row[n] = float(sum[n]);
        }
    }
}

}  // namespace

void conv2d_cpu_omp(const Image& in, const Mask& mask, Border border, float* out, int threads) {
    conv2d_cpu_omp_rows(in, mask, border, 0, in.height, out, threads);
}

void conv2d_cpu_omp_rows(const Image& in, const Mask& mask, Border border, int first_row, int rows, float* out, int threads) {
    require_rows(in, first_row, rows);
    const int w = in.width, ch = in.channels, k = mask.k, r = mask.radius();
    const int row_len = w * ch, padded_row_len = (w + 2 * r) * ch;
    const std::vector<uint8_t> padded = pad_rows(in, r, border, first_row, rows);
    sum_rows(rows, row_len, threads <= 0 ? omp_get_max_threads() : threads, out, [&](int y, double* sum) {
        for (int i = 0; i < k; ++i) {
            const uint8_t* row = &padded[size_t(y + i) * padded_row_len];
            for (int j = 0; j < k; ++j) {
                const double weight = mask.weights[size_t(i) * k + j];
                const uint8_t* tap = row + j * ch;
                for (int n = 0; n < row_len; ++n) sum[n] += weight * double(tap[n]);
            }
        }
    });
}

void conv2d_cpu_separable(const Image& in, const Mask& mask, Border border, float* out, int threads) {
    conv2d_cpu_separable_rows(in, mask, border, 0, in.height, out, threads);
}

void conv2d_cpu_separable_rows(const Image& in, const Mask& mask, Border border, int first_row, int rows, float* out,
                               int threads) {
    require_separable(mask);
    require_rows(in, first_row, rows);
    const int w = in.width, ch = in.channels, k = mask.k, r = mask.radius();
    const int row_len = w * ch, padded_row_len = (w + 2 * r) * ch;
    const std::vector<uint8_t> padded = pad_rows(in, r, border, first_row, rows);
    if (threads <= 0) threads = omp_get_max_threads();
    // The row pass over every padded row (the column pass reads r rows above and below each output
    // row), kept in double.
    std::vector<double> across(size_t(rows + 2 * r) * row_len);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int py = 0; py < rows + 2 * r; ++py) {
        double* sum = &across[size_t(py) * row_len];
        const uint8_t* row = &padded[size_t(py) * padded_row_len];
        for (int j = 0; j < k; ++j) {
            const double weight = mask.row[j];
            const uint8_t* tap = row + j * ch;
            for (int n = 0; n < row_len; ++n) sum[n] += weight * double(tap[n]);
        }
    }
    sum_rows(rows, row_len, threads, out, [&](int y, double* sum) {
        for (int i = 0; i < k; ++i) {
            const double weight = mask.col[i];
            const double* tap = &across[size_t(y + i) * row_len];
            for (int n = 0; n < row_len; ++n) sum[n] += weight * tap[n];
        }
    });
}

void conv2d_cpu_reference(const Image& in, const Mask& mask, Border border, float* out, bool two_pass) {
    conv2d_cpu_reference_rows(in, mask, border, 0, in.height, out, two_pass);
}

void conv2d_cpu_reference_rows(const Image& in, const Mask& mask, Border border, int first_row, int rows, float* out,
                               bool two_pass) {
    if (two_pass && mask.separable())
        conv2d_cpu_separable_rows(in, mask, border, first_row, rows, out, 0);
    else
        conv2d_cpu_omp_rows(in, mask, border, first_row, rows, out, 0);
}

}  // namespace convlab
