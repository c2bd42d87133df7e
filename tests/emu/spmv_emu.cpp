// Driver of the emulated pull kernel (tests/test_spmv_emulated.py): reads a matrix, x and a
// launch plan, runs KERNEL over the plan's blocks on the host stand-in, writes out / opres.
// Built with -DKT -DKR -DKI (domain, result, index types), -DKADD -DKMUL (op structs),
// -DKEMPTY (fold from empty) and the kernel file's own -D switches.
#include "spmv_emu.h"
#include "spmv_src.cu"
#include <cstdio>
#include <cstdlib>
#include <cstring>

// arrays 64-byte aligned (the 16-byte loads' check sees device-like addresses)
template <class V> struct Arr {
    V* p;
    V* data() { return p; }
    V& operator[](size_t i) { return p[i]; }
};
template <class V> Arr<V> alloc(long long n) {
    const size_t bytes = ((size_t)(n > 0 ? n : 1) * sizeof(V) + 63) / 64 * 64;
    Arr<V> a{static_cast<V*>(aligned_alloc(64, bytes))};
    memset(a.p, 0, bytes);
    return a;
}
template <class V> Arr<V> get(FILE* f, long long n) {
    Arr<V> v = alloc<V>(n);
    if (n > 0 && fread(v.data(), sizeof(V), n, f) != (size_t)n) {
        fprintf(stderr, "short input\n");
        exit(2);
    }
    return v;
}

int main(int argc, char** argv) {
    FILE* f = fopen(argv[1], "rb");
    // n, ncols, nnz, len(rows), len(long_rows), len(bins), nblocks, term_mode, has_allowed,
    // threads, ntasks, long_row (spmv_warp: `rows` holds its tasks)
    auto h = get<long long>(f, 12);
    auto indptr = get<KI>(f, h[0] + 1);
    auto indices = get<KI>(f, h[2]);
    auto vals = get<KT>(f, h[2]);
    auto x = get<KT>(f, h[1]);
    auto rows = get<KI>(f, h[3]);
    auto long_rows = get<KI>(f, h[4]);
    auto bins = get<long long>(f, h[5]);
    auto allowed = get<unsigned char>(f, h[0]);
    auto tv = get<KR>(f, 2);  // terminal, empty
    fclose(f);
    auto out = alloc<KR>(h[0]);
    auto opres = alloc<unsigned char>(h[0]);
    memset(opres.data(), 7, h[0]);  // every row's presence must be written
    const bool* al = h[8] ? reinterpret_cast<const bool*>(allowed.data()) : nullptr;
    emu_launch((unsigned)h[6], (unsigned)h[9], [&] {
#ifdef KWARP
        spmv_warp<KADD, KMUL, KT, KR, KI, false, KEMPTY>(indptr.data(), indices.data(),
            vals.data(), 1LL, x.data(), rows.data(), h[10], long_rows.data(), h[4], h[11],
            out.data(), reinterpret_cast<bool*>(opres.data()), tv[1]);
#else
        spmv_pull<KADD, KMUL, KT, KR, KI, false, KEMPTY>(indptr.data(), indices.data(),
            vals.data(), 1LL, x.data(), nullptr, al, rows.data(), long_rows.data(), bins.data(),
            out.data(), reinterpret_cast<bool*>(opres.data()), (int)h[7], tv[0], tv[1]);
#endif
    });
    FILE* g = fopen(argv[2], "wb");
    fwrite(out.data(), sizeof(KR), h[0], g);
    fwrite(opres.data(), 1, h[0], g);
    fclose(g);
    return 0;
}
