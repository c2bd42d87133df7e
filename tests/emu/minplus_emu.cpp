// Host-side emulation driver of kernels/minplus_gemm.cu (see cuda_emu.h):
//   minplus_emu POLICY TILING M N K LDX LDY LDZ FLAGS GAP_M GAP_MLEN GAP_N GAP_NLEN IN OUT
// IN holds X (M·LDX), Y (K·LDY) and Z (M·LDZ) of the policy's type; OUT gets Z after the launch.
#include <cstdio>
#include <cstdlib>
#include <string>
#include "cuda_emu.h"
#include "../../semiring/kernels/minplus_gemm.cu"

template <class P, int BM, int BN, int BK, int TM, int TN>
int run(int M, int N, int K, long long ldx, long long ldy, long long ldz, int flags,
        const int* gap, const char* in, const char* out) {
    typedef typename P::value T;
    // M × N is the compacted Z (see the kernel's gaps): the arrays hold the gaps too
    const int Ma = M + gap[1], Na = N + gap[3];
    std::vector<T> X((size_t)Ma * ldx), Y((size_t)K * ldy), Z((size_t)Ma * ldz);
    (void)Na;
    FILE* f = std::fopen(in, "rb");
    if (!f || std::fread(X.data(), sizeof(T), X.size(), f) != X.size()
        || std::fread(Y.data(), sizeof(T), Y.size(), f) != Y.size()
        || std::fread(Z.data(), sizeof(T), Z.size(), f) != Z.size()) return 2;
    std::fclose(f);
    const unsigned blocks = ((M + BM - 1) / BM) * ((N + BN - 1) / BN);
    emu_launch(blocks, (BM / TM) * (BN / TN), [&] {
        minplus_gemm<P, BM, BN, BK, TM, TN>(X.data(), Y.data(), Z.data(), M, N, K, ldx, ldy, ldz,
                                             flags, gap[0], gap[1], gap[2], gap[3]);
    });
    f = std::fopen(out, "wb");
    std::fwrite(Z.data(), sizeof(T), Z.size(), f);
    std::fclose(f);
    return 0;
}

template <class P>
int tiled(int tiling, int M, int N, int K, long long ldx, long long ldy, long long ldz, int flags,
          const int* gap, const char* in, const char* out) {
    constexpr bool wide = sizeof(typename P::value) == 8;
    if (tiling == 0) {  // the production tiling (MINPLUS_TILING)
        if constexpr (wide) return run<P, 64, 64, 8, 4, 4>(M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        else return run<P, 128, 128, 8, 8, 8>(M, N, K, ldx, ldy, ldz, flags, gap, in, out);
    }
    if (tiling == 2) {  // BK = 32: the tiles in dynamic shared memory on a GPU (> 48 KiB)
        if constexpr (wide) return run<P, 64, 64, 32, 4, 4>(M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        else return run<P, 128, 128, 32, 8, 8>(M, N, K, ldx, ldy, ldz, flags, gap, in, out);
    }
    // small tiles: many tiles and edges on small inputs, few threads
    if constexpr (wide) return run<P, 16, 16, 4, 4, 4>(M, N, K, ldx, ldy, ldz, flags, gap, in, out);
    else return run<P, 32, 32, 8, 8, 8>(M, N, K, ldx, ldy, ldz, flags, gap, in, out);
}

int main(int argc, char** argv) {
    if (argc != 16) return 1;
    const int policy = std::atoi(argv[1]), tiling = std::atoi(argv[2]);
    const int M = std::atoi(argv[3]), N = std::atoi(argv[4]), K = std::atoi(argv[5]);
    const long long ldx = std::atoll(argv[6]), ldy = std::atoll(argv[7]), ldz = std::atoll(argv[8]);
    const int flags = std::atoi(argv[9]);
    int gap[4];
    for (int i = 0; i < 4; ++i) gap[i] = std::atoi(argv[10 + i]);
    const char *in = argv[14], *out = argv[15];
    switch (policy) {
        case 0: return tiled<mp_fmin_plus<float>>(tiling, M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        case 1: return tiled<mp_fmax_plus<float>>(tiling, M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        case 2: return tiled<mp_fmin_plus<double>>(tiling, M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        case 3: return tiled<mp_fmax_plus<double>>(tiling, M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        case 4: return tiled<mp_imin_plus>(tiling, M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        case 5: return tiled<mp_imax_plus>(tiling, M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        case 6: return tiled<mp_imin_plus_sat>(tiling, M, N, K, ldx, ldy, ldz, flags, gap, in, out);
        case 7: return tiled<mp_u16x2_min_plus>(tiling, M, N, K, ldx, ldy, ldz, flags, gap, in, out);
    }
    return 1;
}
