// SpGEMM C = A ⊕.⊗ B over a semiring: row-wise Gustavson with hash accumulators
// (Nagasaka, Nukada & Matsuoka 2017, "High-performance and memory-saving sparse general
// matrix-matrix multiplication for NVIDIA Pascal GPU"; the bounded-table binning of spECK,
// Parger et al. 2020). The host (semiring/_spgemm.py) computes each row's flops (the sum of
// B's row lengths over the row's columns of A), bins the rows, and runs two phases:
//
//   symbolic: count the distinct columns of each row of C (hash set of column keys);
//   numeric:  with C's row pointers known, fill columns and values (hash map key -> value,
//             combined with the monoid), then sort each row's entries by column.
//
// Rows whose table fits in shared memory are served by groups of G = 2^log_g threads, several
// rows per block, each with a table of `slots` entries (power of two). Rows that do not fit
// get a block each from a persistent grid, with a table in global memory (one region per
// block, reused row after row, sized per row). A table that covers every column is indexed
// directly (slot = column): no hashing, no probing.
//
// Bitmap rows: when one bit per column of C fits in shared memory (ncols up to ~1.8 M on an
// H100), rows too long for the shared hash tables get a block each with a bitmap of C's
// columns in shared memory instead (one shared atomicOr a product, no probing, no overflow).
// The symbolic phase counts its bits; the numeric phase combines values into a dense row of
// global memory (slot = column: with no return value the combine is a fire-and-forget
// reduction for plus) and compacts the row in column order from the bitmap, so it comes out
// sorted. This replaces, for such rows, the optimistic shared pass, the global hash tables of
// both phases (a random DRAM probe per product) and the sort.
//
// Masks (structure only): a product whose (i, j) is not allowed is skipped before it touches
// the table, by a binary search in the mask's row i; the host bounds a row's table by the mask
// row's length too, so C<L> = L plus.pair L (triangles) never forms the full product.
//
// Keys are the index type I (32-bit for every matrix with int32 indices); the empty key is
// the type's maximum, so a bitonic sort of the whole table leaves the row's entries first.

#define SR_SPG_THREADS 256
// Blocks per SM the register allocation must allow (<= 64 registers a thread): without it
// ptxas capped the shared-table kernels at 32 registers and spilled (nvcc -Xptxas -v, sm_90).
#define SR_SPG_MIN_BLOCKS 4

template <typename K> struct sr_spg_key;
template <> struct sr_spg_key<int> {
    static __device__ __forceinline__ int empty() { return 0x7fffffff; }
};
template <> struct sr_spg_key<long long> {
    static __device__ __forceinline__ long long empty() { return 0x7fffffffffffffffLL; }
};

__device__ __forceinline__ int sr_spg_cas(int* a, int cmp, int val) { return atomicCAS(a, cmp, val); }
__device__ __forceinline__ long long sr_spg_cas(long long* a, long long cmp, long long val) {
    return (long long)atomicCAS(reinterpret_cast<unsigned long long*>(a),
                                (unsigned long long)cmp, (unsigned long long)val);
}

// The slot of `col` in a table of mask + 1 slots (linear probing). Sets `fresh` when this call
// claimed the slot. Slot arithmetic in H: 32-bit for shared tables, 64-bit for global ones.
template <typename K, typename H>
__device__ __forceinline__ H sr_spg_insert(K* keys, H mask, bool direct, K col, bool& fresh) {
    const K empty = sr_spg_key<K>::empty();
    H h = direct ? (H)col : (((H)col * (H)107) & mask);
    while (true) {
        const K cur = reinterpret_cast<volatile K*>(keys)[h];
        if (cur == col) { fresh = false; return h; }
        if (cur == empty) {
            const K old = sr_spg_cas(keys + h, empty, col);
            if (old == empty) { fresh = true; return h; }
            if (old == col) { fresh = false; return h; }
        }
        h = (h + 1) & mask;
    }
}

// Is column j of row i allowed by the structure of the mask row m_idx[lo, hi)?
template <typename I>
__device__ __forceinline__ bool sr_spg_allowed(const I* __restrict__ m_idx, long long lo,
                                               long long hi, I j, int complement) {
    long long a = lo, b = hi;
    while (a < b) {
        const long long mid = (a + b) >> 1;
        if (m_idx[mid] < j) a = mid + 1; else b = mid;
    }
    const bool in = a < hi && m_idx[a] == j;
    return in != (complement != 0);
}

// visit(p, k, q, j) for every product A(row, k) (position p) x B(k, j) (position q) of a row
// that the mask allows (m_ptr null: every one), by `width` threads (this one is `lane`):
// sub-groups of up to 32 lanes take A's entries in turn and stride over the B row, so a long
// row of A with short rows of B keeps lanes busy.
template <typename I, typename F>
__device__ __forceinline__ void sr_spg_row(const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
                                           const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
                                           const I* __restrict__ m_ptr, const I* __restrict__ m_idx,
                                           int complement, long long row, int lane, int width,
                                           F visit) {
    long long mlo = 0, mhi = 0;
    if (m_ptr != nullptr) { mlo = m_ptr[row]; mhi = m_ptr[row + 1]; }
    const int sub_w = width < 32 ? width : 32;
    const int nsub = width / sub_w;
    const int sub = lane / sub_w, sl = lane - sub * sub_w;
    const long long a1 = a_ptr[row + 1];
    for (long long p = (long long)a_ptr[row] + sub; p < a1; p += nsub) {
        const I k = a_idx[p];
        const long long q1 = b_ptr[k + 1];
        for (long long q = (long long)b_ptr[k] + sl; q < q1; q += sub_w) {
            const I j = b_idx[q];
            if (m_ptr != nullptr && !sr_spg_allowed<I>(m_idx, mlo, mhi, j, complement)) continue;
            visit(p, (long long)k, q, j);
        }
    }
}

// The product A(row, k) ⊗ B(k, j) of positions p (in A) and q (in B); a stride of 0 reads an
// iso value.
template <class Mul, typename T, typename R>
__device__ __forceinline__ R sr_spg_product(const T* __restrict__ a_val, long long a_stride,
                                            const T* __restrict__ b_val, long long b_stride,
                                            long long p, long long q, long long row, long long k,
                                            long long j) {
    return Mul::template f<R, T>(a_val[p * a_stride], b_val[q * b_stride], row, k, k, j);
}

// Combine a product into a table value. COMBINE: 0 = CAS loop with the monoid op (any monoid;
// min/max on floats as common.cuh does), 1 = hardware atomicAdd (the plus monoid), 2 = plain
// store (the any monoid: whichever product lands last is a valid answer).
template <class Add, typename R> struct sr_spg_add {
    static __device__ __forceinline__ void f(R* a, R v) { sr_atomic<Add, R>::combine(a, v); }
};
template <class Add> struct sr_spg_add<Add, int> {
    static __device__ __forceinline__ void f(int* a, int v) { atomicAdd(a, v); }
};
template <class Add> struct sr_spg_add<Add, long long> {
    static __device__ __forceinline__ void f(long long* a, long long v) {
        atomicAdd(reinterpret_cast<unsigned long long*>(a), (unsigned long long)v);
    }
};
template <class Add> struct sr_spg_add<Add, float> {
    static __device__ __forceinline__ void f(float* a, float v) { atomicAdd(a, v); }
};
template <class Add> struct sr_spg_add<Add, double> {
    static __device__ __forceinline__ void f(double* a, double v) { atomicAdd(a, v); }
};

template <class Add, typename R, int COMBINE>
__device__ __forceinline__ void sr_spg_combine(R* a, R v) {
    if (COMBINE == 2) { *a = v; return; }
    if (COMBINE == 1) { sr_spg_add<Add, R>::f(a, v); return; }
    sr_atomic<Add, R>::combine(a, v);
}

// Table size of a row served from global memory: the power of two D >= ncols (indexed
// directly) when bound >= direct_min or when D is the smaller, else a power of two >= 2 * bound.
// The host picks direct_min (a direct table is worth a few times the hashed one's slots: its
// row comes out sorted) and sizes each block's region with the same rule (_global_size).
__device__ __forceinline__ long long sr_spg_global_size(long long bound, long long ncols,
                                                        long long direct_min) {
    long long d = 1;
    while (d < ncols) d <<= 1;
    if (bound >= direct_min) return d;
    long long s = 1;
    while (s < 2 * bound) s <<= 1;
    return d < s ? d : s;
}

// Exclusive prefix sum of c over the block (all SR_SPG_THREADS threads call it); `total` gets
// the block's sum. s_warp holds SR_SPG_THREADS / 32 ints and is free again on return.
__device__ __forceinline__ int sr_spg_block_scan(int c, int& total, int* s_warp) {
    const int NW = SR_SPG_THREADS / 32;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int x = c;
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) s_warp[w] = x;
    __syncthreads();
    if (w == 0) {
        int v = lane < NW ? s_warp[lane] : 0;
        for (int o = 1; o < NW; o <<= 1) {
            const int y = __shfl_up_sync(0xffffffffu, v, o);
            if (lane >= o) v += y;
        }
        if (lane < NW) s_warp[lane] = v;
    }
    __syncthreads();
    total = s_warp[NW - 1];
    const int excl = x - c + (w > 0 ? s_warp[w - 1] : 0);
    __syncthreads();
    return excl;
}

// ---------------------------------------------------------------------------------- symbolic

// rownnz[row] = number of distinct allowed columns, for the rows of one shared-memory bin.
// A row whose count passes `limit` stops early with rownnz = -1 (overflow): the host sends the
// rows whose flops exceed every shared table here first, with limit = 3/4 of the largest table
// (spECK's optimistic pass: a row with many products often has few distinct columns), and only
// the rows that overflow to the global-memory kernel. For the other bins limit = slots, which
// the count never passes (it is at most the row's bound <= slots). Claims past the limit are
// at most one per lane of the group, so a table never fills and probing always ends.
template <typename I>
__global__ void __launch_bounds__(SR_SPG_THREADS, SR_SPG_MIN_BLOCKS) spgemm_symbolic_shared(
    const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
    const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
    const I* __restrict__ m_ptr, const I* __restrict__ m_idx, int complement,
    const I* __restrict__ rows, long long nrows_bin, int log_g, int slots, long long ncols,
    long long* __restrict__ rownnz, int limit)
{
    extern __shared__ __align__(16) unsigned char sr_spg_smem[];
    typedef I K;
    const int G = 1 << log_g, rpb = SR_SPG_THREADS >> log_g;
    K* keys = reinterpret_cast<K*>(sr_spg_smem);
    int* cnt = reinterpret_cast<int*>(keys + rpb * slots);
    volatile int* ovf = cnt + rpb;
    const K empty = sr_spg_key<K>::empty();
    for (int t = threadIdx.x; t < rpb * slots; t += SR_SPG_THREADS) keys[t] = empty;
    if (threadIdx.x < rpb) { cnt[threadIdx.x] = 0; ovf[threadIdx.x] = 0; }
    __syncthreads();
    const int g = threadIdx.x >> log_g, lane = threadIdx.x & (G - 1);
    const long long s = (long long)blockIdx.x * rpb + g;
    const bool direct = (long long)slots >= ncols;
    const unsigned mask = (unsigned)slots - 1u;
    K* tab = keys + g * slots;
    long long row = -1;
    if (s < nrows_bin) {
        row = (long long)rows[s];
        sr_spg_row<I>(a_ptr, a_idx, b_ptr, b_idx, m_ptr, m_idx, complement, row,
                      lane, G,
            [&](long long p, long long k, long long q, I j) {
                if (ovf[g]) return;
                bool fresh;
                sr_spg_insert<K, unsigned>(tab, mask, direct, (K)j, fresh);
                if (fresh && atomicAdd(cnt + g, 1) >= limit) ovf[g] = 1;
            });
    }
    __syncthreads();
    if (row >= 0 && lane == 0) rownnz[row] = ovf[g] ? -1 : cnt[g];
}

// The same for rows too long for shared memory: one block per row (persistent grid), the
// table in this block's region of `gkeys` (cap slots), sized per row from bound[row].
template <typename I>
__global__ void __launch_bounds__(SR_SPG_THREADS, SR_SPG_MIN_BLOCKS) spgemm_symbolic_global(
    const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
    const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
    const I* __restrict__ m_ptr, const I* __restrict__ m_idx, int complement,
    const I* __restrict__ rows, long long nrows_bin, const long long* __restrict__ bound,
    long long ncols, I* __restrict__ gkeys, long long cap, long long* __restrict__ rownnz,
    long long direct_min)
{
    __shared__ unsigned long long s_cnt;
    typedef I K;
    const K empty = sr_spg_key<K>::empty();
    K* tab = gkeys + (long long)blockIdx.x * cap;
    for (long long s = blockIdx.x; s < nrows_bin; s += gridDim.x) {
        const long long row = (long long)rows[s];
        const long long size = sr_spg_global_size(bound[row], ncols, direct_min);
        const bool direct = size >= ncols;
        for (long long t = threadIdx.x; t < size; t += SR_SPG_THREADS) tab[t] = empty;
        if (threadIdx.x == 0) s_cnt = 0;
        __syncthreads();
        unsigned long long mine = 0;
        sr_spg_row<I>(a_ptr, a_idx, b_ptr, b_idx, m_ptr, m_idx, complement, row,
                      threadIdx.x, SR_SPG_THREADS,
            [&](long long p, long long k, long long q, I j) {
                bool fresh;
                sr_spg_insert<K, unsigned long long>(tab, (unsigned long long)(size - 1), direct, (K)j, fresh);
                mine += fresh ? 1 : 0;
            });
        if (mine) atomicAdd(&s_cnt, mine);
        __syncthreads();
        if (threadIdx.x == 0) rownnz[row] = (long long)s_cnt;
        __syncthreads();  // the table and s_cnt are reset for the next row
    }
}

// ----------------------------------------------------------------------------------- numeric

// Fill C's row (columns sorted) for the rows of one shared-memory bin: insert and combine the
// products, then a bitonic sort of each group's whole table (empty keys sort last), then copy
// the first nnz(row) entries out. Every group of the block has the same table size and runs
// the same sorting network, so the block synchronizes between its stages.
template <class Add, class Mul, typename T, typename R, typename I, int COMBINE>
__global__ void __launch_bounds__(SR_SPG_THREADS, SR_SPG_MIN_BLOCKS) spgemm_numeric_shared(
    const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
    const T* __restrict__ a_val, long long a_stride,
    const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
    const T* __restrict__ b_val, long long b_stride,
    const I* __restrict__ m_ptr, const I* __restrict__ m_idx, int complement,
    const I* __restrict__ rows, long long nrows_bin, int log_g, int slots, long long ncols,
    const long long* __restrict__ c_ptr, I* __restrict__ c_idx, R* __restrict__ c_val,
    R empty_val)
{
    extern __shared__ __align__(16) unsigned char sr_spg_smem[];
    typedef I K;
    const int G = 1 << log_g, rpb = SR_SPG_THREADS >> log_g;
    R* vals = reinterpret_cast<R*>(sr_spg_smem);
    K* keys = reinterpret_cast<K*>(vals + rpb * slots);  // rpb * slots >= 2048: aligned
    const K empty = sr_spg_key<K>::empty();
    for (int t = threadIdx.x; t < rpb * slots; t += SR_SPG_THREADS) { keys[t] = empty; vals[t] = empty_val; }
    __syncthreads();
    const int g = threadIdx.x >> log_g, lane = threadIdx.x & (G - 1);
    const long long s = (long long)blockIdx.x * rpb + g;
    const bool direct = (long long)slots >= ncols;
    const unsigned mask = (unsigned)slots - 1u;
    K* tab = keys + g * slots;
    R* vt = vals + g * slots;
    long long row = -1;
    if (s < nrows_bin) {
        row = (long long)rows[s];
        sr_spg_row<I>(a_ptr, a_idx, b_ptr, b_idx, m_ptr, m_idx, complement, row,
                      lane, G,
            [&](long long p, long long k, long long q, I j) {
                const R prod = sr_spg_product<Mul, T, R>(a_val, a_stride, b_val, b_stride,
                                                          p, q, row, k, j);
                bool fresh;
                const unsigned h = sr_spg_insert<K, unsigned>(tab, mask, direct, (K)j, fresh);
                sr_spg_combine<Add, R, COMBINE>(vt + h, prod);
            });
    }
    __syncthreads();
    for (int kk = 2; kk <= slots; kk <<= 1) {
        for (int jj = kk >> 1; jj > 0; jj >>= 1) {
            for (int t = lane; t < (slots >> 1); t += G) {
                const int i = 2 * t - (t & (jj - 1));
                const int l = i + jj;
                const K ki = tab[i], kl = tab[l];
                if ((ki > kl) == ((i & kk) == 0)) {
                    tab[i] = kl; tab[l] = ki;
                    const R v = vt[i]; vt[i] = vt[l]; vt[l] = v;
                }
            }
            __syncthreads();
        }
    }
    if (row >= 0) {
        const long long c0 = c_ptr[row], n = c_ptr[row + 1] - c0;
        for (long long t = lane; t < n; t += G) {
            c_idx[c0 + t] = (I)tab[t];
            c_val[c0 + t] = vt[t];
        }
    }
}

// Rows too long for shared memory: one block per row with the table in global memory, sized
// from the row's exact nnz. The table is compacted in slot order (a block scan per tile of
// 4 * SR_SPG_THREADS slots, no atomic per entry): a direct table (slot = column) gives the row
// sorted; a hashed one gives it in hash order, and the host sorts those rows afterwards.
template <class Add, class Mul, typename T, typename R, typename I, int COMBINE>
__global__ void __launch_bounds__(SR_SPG_THREADS, SR_SPG_MIN_BLOCKS) spgemm_numeric_global(
    const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
    const T* __restrict__ a_val, long long a_stride,
    const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
    const T* __restrict__ b_val, long long b_stride,
    const I* __restrict__ m_ptr, const I* __restrict__ m_idx, int complement,
    const I* __restrict__ rows, long long nrows_bin, long long ncols,
    const long long* __restrict__ c_ptr, I* __restrict__ c_idx, R* __restrict__ c_val,
    R empty_val, I* __restrict__ gkeys, R* __restrict__ gvals, long long cap,
    long long direct_min)
{
    __shared__ int s_warp[SR_SPG_THREADS / 32];
    typedef I K;
    const K empty = sr_spg_key<K>::empty();
    K* tab = gkeys + (long long)blockIdx.x * cap;
    R* vt = gvals + (long long)blockIdx.x * cap;
    for (long long s = blockIdx.x; s < nrows_bin; s += gridDim.x) {
        const long long row = (long long)rows[s];
        const long long c0 = c_ptr[row], n = c_ptr[row + 1] - c0;
        const long long size = sr_spg_global_size(n, ncols, direct_min);
        const bool direct = size >= ncols;
        for (long long t = threadIdx.x; t < size; t += SR_SPG_THREADS) { tab[t] = empty; vt[t] = empty_val; }
        __syncthreads();
        sr_spg_row<I>(a_ptr, a_idx, b_ptr, b_idx, m_ptr, m_idx, complement, row,
                      threadIdx.x, SR_SPG_THREADS,
            [&](long long p, long long k, long long q, I j) {
                const R prod = sr_spg_product<Mul, T, R>(a_val, a_stride, b_val, b_stride,
                                                          p, q, row, k, j);
                bool fresh;
                const unsigned long long h = sr_spg_insert<K, unsigned long long>(
                    tab, (unsigned long long)(size - 1), direct, (K)j, fresh);
                sr_spg_combine<Add, R, COMBINE>(vt + h, prod);
            });
        __syncthreads();
        // volatile reads: the table was written by atomics in L2, and L1 may still hold lines
        // of it from the previous row
        const volatile K* vtab = tab;
        const volatile R* vvt = vt;
        long long done = 0;
        for (long long t0 = 0; t0 < size; t0 += 4 * SR_SPG_THREADS) {
            const long long s0 = t0 + 4 * (long long)threadIdx.x;
            K k[4];
            int c = 0;
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                k[u] = s0 + u < size ? vtab[s0 + u] : empty;
                c += k[u] != empty ? 1 : 0;
            }
            int total;
            long long pos = c0 + done + sr_spg_block_scan(c, total, s_warp);
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                if (k[u] != empty) {
                    c_idx[pos] = (I)k[u];
                    c_val[pos] = vvt[s0 + u];
                    ++pos;
                }
            }
            done += total;
        }
        __syncthreads();  // the table is reset for the next row
    }
}

// ------------------------------------------------------------------------------------ bitmap

// Zero the first `words` words of a shared bitmap (all threads of the block).
__device__ __forceinline__ void sr_spg_bits_clear(unsigned* bits, long long words) {
    for (long long t = threadIdx.x; t < words; t += SR_SPG_THREADS) bits[t] = 0u;
}

// rownnz[row] = number of distinct allowed columns: one block a row (rows[blockIdx.x]), a
// bitmap of the ncols columns in dynamic shared memory ((ncols + 31) / 32 words).
template <typename I>
__global__ void __launch_bounds__(SR_SPG_THREADS, SR_SPG_MIN_BLOCKS) spgemm_symbolic_bitmap(
    const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
    const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
    const I* __restrict__ m_ptr, const I* __restrict__ m_idx, int complement,
    const I* __restrict__ rows, long long nrows_bin, long long ncols,
    long long* __restrict__ rownnz)
{
    extern __shared__ __align__(16) unsigned char sr_spg_smem[];
    __shared__ unsigned long long s_cnt;
    unsigned* bits = reinterpret_cast<unsigned*>(sr_spg_smem);
    const long long words = (ncols + 31) >> 5;
    const long long s = blockIdx.x;
    if (s >= nrows_bin) return;
    const long long row = (long long)rows[s];
    sr_spg_bits_clear(bits, words);
    if (threadIdx.x == 0) s_cnt = 0;
    __syncthreads();
    sr_spg_row<I>(a_ptr, a_idx, b_ptr, b_idx, m_ptr, m_idx, complement, row,
                  threadIdx.x, SR_SPG_THREADS,
        [&](long long p, long long k, long long q, I j) {
            atomicOr(bits + ((long long)j >> 5), 1u << ((unsigned)j & 31u));
        });
    __syncthreads();
    unsigned long long c = 0;
    for (long long t = threadIdx.x; t < words; t += SR_SPG_THREADS) c += __popc(bits[t]);
    for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(&s_cnt, c);
    __syncthreads();
    if (threadIdx.x == 0) rownnz[row] = (long long)s_cnt;
}

// Fill C's rows from bitmaps: a persistent grid takes rows in the order of `rows` from the
// counter `next` (the host lists the longest first: the last rows to start are short). Each
// block owns a dense value row of `ncols` slots in gvals, which the host fills with
// empty_val once; the compaction reads every marked slot and puts empty_val back, so the row
// is ready for the block's next one. Columns come out sorted (bitmap order).
template <class Add, class Mul, typename T, typename R, typename I, int COMBINE>
__global__ void __launch_bounds__(SR_SPG_THREADS, SR_SPG_MIN_BLOCKS) spgemm_numeric_bitmap(
    const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
    const T* __restrict__ a_val, long long a_stride,
    const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
    const T* __restrict__ b_val, long long b_stride,
    const I* __restrict__ m_ptr, const I* __restrict__ m_idx, int complement,
    const I* __restrict__ rows, long long nrows_bin, long long ncols,
    const long long* __restrict__ c_ptr, I* __restrict__ c_idx, R* __restrict__ c_val,
    R empty_val, R* __restrict__ gvals, unsigned long long* __restrict__ next)
{
    extern __shared__ __align__(16) unsigned char sr_spg_smem[];
    __shared__ int s_warp[SR_SPG_THREADS / 32];
    __shared__ long long s_row;
    unsigned* bits = reinterpret_cast<unsigned*>(sr_spg_smem);
    const long long words = (ncols + 31) >> 5;
    R* vt = gvals + (long long)blockIdx.x * ncols;
    while (true) {
        if (threadIdx.x == 0) s_row = (long long)atomicAdd(next, 1ull);
        sr_spg_bits_clear(bits, words);
        __syncthreads();
        const long long s = s_row;
        if (s >= nrows_bin) break;
        const long long row = (long long)rows[s];
        sr_spg_row<I>(a_ptr, a_idx, b_ptr, b_idx, m_ptr, m_idx, complement, row,
                      threadIdx.x, SR_SPG_THREADS,
            [&](long long p, long long k, long long q, I j) {
                const R prod = sr_spg_product<Mul, T, R>(a_val, a_stride, b_val, b_stride,
                                                          p, q, row, k, j);
                atomicOr(bits + ((long long)j >> 5), 1u << ((unsigned)j & 31u));
                sr_spg_combine<Add, R, COMBINE>(vt + j, prod);
            });
        __syncthreads();
        // volatile reads: the values were combined by atomics in L2, and L1 may hold lines of
        // this row from the block's previous one
        const volatile R* vvt = vt;
        long long pos0 = c_ptr[row];
        for (long long w0 = 0; w0 < words; w0 += SR_SPG_THREADS) {
            const long long w = w0 + threadIdx.x;
            unsigned b = w < words ? bits[w] : 0u;
            int total;
            long long pos = pos0 + sr_spg_block_scan(__popc(b), total, s_warp);
            while (b) {
                const long long col = (w << 5) + (__ffs(b) - 1);
                b &= b - 1u;
                c_idx[pos] = (I)col;
                c_val[pos] = vvt[col];
                vt[col] = empty_val;
                ++pos;
            }
            pos0 += total;
        }
        __syncthreads();  // the bitmap and s_row are reused for the next row
    }
}
