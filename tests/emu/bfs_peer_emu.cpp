// semiring/kernels/bfs_peer.cu's bfs_peer on the CPU through tests/emu/grid_emu.h, for
// tests/test_bfs_peer_emulated.py: each "GPU" is a forked process running one block of
// `threads` threads (so grid_emu.h's `static` __shared__ and its globals are per GPU), and the
// buffers the two write into each other's (level, vis, the frontier bitmaps, state) lie in
// one MAP_SHARED mapping made before the fork: the same addresses in both, as the pointers
// the ranks' IPC handles open to. The program is traverse.cu then bfs_peer.cu (as the
// launcher builds it), as traverse_emu.cu and bfs_peer_emu.cu, their inline PTX replaced.
// stdin: n m gpus threads alpha beta mode split timeout_ms late_ms absent nsources sym index64, the
// sources, then A's indptr (n + 1) and indices (m), then (sym 0) Aᵀ's indptr and indices.
// split: the first word GPU 1 owns; late_ms: GPU 1 starts that much later; absent: the GPU
// that is not launched (-1: none), these three for the first source only (the later
// sources' launches then reuse the failed one's buffers, with a 60 s timeout: a loaded host
// may start the two processes far apart); sym 1: A's arrays passed as Aᵀ's; index64 1: the
// int64 instantiation (bfs_peer<long long>).
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

#include "traverse_emu.cu"
#include "bfs_peer_emu.cu"

template <class I>
struct Gpu {
    int* level; I* q0; I* q1; long long* o0; long long* o1;
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

template <class I>
static bool read_csr(long long n, long long m, std::vector<I>& indptr, std::vector<I>& indices)
{
    indptr.resize(n + 1);
    indices.resize(m);
    for (auto& x : indptr) { long long y; if (scanf("%lld", &y) != 1) return false; x = (I)y; }
    for (auto& x : indices) { long long y; if (scanf("%lld", &y) != 1) return false; x = (I)y; }
    return true;
}

template <class I>
static int run(long long n, long long m, int gpus, unsigned threads, long long alpha,
               long long beta, int mode, long long split, long long timeout_ms, long long late_ms,
               int absent, const std::vector<long long>& sources, int sym)
{
    std::vector<I> indptr, indices, tindptr, tindices;
    if (!read_csr(n, m, indptr, indices)) return 2;
    if (!sym && !read_csr(n, m, tindptr, tindices)) return 2;
    // symmetric: the launcher passes A's arrays as Aᵀ's (the same pointers)
    const I* tp = sym ? indptr.data() : tindptr.data();
    const I* tx = sym ? indices.data() : tindices.data();
    const long long nwords = (n + 31) / 32, fstride = (nwords + 31) / 32 * 32;
    arena_size = (size_t)gpus * ((size_t)n * 48 + (size_t)fstride * 20 + 4096) + (1 << 16);
    arena = static_cast<char*>(mmap(nullptr, arena_size, PROT_READ | PROT_WRITE,
                                    MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    if (arena == MAP_FAILED) return 5;
    std::vector<Gpu<I>> g(gpus);
    for (int i = 0; i < gpus; ++i) {
        // poisoned outputs and scratch: the kernel must set what it reads
        g[i].level = take<int>(n, 0x37);
        g[i].q0 = take<I>(n, 0x09);
        g[i].q1 = take<I>(n, 0x09);
        g[i].o0 = take<long long>(n, 0x05);
        g[i].o1 = take<long long>(n, 0x05);
        g[i].vis = take<unsigned>(fstride, 0xf0);
        g[i].fb = take<unsigned>(3 * fstride, 0x0f);
        g[i].noin = take<unsigned>(fstride, 0x00);
        g[i].state = take<long long>(BP_STATE_WORDS, 0x00);  // zeroed once (the peer's words)
        for (long long v = 0; v < n; ++v)  // no in-edges: Aᵀ's empty rows (the launcher's noin_words)
            if (tp[v + 1] == tp[v]) g[i].noin[v >> 5] |= 1u << (v & 31);
        g[i].wlo = gpus == 1 ? 0 : (i == 0 ? 0 : split);
        g[i].whi = gpus == 1 ? nwords : (i == 0 ? split : nwords);
    }
    unsigned long long launch = 0;
    for (long long source : sources) {
        ++launch;
        for (int i = 0; i < gpus; ++i)  // the host's memset of the GPU's own words
            std::memset(g[i].state, 0, BP_PEER_WORDS * sizeof(long long));
        std::vector<pid_t> kids;
        fflush(stdout);  // (a child would print the parent's buffered lines again)
        for (int i = 0; i < gpus; ++i) {
            if (i == absent && launch == 1) continue;
            const pid_t pid = fork();
            if (pid < 0) return 6;
            if (pid == 0) {
                if (i == 1 && late_ms > 0 && launch == 1) usleep((useconds_t)(late_ms * 1000));
                const Gpu<I>& me = g[i];
                const Gpu<I>* peer = gpus == 2 ? &g[1 - i] : nullptr;
                const long long t = (launch == 1 ? timeout_ms : 60000) * 1000000LL;
                emu_launch(threads, [&] {
                    bfs_peer<I>(indptr.data(), indices.data(), tp, tx, n, source, me.wlo,
                                me.whi, me.level, me.q0, me.q1, me.o0, me.o1, me.vis, me.fb,
                                fstride, me.noin, me.state, peer ? peer->level : nullptr,
                                peer ? peer->vis : nullptr, peer ? peer->fb : nullptr,
                                peer ? peer->state : nullptr, alpha, beta, mode, launch, t, t,
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
        const long long st1 = gpus == 2 ? g[1].state[BP_STATUS] : 0;
        if (gpus == 2 && s0[BP_STATUS] == 0 && st1 == 0) {
            // both GPUs ran the same levels in the same directions
            for (int w : {BP_DEPTH, BP_LEVELS, BP_PUSHES, BP_PULLS, BP_PHASES})
                if (g[0].state[w] != g[1].state[w]) { fprintf(stderr, "GPUs disagree on word %d\n", w); return 8; }
        }
        printf("%lld %lld %lld %lld %lld %lld %lld\n", s0[BP_STATUS], st1, s0[BP_DEPTH],
               s0[BP_LEVELS], s0[BP_PUSHES], s0[BP_PULLS], s0[BP_PHASES]);
        for (long long v = 0; v < n; ++v) {
            const int i = gpus == 1 || (v >> 5) < split ? 0 : 1;
            printf("%d\n", g[i].level[v]);
        }
    }
    return 0;
}

int main()
{
    long long n, m, alpha, beta, split, timeout_ms, late_ms;
    int gpus, mode, absent, nsrc, sym, index64;
    unsigned threads;
    if (scanf("%lld %lld %d %u %lld %lld %d %lld %lld %lld %d %d %d %d", &n, &m, &gpus, &threads,
              &alpha, &beta, &mode, &split, &timeout_ms, &late_ms, &absent, &nsrc, &sym,
              &index64) != 14) return 2;
    std::vector<long long> sources(nsrc);
    for (auto& s : sources) if (scanf("%lld", &s) != 1) return 2;
    return index64 ? run<long long>(n, m, gpus, threads, alpha, beta, mode, split, timeout_ms,
                                    late_ms, absent, sources, sym)
                   : run<int>(n, m, gpus, threads, alpha, beta, mode, split, timeout_ms,
                              late_ms, absent, sources, sym);
}
