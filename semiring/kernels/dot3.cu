// Masked dot-product SpGEMM, SuiteSparse:GraphBLAS's "dot3" (GB_AxB_dot3): C⟨M⟩ = A ⊕.⊗ B
// computed only at the entries of the mask M, each as one dot product
//
//     C(i, j) = ⊕_k A(i, k) ⊗ B(k, j) = ⊕_k A(i, k) ⊗ Bᵀ(j, k)
//
// over the intersection of two sorted rows: row i of A and row j of Bᵀ (the host passes Bᵀ in
// CSR). An entry whose rows do not meet gets no value (`found` false): C has an entry only
// where M has one and some k exists.
//
// Load balance (power-law rows: a hub row of kron-22 has ~10⁵ entries): the host's plan kernel
// gives each mask entry its row and a bin by the length of the shorter of its two rows; each
// bin is served by groups of G = 2^LOG_G threads per entry (1, 4, 32, or a whole block). A
// group's lanes take the shorter row's entries in a stride of G and binary-search each in the
// longer row; a lane's keys increase, so its search window only moves right (a lane alone on
// a short row is a merge with galloping). Products fold per lane with the monoid (in
// increasing k for G = 1), then across the group by shuffles (and shared memory for a block).
// A monoid's terminal value (lor: true, any: the first) ends a lane's walk early.

#define SR_DOT3_THREADS 256

// For each mask entry e: its row (binary search of M's row pointers) and its bin by the length
// s of the shorter of row i of A and row j of Bᵀ: -1 when s = 0 (no product), then the first b
// with s <= limit_b, 3 beyond limit_2.
template <typename I>
__global__ void __launch_bounds__(SR_DOT3_THREADS)
dot3_plan(const I* __restrict__ m_ptr, const I* __restrict__ m_idx, long long nrows,
          long long nnz, const I* __restrict__ a_ptr, const I* __restrict__ b_ptr,
          long long limit0, long long limit1, long long limit2,
          I* __restrict__ rows, signed char* __restrict__ bin)
{
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz;
         e += (long long)gridDim.x * blockDim.x) {
        long long lo = 0, hi = nrows;  // the last row r with m_ptr[r] <= e
        while (hi - lo > 1) {
            const long long mid = (lo + hi) >> 1;
            if ((long long)m_ptr[mid] <= e) lo = mid; else hi = mid;
        }
        const I j = m_idx[e];
        const long long a = (long long)a_ptr[lo + 1] - (long long)a_ptr[lo];
        const long long b = (long long)b_ptr[j + 1] - (long long)b_ptr[j];
        const long long s = a < b ? a : b;
        rows[e] = (I)lo;
        bin[e] = s == 0 ? -1 : (s <= limit0 ? 0 : (s <= limit1 ? 1 : (s <= limit2 ? 2 : 3)));
    }
}

// One dot product per group of 2^LOG_G threads (LOG_G <= 5: groups inside a warp; LOG_G = 8:
// a block). `entries` lists the mask entries of this bin; out[e] / found[e] get the result.
template <class Add, class Mul, typename T, typename R, typename I, int LOG_G>
__global__ void __launch_bounds__(SR_DOT3_THREADS)
dot3_group(const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
           const T* __restrict__ avals, long long as,
           const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
           const T* __restrict__ bvals, long long bs,
           const I* __restrict__ m_idx, const I* __restrict__ rows,
           const long long* __restrict__ entries, long long count,
           R* __restrict__ out, bool* __restrict__ found_out, int mode, R term)
{
    constexpr int G = 1 << LOG_G;
    const long long t = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> LOG_G;
    const int lane = threadIdx.x & (G - 1);
    R acc = R();
    bool found = false;
    long long e = -1;
    if (t < count) {
        e = entries[t];
        const I i = rows[e];
        const I j = m_idx[e];
        const long long a0 = a_ptr[i], a1 = a_ptr[i + 1];
        const long long b0 = b_ptr[j], b1 = b_ptr[j + 1];
        const bool a_short = (a1 - a0) <= (b1 - b0);
        const I* __restrict__ S = a_short ? a_idx : b_idx;
        const I* __restrict__ L = a_short ? b_idx : a_idx;
        const long long s1 = a_short ? a1 : b1;
        long long lo = a_short ? b0 : a0;
        const long long l1 = a_short ? b1 : a1;
        for (long long p = (a_short ? a0 : b0) + lane; p < s1; p += G) {
            const I k = S[p];
            long long x = lo, y = l1;  // the first position in L[lo, l1) with L >= k
            while (x < y) {
                const long long mid = (x + y) >> 1;
                if (L[mid] < k) x = mid + 1; else y = mid;
            }
            lo = x;
            if (x == l1) break;  // every later key of this lane is larger still
            if (L[x] == k) {
                const long long pa = a_short ? p : x, pb = a_short ? x : p;
                const R v = Mul::template f<R, T>(avals[pa * as], bvals[pb * bs],
                                                  (sr_index)i, (sr_index)k, (sr_index)k,
                                                  (sr_index)j);
                sr_fold<Add, R>(acc, found, v);
                if (sr_is_terminal<R>(mode, acc, term)) break;
            }
        }
    }
    if constexpr (LOG_G == 0) {
        if (e >= 0) { out[e] = acc; found_out[e] = found; }
        return;
    }
    // across the group: lanes of a warp (every lane takes part in the shuffles)
    sr_group_reduce<Add, R>(0xffffffffu, G < 32 ? G : 32, acc, found);
    if constexpr (G <= 32) {
        if (lane == 0 && e >= 0) { out[e] = acc; found_out[e] = found; }
        return;
    }
    // a block: warp results through shared memory, folded in warp order by thread 0
    __shared__ R s_acc[SR_DOT3_THREADS / 32];
    __shared__ bool s_found[SR_DOT3_THREADS / 32];
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) { s_acc[warp] = acc; s_found[warp] = found; }
    __syncthreads();
    if (threadIdx.x == 0 && e >= 0) {
        R r = R();
        bool f = false;
        for (int w = 0; w < G / 32; ++w)
            if (s_found[w]) sr_fold<Add, R>(r, f, s_acc[w]);
        out[e] = r;
        found_out[e] = f;
    }
}
