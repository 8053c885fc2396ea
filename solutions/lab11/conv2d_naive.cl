// Lab 11 — lab 1's naive kernel in OpenCL. Reference solution.
//
// The same kernel as solutions/lab1/conv2d_naive.cu in OpenCL C: one work-item computes one
// output pixel (all of its channels), reading the image and the mask straight from global (or
// constant) memory. The OpenCL driver compiles this file when the program runs.
//
// Build and run:   make lab11 SOLUTION=1 && ./lab11      (./lab11 --cl-list: the devices)

// All channels of a pixel at once: one border lookup and one weight per tap serve 1 or 3
// channels. The channel loop has a fixed length, so sum[] stays in registers.
#define MAX_CHANNELS 3

// Every channel of output pixel (x, y), the mask in global memory.
void conv2d_naive_pixel(global const uchar* in, global float* out, global const float* mask, int width, int height,
                        int channels, int k, int border, int x, int y) {
    const int r = k / 2;
    float sum[MAX_CHANNELS] = {0.0f, 0.0f, 0.0f};
    for (int i = 0; i < k; ++i) {
        const int sy = border_index(y + i - r, height, border);
        if (sy < 0) continue;
        global const uchar* row = in + (size_t)sy * width * channels;
        for (int j = 0; j < k; ++j) {
            const int sx = border_index(x + j - r, width, border);
            if (sx < 0) continue;
            const float weight = mask[i * k + j];
            global const uchar* pixel = row + sx * channels;
            for (int c = 0; c < MAX_CHANNELS; ++c)
                if (c < channels) sum[c] += weight * (float)pixel[c];
        }
    }
    global float* o = out + ((size_t)y * width + x) * channels;
    for (int c = 0; c < MAX_CHANNELS; ++c)
        if (c < channels) o[c] = sum[c];
}

// The same body, the mask in constant memory. OpenCL 1.2 has no pointer that points to
// both global and constant memory, so the body is written twice; only the mask's type differs.
void conv2d_naive_pixel_const(global const uchar* in, global float* out, constant const float* mask, int width, int height,
                              int channels, int k, int border, int x, int y) {
    const int r = k / 2;
    float sum[MAX_CHANNELS] = {0.0f, 0.0f, 0.0f};
    for (int i = 0; i < k; ++i) {
        const int sy = border_index(y + i - r, height, border);
        if (sy < 0) continue;
        global const uchar* row = in + (size_t)sy * width * channels;
        for (int j = 0; j < k; ++j) {
            const int sx = border_index(x + j - r, width, border);
            if (sx < 0) continue;
            const float weight = mask[i * k + j];
            global const uchar* pixel = row + sx * channels;
            for (int c = 0; c < MAX_CHANNELS; ++c)
                if (c < channels) sum[c] += weight * (float)pixel[c];
        }
    }
    global float* o = out + ((size_t)y * width + x) * channels;
    for (int c = 0; c < MAX_CHANNELS; ++c)
        if (c < channels) o[c] = sum[c];
}

// A 2-D NDRange rounded up to whole work-groups: the work-items outside the image skip.
kernel void conv2d_naive_kernel(global const uchar* in, global float* out, global const float* mask, int width, int height,
                                int channels, int k, int border) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x < width && y < height) conv2d_naive_pixel(in, out, mask, width, height, channels, k, border, x, y);
}

// A 1-D NDRange over the pixels in row-major order.
kernel void conv2d_naive_1d_kernel(global const uchar* in, global float* out, global const float* mask, int width,
                                   int height, int channels, int k, int border) {
    const size_t pixel = get_global_id(0);
    if (pixel < (size_t)width * height)
        conv2d_naive_pixel(in, out, mask, width, height, channels, k, border, (int)(pixel % width), (int)(pixel / width));
}

kernel void conv2d_naive_const_kernel(global const uchar* in, global float* out, constant const float* mask, int width,
                                      int height, int channels, int k, int border) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x < width && y < height) conv2d_naive_pixel_const(in, out, mask, width, height, channels, k, border, x, y);
}
