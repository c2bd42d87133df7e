// bfs_async and bfs_parents_of_levels (kernels/bfs_async.cu) on the CPU through
// tests/emu/async_emu.h, for tests/test_bfs_async.py.
// stdin: n m source blocks threads span use_smem index64 variant (0 bfs_async, 1 bfs_async_cw)
// ellw (bfs_async_cw's padded rows: 0 none, else their width), then indptr (n + 1), indices (m),
// then Aᵀ's indptr (n + 1) and indices (m).
// stdout: status levels sent visits, then the n levels, then the n parents.
#include "async_emu.h"
#include "bfs_async.cu"
#include <cstdio>

template <class I>
static int run(long long n, long long m, long long src, unsigned blocks, unsigned threads,
               long long span, int use_smem, int variant, int ellw)
{
    std::vector<I> indptr(n + 1), indices(m + 1), tindptr(n + 1), tindices(m + 1);
    auto rd = [](std::vector<I>& a, long long k) { for (long long i = 0; i < k; ++i) { long long y; if (scanf("%lld", &y) != 1) return false; a[i] = (I)y; } return true; };
    if (!rd(indptr, n + 1) || !rd(indices, m) || !rd(tindptr, n + 1) || !rd(tindices, m)) return 2;
    std::vector<int> dist(n + 1), inq(n + 1), spill(2 * n + 2);
    std::vector<unsigned long long> box(n + 1), tails(blocks + 1);
    long long words = (span + 31) / 32;
    std::vector<unsigned> gbits(blocks * words + 1);
    std::vector<long long> ctl(8, 0), level(n + 1), parent(n + 1);
    size_t dyn = use_smem ? (size_t)(span + words) : 0;
    std::vector<int> ell(n * (long long)ellw + 1);
    if (ellw)
        emu_launch(2, 64, 0, [&] { bfs_async_ell<I>(indptr.data(), indices.data(), n, ellw, ell.data()); });
    emu_launch(blocks, threads, dyn, [&] {
        auto k = variant ? bfs_async_cw<I> : bfs_async<I>;
        k(indptr.data(), indices.data(), n, src, span, dist.data(), inq.data(), box.data(),
          spill.data(), gbits.data(), tails.data(), ctl.data(), level.data(), use_smem,
          200000000000LL,  // 200 s of host clock: threads wait for cores on a busy host
          ell.data(), ellw);
    });
    emu_launch(2, 64, 0, [&] {
        bfs_parents_of_levels<I>(tindptr.data(), tindices.data(), level.data(), n, parent.data());
    });
    printf("%lld %lld %lld %lld\n", ctl[2], ctl[3], ctl[4], ctl[5]);
    for (long long i = 0; i < n; ++i) printf("%lld\n", level[i]);
    for (long long i = 0; i < n; ++i) printf("%lld\n", parent[i]);
    return 0;
}

int main()
{
    long long n, m, s, span;
    unsigned blocks, threads;
    int use_smem, index64, variant, ellw;
    if (scanf("%lld %lld %lld %u %u %lld %d %d %d %d", &n, &m, &s, &blocks, &threads, &span, &use_smem, &index64, &variant, &ellw) != 10) return 2;
    return index64 ? run<long long>(n, m, s, blocks, threads, span, use_smem, variant, ellw)
                   : run<int>(n, m, s, blocks, threads, span, use_smem, variant, ellw);
}
