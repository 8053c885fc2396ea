// Lab 12 — lab 3's tiled kernel in OpenCL. Reference solution.
//
// The same kernel as solutions/lab3/conv2d_tiled.cu in OpenCL C: a 16x16 work-group computes a
// 16x16 output tile from a (16+k-1)^2 input tile in local memory, whose size the host sets at
// every launch (the last argument). The tile is bigger than the work-group, so it is loaded in
// passes: work-item n loads tile elements n, n+256, n+512, ...; every work-item loads and every
// work-item computes. The OpenCL driver compiles this file when the program runs.
//
// Build and run:   make lab12 SOLUTION=1 && ./lab12      (./lab12 --cl-list: the devices)

#define TILE 16  // the work-group is TILE x TILE work-items, one output pixel each (the host's shape)

// Tile layout: row-major, channels interleaved: tile[(row * tile_w + col) * channels + c].
kernel void conv2d_tiled_kernel(global const uchar* in, global float* out, constant const float* mask, int width, int height,
                                int channels, int k, int border, local float* tile) {
    const int r = k / 2;
    const int tile_w = TILE + k - 1, tile_h = TILE + k - 1;
    const int x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    const int tx = get_local_id(0), ty = get_local_id(1);

    for (int n = ty * TILE + tx; n < tile_w * tile_h; n += TILE * TILE) {
        const int row = n / tile_w, col = n - row * tile_w;
        const int sy = border_index(y0 - r + row, height, border);
        const int sx = border_index(x0 - r + col, width, border);
        local float* t = tile + n * channels;
        if (sx < 0 || sy < 0) {
            for (int c = 0; c < channels; ++c) t[c] = 0.0f;
        } else {
            global const uchar* p = in + ((size_t)sy * width + sx) * channels;
            for (int c = 0; c < channels; ++c) t[c] = (float)p[c];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int x = x0 + tx, y = y0 + ty;
    if (x >= width || y >= height) return;
    for (int c = 0; c < channels; ++c) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) {
            local const float* row = tile + ((ty + i) * tile_w + tx) * channels + c;
            for (int j = 0; j < k; ++j) sum += mask[i * k + j] * row[j * channels];
        }
        out[((size_t)y * width + x) * channels + c] = sum;
    }
}
