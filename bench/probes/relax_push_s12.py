"""The fused Bellman–Ford rounds' push (``bb_relax_push``, kernels/blocks.cu) in three forms
on one GPU rank of kron-(scale): the tree's ("tree": since session 14 a warp a chunk of the
round's edges over the grid's warps, 32 to 256), session 13's ("s13": a warp a chunk of 256
edges whatever the round: two searches of the whole frontier a chunk, then each lane's
search between them) and session 12's ("s12": a thread an edge, each a binary search of
the whole frontier). The rank loop (:func:`algorithms.dist._spmd.bellman_ford_rank_fused`)
runs in this process on a one-rank stand-in (no Dask: the same launches as a worker's lone
rank, no exchange), arms interleaved; then each push round's kernel alone on the inputs
recorded from one run. (Session 14's batch 2 ran it with the arms "s13" = the tree's kernel
then, "s12", and "adaptive" = the tree's kernel now.)

    PYTHONPATH=. python3 bench/probes/relax_push_s12.py --scale 22 [--reps 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import time

import numpy as np

#: The session-12 kernel (commit b2cbb94's parent), renamed; it uses blocks.cu's helpers.
S12 = r"""
template <typename I, typename T>
__global__ void bb_relax_push_s12(
    const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ w,
    long long wstride, const long long* __restrict__ frontier, long long nf,
    const long long* __restrict__ offsets, T* d, long long lo, unsigned* __restrict__ out,
    int shift)
{
    unsigned* words = out + SR_BB_HEAD;
    const long long total = nf ? offsets[nf - 1] : 0;
    const long long step = (long long)gridDim.x * blockDim.x;
    long long count = 0;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
        long long a = 0, z = nf - 1;
        while (a < z) {
            const long long mid = (a + z) >> 1;
            if (offsets[mid] > e) z = mid; else a = mid + 1;
        }
        const long long first = a ? offsets[a - 1] : 0;
        const long long u = frontier[a];
        const long long k = (long long)indptr[u] + (e - first);
        const long long v = (long long)indices[k];
        const T c = *reinterpret_cast<volatile T*>(&d[u]) + w[k * wstride];
        if (sr_bb_atomic_min(&d[lo + v], c)) {
            const long long bit = v + shift;
            const unsigned m = 1u << (bit & 31);
            if (!(atomicOr(&words[bit >> 5], m) & m)) ++count;
        }
    }
    sr_bb_count(out, count, 0);
}
"""


#: Session 13's form (arm "s13"): chunks of SR_BB_CHUNK edges whatever the round (the tree's
#: kernel, arm "tree", sizes them from the round's edges since session 14).
S13 = r"""
template <typename I, typename T>
__global__ void bb_relax_push_s13(
    const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ w,
    long long wstride, const long long* __restrict__ frontier, long long nf,
    const long long* __restrict__ offsets, T* d, long long lo, unsigned* __restrict__ out,
    int shift)
{
    unsigned* words = out + SR_BB_HEAD;
    const long long total = nf ? offsets[nf - 1] : 0;
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    const long long chunk = SR_BB_CHUNK;
    long long count = 0;
    for (long long c0 = warp * chunk; c0 < total; c0 += warps * chunk) {
        const long long c1 = c0 + chunk < total ? c0 + chunk : total;
        long long s = 0;
        if (lane < 2) s = sr_bb_slot(offsets, 0, nf - 1, lane ? c1 - 1 : c0);
        const long long a0 = __shfl_sync(0xffffffffu, s, 0);
        const long long a1 = __shfl_sync(0xffffffffu, s, 1);
        long long a = a0;
        for (long long e = c0 + lane; e < c1; e += 32) {
            a = sr_bb_slot(offsets, a, a1, e);
            const long long first = a ? offsets[a - 1] : 0;
            const long long u = frontier[a];
            const long long k = (long long)indptr[u] + (e - first);
            const long long v = (long long)indices[k];
            const T c = *reinterpret_cast<volatile T*>(&d[u]) + w[k * wstride];
            if (sr_bb_atomic_min(&d[lo + v], c)) {
                const long long bit = v + shift;
                const unsigned m = 1u << (bit & 31);
                if (!(atomicOr(&words[bit >> 5], m) & m)) ++count;
            }
        }
    }
    sr_bb_count(out, count, 0);
}
"""


class OneRank:
    """The :class:`semiring.dist._mesh.Rank` attributes the fused rounds read, for one rank
    holding the whole matrix (size 1: the all-gathers are the rank's own buffer)."""

    def __init__(self, B):
        n = B.nrows
        self.blocks, self.rank, self.size = {"cols": B}, 0, 1
        self.bounds, self.lo, self.hi, self.n = (0, n), 0, n, n
        self.memo, self.device, self.exchange = {}, "gpu", "tcp"

    def block(self, kind):
        return self.blocks[kind]

    def allreduce(self, value, op="plus"):
        return value


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=22)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    import cupy as cp

    import semiring as sr
    from semiring import kernels
    from semiring.backend.gpu import blocks as gb
    from algorithms.dist import _spmd
    dsssp = importlib.import_module("algorithms.dist.sssp")   # (the package's sssp: a function)
    from bench import dask_suite as DS

    info = {"gpu": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
            "graph": f"kron-{args.scale}"}
    A = DS.kron_graph(args.scale, "gpu")
    M = sr.Matrix.from_cupyx(A)
    del A
    deg = np.diff(cp.asnumpy(M.indptr))
    src = int(np.flatnonzero(deg > 0)[np.random.default_rng(1).integers((deg > 0).sum())])
    work = np.dtype(M.dtype) if np.dtype(M.dtype).kind == "f" else np.dtype(np.int64)
    info.update(n=M.nrows, nnz=int(M.nvals), source=src, work=str(work))
    print(info, flush=True)

    def save():   # after each stage: a run cut short keeps what it measured
        if args.json:
            with open(args.json, "w") as f:
                json.dump(info, f, indent=1)
    rank = OneRank(M)
    current = gb.function

    def s12(name):
        if name.startswith("bb_relax_push<"):
            new = name.replace("bb_relax_push<", "bb_relax_push_s12<")
            return kernels.function(("blocks_s12",), new, lambda: gb.source() + S12, [new])
        return current(name)

    def s13(name):
        if name.startswith("bb_relax_push<"):
            new = name.replace("bb_relax_push<", "bb_relax_push_s13<")
            return kernels.function(("blocks_s13",), new, lambda: gb.source() + S13, [new])
        return current(name)

    arms = {"tree": current, "s13": s13, "s12": s12}

    def run(gather=False):
        """The rank's rounds (gather: the distances on the host; else left on the GPU, as a
        worker's rank keeps them)."""
        v = _spmd.bellman_ford_rank_fused(rank, src, work, "auto", dsssp.PULL_FRACTION, None,
                                          work, gather)
        cp.cuda.Device().synchronize()
        return v[0] if gather else v

    # the same distances either way (and warm-up: both compiled)
    outs = {}
    for arm, fn in arms.items():
        gb.function = fn
        outs[arm] = run(gather=True)
    gb.function = current
    same = all(bool(np.array_equal(o, outs["tree"])) for o in outs.values())
    info["same_distances"] = same
    times = {a: [] for a in arms}
    for _ in range(args.reps):
        for arm, fn in arms.items():
            gb.function = fn
            t = time.perf_counter()
            run()
            times[arm].append(time.perf_counter() - t)
    gb.function = current
    info["sssp_ms"] = {a: round(1e3 * float(np.median(ts)), 3) for a, ts in times.items()}
    print("sssp (rank loop, median ms)", info["sssp_ms"], "same", same, flush=True)
    save()

    # each push round's kernel alone: inputs recorded from one run
    rec = []
    push = gb.relax_push

    def recording(B, w, wstride, frontier, lens, d, lo, out, shift):
        rec.append((frontier.copy(), None if lens is None else lens.copy(), d.copy(),
                    out.copy()))
        return push(B, w, wstride, frontier, lens, d, lo, out, shift)

    gb.relax_push = recording
    try:
        run()
    finally:
        gb.relax_push = push
    rows = []
    w, ws = M.values_for(np.dtype(work))
    name = f"bb_relax_push<{gb.C_TYPES[np.dtype(M.itype)]}, {gb.D_TYPES[np.dtype(work)]}>"
    kern = {arm: fn(name) for arm, fn in arms.items()}
    grid = gb._full_grid()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for frontier, lens, d0, out0 in rec:
        offsets = cp.cumsum(lens, dtype=cp.int64)        # (made by the launcher, not timed)
        row = {"nf": int(frontier.size), "edges": int(offsets[-1])}
        for arm, f in kern.items():
            ts = []
            for _ in range(args.reps):
                d, out = d0.copy(), out0.copy()
                start.record()
                f((grid,), (gb.THREADS,), (M.indptr, M.indices, w, np.int64(ws), frontier,
                                           np.int64(frontier.size), offsets, d, np.int64(0),
                                           out, np.int32(0)))
                stop.record()
                stop.synchronize()
                ts.append(cp.cuda.get_elapsed_time(start, stop))
            row[arm] = round(float(np.median(ts)), 4)
        rows.append(row)
        print(" ", row, flush=True)
        info["push_rounds"] = rows
        save()
    info["push_rounds"] = rows
    info["push_ms_total"] = {a: round(sum(r[a] for r in rows), 3) for a in arms}
    print("push kernels alone (sum of medians, ms)", info["push_ms_total"], flush=True)
    save()


if __name__ == "__main__":
    main()
