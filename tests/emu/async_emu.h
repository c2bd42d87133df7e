// A host-side stand-in for what kernels/bfs_async.cu uses (tests/test_bfs_async.py runs
// bfs_async and bfs_parents_of_levels through it): one std::thread per CUDA thread, SEVERAL
// blocks (each with its own barrier, warps and shared memory, through the kernel's
// SR_ASYNC_SHARED / SR_ASYNC_DYNAMIC hooks), std::barrier as __syncthreads and as each warp's
// exchange for the warp intrinsics, GCC __atomic builtins as the atomics, a yield as the
// pause and the steady clock as %globaltimer. It checks the kernel's logic across blocks
// (messages, rings, termination), not its timing; the hardware's weaker ordering is not
// modelled (every atomic here is sequentially consistent).
#pragma once
#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>
struct emu_dim3 { unsigned x = 1, y = 1, z = 1; };
inline thread_local emu_dim3 threadIdx, blockIdx;
inline emu_dim3 blockDim, gridDim;
struct Warp { std::barrier<>* b; unsigned long long slot[32]; };
struct EmuBlock { std::barrier<>* bar; std::barrier<>* cbar; std::vector<Warp*> warps; std::vector<long long> stat, dyn; };
inline std::vector<EmuBlock*> emu_blocks;
inline EmuBlock& my_block() { return *emu_blocks[blockIdx.x]; }
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__
#define SR_ASYNC_SHARED(T, name) T& name = *reinterpret_cast<T*>(my_block().stat.data())
#define SR_ASYNC_DYNAMIC(name) int* name = reinterpret_cast<int*>(my_block().dyn.data())
#define SR_ASYNC_PAUSE() std::this_thread::yield()
#define SR_ASYNC_PREFETCH(p) ((void)(p))
#define SR_ASYNC_PREFETCH_L2(p) ((void)(p))
#define SR_ASYNC_COMPUTE_SYNC(nthreads) my_block().cbar->arrive_and_wait()
#define SR_ASYNC_CLOCK() ((long long)std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count())
inline void __syncthreads() { my_block().bar->arrive_and_wait(); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
using std::max; using std::min;
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(unsigned x) { return __builtin_ffs(x); }
inline Warp& my_warp() { return *my_block().warps[threadIdx.x / 32]; }
inline void __syncwarp(unsigned = 0xffffffffu) { my_warp().b->arrive_and_wait(); }
template <class T> T emu_exchange(T v, int src) {
    Warp& w = my_warp(); int lane = threadIdx.x & 31;
    unsigned long long x = 0; std::memcpy(&x, &v, sizeof(T));
    w.b->arrive_and_wait(); w.slot[lane] = x; w.b->arrive_and_wait();
    unsigned long long y = w.slot[src]; w.b->arrive_and_wait();
    T r; std::memcpy(&r, &y, sizeof(T)); return r;
}
template <class T> T __shfl_sync(unsigned, T v, int src) { return emu_exchange(v, src); }
inline unsigned __ballot_sync(unsigned, bool p) {
    Warp& w = my_warp(); int lane = threadIdx.x & 31;
    w.b->arrive_and_wait(); w.slot[lane] = p; w.b->arrive_and_wait();
    unsigned r = 0; for (int i = 0; i < 32; ++i) if (w.slot[i]) r |= 1u << i;
    w.b->arrive_and_wait(); return r;
}
template <class T> T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicMin(T* p, T v) { T old = __atomic_load_n(p, __ATOMIC_SEQ_CST); while (old > v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {} return old; }
// blocks × threads host threads (the compute barrier: all but the last warp); each block gets `dyn_ints` ints of dynamic shared memory
template <class F> void emu_launch(unsigned blocks, unsigned threads, size_t dyn_ints, F kernel) {
    blockDim.x = threads; gridDim.x = blocks;
    emu_blocks.clear();
    for (unsigned b = 0; b < blocks; ++b) {
        auto* blk = new EmuBlock{new std::barrier<>((std::ptrdiff_t)threads),
                                 new std::barrier<>((std::ptrdiff_t)(threads > 32 ? threads - 32 : 1)), {}, {}, {}};
        for (unsigned w = 0; w < threads / 32; ++w) blk->warps.push_back(new Warp{new std::barrier<>(32), {}});
        blk->stat.assign(1 << 15, 0);  // 256 KiB: any static shared struct
        blk->dyn.assign(dyn_ints / 2 + 1, 0);
        emu_blocks.push_back(blk);
    }
    std::vector<std::thread> ts;
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < threads; ++t)
            ts.emplace_back([&, b, t] { threadIdx.x = t; blockIdx.x = b; kernel(); });
    for (auto& th : ts) th.join();
}
