// A host-side stand-in for what the pull kernels of kernels/spmv.cu use (tests/
// test_spmv_emulated.py): one std::thread per CUDA thread, blocks one after another (so
// `static` works as __shared__), std::barrier as __syncthreads. Warp collectives take a mask
// of the lanes that call them (groups of a warp may have left, as in spmv_pull): the lanes
// of a mask meet at a barrier of their own. It checks the kernels' logic (schedules, groups,
// steps, reductions), not their timing.
#pragma once
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

struct emu_dim3 { unsigned x = 1, y = 1, z = 1; };
inline thread_local emu_dim3 threadIdx, blockIdx;
inline emu_dim3 blockDim, gridDim;
inline std::barrier<>* emu_bar = nullptr;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
using std::max;
using std::min;
struct uint4 { unsigned x, y, z, w; };
inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) { return {a, b, c, d}; }
template <class T> T __ldcs(const T* p) { return *p; }
template <class T> T __ldcg(const T* p) { return *p; }
template <class T> T __ldg(const T* p) { return *p; }
inline int __popc(unsigned x) { return __builtin_popcount(x); }

// per (warp, mask): a barrier of the mask's lanes and the lanes' exchange slots
struct EmuGroup {
    std::barrier<> bar;
    unsigned long long slot[32];
    explicit EmuGroup(int n) : bar(n) {}
};
inline std::mutex emu_mu;
inline std::map<std::pair<unsigned, unsigned>, std::unique_ptr<EmuGroup>> emu_groups;
inline EmuGroup& emu_group(unsigned mask) {
    std::lock_guard<std::mutex> g(emu_mu);
    auto key = std::make_pair((unsigned)(threadIdx.x / 32), mask);
    auto& p = emu_groups[key];
    if (!p) p.reset(new EmuGroup(__builtin_popcount(mask)));
    return *p;
}
template <class T> T emu_exchange(unsigned mask, T v, int src) {
    EmuGroup& g = emu_group(mask);
    const int lane = threadIdx.x & 31;
    unsigned long long x = 0;
    std::memcpy(&x, &v, sizeof(T));
    g.bar.arrive_and_wait();
    g.slot[lane] = x;
    g.bar.arrive_and_wait();
    unsigned long long y = g.slot[src];
    g.bar.arrive_and_wait();
    T r;
    std::memcpy(&r, &y, sizeof(T));
    return r;
}
template <class T> T __shfl_down_sync(unsigned mask, T v, int off, int width = 32) {
    const int lane = threadIdx.x & 31;
    const int src = (lane % width) + off < width ? lane + off : lane;
    return emu_exchange(mask, v, src);
}
template <class T> T __shfl_up_sync(unsigned mask, T v, int off, int width = 32) {
    const int lane = threadIdx.x & 31;
    const int src = (lane % width) >= off ? lane - off : lane;
    return emu_exchange(mask, v, src);
}
template <class T> T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
    const int lane = threadIdx.x & 31;
    return emu_exchange(mask, v, (lane & ~(width - 1)) + (src & (width - 1)));
}
inline unsigned __ballot_sync(unsigned mask, bool p) {
    EmuGroup& g = emu_group(mask);
    const int lane = threadIdx.x & 31;
    g.bar.arrive_and_wait();
    g.slot[lane] = p;
    g.bar.arrive_and_wait();
    unsigned r = 0;
    for (int i = 0; i < 32; ++i) if ((mask >> i & 1u) && g.slot[i]) r |= 1u << i;
    g.bar.arrive_and_wait();
    return r;
}
inline bool __any_sync(unsigned mask, bool p) { return __ballot_sync(mask, p) != 0; }
inline void __syncwarp(unsigned mask = 0xffffffffu) { emu_group(mask).bar.arrive_and_wait(); }
inline void __syncthreads() { emu_bar->arrive_and_wait(); }
inline std::atomic<int> emu_or{0};
inline int __syncthreads_or(int p) {
    if (p) emu_or.fetch_or(1);
    emu_bar->arrive_and_wait();
    const int r = emu_or.load();
    emu_bar->arrive_and_wait();
    if (threadIdx.x == 0) emu_or.store(0);
    emu_bar->arrive_and_wait();
    return r;
}
template <class T> T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicCAS(T* p, T cmp, T v) {  // (common.cuh's atomic folds; unused here)
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return cmp;
}

// kernel() over `blocks` blocks of `threads` threads, a block at a time
template <class F> void emu_launch(unsigned blocks, unsigned threads, F kernel) {
    blockDim.x = threads;
    gridDim.x = blocks;
    for (unsigned b = 0; b < blocks; ++b) {
        std::barrier<> bar((std::ptrdiff_t)threads);
        emu_bar = &bar;
        emu_groups.clear();
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < threads; ++t)
            ts.emplace_back([&, t, b] { threadIdx.x = t; blockIdx.x = b; kernel(); });
        for (auto& th : ts) th.join();
    }
}
