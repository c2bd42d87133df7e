// bfs_grid (kernels/traverse.cu) on the CPU through tests/emu/grid_emu.h, for
// tests/test_bfs_emulated.py (the kernel source as traverse_emu.cu, its one inline-PTX line
// replaced, compiled with the test's -D options).
// stdin: n m source threads parents index64 alpha beta mode, then indptr (n + 1), indices (m)
// of A, then Aᵀ's indptr and indices; parents: 0, 1 (any) or 2 (smallest); mode: 0 auto,
// 1 push, 2 pull, plus 4: level and parent come filled with -1 (the launcher's memset).
// stdout: depth levels pushes pulls, then n lines "level parent".
#include "grid_emu.h"
#include "traverse_emu.cu"
#include <cstdio>
#include <cstdlib>

template <class I>
static bool read_csr(long long n, long long m, std::vector<I>& indptr, std::vector<I>& indices)
{
    indptr.resize(n + 1);
    indices.resize(m);
    for (auto& x : indptr) { long long y; if (scanf("%lld", &y) != 1) return false; x = (I)y; }
    for (auto& x : indices) { long long y; if (scanf("%lld", &y) != 1) return false; x = (I)y; }
    return true;
}

template <class I, int P>
static void run(long long n, long long m, long long src, unsigned threads, long long alpha,
                long long beta, int mode)
{
    std::vector<I> ip, ix, tp, tx;
    if (!read_csr(n, m, ip, ix) || !read_csr(n, m, tp, tx)) return;
    // poisoned outputs and scratch: the kernel must set what it reads
    // (mode bit 4: the launcher's memset filled level and parent with -1 before the launch)
    const long long out0 = (mode & 4) ? -1 : 7;
    std::vector<long long> level(n, out0), parent(n, out0), o0(n, 5), o1(n, 5), state(13, 3);
    std::vector<I> q0(n, 9), q1(n, 9);
    const long long words = (n + 31) / 32;
    std::vector<unsigned> vis(words, 0xffu), fb0(words, 0xf0u), fb1(words, 0x0fu);
    state[10] = state[12] = 0;  // the barrier word and the count start at zero (the memset)
    // the vertices no edge enters (Aᵀ's empty rows), as the launcher's _no_in_edges
    std::vector<unsigned> noin(words, 0u);
    for (long long v = 0; v < n; ++v)
        if (tp[v + 1] == tp[v]) noin[v >> 5] |= 1u << (v & 31);
    emu_launch(threads, [&] {
        bfs_grid<I, P>(ip.data(), ix.data(), tp.data(), tx.data(), n, src, level.data(),
                       parent.data(), q0.data(), q1.data(), o0.data(), o1.data(), vis.data(),
                       fb0.data(), fb1.data(), state.data(), alpha, beta, mode, nullptr, 0,
                       noin.data());
    });
    if (state[10] & 0x7fffffffLL || state[12]) { fprintf(stderr, "state words left nonzero\n"); exit(3); }
    printf("%lld %lld %lld %lld\n", state[0], state[1], state[2], state[3]);
    for (long long i = 0; i < n; ++i) printf("%lld %lld\n", level[i], P ? parent[i] : -1LL);
}

template <class I>
static void dispatch(int p, long long n, long long m, long long s, unsigned t, long long a,
                     long long b, int mode)
{
    if (p == 0) run<I, 0>(n, m, s, t, a, b, mode);
    else if (p == 1) run<I, 1>(n, m, s, t, a, b, mode);
    else run<I, 2>(n, m, s, t, a, b, mode);
}

int main()
{
    long long n, m, s, alpha, beta;
    unsigned threads;
    int parents, index64, mode;
    if (scanf("%lld %lld %lld %u %d %d %lld %lld %d", &n, &m, &s, &threads, &parents, &index64,
              &alpha, &beta, &mode) != 9) return 2;
    if (index64) dispatch<long long>(parents, n, m, s, threads, alpha, beta, mode);
    else dispatch<int>(parents, n, m, s, threads, alpha, beta, mode);
    return 0;
}
