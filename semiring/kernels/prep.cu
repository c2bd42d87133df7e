// Host-side steps of the first call done by kernels of ours: the GPU transpose's keys and
// gather, the SpMV pull schedule's bins, and the weight checks of the device loops (and, at
// the end, Floyd–Warshall's dense setup). Each was a
// chain of CuPy element-wise, scan and reduction kernels (diff, astype, repeat, cumsum,
// bincount, where, any, boolean setitem), compiled by NVRTC one by one on a fresh kernel
// cache (0.1-0.2 s each, 2.5 s for a CUB reduction); these compile as programs of this file,
// one kernel a program, on the loader's prefetch threads. The sorts in between are CuPy's
// in-place sort of keys that hold their own payload (Thrust, compiled with CuPy: no NVRTC
// compile; an argsort would copy its input with an element-wise kernel first).
//
// The launcher is semiring/backend/gpu/prep.py. Index type I: int or long long (a CSR's);
// value types V: a word of the values' size (the gather moves bytes, not numbers).

// The row of CSR position p: the largest r with indptr[r] <= p (rows may be empty).
template <typename I>
__device__ __forceinline__ long long prep_row_of(const I* __restrict__ indptr, long long nrows,
                                                 long long p) {
    long long lo = 0, hi = nrows - 1;
    while (lo < hi) {
        long long mid = (lo + hi + 1) >> 1;
        if ((long long)indptr[mid] <= p) lo = mid; else hi = mid - 1;
    }
    return lo;
}

// key[p] = indices[p] * nvals + p: the (column, position) order of a transpose, which is its
// (column, row) order (positions grow with rows); the keys are unique, so any sort of them
// gives the canonical CSR order of Aᵀ, and each key holds its entry's position.
template <typename I>
__global__ void transpose_keys(const I* __restrict__ indices, long long nvals,
                               long long* __restrict__ key) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < nvals; p += stride)
        key[p] = (long long)indices[p] * nvals + p;
}

// From the sorted keys: Aᵀ's indices (the rows of the positions) and its values (A's values
// gathered, when vals_in is not null).
template <typename I, typename V>
__global__ void transpose_fill(const long long* __restrict__ key,
                               const I* __restrict__ indptr, long long nrows, long long nvals,
                               I* __restrict__ t_indices, const V* __restrict__ vals_in,
                               V* __restrict__ vals_out) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < nvals; q += stride) {
        long long k = key[q];
        long long p = k - (k / nvals) * nvals;
        t_indices[q] = (I)prep_row_of(indptr, nrows, p);
        if (vals_in != nullptr) vals_out[q] = vals_in[p];
    }
}

// Aᵀ's indptr: t_indptr[j] = the first sorted position whose column is at least j (a binary
// search over the sorted keys, a thread a column), j in [0, ncols].
template <typename I>
__global__ void transpose_indptr(const long long* __restrict__ key, long long ncols,
                                 long long nvals, I* __restrict__ t_indptr) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j <= ncols; j += stride) {
        long long lo = 0, hi = nvals;  // the first q in [0, nvals] with col(q) >= j
        while (lo < hi) {
            long long mid = (lo + hi) >> 1;
            if (key[mid] / nvals < j) lo = mid + 1; else hi = mid;
        }
        t_indptr[j] = (I)lo;
    }
}

// The pull schedule's bins (semiring/backend/gpu/spmv.py, pull_schedule): row r of degree d
// goes to bin b = #{j in [1, nbins) : d > unroll * 2^(j-1)}, or to bin nbins (a block of its
// own) when d > long_row; key[r] orders the launch and holds r (m = nrows + 1): long rows
// first, longest first (-d * m + r, negative; d capped below 2^62 / m), then by bin and row
// (b * m + r). counts[b] += 1
// (nbins + 1 counters, zeroed by the caller).
template <typename I>
__global__ void pull_bins(const I* __restrict__ indptr, long long nrows, int nbins, long long unroll,
                          long long long_row, long long* __restrict__ key,
                          unsigned long long* __restrict__ counts) {
    long long stride = (long long)gridDim.x * blockDim.x;
    const long long m = nrows + 1;
    for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += stride) {
        long long d = (long long)indptr[r + 1] - (long long)indptr[r];
        int b = 0;
        for (int j = 1; j < nbins; ++j) b += d > unroll * (1LL << (j - 1));
        if (d > long_row) {
            b = nbins;
            const long long cap = 0x3fffffffffffffffLL / m;  // -d * m must not overflow: longer
            key[r] = -(d < cap ? d : cap) * m + r;             // rows than cap tie (any order)
        } else {
            key[r] = (long long)b * m + r;
        }
        atomicAdd(counts + b, 1ULL);
    }
}

// out[p] = the row held by the sorted key[p] (its residue mod nrows + 1), as the CSR's index
// type.
template <typename I>
__global__ void pull_rows(const long long* __restrict__ key, long long nrows, I* __restrict__ out) {
    long long stride = (long long)gridDim.x * blockDim.x;
    const long long m = nrows + 1;
    for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < nrows; p += stride)
        out[p] = (I)(((key[p] % m) + m) % m);
}

// counts[0] += #{p : !(w[p] >= 0)} (negative or NaN weights), counts[1] += #{p : w[p] != w[p]}
// (NaN): the device loops' check of their weights, without a CUB reduction. counts zeroed by
// the caller.
template <typename V>
__global__ void weight_check(const V* __restrict__ w, long long n,
                             unsigned long long* __restrict__ counts) {
    long long stride = (long long)gridDim.x * blockDim.x;
    unsigned long long bad = 0, nan = 0;
    for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < n; p += stride) {
        V x = w[p];
        bad += !(x >= (V)0);
        nan += x != x;
    }
    for (int off = 16; off > 0; off >>= 1) {
        bad += __shfl_down_sync(0xffffffffu, bad, off);
        nan += __shfl_down_sync(0xffffffffu, nan, off);
    }
    if ((threadIdx.x & 31) == 0 && (bad || nan)) {
        atomicAdd(counts, bad);
        atomicAdd(counts + 1, nan);
    }
}

// Floyd–Warshall's setup on a dense integer weight array (algorithms.apsp): a grid of blocks
// each, where CuPy's masked reductions and casts took ~8 passes over n² entries with their
// temporaries (12.9 ms of the packed call at n = 16384 on an H200,
// bench/results/perf-history.md). Rows over blocks (grid-stride), columns over threads: no
// 64-bit division per entry, coalesced.
#define PREP_U16_INF 0x7FFF
#define PREP_UNROLL 4

// out[0] = min over every entry, out[1] = max over the entries != big ("no edge"); the caller
// sets out = {big, the type's lowest}. a: rows x cols, row pitch ld (entries).
template <typename V>
__global__ void dense_bounds(const V* __restrict__ a, long long rows, long long cols,
                             long long ld, V big, V* __restrict__ out) {
    V lo = big, hi = out[1];
    const long long step = (long long)blockDim.x * PREP_UNROLL;
    for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
        const V* row = a + r * ld;
        for (long long c0 = threadIdx.x; c0 < cols; c0 += step) {
            V x[PREP_UNROLL];
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                long long c = c0 + (long long)u * blockDim.x;
                x[u] = c < cols ? row[c] : big;
            }
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                lo = x[u] < lo ? x[u] : lo;
                hi = (x[u] != big && x[u] > hi) ? x[u] : hi;
            }
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        V l = __shfl_down_sync(0xffffffffu, lo, off), h = __shfl_down_sync(0xffffffffu, hi, off);
        lo = l < lo ? l : lo;
        hi = h > hi ? h : hi;
    }
    if ((threadIdx.x & 31) == 0) {
        if (lo < big) atomicMin(out, lo);
        atomicMax(out + 1, hi);
    }
}

// out[0] = the bits of max |x| over the finite entries x of a float32 rows x cols array (row
// pitch ld; NaN and +-inf skipped, 0 when none is finite); the caller sets out = {0}.
// Non-negative floats order as their bit patterns, so an unsigned atomicMax combines warps.
__global__ void dense_finite_max_abs(const float* __restrict__ a, long long rows,
                                     long long cols, long long ld,
                                     unsigned int* __restrict__ out) {
    float hi = 0.0f;
    const long long step = (long long)blockDim.x * PREP_UNROLL;
    for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
        const float* row = a + r * ld;
        for (long long c0 = threadIdx.x; c0 < cols; c0 += step) {
            float x[PREP_UNROLL];
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                long long c = c0 + (long long)u * blockDim.x;
                x[u] = c < cols ? fabsf(row[c]) : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) hi = (isfinite(x[u]) && x[u] > hi) ? x[u] : hi;
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        float h = __shfl_down_sync(0xffffffffu, hi, off);
        hi = h > hi ? h : hi;
    }
    if ((threadIdx.x & 31) == 0) atomicMax(out, __float_as_uint(hi));
}

// The packed path's D0: D (npad x npad, uint16, contiguous) = min(w, U16_INF) inside the
// n x n weights (row pitch lda; non-negative, checked by the caller, so the cast is exact and
// "no edge" -- the type's maximum, or inf -- becomes U16_INF), U16_INF in the padding, 0 on
// the diagonal.
template <typename V>
__global__ void u16_pack(const V* __restrict__ a, long long n, long long lda,
                         unsigned short* __restrict__ D, long long npad) {
    const long long step = (long long)blockDim.x * PREP_UNROLL;
    for (long long r = blockIdx.x; r < npad; r += gridDim.x) {
        const V* row = a + r * lda;
        unsigned short* out = D + r * npad;
        for (long long c0 = threadIdx.x; c0 < npad; c0 += step) {
            V x[PREP_UNROLL];
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                long long c = c0 + (long long)u * blockDim.x;
                x[u] = (r < n && c < n) ? row[c] : (V)PREP_U16_INF;
            }
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                long long c = c0 + (long long)u * blockDim.x;
                if (c < npad)
                    out[c] = c == r ? (unsigned short)0
                           : x[u] >= (V)PREP_U16_INF ? (unsigned short)PREP_U16_INF
                                                     : (unsigned short)x[u];
            }
        }
    }
}

// The packed path's result in the caller's type: out (n x n, contiguous) = D, with U16_INF
// (unreachable) as big. D: row pitch ldd.
template <typename V>
__global__ void u16_unpack(const unsigned short* __restrict__ D, long long ldd, long long n,
                           V big, V* __restrict__ out) {
    const long long step = (long long)blockDim.x * PREP_UNROLL;
    for (long long r = blockIdx.x; r < n; r += gridDim.x) {
        const unsigned short* row = D + r * ldd;
        V* o = out + r * n;
        for (long long c0 = threadIdx.x; c0 < n; c0 += step) {
            unsigned short x[PREP_UNROLL];
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                long long c = c0 + (long long)u * blockDim.x;
                x[u] = c < n ? row[c] : (unsigned short)PREP_U16_INF;
            }
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                long long c = c0 + (long long)u * blockDim.x;
                if (c < n) o[c] = x[u] >= PREP_U16_INF ? big : (V)x[u];
            }
        }
    }
}

// Floyd–Warshall's float D0 (not packed): D (n x n, contiguous) = w with min(w_ii, 0) on the
// diagonal, counting NaN weights into *nan (the caller zeroes it): the input's check and copy
// in one pass. a: row pitch lda.
template <typename V>
__global__ void dense_d0(const V* __restrict__ a, long long n, long long lda,
                         V* __restrict__ D, unsigned long long* __restrict__ nan) {
    const long long step = (long long)blockDim.x * PREP_UNROLL;
    unsigned long long bad = 0;
    for (long long r = blockIdx.x; r < n; r += gridDim.x) {
        const V* row = a + r * lda;
        V* out = D + r * n;
        for (long long c0 = threadIdx.x; c0 < n; c0 += step) {
            V x[PREP_UNROLL];
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                long long c = c0 + (long long)u * blockDim.x;
                x[u] = c < n ? row[c] : (V)0;
            }
#pragma unroll
            for (int u = 0; u < PREP_UNROLL; ++u) {
                long long c = c0 + (long long)u * blockDim.x;
                bad += x[u] != x[u];
                if (c < n) out[c] = (c == r && x[u] > (V)0) ? (V)0 : x[u];
            }
        }
    }
    for (int off = 16; off > 0; off >>= 1) bad += __shfl_down_sync(0xffffffffu, bad, off);
    if ((threadIdx.x & 31) == 0 && bad) atomicAdd(nan, bad);
}
