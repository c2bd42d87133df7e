// Pull-direction SpMV over the rows of a CSR matrix: out(o) = ⊕_k A(o,k) ⊗ x(k).
// Templated on (Add monoid op, Mul op, domain T, result R, index I, operand order XFIRST).
//
// Load balance for skewed degrees: rows are binned once per matrix by degree (bin b holds the
// rows of degree <= 2^b, the last bin everything up to the long-row threshold), and each bin is
// processed by groups of 2^b threads, so short rows do not idle a warp and long rows get one.
// One launch covers every bin: `bins` gives each bin's first slot in `rows`, its row count and
// its first block. Rows longer than the threshold are handled by spmv_pull_long, a block per
// row. A row stops early once its partial result reaches the monoid's terminal value (lor at
// true, any at its first value).
#define SR_NBINS 6
// Chunks of a row each thread loads before it uses any: independent loads in flight hide the
// latency of the index -> x gather chain (one chunk at a time left SpMV latency-bound).
#define SR_UNROLL 4

// One step of a row's reduction: this thread's entries base + u*width + lane, u < SR_UNROLL.
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__device__ __forceinline__ void sr_row_step(
    const I* __restrict__ indices, const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    long long row, long long base, long long end, int lane, int width, R& acc, bool& found)
{
    long long k[SR_UNROLL];
    T a[SR_UNROLL];
    bool ok[SR_UNROLL];
#pragma unroll
    for (int u = 0; u < SR_UNROLL; ++u) {
        const long long p = base + (long long)u * width + lane;
        ok[u] = p < end;
        k[u] = ok[u] ? (long long)indices[p] : 0;
        a[u] = ok[u] ? avals[p * astride] : T();
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
            const R prod = sr_mult<Mul, T, R, XFIRST>(a[u], xv[u], row, k[u]);
            acc = found ? Add::template f<R, R>(acc, prod, 0, 0, 0, 0) : prod;
            found = true;
        }
    }
}

template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void spmv_pull(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed,
    const I* __restrict__ rows, const long long* __restrict__ bins,
    R* __restrict__ out, bool* __restrict__ opres,
    int term_mode, R terminal)
{
    int b = 0;
#pragma unroll
    for (int j = 1; j < SR_NBINS; ++j) if ((long long)blockIdx.x >= bins[2 * SR_NBINS + j]) b = j;
    const int lanes = 1 << b;
    const long long slot = ((long long)blockIdx.x - bins[2 * SR_NBINS + b]) * (blockDim.x >> b)
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
    const long long begin = indptr[row], end = indptr[row + 1];

    R acc = R();
    bool found = false;
    for (long long base = begin; base < end; base += (long long)lanes * SR_UNROLL) {
        sr_row_step<Add, Mul, T, R, I, XFIRST>(indices, avals, astride, x, xpres, row, base, end,
                                                lane, lanes, acc, found);
        if (term_mode != SR_TERM_NONE) {
            if (__any_sync(gmask, found && sr_is_terminal<R>(term_mode, acc, terminal))) break;
        }
    }
    for (int off = lanes >> 1; off > 0; off >>= 1) {
        const R oacc = sr_shfl_down<R>(gmask, acc, off, lanes);
        const bool ofound = sr_shfl_down<bool>(gmask, found, off, lanes);
        if (ofound) {
            acc = found ? Add::template f<R, R>(acc, oacc, 0, 0, 0, 0) : oacc;
            found = true;
        }
    }
    if (lane == 0) {
        opres[row] = found;
        if (found) out[row] = acc;
    }
}

// One block per long row; `rows` lists them. Blocks of SR_LONG_THREADS threads.
#define SR_LONG_THREADS 256

template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void __launch_bounds__(SR_LONG_THREADS) spmv_pull_long(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed, const I* __restrict__ rows, long long nlong,
    R* __restrict__ out, bool* __restrict__ opres,
    int term_mode, R terminal)
{
    __shared__ R s_acc[SR_LONG_THREADS / 32];
    __shared__ bool s_found[SR_LONG_THREADS / 32];
    for (long long li = blockIdx.x; li < nlong; li += gridDim.x) {
        const long long row = rows[li];
        if (allowed != nullptr && !allowed[row]) {
            if (threadIdx.x == 0) opres[row] = false;
            continue;  // uniform across the block
        }
        const long long begin = indptr[row], end = indptr[row + 1];
        R acc = R();
        bool found = false;
        for (long long base = begin; base < end; base += SR_LONG_THREADS * SR_UNROLL) {
            sr_row_step<Add, Mul, T, R, I, XFIRST>(indices, avals, astride, x, xpres, row, base,
                                                    end, threadIdx.x, SR_LONG_THREADS, acc, found);
            if (term_mode != SR_TERM_NONE) {
                if (__syncthreads_or(found && sr_is_terminal<R>(term_mode, acc, terminal))) break;
            }
        }
        for (int off = 16; off > 0; off >>= 1) {
            const R oacc = sr_shfl_down<R>(0xffffffffu, acc, off, 32);
            const bool ofound = sr_shfl_down<bool>(0xffffffffu, found, off, 32);
            if (ofound) {
                acc = found ? Add::template f<R, R>(acc, oacc, 0, 0, 0, 0) : oacc;
                found = true;
            }
        }
        const int warp = threadIdx.x >> 5;
        if ((threadIdx.x & 31) == 0) { s_acc[warp] = acc; s_found[warp] = found; }
        __syncthreads();
        if (threadIdx.x == 0) {
            acc = R(); found = false;
            for (int w = 0; w < SR_LONG_THREADS / 32; ++w) {
                if (s_found[w]) {
                    acc = found ? Add::template f<R, R>(acc, s_acc[w], 0, 0, 0, 0) : s_acc[w];
                    found = true;
                }
            }
            opres[row] = found;
            if (found) out[row] = acc;
        }
        __syncthreads();  // s_acc is reused by the next row
    }
}
