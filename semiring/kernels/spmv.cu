// Pull-direction SpMV over the rows of a CSR matrix: out(o) = ⊕_k A(o,k) ⊗ x(k).
// Templated on (Add monoid op, Mul op, domain T, result R, index I, operand order XFIRST).
//
// Load balance for skewed degrees, in one launch: rows are binned once per matrix by degree.
// Rows longer than a threshold get a block each, and those blocks come first, longest row
// first, so that the longest rows overlap with everything else instead of forming a tail. The
// other rows go to bin b when their degree is at most SR_UNROLL * 2^b and are served by groups
// of 2^b threads, so a short row does not idle a warp and each thread keeps SR_UNROLL loads in
// flight. `bins` gives each bin's first slot in `rows`, its row count and its first block, then
// the number of long rows. A row stops early once its partial result reaches the monoid's
// terminal value (lor at true, any at its first value).
#define SR_NBINS 6
// Chunks of a row each thread loads before it uses any: independent loads in flight hide the
// latency of the index -> x gather chain (one chunk at a time left SpMV latency-bound).
#define SR_UNROLL 4
#define SR_PULL_THREADS 256

// Cache hint of the pull kernels' loads of the matrix's indices and values: 1 (the default)
// evict-first, ld.global.cs, so that the matrix streaming through L2 does not push x out of it
// (binned kernel, H100, bench/probes/spmv_probe.py: kron-22 1.274 -> 1.224 ms, urand-22
// 1.429 -> 1.359, kron-20 0.300 -> 0.288, grid 2048² 0.090 -> 0.091); 0 plain loads; 2 L2 only
// (ld.global.cg, L1 left to x): slower on every graph. Plain loads for types other than 4 or
// 8 bytes.
#ifndef SR_STREAM_LOADS
#define SR_STREAM_LOADS 1
#endif
template <int BYTES> struct sr_word { typedef unsigned type; };
template <> struct sr_word<8> { typedef unsigned long long type; };
template <int MODE, typename T>
__device__ __forceinline__ T sr_ld(const T* p) {
    if constexpr (MODE != 0 && (sizeof(T) == 4 || sizeof(T) == 8)) {
        typedef typename sr_word<(int)sizeof(T)>::type U;
        const U* q = reinterpret_cast<const U*>(p);
        union { U u; T t; } w;
        w.u = MODE == 1 ? __ldcs(q) : __ldcg(q);
        return w.t;
    }
    return *p;
}

// With SR_ALIGN (a probe switch, off), a group of w lanes starts its row's loads at the
// multiple of min(w, 32) entries at or below the row's first: every load of 8 or more lanes
// then covers whole 32-byte sectors, none of them read by two steps (at the cost of a partial
// first step). Measured without the cache hint only: kron-22 1.274 -> 1.214 ms, kron-20
// 0.300 -> 0.286, urand-22 1.429 -> 1.450 (H100); with the hint, not yet.
#ifndef SR_ALIGN
#define SR_ALIGN 0
#endif
template <typename I>
__device__ __forceinline__ I sr_align_down(I begin, int width) {
    if (!SR_ALIGN || width < 8) return begin;
    return begin & ~(I)((width < 32 ? width : 32) - 1);
}

// One step of a row's reduction: this thread's entries base + u*width + lane, u < SR_UNROLL.
// Offsets and indices use the index type I: 32-bit arithmetic whenever the matrix allows it
// (index_type() keeps int32 only with headroom, so base + width * SR_UNROLL cannot overflow).
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__device__ __forceinline__ void sr_row_step(
    const I* __restrict__ indices, const T* __restrict__ avals, I astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    long long row, I base, I begin, I end, int lane, int width, R& acc, bool& found)
{
    I k[SR_UNROLL];
    T a[SR_UNROLL];
    bool ok[SR_UNROLL];
#pragma unroll
    for (int u = 0; u < SR_UNROLL; ++u) {
        const I p = base + (I)(u * width + lane);
        ok[u] = p >= begin && p < end;
        k[u] = ok[u] ? sr_ld<SR_STREAM_LOADS>(indices + p) : (I)0;
        a[u] = ok[u] ? sr_ld<SR_STREAM_LOADS>(avals + p * astride) : T();
    }
    if (xpres != nullptr) {
#pragma unroll
        for (int u = 0; u < SR_UNROLL; ++u) ok[u] = ok[u] && xpres[k[u]];
    }
    T xv[SR_UNROLL];
#pragma unroll
    for (int u = 0; u < SR_UNROLL; ++u) xv[u] = ok[u] ? x[k[u]] : T();
#pragma unroll
    for (int u = 0; u < SR_UNROLL; ++u) {
        if (ok[u]) {
            sr_fold<Add, R>(acc, found, sr_mult<Mul, T, R, XFIRST>(a[u], xv[u], row, (long long)k[u]));
        }
    }
}

// A long row reduced by the whole block (a block-wide vote for the early exit).
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__device__ __forceinline__ void sr_pull_long_row(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed, long long row,
    R* __restrict__ out, bool* __restrict__ opres, int term_mode, R terminal)
{
    __shared__ R s_acc[SR_PULL_THREADS / 32];
    __shared__ bool s_found[SR_PULL_THREADS / 32];
    if (allowed != nullptr && !allowed[row]) {  // uniform across the block
        if (threadIdx.x == 0) opres[row] = false;
        return;
    }
    const I begin = indptr[row], end = indptr[row + 1];
    R acc = R();
    bool found = false;
    for (I base = sr_align_down(begin, SR_PULL_THREADS); base < end;
         base += SR_PULL_THREADS * SR_UNROLL) {
        sr_row_step<Add, Mul, T, R, I, XFIRST>(indices, avals, (I)astride, x, xpres, row, base,
                                                begin, end, threadIdx.x, SR_PULL_THREADS, acc,
                                                found);
        if (term_mode != SR_TERM_NONE) {
            if (__syncthreads_or(found && sr_is_terminal<R>(term_mode, acc, terminal))) break;
        }
    }
    sr_group_reduce<Add, R>(0xffffffffu, 32, acc, found);
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) { s_acc[warp] = acc; s_found[warp] = found; }
    __syncthreads();
    if (threadIdx.x == 0) {
        acc = R();
        found = false;
        for (int w = 0; w < SR_PULL_THREADS / 32; ++w) {
            if (s_found[w]) sr_fold<Add, R>(acc, found, s_acc[w]);
        }
        opres[row] = found;
        if (found) out[row] = acc;
    }
}

template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void __launch_bounds__(SR_PULL_THREADS) spmv_pull(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed,
    const I* __restrict__ rows, const I* __restrict__ long_rows,
    const long long* __restrict__ bins,
    R* __restrict__ out, bool* __restrict__ opres,
    int term_mode, R terminal)
{
    const long long nlong = bins[3 * SR_NBINS];
    if ((long long)blockIdx.x < nlong) {
        sr_pull_long_row<Add, Mul, T, R, I, XFIRST>(indptr, indices, avals, astride, x, xpres,
            allowed, (long long)long_rows[blockIdx.x], out, opres, term_mode, terminal);
        return;
    }
    const long long block = (long long)blockIdx.x - nlong;
    int b = 0;
#pragma unroll
    for (int j = 1; j < SR_NBINS; ++j) if (block >= bins[2 * SR_NBINS + j]) b = j;
    const int lanes = 1 << b;
    const long long slot = (block - bins[2 * SR_NBINS + b]) * (SR_PULL_THREADS >> b)
                           + (threadIdx.x >> b);
    const int lane = threadIdx.x & (lanes - 1);
    // Every lane of a group shares `slot`, so groups leave (or stay) together.
    if (slot >= bins[SR_NBINS + b]) return;
    const long long row = rows[bins[b] + slot];
    const unsigned gmask = (lanes == 32) ? 0xffffffffu
        : (((1u << lanes) - 1u) << ((threadIdx.x & 31) & ~(lanes - 1)));
    if (allowed != nullptr && !allowed[row]) {
        if (lane == 0) opres[row] = false;
        return;
    }
    const I begin = indptr[row], end = indptr[row + 1];

    R acc = R();
    bool found = false;
    for (I base = sr_align_down(begin, lanes); base < end; base += (I)(lanes * SR_UNROLL)) {
        sr_row_step<Add, Mul, T, R, I, XFIRST>(indices, avals, (I)astride, x, xpres, row, base,
                                                begin, end, lane, lanes, acc, found);
        if (term_mode != SR_TERM_NONE) {
            if (__any_sync(gmask, found && sr_is_terminal<R>(term_mode, acc, terminal))) break;
        }
    }
    sr_group_reduce<Add, R>(gmask, lanes, acc, found);
    if (lane == 0) {
        opres[row] = found;
        if (found) out[row] = acc;
    }
}

// ---------------------------------------------------------------------------------------------
// The tiled pull (CSR-Stream, Greathouse & Daga, SC 2014): equal nnz per block instead of
// rows binned by degree. Rows of at most SR_TILE entries are grouped by where they start:
// tile t holds the rows whose first entry lies in [t * SR_TILE, (t+1) * SR_TILE), a run of
// consecutive rows whose entries are contiguous and fewer than 2 * SR_TILE. A block streams
// its tile's indices and values with aligned, coalesced loads (each 32-byte sector by one load;
// a narrow group of the binned kernel may ask for a sector once per step), gathers x, keeps
// the products in shared memory and then reduces each row from there with a group of lanes
// sized by the tile's mean degree (the row offsets staged in shared memory when the tile has
// fewer than 512 rows). Rows longer than SR_TILE get a block each, first, longest first (as in
// spmv_pull). No early exit and no use of the mask while loading (the launcher takes this
// kernel when there is no mask), and the multiply must not be positional: the row of a
// product is not known while it is loaded.
#ifndef SR_TILE
#define SR_TILE 2048  // = TILE of backend/gpu/spmv.py (tests/test_spmv_schedule.py checks)
#endif
// Loads in flight per thread while a tile streams in.
#ifndef SR_TILE_UNROLL
#define SR_TILE_UNROLL 4
#endif

template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void __launch_bounds__(SR_PULL_THREADS) spmv_tile(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed,
    const I* __restrict__ tiles, long long ntiles,
    const I* __restrict__ long_rows, long long nlong,
    R* __restrict__ out, bool* __restrict__ opres)
{
    __shared__ R s_prod[2 * SR_TILE];
    __shared__ bool s_pres[2 * SR_TILE];
    __shared__ I s_ptr[2 * SR_PULL_THREADS];  // the tile's row offsets, when it has few rows
    if ((long long)blockIdx.x < nlong) {
        sr_pull_long_row<Add, Mul, T, R, I, XFIRST>(indptr, indices, avals, astride, x, xpres,
            allowed, (long long)long_rows[blockIdx.x], out, opres, SR_TERM_NONE, R());
        return;
    }
    const long long t = (long long)blockIdx.x - nlong;
    const I rb = tiles[t];
    I re = tiles[t + 1];
    const I nb = indptr[rb];
    // only the tile's last row can be long (it then starts the next tile's range): not ours
    if (re > rb && indptr[re] - indptr[re - 1] > (I)SR_TILE) --re;
    const I ne = indptr[re];
    const I as = (I)astride;
    const I nrows = re - rb;
    const I len = ne - nb;
    // row offsets loaded now, stored after the stream (a load stalls only where it is used)
    const bool stage = nrows < (I)(2 * SR_PULL_THREADS);
    const I r0 = (I)threadIdx.x, r1 = (I)(threadIdx.x + SR_PULL_THREADS);
    const I ptr0 = (stage && r0 <= nrows) ? indptr[rb + r0] : (I)0;
    const I ptr1 = (stage && r1 <= nrows) ? indptr[rb + r1] : (I)0;
    // warp loads aligned to 128 bytes, SR_TILE_UNROLL of them in flight per thread
    for (I base = nb & ~(I)31; base < ne; base += (I)(SR_TILE_UNROLL * SR_PULL_THREADS)) {
        I k[SR_TILE_UNROLL];
        T a[SR_TILE_UNROLL];
        bool ok[SR_TILE_UNROLL];
#pragma unroll
        for (int u = 0; u < SR_TILE_UNROLL; ++u) {
            const I p = base + (I)(u * SR_PULL_THREADS + threadIdx.x);
            ok[u] = p >= nb && p < ne;
            k[u] = ok[u] ? sr_ld<SR_STREAM_LOADS>(indices + p) : (I)0;
            a[u] = ok[u] ? sr_ld<SR_STREAM_LOADS>(avals + p * as) : T();
        }
        if (xpres != nullptr) {
#pragma unroll
            for (int u = 0; u < SR_TILE_UNROLL; ++u) {
                const I p = base + (I)(u * SR_PULL_THREADS + threadIdx.x);
                const bool in = ok[u];
                ok[u] = in && xpres[k[u]];
                if (in) s_pres[p - nb] = ok[u];
            }
        }
#pragma unroll
        for (int u = 0; u < SR_TILE_UNROLL; ++u) {
            if (ok[u]) {
                const I p = base + (I)(u * SR_PULL_THREADS + threadIdx.x);
                s_prod[p - nb] = sr_mult<Mul, T, R, XFIRST>(a[u], x[k[u]], -1, (long long)k[u]);
            }
        }
    }
    if (stage) {
        if (r0 <= nrows) s_ptr[r0] = ptr0;
        if (r1 <= nrows && r1 < (I)(2 * SR_PULL_THREADS)) s_ptr[r1] = ptr1;
    }
    __syncthreads();
    // lanes per row: the power of two at or above the tile's mean degree, at most 32
    int lanes = 1;
    while (lanes < 32 && (I)lanes * nrows < len) lanes <<= 1;
    const int lane = threadIdx.x & (lanes - 1);
    const unsigned gmask = (lanes == 32) ? 0xffffffffu
        : (((1u << lanes) - 1u) << ((threadIdx.x & 31) & ~(lanes - 1)));
    for (I s = (I)(threadIdx.x / lanes); s < nrows; s += (I)(SR_PULL_THREADS / lanes)) {
        const I row = rb + s;
        const I qb = (stage ? s_ptr[s] : indptr[row]) - nb;
        const I qe = (stage ? s_ptr[s + 1] : indptr[row + 1]) - nb;
        R acc = R();
        bool found = false;
        for (I q = qb + (I)lane; q < qe; q += (I)lanes) {
            if (xpres == nullptr || s_pres[q]) sr_fold<Add, R>(acc, found, s_prod[q]);
        }
        sr_group_reduce<Add, R>(gmask, lanes, acc, found);
        if (lane == 0) {
            if (allowed != nullptr && !allowed[row]) found = false;
            opres[row] = found;
            if (found) out[row] = acc;
        }
    }
}
