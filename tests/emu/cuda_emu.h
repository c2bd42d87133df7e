// A tiny host-side stand-in for the CUDA features that kernels/minplus_gemm.cu uses, so that
// its control flow (tiles, padding, double buffering, edge paths, accumulate) runs on a CPU
// (tests/test_minplus_emulated.py): one std::thread per CUDA thread, one block at a time
// (so `static` works as __shared__), std::barrier as __syncthreads. No __CUDA_ARCH__: the
// kernel takes its plain (pre-sm_80, non-DPX) paths.
#pragma once
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

struct emu_dim3 { unsigned x = 0, y = 0, z = 0; };
inline thread_local emu_dim3 threadIdx, blockIdx;
inline std::barrier<>* emu_barrier = nullptr;

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))

inline void __syncthreads() { emu_barrier->arrive_and_wait(); }
inline float __int_as_float(int x) { float f; std::memcpy(&f, &x, 4); return f; }
inline double __longlong_as_double(long long x) { double f; std::memcpy(&f, &x, 8); return f; }
using std::max;
using std::min;

// Run kernel(args...) over `blocks` blocks of `threads` threads.
template <class F>
void emu_launch(unsigned blocks, unsigned threads, F kernel) {
    for (unsigned b = 0; b < blocks; ++b) {
        std::barrier<> bar((std::ptrdiff_t)threads);
        emu_barrier = &bar;
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < threads; ++t)
            ts.emplace_back([&, t, b] { threadIdx.x = t; blockIdx.x = b; kernel(); });
        for (auto& th : ts) th.join();
    }
}
