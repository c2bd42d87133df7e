"""Trial variants of the forward listing's thread pass (``kernels/triangles.cu``'s
``tc_forward``), against Gunrock's count on uniform graphs (issue 21 item 4), timed side by
side on the same graph, each followed by the shipped ``tc_listed_warps<int, false>`` for the listed
long walks. Median of synchronized warm runs, ms; every variant's count checked against
``algorithms.triangle_count``.

- ``shipped``: ``tc_forward`` as it is, with its symmetry check (session 27: with the merge
  of rows of nearly equal length; before, as ``rows`` but a binary search of indptr for each
  entry's row);
- ``rows``: the entry's row read from a precomputed array (``Matrix.entry_rows``; its cost
  printed apart as ``entry_rows``);
- ``warprow``: the warp's first row found once (a uniform search), each lane's by stepping
  from it (a binary search after 8 steps);
- ``rows_nosym``: ``rows`` without the symmetry check (its cost, not a candidate);
- ``rows_merge``: ``rows``, and a walk whose other row is at most 4 times longer merged with
  it (both rows read in order, a rank read only on a hit).

Usage: PYTHONPATH=. python3 bench/probes/tc_variants.py [GRAPH ...]
"""

import statistics
import sys
import time

import numpy as np

import algorithms as alg
import semiring as sr
from bench import generators as gen
from semiring import kernels

VARIANTS = r'''
template <typename I>
__device__ __forceinline__ long long tcv_row_from(const I* __restrict__ indptr, long long n,
                                                  long long r, long long e) {
    for (int k = 0; k < 8; ++k) {
        if ((long long)indptr[r + 1] > e) return r;
        ++r;
    }
    long long lo = r, hi = n;  // the last u >= r with indptr[u] <= e
    while (lo < hi) {
        long long mid = (lo + hi + 1) >> 1;
        if ((long long)indptr[mid] <= e) lo = mid; else hi = mid - 1;
    }
    return lo;
}

template <typename I>
__device__ __forceinline__ unsigned long long tcv_merge(
        const I* __restrict__ indptr, const I* __restrict__ indices, long long v, long long dv,
        tc_walk r) {
    unsigned long long found = 0;
    long long p = r.a0, q = r.b0;
    while (p < r.a1 && q < r.b1) {
        const I x = indices[p], y = indices[q];
        if (x < y) { ++p; continue; }
        if (y < x) { ++q; continue; }
        const long long dw = indptr[(long long)x + 1] - indptr[x];
        if (tc_before(dv, v, dw, (long long)x)) ++found;
        ++p; ++q;
    }
    return found;
}

// MODE 0: rows[], 1: warp row, 2: rows[] without the symmetry check, 3: rows[] + merge
template <typename I, int MODE>
__global__ void __launch_bounds__(SR_TC_THREADS)
tcv(const I* __restrict__ indptr, const I* __restrict__ indices, const I* __restrict__ rows,
    long long n, long long nnz, long long walk, unsigned long long* __restrict__ out,
    I* __restrict__ work) {
    unsigned long long found = 0, asym = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long base = (long long)blockIdx.x * blockDim.x; base < nnz; base += stride) {
        const long long e = base + threadIdx.x;
        long long u;
        if (MODE == 1) {
            const long long first = base + (threadIdx.x & ~31);
            const long long r0 = tc_row(indptr, n, first < nnz ? first : nnz - 1);
            if (e >= nnz) continue;
            u = tcv_row_from(indptr, n, r0, e);
        } else {
            if (e >= nnz) continue;
            u = (long long)rows[e];
        }
        const long long v = (long long)indices[e];
        const long long u0 = indptr[u], u1 = indptr[u + 1], v0 = indptr[v], v1 = indptr[v + 1];
        if (MODE != 2 && !tc_has(indices, v0, v1, (I)u)) {
            ++asym;
            continue;
        }
        const long long dv = v1 - v0;
        if (!tc_before(u1 - u0, u, dv, v)) continue;
        const tc_walk r = tc_rows(u0, u1, v0, v1);
        if (r.a1 - r.a0 > walk) {
            work[atomicAdd(out + 2, 1ull)] = (I)e;
            continue;
        }
        if (MODE == 3 && (r.b1 - r.b0) <= 4 * (r.a1 - r.a0)) {
            found += tcv_merge(indptr, indices, v, dv, r);
        } else {
            found += tc_step<true>(indptr, indices, u, v, dv, r, r.a0, 1,
                             (unsigned long long*)nullptr);
        }
    }
    tc_add(found, out);
    tc_add(asym, out + 1);
}
'''
NAMES = {"rows": 0, "warprow": 1, "rows_nosym": 2, "rows_merge": 3}


def main(names):
    import cupy as cp  # noqa: PLC0415  (a GPU probe)

    sync = cp.cuda.get_current_stream().synchronize
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
    insts = [f"tcv<int, {m}>" for m in NAMES.values()] + ["tc_forward<int>",
                                                          "tc_listed_warps<int, false>"]
    mod = cp.RawModule(code=kernels.source("triangles.cu") + VARIANTS,
                       options=("--std=c++17",), name_expressions=insts)
    fn = {k: mod.get_function(k) for k in insts}
    walk = np.int64(64)
    for name in names:
        H = gen.make_graph(gen.parse_graph_spec(name), xp=np)
        A = sr.Matrix.from_scipy(H, device="gpu")
        assert A.indices.dtype == np.int32
        n, nnz = A.nrows, A.nvals
        want = alg.triangle_count(A)
        out = cp.zeros(3, dtype=cp.uint64)
        work = cp.empty(nnz, dtype=cp.int32)
        grid = (max(1, min(-(-nnz // 256), kernels.num_sms(cp.cuda.Device().id) * 8)),)
        rows = A.entry_rows().astype(cp.int32)

        def finish():
            fn["tc_listed_warps<int, false>"](grid, (256,), (A.indptr, A.indices, np.int64(n), out,
                                                       np.uint64(0), work))

        def shipped():
            out.fill(0)
            fn["tc_forward<int>"](grid, (256,), (A.indptr, A.indices, np.int64(n),
                                                 np.int64(nnz), walk, np.int32(1), out,
                                                 np.uint64(0), work))
            finish()

        def variant(mode):
            def run():
                out.fill(0)
                fn[f"tcv<int, {mode}>"](grid, (256,), (A.indptr, A.indices, rows, np.int64(n),
                                                       np.int64(nnz), walk, out, work))
                finish()
            return run

        ways = {"shipped": shipped, **{k: variant(m) for k, m in NAMES.items()},
                "entry_rows": lambda: A.entry_rows().astype(cp.int32)}
        times = {k: [] for k in ways}
        counts = {}
        for i in range(11):
            for k, f in ways.items():
                sync()
                t = time.perf_counter()
                f()
                sync()
                if i:
                    times[k].append((time.perf_counter() - t) * 1e3)
                if k != "entry_rows":
                    counts[k] = int(out[0].get())
        bad = {k: c for k, c in counts.items() if c != want}
        print(f"{name}: nvals {nnz}, count {want}{' MISMATCH ' + str(bad) if bad else ''}; ms "
              + " ".join(f"{k} {statistics.median(v):.3f}" for k, v in times.items()),
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["urand-16-ef8", "urand-18-ef8", "urand-20", "grid-1000x1000",
                          "kron-16", "kron-17", "kron-18"])
