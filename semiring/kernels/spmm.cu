// SpMM: Y(i, j) = ⊕_k A(i,k) ⊗ X(k,j), A sparse (CSR), X and Y dense row-major with s columns.
// Templated on (Add monoid op, Mul op, domain T, result R, index I, operand order XFIRST).
//
// A group of `width` lanes (a power of two <= 32) serves one row of A and a tile of
// width * SR_SPMM_CPT columns: lane l owns columns col0 + l + c*width (c < SR_SPMM_CPT), so for
// each inner index k the group reads X's row k in coalesced runs of `width` values, and each
// lane keeps SR_SPMM_CPT independent loads in flight. The group loads `width` entries (k, a)
// of A's row at once (one coalesced load) and passes them around by shuffles, so A is read
// once per column tile, not once per column. Every (i, j) folds its products in k order, so a
// result is bitwise the sequential fold (float sums included).
//
// Coordinates of the multiply: A(i,k) is at (i,k) and X(k,j) at (k,j). With XFIRST the product
// is the transposed one, Yᵀ = Xᵀ ⊕.⊗ Aᵀ (the multi-source form of vxm): X's value comes first,
// at (j,k), and A's second, at (k,i). Either way `secondi` is the inner index k.
#define SR_SPMM_THREADS 256
#define SR_SPMM_CPT 4

// Shuffle from lane `src` of a group of `width` lanes, for 1-, 4- and 8-byte types.
template <typename V> __device__ __forceinline__ V sr_shfl_idx(unsigned mask, V v, int src, int width) {
    return __shfl_sync(mask, v, src, width);
}
template <> __device__ __forceinline__ bool sr_shfl_idx<bool>(unsigned mask, bool v, int src, int width) {
    return (bool)__shfl_sync(mask, (int)v, src, width);
}

template <class Mul, typename T, typename R, bool XFIRST>
__device__ __forceinline__ R sr_spmm_mult(T a, T x, sr_index i, sr_index k, sr_index j) {
    if (XFIRST) return Mul::template f<R, T>(x, a, j, k, k, i);
    return Mul::template f<R, T>(a, x, i, k, k, j);
}

// grid: x over groups of rows (SR_SPMM_THREADS >> width_log2 rows per block), y over column
// tiles. Y and ypres (when not null) are written everywhere in the tile: the identity and
// false where no product exists.
//
// ymask (when not null, row-major like Y) restricts the entries computed: (i, j) is computed
// only where ymask[i*s + j] != mask_complement, and is the identity / false elsewhere. A masked
// entry counts as finished from the start, so a group whose columns are all masked out never
// reads its row of A, and the terminal exit waits only for the allowed columns (multi-source
// BFS: Y⟨¬visited⟩ skips the visited (vertex, source) pairs).
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void __launch_bounds__(SR_SPMM_THREADS) spmm_rows(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ X, const bool* __restrict__ xpres,
    const bool* __restrict__ ymask, int mask_complement,
    long long nrows, long long s, int width_log2,
    R* __restrict__ Y, bool* __restrict__ ypres,
    R identity, int term_mode, R terminal)
{
    const int width = 1 << width_log2;
    const long long row = (long long)blockIdx.x * (SR_SPMM_THREADS >> width_log2)
                          + (threadIdx.x >> width_log2);
    // Every lane of a group shares `row`, so groups leave (or stay) together.
    if (row >= nrows) return;
    const int lane = threadIdx.x & (width - 1);
    const unsigned gmask = (width == 32) ? 0xffffffffu
        : (((1u << width) - 1u) << ((threadIdx.x & 31) & ~(width - 1)));
    const long long col0 = (long long)blockIdx.y * width * SR_SPMM_CPT + lane;

    R acc[SR_SPMM_CPT];
    bool found[SR_SPMM_CPT];
    // live[c]: column c is in range, allowed by the mask and not yet terminal
    bool live[SR_SPMM_CPT];
#pragma unroll
    for (int c = 0; c < SR_SPMM_CPT; ++c) {
        acc[c] = R();
        found[c] = false;
        const long long j = col0 + (long long)c * width;
        live[c] = j < s;
        if (live[c] && ymask != nullptr) live[c] = ymask[row * s + j] != (bool)mask_complement;
    }

    const I begin = indptr[row], end = indptr[row + 1];
    for (I base = begin; base < end; base += (I)width) {
        if (ymask != nullptr || term_mode != SR_TERM_NONE) {
            // the group stops once every column it owns is masked out or terminal
            bool done = true;
#pragma unroll
            for (int c = 0; c < SR_SPMM_CPT; ++c) done = done && !live[c];
            if (__all_sync(gmask, done)) break;
        }
        const I p = base + (I)lane;
        I kmine = (I)0;
        T amine = T();
        if (p < end) {
            kmine = indices[p];
            amine = avals[(long long)p * astride];
        }
        const int cnt = (end - base < (I)width) ? (int)(end - base) : width;
        for (int t = 0; t < cnt; ++t) {
            const long long k = (long long)sr_shfl_idx<I>(gmask, kmine, t, width);
            const T a = sr_shfl_idx<T>(gmask, amine, t, width);
            const long long off = k * s;
            T xv[SR_SPMM_CPT];
            bool ok[SR_SPMM_CPT];
#pragma unroll
            for (int c = 0; c < SR_SPMM_CPT; ++c) {
                const long long j = col0 + (long long)c * width;
                ok[c] = live[c];
                if (ok[c] && xpres != nullptr) ok[c] = xpres[off + j];
                xv[c] = ok[c] ? X[off + j] : T();
            }
#pragma unroll
            for (int c = 0; c < SR_SPMM_CPT; ++c) {
                if (ok[c]) {
                    const long long j = col0 + (long long)c * width;
                    sr_fold<Add, R>(acc[c], found[c],
                                    sr_spmm_mult<Mul, T, R, XFIRST>(a, xv[c], row, k, j));
                    // a terminal value is final (⊕ keeps it): stop loading this column
                    if (term_mode != SR_TERM_NONE && sr_is_terminal<R>(term_mode, acc[c], terminal))
                        live[c] = false;
                }
            }
        }
    }
#pragma unroll
    for (int c = 0; c < SR_SPMM_CPT; ++c) {
        const long long j = col0 + (long long)c * width;
        if (j < s) {
            Y[row * s + j] = found[c] ? acc[c] : identity;
            if (ypres != nullptr) ypres[row * s + j] = found[c];
        }
    }
}
