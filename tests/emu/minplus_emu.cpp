// Host-side emulation driver of kernels/minplus_gemm.cu (see cuda_emu.h):
//   minplus_emu POLICY TILING M N K LDX LDY LDZ FLAGS IN OUT
// IN holds X (M·LDX), Y (K·LDY) and Z (M·LDZ) of the policy's type; OUT gets Z after the launch.
#include <cstdio>
#include <cstdlib>
#include <string>
#include "cuda_emu.h"
#include "../../semiring/kernels/minplus_gemm.cu"

template <class P, int BM, int BN, int BK, int TM, int TN>
int run(int M, int N, int K, long long ldx, long long ldy, long long ldz, int flags,
        const char* in, const char* out) {
    typedef typename P::value T;
    std::vector<T> X((size_t)M * ldx), Y((size_t)K * ldy), Z((size_t)M * ldz);
    FILE* f = std::fopen(in, "rb");
    if (!f || std::fread(X.data(), sizeof(T), X.size(), f) != X.size()
        || std::fread(Y.data(), sizeof(T), Y.size(), f) != Y.size()
        || std::fread(Z.data(), sizeof(T), Z.size(), f) != Z.size()) return 2;
    std::fclose(f);
    const unsigned blocks = ((M + BM - 1) / BM) * ((N + BN - 1) / BN);
    emu_launch(blocks, (BM / TM) * (BN / TN), [&] {
        minplus_gemm<P, BM, BN, BK, TM, TN>(X.data(), Y.data(), Z.data(), M, N, K, ldx, ldy, ldz,
                                             flags);
    });
    f = std::fopen(out, "wb");
    std::fwrite(Z.data(), sizeof(T), Z.size(), f);
    std::fclose(f);
    return 0;
}

template <class P>
int tiled(int tiling, int M, int N, int K, long long ldx, long long ldy, long long ldz, int flags,
          const char* in, const char* out) {
    constexpr bool wide = sizeof(typename P::value) == 8;
    if (tiling == 0) {  // the production tiling (MINPLUS_TILING)
        if constexpr (wide) return run<P, 64, 64, 8, 4, 4>(M, N, K, ldx, ldy, ldz, flags, in, out);
        else return run<P, 128, 128, 8, 8, 8>(M, N, K, ldx, ldy, ldz, flags, in, out);
    }
    // small tiles: many tiles and edges on small inputs, few threads
    if constexpr (wide) return run<P, 16, 16, 4, 4, 4>(M, N, K, ldx, ldy, ldz, flags, in, out);
    else return run<P, 32, 32, 8, 8, 8>(M, N, K, ldx, ldy, ldz, flags, in, out);
}

int main(int argc, char** argv) {
    if (argc != 12) return 1;
    const int policy = std::atoi(argv[1]), tiling = std::atoi(argv[2]);
    const int M = std::atoi(argv[3]), N = std::atoi(argv[4]), K = std::atoi(argv[5]);
    const long long ldx = std::atoll(argv[6]), ldy = std::atoll(argv[7]), ldz = std::atoll(argv[8]);
    const int flags = std::atoi(argv[9]);
    const char *in = argv[10], *out = argv[11];
    switch (policy) {
        case 0: return tiled<mp_fmin_plus<float>>(tiling, M, N, K, ldx, ldy, ldz, flags, in, out);
        case 1: return tiled<mp_fmax_plus<float>>(tiling, M, N, K, ldx, ldy, ldz, flags, in, out);
        case 2: return tiled<mp_fmin_plus<double>>(tiling, M, N, K, ldx, ldy, ldz, flags, in, out);
        case 3: return tiled<mp_fmax_plus<double>>(tiling, M, N, K, ldx, ldy, ldz, flags, in, out);
        case 4: return tiled<mp_imin_plus>(tiling, M, N, K, ldx, ldy, ldz, flags, in, out);
        case 5: return tiled<mp_imax_plus>(tiling, M, N, K, ldx, ldy, ldz, flags, in, out);
        case 6: return tiled<mp_imin_plus_sat>(tiling, M, N, K, ldx, ldy, ldz, flags, in, out);
    }
    return 1;
}
