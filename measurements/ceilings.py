"""What the hardware gives for the traffic the memory-bound labs generate, measured through
libraries rather than convlab's own kernels: a device-to-device copy (read = write), a memset
(writes only), and CuPy's uint8 -> float32 conversion (1 byte read, 4 written: the labs' byte
model with a 1x1 mask). CUDA events, warm-up, median of 20; the same sizes as the labs' 8192^2 runs."""
import cupy as cp

n = 8192 * 8192
src8 = cp.random.randint(0, 256, n, dtype=cp.uint8)
dst32 = cp.empty(n, dtype=cp.float32)
a = cp.empty(n * 5, dtype=cp.uint8)
b = cp.empty(n * 5, dtype=cp.uint8)


def median_ms(fn):
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(3):
        fn()
    times = []
    for _ in range(20):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return sorted(times)[len(times) // 2]


copy_ms = median_ms(lambda: b.__setitem__(slice(None), a))
copy = 2 * a.nbytes / copy_ms / 1e6
memset_ms = median_ms(lambda: dst32.fill(0))
convert_ms = median_ms(lambda: cp.copyto(dst32, src8, casting="unsafe"))
print(f"device-to-device copy of {a.nbytes / 1e6:.0f} MB: {copy:.0f} GB/s (read + write)")
print(f"fill of {dst32.nbytes / 1e6:.0f} MB of float32: {dst32.nbytes / memset_ms / 1e6:.0f} GB/s = {100 * dst32.nbytes / memset_ms / 1e6 / copy:.1f}% of copy")
model = n * 5
print(f"CuPy uint8 -> float32 of {n} values: {convert_ms:.3f} ms, {model / convert_ms / 1e6:.0f} GB/s under the 5-byte model = "
      f"{100 * model / convert_ms / 1e6 / copy:.1f}% of copy")
