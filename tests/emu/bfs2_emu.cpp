// bench/probes/bfs_two_gpu.cu's bfs2_grid on the CPU through tests/emu/grid_emu.h, for
// tests/test_bfs_two_gpu_emulated.py: each "GPU" is a forked process running one block of
// `threads` threads (so grid_emu.h's `static` __shared__ and its globals are per GPU), and the
// buffers the two write into each other's (level, vis, the frontier bitmaps, state) lie in
// one MAP_SHARED mapping made before the fork: the same addresses in both, as peer pointers
// under UVA. The kernel source comes as bfs2_emu.cu, its two inline-PTX statements replaced.
// stdin: n m gpus threads alpha beta mode split timeout_ms late_ms absent nsources, the
// sources, then indptr (n + 1) and indices (m). split: the first word GPU 1 owns; late_ms:
// GPU 1 starts that much later; absent: the GPU that is not launched (-1: none), these three
// for the first source only (the later sources' launches then reuse the failed one's buffers,
// with a 60 s timeout: a loaded host may start the two processes far apart).
// stdout per source: "status0 status1 depth levels pushes pulls phases", then the n levels,
// each from its owner's array.
#include "grid_emu.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline unsigned atomicOr_system(unsigned* p, unsigned v) { return atomicOr(p, v); }
inline unsigned long long atomicMax_system(unsigned long long* p, unsigned long long v)
{
    unsigned long long old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (old < v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}
inline long long emu_clock_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
}

#include "bfs2_emu.cu"

struct Gpu {
    int* level; int* q0; int* q1; long long* o0; long long* o1;
    unsigned* vis; unsigned* fb; unsigned* noin; long long* state;
    long long wlo, whi;
};

static char* arena;
static size_t arena_used = 0, arena_size = 0;

template <class T>
static T* take(size_t count, unsigned char poison)
{
    const size_t bytes = (count * sizeof(T) + 127) & ~size_t(127);
    if (arena_used + bytes > arena_size) { fprintf(stderr, "arena full\n"); exit(4); }
    T* p = reinterpret_cast<T*>(arena + arena_used);
    std::memset(p, poison, bytes);
    arena_used += bytes;
    return p;
}

int main()
{
    long long n, m, alpha, beta, split, timeout_ms, late_ms;
    int gpus, mode, absent, nsrc;
    unsigned threads;
    if (scanf("%lld %lld %d %u %lld %lld %d %lld %lld %lld %d %d", &n, &m, &gpus, &threads,
              &alpha, &beta, &mode, &split, &timeout_ms, &late_ms, &absent, &nsrc) != 12) return 2;
    std::vector<long long> sources(nsrc);
    for (auto& s : sources) if (scanf("%lld", &s) != 1) return 2;
    std::vector<int> indptr(n + 1), indices(m);
    for (auto& x : indptr) if (scanf("%d", &x) != 1) return 2;
    for (auto& x : indices) if (scanf("%d", &x) != 1) return 2;
    const long long nwords = (n + 31) / 32, fstride = (nwords + 31) / 32 * 32;
    arena_size = (size_t)gpus * ((size_t)n * 40 + (size_t)fstride * 20 + 4096) + (1 << 16);
    arena = static_cast<char*>(mmap(nullptr, arena_size, PROT_READ | PROT_WRITE,
                                    MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    if (arena == MAP_FAILED) return 5;
    std::vector<Gpu> g(gpus);
    for (int i = 0; i < gpus; ++i) {
        // poisoned outputs and scratch: the kernel must set what it reads
        g[i].level = take<int>(n, 0x37);
        g[i].q0 = take<int>(n, 0x09);
        g[i].q1 = take<int>(n, 0x09);
        g[i].o0 = take<long long>(n, 0x05);
        g[i].o1 = take<long long>(n, 0x05);
        g[i].vis = take<unsigned>(fstride, 0xf0);
        g[i].fb = take<unsigned>(3 * fstride, 0x0f);
        g[i].noin = take<unsigned>(fstride, 0x00);
        g[i].state = take<long long>(B2_STATE_WORDS, 0x00);  // zeroed once (the peer's words)
        for (long long v = 0; v < n; ++v)
            if (indptr[v + 1] == indptr[v]) g[i].noin[v >> 5] |= 1u << (v & 31);
        g[i].wlo = gpus == 1 ? 0 : (i == 0 ? 0 : split);
        g[i].whi = gpus == 1 ? nwords : (i == 0 ? split : nwords);
    }
    unsigned long long launch = 0;
    for (long long source : sources) {
        ++launch;
        for (int i = 0; i < gpus; ++i)  // the host's memset of the GPU's own words
            std::memset(g[i].state, 0, B2_PEER_WORDS * sizeof(long long));
        std::vector<pid_t> kids;
        fflush(stdout);  // (a child would print the parent's buffered lines again)
        for (int i = 0; i < gpus; ++i) {
            if (i == absent && launch == 1) continue;
            const pid_t pid = fork();
            if (pid < 0) return 6;
            if (pid == 0) {
                if (i == 1 && late_ms > 0 && launch == 1) usleep((useconds_t)(late_ms * 1000));
                const Gpu& me = g[i];
                const Gpu* peer = gpus == 2 ? &g[1 - i] : nullptr;
                emu_launch(threads, [&] {
                    bfs2_grid(indptr.data(), indices.data(), n, source, me.wlo, me.whi, me.level,
                              me.q0, me.q1, me.o0, me.o1, me.vis, me.fb, fstride, me.noin,
                              me.state, peer ? peer->level : nullptr, peer ? peer->vis : nullptr,
                              peer ? peer->fb : nullptr, peer ? peer->state : nullptr, alpha,
                              beta, mode, launch, (launch == 1 ? timeout_ms : 60000) * 1000000LL,
                              nullptr, 0);
                });
                _exit(0);
            }
            kids.push_back(pid);
        }
        for (pid_t pid : kids) {
            int st = 0;
            waitpid(pid, &st, 0);
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) { fprintf(stderr, "a GPU process failed\n"); return 7; }
        }
        const long long* s0 = g[0].state;
        const long long st1 = gpus == 2 ? g[1].state[B2_STATUS] : 0;
        if (gpus == 2 && s0[B2_STATUS] == 0 && st1 == 0) {
            // both GPUs ran the same levels in the same directions
            for (int w : {B2_DEPTH, B2_LEVELS, B2_PUSHES, B2_PULLS, B2_PHASES})
                if (g[0].state[w] != g[1].state[w]) { fprintf(stderr, "GPUs disagree on word %d\n", w); return 8; }
        }
        printf("%lld %lld %lld %lld %lld %lld %lld\n", s0[B2_STATUS], st1, s0[B2_DEPTH],
               s0[B2_LEVELS], s0[B2_PUSHES], s0[B2_PULLS], s0[B2_PHASES]);
        for (long long v = 0; v < n; ++v) {
            const int i = gpus == 1 || (v >> 5) < split ? 0 : 1;
            printf("%d\n", g[i].level[v]);
        }
    }
    return 0;
}
