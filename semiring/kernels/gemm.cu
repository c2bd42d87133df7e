// Dense × dense semiring matmul: Z(i,j) = ⊕_k X(i,k) ⊗ Y(k,j), all row-major, every entry
// present. Templated on (Add monoid op, Mul op, domain T, result R) and the tiling: a block of
// (BM/TM) × (BN/TN) threads computes a BM × BN tile of Z; each thread holds TM × TN results in
// registers, at rows ty + r*(BM/TM) and columns tx + c*(BN/TN) (strided, so that the reads of
// the shared tiles are conflict-free and the stores coalesced). K advances BK at a time
// through shared memory. Edge tiles are masked on load and store; the k range of the last tile
// is exact (a generic semiring has no neutral padding value), so any M, N, K work.
//
// Every result folds its products in k order, starting from the k = 0 product (not from the
// identity: the `any` monoid has no neutral one, and fmin's inf would swallow a lone NaN).
// The host runs K = 0 itself (Z = identity) and passes kend = 1 for monoids whose every value
// is terminal (`any`). With a terminal value (lor, land, times on integers) a block stops
// once all of its results are terminal.
#ifndef SR_GEMM_PAD
#define SR_GEMM_PAD 4
#endif

// The specialization point of the inner loop: acc ⊕= a ⊗ b. APSP specializes it for int32
// min_plus with the sm_90 DPX instruction (__viaddmin_s32(a, b, acc) = min(a + b, acc)) by
// declaring `template <> struct sr_gemm_step<op_min, op_plus, int, int>` in a module that has
// those ops.
template <class Add, class Mul, typename T, typename R>
struct sr_gemm_step {
    static __device__ __forceinline__ R first(T a, T b, sr_index i, sr_index k, sr_index j) {
        return Mul::template f<R, T>(a, b, i, k, k, j);
    }
    static __device__ __forceinline__ R apply(R acc, T a, T b, sr_index i, sr_index k, sr_index j) {
        return Add::template f<R, R>(acc, Mul::template f<R, T>(a, b, i, k, k, j), 0, 0, 0, 0);
    }
};

// One k of the tile for this thread's TM × TN results (FIRST: the k = 0 product starts them).
template <class Add, class Mul, typename T, typename R, int BM, int BN, int BK, int TM, int TN, bool FIRST>
__device__ __forceinline__ void sr_gemm_k(
    R (&acc)[TM][TN], const T (&As)[BK][BM + SR_GEMM_PAD], const T (&Bs)[BK][BN],
    int kk, long long gk, long long gm0, long long gn0, int tx, int ty)
{
    constexpr int TX = BN / TN, TY = BM / TM;
    T a[TM], b[TN];
#pragma unroll
    for (int r = 0; r < TM; ++r) a[r] = As[kk][ty + r * TY];
#pragma unroll
    for (int c = 0; c < TN; ++c) b[c] = Bs[kk][tx + c * TX];
#pragma unroll
    for (int r = 0; r < TM; ++r) {
#pragma unroll
        for (int c = 0; c < TN; ++c) {
            const long long i = gm0 + ty + r * TY, j = gn0 + tx + c * TX;
            if (FIRST) acc[r][c] = sr_gemm_step<Add, Mul, T, R>::first(a[r], b[c], i, gk, j);
            else acc[r][c] = sr_gemm_step<Add, Mul, T, R>::apply(acc[r][c], a[r], b[c], i, gk, j);
        }
    }
}

// grid: x over row tiles (ceil(M / BM)), y over column tiles (ceil(N / BN)). ld of X is K;
// only k < kend (1 <= kend <= K) take part.
template <class Add, class Mul, typename T, typename R, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN)) gemm_tiled(
    const T* __restrict__ X, const T* __restrict__ Y, long long M, long long N, long long K,
    long long kend, R* __restrict__ Z, int term_mode, R terminal)
{
    constexpr int TX = BN / TN, TY = BM / TM, NT = TX * TY;
    __shared__ T As[BK][BM + SR_GEMM_PAD];
    __shared__ T Bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % TX, ty = tid / TX;
    const long long m0 = (long long)blockIdx.x * BM, n0 = (long long)blockIdx.y * BN;
    R acc[TM][TN];

    for (long long k0 = 0; k0 < kend; k0 += BK) {
        // X's tile with k fastest (coalesced along X's rows), stored k-major for the inner loop
#pragma unroll
        for (int e = tid; e < BM * BK; e += NT) {
            const int m = e / BK, kk = e % BK;
            const long long gm = m0 + m, gk = k0 + kk;
            As[kk][m] = (gm < M && gk < kend) ? X[gm * K + gk] : T();
        }
#pragma unroll
        for (int e = tid; e < BK * BN; e += NT) {
            const int kk = e / BN, n = e % BN;
            const long long gk = k0 + kk, gn = n0 + n;
            Bs[kk][n] = (gk < kend && gn < N) ? Y[gk * N + gn] : T();
        }
        __syncthreads();
        const int ke = (kend - k0 < BK) ? (int)(kend - k0) : BK;
        int kb = 0;
        if (k0 == 0) {
            sr_gemm_k<Add, Mul, T, R, BM, BN, BK, TM, TN, true>(acc, As, Bs, 0, 0, m0, n0, tx, ty);
            kb = 1;
        }
        if (kb == 0 && ke == BK) {
#pragma unroll
            for (int kk = 0; kk < BK; ++kk)
                sr_gemm_k<Add, Mul, T, R, BM, BN, BK, TM, TN, false>(acc, As, Bs, kk, k0 + kk, m0, n0, tx, ty);
        } else {
            for (int kk = kb; kk < ke; ++kk)
                sr_gemm_k<Add, Mul, T, R, BM, BN, BK, TM, TN, false>(acc, As, Bs, kk, k0 + kk, m0, n0, tx, ty);
        }
        if (term_mode == SR_TERM_VALUE) {
            bool done = true;
#pragma unroll
            for (int r = 0; r < TM; ++r) {
#pragma unroll
                for (int c = 0; c < TN; ++c) {
                    const bool inside = m0 + ty + r * TY < M && n0 + tx + c * TX < N;
                    done = done && (!inside || acc[r][c] == terminal);
                }
            }
            if (__syncthreads_and(done)) break;  // also the barrier before the next tile's loads
        } else {
            __syncthreads();
        }
    }
#pragma unroll
    for (int r = 0; r < TM; ++r) {
        const long long i = m0 + ty + r * TY;
        if (i >= M) break;
#pragma unroll
        for (int c = 0; c < TN; ++c) {
            const long long j = n0 + tx + c * TX;
            if (j < N) Z[i * N + j] = acc[r][c];
        }
    }
}
