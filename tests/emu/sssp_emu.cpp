// sssp_grid (kernels/traverse.cu) on the CPU through tests/emu/grid_emu.h, for
// tests/test_sssp_emulated.py. The test passes the kernel source with its one inline-PTX line
// (the %globaltimer read of bfs_grid's trace) replaced, as traverse_emu.cu in this directory's
// build folder.
// stdin: n m source delta limit threads type index64, then indptr (n + 1), indices (m),
// weights (m, as doubles); type: 0 int, 1 long long, 2 float, 3 double.
// stdout: rounds buckets edges status, then the n distances (%.17g).
#include "grid_emu.h"
#include "traverse_emu.cu"
#include <cstdio>
#include <limits>

template <class I, class T>
static void run(long long n, long long m, long long src, double delta, double limit, unsigned threads)
{
    std::vector<I> indptr(n + 1), indices(m);
    std::vector<T> w(m);
    for (auto& x : indptr) { long long y; if (scanf("%lld", &y) != 1) return; x = (I)y; }
    for (auto& x : indices) { long long y; if (scanf("%lld", &y) != 1) return; x = (I)y; }
    for (auto& x : w) { double y; if (scanf("%lf", &y) != 1) return; x = (T)y; }
    std::vector<T> d(n);
    std::vector<I> q0(n + 1), q1(n + 1), f0(n + 1), f1(n + 1);
    std::vector<int> stamp(n + 1);
    std::vector<long long> o0(n + 1), o1(n + 1), state(16, 0);
    std::vector<unsigned> bits((n + 31) / 32 + 1);
    T dl = (T)delta;
    T lim = std::isinf(limit) ? (std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                                      : std::numeric_limits<T>::max())
                              : (T)limit;
    emu_launch(threads, [&] {
        sssp_grid<I, T>(indptr.data(), indices.data(), w.data(), 1, n, src, dl, lim, d.data(),
                        q0.data(), q1.data(), o0.data(), o1.data(), f0.data(), f1.data(),
                        stamp.data(), bits.data(), state.data(), 64 * n + 4096);
    });
    printf("%lld %lld %lld %lld\n", state[0], state[1], state[2], state[3]);
    for (long long i = 0; i < n; ++i) printf("%.17g\n", (double)d[i]);
}

template <class I>
static void dispatch(int type, long long n, long long m, long long s, double delta, double limit, unsigned threads)
{
    if (type == 0) run<I, int>(n, m, s, delta, limit, threads);
    else if (type == 1) run<I, long long>(n, m, s, delta, limit, threads);
    else if (type == 2) run<I, float>(n, m, s, delta, limit, threads);
    else run<I, double>(n, m, s, delta, limit, threads);
}

int main()
{
    long long n, m, s;
    double delta, limit;
    unsigned threads;
    int type, index64;
    if (scanf("%lld %lld %lld %lf %lf %u %d %d", &n, &m, &s, &delta, &limit, &threads, &type, &index64) != 8) return 2;
    if (index64) dispatch<long long>(type, n, m, s, delta, limit, threads);
    else dispatch<int>(type, n, m, s, delta, limit, threads);
    return 0;
}
