"""The library's two-GPU BFS (``algorithms.dist.bfs`` on 2 GPU workers, ``_spmd.BFS_LEVELS``
'peer': kernels/bfs_peer.cu over CUDA IPC) against the one-GPU ``algorithms.bfs`` in this
process (GPU 0) and against the fused rank loop ('fused'), on kron-S graphs, the same
Graph500 sources; every search's levels checked against the one-GPU engine.

    PYTHONPATH=. python3 bench/probes/peer_bfs_time.py --scales 22,24 --sources 8 --reps 3

Prints one line a scale (medians over the sources of each source's median call, seconds of
the whole call from the client: the mesh command, both launches, the replies):
``RESULT kron-S: 1-GPU engine X ms, 2-GPU peer Y ms (in-kernel K) (t1/t2, efficiency t1 /
(2 t2)), fused Z ms; 1 Dask worker W ms (its strong efficiency W / (2 Y)); levels equal:
True/False``, the one-worker line being the dask suite's base of strong scaling (the
one-device BFS on worker 0 through the mesh). Before it, ``STEPS``: where a peer call's time
goes, in microseconds from the client's call on the host's one monotonic clock: each rank's
entry into its loop, launch issued, kernel done (the state read), levels made, and the
client's return. Exit status 1 where any level differs.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")


def log(*a):
    print("[peer_bfs]", *a, flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", default="22,24")
    ap.add_argument("--sources", type=int, default=8)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--no-fused", action="store_true", help="skip the fused loop's timing")
    ap.add_argument("--no-one-worker", action="store_true",
                    help="skip the one-worker Dask path (the one-device BFS on worker 0 through "
                         "the mesh: the base of the dask suite's strong scaling)")
    ap.add_argument("--kept-launch", action="store_true",
                    help="the workers launch the peer kernel through a kept parameter block "
                         "(semiring.backend.gpu.bfs_peer.PEER_KEPT_LAUNCH)")
    ap.add_argument("--devices", choices=("own", "rotated"), default="own",
                    help="what each worker sees: its GPU alone, or every GPU, its own first "
                         "(semiring.dist._client.GPU_WORKER_DEVICES)")
    args = ap.parse_args(argv)

    import cupy as cp  # noqa: PLC0415  (CuPy: the GPU run only)

    import algorithms  # noqa: PLC0415  (the engine: the reference)
    import semiring as sr  # noqa: PLC0415  (the engine's matrix)
    import algorithms.dist as ad  # noqa: PLC0415  (optional: distributed)
    from algorithms.dist import _spmd  # noqa: PLC0415  (the policy switch)
    from semiring import dist  # noqa: PLC0415  (optional: distributed)
    from bench import dask_suite as ds  # noqa: PLC0415  (the suite's graph builders)

    from semiring.dist import _client  # noqa: PLC0415  (the workers' view of the GPUs)

    _client.GPU_WORKER_DEVICES = args.devices
    client = dist.local_cluster(2, device="gpu")
    if args.kept_launch:
        client.run(_set_kept_launch, True)  # (read on the ranks, in the workers' processes)
    ok_all = True
    try:
        for scale in [int(s) for s in args.scales.split(",") if s.strip()]:
            t0 = time.perf_counter()
            with cp.cuda.Device(0):
                M = sr.Matrix.from_cupyx(ds.kron_graph(scale, "gpu"))
            n = M.nrows
            DA, tgen = ds.make_dist(client, _chunk(scale), n, 2, "gpu", chunks=True)
            DA1 = None if args.no_one_worker else ds.make_dist(client, _chunk(scale), n, 1,
                                                               "gpu", chunks=True)[0]
            deg = cp.asnumpy(cp.diff(M.indptr))
            rng = np.random.default_rng(0)
            srcs = [int(x) for x in rng.choice(np.flatnonzero(deg > 0), args.sources,
                                               replace=False)]
            log(f"kron-{scale}: n={n} nnz={M.nvals}, built in {time.perf_counter() - t0:.1f} s "
                f"(dist {tgen:.1f} s)")
            variants = ["peer"] + ([] if args.no_fused else ["fused"])
            t1s, t2s, tk, steps = [], {v: [] for v in variants}, [], []
            for v in variants:  # first call: setup (gather, IPC, compile), untimed
                _spmd.BFS_LEVELS = v
                t = time.perf_counter()
                ad.bfs(DA, srcs[0], symmetric=True)
                log(f"{v}: first call (setup) {time.perf_counter() - t:.2f} s")
            algorithms.bfs(M, srcs[0], symmetric=True)
            t1w = []
            if DA1 is not None:
                ad.bfs(DA1, srcs[0], symmetric=True)
            for s in srcs:
                ref = cp.asnumpy(algorithms.bfs(M, s, symmetric=True))
                t1s.append(_median(lambda: algorithms.bfs(M, s, symmetric=True), args.reps))
                line = [f"source {s}: 1-GPU {t1s[-1] * 1e3:.3f} ms"]
                if DA1 is not None:
                    t1w.append(_median(functools.partial(_dist_bfs, ad, DA1, s), args.reps))
                    line.append(f"1 worker {t1w[-1] * 1e3:.3f} ms")
                for v in variants:
                    _spmd.BFS_LEVELS = v
                    got = cp.asnumpy(ad.bfs(DA, s, symmetric=True))
                    eq = bool(np.array_equal(got, ref))
                    ok_all &= eq
                    op = functools.partial(_dist_bfs, ad, DA, s)
                    t2s[v].append(_median(op, args.reps))
                    line.append(f"{v} {t2s[v][-1] * 1e3:.3f} ms (equal {eq})")
                    if v == "peer":
                        # one more call, its steps on the host clock (the client's and both
                        # ranks': one monotonic clock on the host)
                        c0 = time.perf_counter()
                        _dist_bfs(ad, DA, s)
                        c1 = time.perf_counter()
                        info = DA.call_spmd(_kernel_info, keep=False)
                        if all(i is not None for i in info):
                            tk.append(max(i[0] for i in info))
                            line.append(f"in-kernel {tk[-1]:.3f} ms, levels {info[0][1]} "
                                        f"(push {info[0][2]}, pull {info[0][3]})")
                            steps.append(_steps(c0, c1, [i[4] for i in info]))
                            line.append("steps (us from the call) " + " ".join(
                                f"{k} {x:.0f}" for k, x in steps[-1].items()))
                log(", ".join(line))
            t1 = statistics.median(t1s)
            t2 = statistics.median(t2s["peer"])
            fused = (f", fused {statistics.median(t2s['fused']) * 1e3:.3f} ms"
                     if "fused" in t2s else "")
            kern = f" (in-kernel {statistics.median(tk):.3f})" if tk else ""
            if steps:
                log(f"STEPS kron-{scale} (median us from the client's call): " + " ".join(
                    f"{k} {statistics.median(x[k] for x in steps):.0f}" for k in steps[0]))
            one = ""
            if t1w:
                w = statistics.median(t1w)
                one = (f"; 1 Dask worker {w * 1e3:.3f} ms (its strong efficiency "
                       f"{w / (2 * t2):.2f})")
            log(f"RESULT kron-{scale}: 1-GPU engine {t1 * 1e3:.3f} ms, 2-GPU peer "
                f"{t2 * 1e3:.3f} ms{kern} (t1/t2 {t1 / t2:.2f}, efficiency "
                f"{t1 / (2 * t2):.2f}){fused}{one}; levels equal: {ok_all}")
            del DA, DA1, M
            cp.get_default_memory_pool().free_all_blocks()
    finally:
        _spmd.BFS_LEVELS = "auto"
        client.close()
        client.cluster.close()
    return 0 if ok_all else 1


def _kernel_info(rank):
    """(On a rank.) The last peer search's in-kernel milliseconds (device clock, first cross
    barrier to the end), levels, pushes and pulls; None where no search ran."""
    from semiring.backend.gpu import bfs_peer  # noqa: PLC0415  (the state's word indices)

    got = rank.memo.get(("bfs_peer", True)) or rank.memo.get(("bfs_peer", False))
    if got is None or got[0] is None or got[0].last is None:
        return None
    st = got[0].last
    return ((int(st[bfs_peer.T1]) - int(st[bfs_peer.T0])) / 1e6, int(st[bfs_peer.LEVELS]),
            int(st[bfs_peer.PUSHES]), int(st[bfs_peer.PULLS]), rank.memo.get("bfs_peer_times"))


def _set_kept_launch(on):
    """(On a worker.) The peer kernel's launch path (bfs_peer.PEER_KEPT_LAUNCH)."""
    from semiring.backend.gpu import bfs_peer  # noqa: PLC0415  (the worker's module)

    bfs_peer.PEER_KEPT_LAUNCH = bool(on)
    return bfs_peer.PEER_KEPT_LAUNCH


def _steps(c0, c1, times):
    """The call's steps in microseconds from the client's start ``c0``: each rank's entry
    into the loop (r0_in, r1_in), launch issued (r*_launched), kernel and the levels' copies
    done, the state read (r*_done), the result made (r*_out); the client's return
    (client_end)."""
    out = {}
    for p, t in enumerate(times):
        for k, x in zip(("in", "launched", "done", "out"), t):
            out[f"r{p}_{k}"] = (x - c0) * 1e6
    out["client_end"] = (c1 - c0) * 1e6
    return out


def _dist_bfs(ad, DA, s):
    """The distributed BFS, its levels left on the workers (as the dask suite times it)."""
    import distributed  # noqa: PLC0415  (optional: distributed)

    v = ad.bfs(DA, s, gather=False, symmetric=True)
    v.wait() if hasattr(v, "wait") else distributed.wait(v.parts)
    return v


def _chunk(scale):
    from bench import dask_suite as ds  # noqa: PLC0415  (the suite's graph builders)

    return functools.partial(ds.kron_chunk, scale, "gpu")


def _median(fn, reps):
    import cupy as cp  # noqa: PLC0415  (CuPy: the GPU run only)

    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        cp.cuda.Device().synchronize()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


if __name__ == "__main__":
    sys.exit(main())
