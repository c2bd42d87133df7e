// A host-side stand-in for what the cooperative traversal kernels of kernels/traverse.cu use
// (tests/test_sssp_emulated.py runs sssp_grid through it): one std::thread per CUDA thread,
// ONE block (so `static` works as __shared__ and sr_grid_sync, with gridDim.x = 1, is the
// block barrier plus its fences), std::barrier as __syncthreads and as each warp's exchange
// for the warp intrinsics (every warp-collective call in those kernels is made by all 32
// lanes), GCC __atomic builtins as the atomics. Spinning on volatile words works between
// real threads. It checks the kernels' logic (queues, piles, counters, stamps), not their
// timing or their memory-model subtleties across blocks.
#pragma once
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <thread>
#include <vector>
#include <atomic>
struct emu_dim3 { unsigned x = 1, y = 1, z = 1; };
inline thread_local emu_dim3 threadIdx, blockIdx;
inline emu_dim3 blockDim, gridDim;
inline std::barrier<>* emu_bar = nullptr;
struct Warp { std::barrier<>* b; unsigned long long slot[32]; };
inline std::vector<Warp*> emu_warps;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __restrict__
inline void __syncthreads() { emu_bar->arrive_and_wait(); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline float __int_as_float(int x) { float f; std::memcpy(&f, &x, 4); return f; }
inline int __float_as_int(float x) { int f; std::memcpy(&f, &x, 4); return f; }
inline double __longlong_as_double(long long x) { double f; std::memcpy(&f, &x, 8); return f; }
inline long long __double_as_longlong(double x) { long long f; std::memcpy(&f, &x, 8); return f; }
using std::max; using std::min;
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(unsigned x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
template <class T> T __ldcg(const T* p) { T r; __atomic_load(p, &r, __ATOMIC_SEQ_CST); return r; }
template <class T> T __ldca(const T* p) { return __ldcg(p); }
inline Warp& my_warp() { return *emu_warps[threadIdx.x / 32]; }
inline void __syncwarp(unsigned = 0xffffffffu) { my_warp().b->arrive_and_wait(); }
template <class T> T emu_exchange(T v, int src) {
    Warp& w = my_warp(); int lane = threadIdx.x & 31;
    unsigned long long x = 0; std::memcpy(&x, &v, sizeof(T));
    w.b->arrive_and_wait(); w.slot[lane] = x; w.b->arrive_and_wait();
    unsigned long long y = w.slot[src]; w.b->arrive_and_wait();
    T r; std::memcpy(&r, &y, sizeof(T)); return r;
}
template <class T> T __shfl_sync(unsigned, T v, int src) { return emu_exchange(v, src); }
template <class T> T __shfl_up_sync(unsigned, T v, int off) { int lane = threadIdx.x & 31; T r = emu_exchange(v, lane >= off ? lane - off : lane); return r; }
template <class T> T __shfl_xor_sync(unsigned, T v, int off) { int lane = threadIdx.x & 31; return emu_exchange(v, lane ^ off); }
template <class T> T __shfl_down_sync(unsigned, T v, int off) { int lane = threadIdx.x & 31; return emu_exchange(v, lane + off < 32 ? lane + off : lane); }
inline unsigned __ballot_sync(unsigned, bool p) {
    Warp& w = my_warp(); int lane = threadIdx.x & 31;
    w.b->arrive_and_wait(); w.slot[lane] = p; w.b->arrive_and_wait();
    unsigned r = 0; for (int i = 0; i < 32; ++i) if (w.slot[i]) r |= 1u << i;
    w.b->arrive_and_wait(); return r;
}
inline unsigned __activemask() { return 0xffffffffu; }
template <class T> T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
inline unsigned atomicAdd(unsigned* p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicCAS(T* p, T cmp, T v) { __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return cmp; }
template <class T> T atomicMin(T* p, T v) { T old = __atomic_load_n(p, __ATOMIC_SEQ_CST); while (old > v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {} return old; }
#define asm(...)
template <class F> void emu_launch(unsigned threads, F kernel) {
    std::barrier<> bar((std::ptrdiff_t)threads); emu_bar = &bar;
    blockDim.x = threads; gridDim.x = 1;
    emu_warps.clear();
    for (unsigned w = 0; w < threads / 32; ++w) emu_warps.push_back(new Warp{new std::barrier<>(32), {}});
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < threads; ++t) ts.emplace_back([&, t] { threadIdx.x = t; blockIdx.x = 0; kernel(); });
    for (auto& th : ts) th.join();
}
