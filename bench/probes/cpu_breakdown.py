"""Where the fixed cost of a small warm ``sr.mxv`` goes on the CPU backend (issue 21 items
2-3): each layer of the call (min-plus, dense x, the bench's small graphs), timed alone, the
smallest of ROUNDS medians of 300 calls, µs, beside SciPy's ``H @ x`` and its raw
``csr_matvec`` (interleaved layer by layer: a shared host's load hits both alike). The
compiled row loop is called two ways: through Numba's dispatcher, and through the
compiled overload's entry point (no type resolution; the overload of these argument
types). CPU only.

Usage: PYTHONPATH=. python3 bench/probes/cpu_breakdown.py [ROUNDS=7] [graph ...]
"""

from __future__ import annotations

import sys
import time

import numpy as np
from scipy.sparse import _sparsetools

import semiring as sr
from bench import generators as gen
from semiring.backend.cpu import compiled, spmv
from semiring.operations import _product, _backend_module

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
GRAPHS = sys.argv[2:] or ["urand-10-ef4", "grid-64x64", "urand-13-ef4"]


def _time(fn, reps=300):
    best = []
    for _ in range(ROUNDS):
        ts = []
        for _ in range(reps):
            t = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t)
        best.append(np.median(ts))
    return min(best) * 1e6


for spec in GRAPHS:
    H = gen.generate(gen.parse_graph_spec(spec)).tocsr()
    A = sr.Matrix.from_scipy(H, device="cpu")
    n = H.shape[0]
    x = (np.random.default_rng(0).random(n) * 10).astype(H.dtype)
    xv = sr.Vector.from_dense(x, device="cpu")
    for _ in range(3):
        sr.mxv(A, xv, sr.min_plus)
    dtype = np.dtype(H.dtype)
    route = A._memo.get((spmv.ROUTE_KEY, sr.min_plus, dtype, False))
    y = np.empty(n, dtype=H.dtype)
    rows = [("scipy H @ x", lambda: H @ x),
            ("scipy csr_matvec raw", lambda: _sparsetools.csr_matvec(
                n, n, H.indptr, H.indices, H.data, x, y)),
            ("sr.mxv", lambda: sr.mxv(A, xv, sr.min_plus)),
            ("_product", lambda: _product(_backend_module("cpu"), A, xv, sr.min_plus, dtype,
                                          dtype, None, "auto", False, n, "cpu")),
            ("backend pull", lambda: spmv.pull(A, x, None, None, sr.min_plus, dtype, False))]
    if route is not None:
        rows.append(("route(A, x)", lambda: route(A, x)))
    lay = A._memo.get(compiled.LAYOUT_KEY)
    if lay is not None and 1 in lay:
        r, b = lay[1]
        vals = lay[dtype]
        out = np.empty(r.size, dtype=dtype)
        if hasattr(compiled, "PULL_UNROLL_MAX_X_BYTES"):  # (session 15: unrolled by x's size)
            longest = int(np.diff(H.indptr).max())
            kern = compiled._kernel("pull", sr.min_plus, dtype,
                                    4 if longest >= compiled.LANES_MIN_ROW[1] else 1, False,
                                    False, n * dtype.itemsize <=
                                    compiled.PULL_UNROLL_MAX_X_BYTES)
            args = (lay["indptr"], lay["indices"], vals, x, r, b, out)
        elif hasattr(compiled, "_COMMUTATIVE"):  # (session 14: xfirst a constant, lanes by M)
            longest = int(np.diff(H.indptr).max())
            kern = compiled._kernel("pull", sr.min_plus, dtype,
                                    4 if longest >= compiled.LANES_MIN_ROW[1] else 1, False,
                                    False)
            args = (lay["indptr"], lay["indices"], vals, x, r, b, out)
        else:
            kern = compiled._kernel("pull", sr.min_plus, dtype, 4, False)
            args = (lay["indptr"], lay["indices"], vals, x, r, b, False, out)
        kern(*args)
        rows.append(("pull kernel via dispatcher", lambda: kern(*args)))
        import numba  # noqa: PLC0415  (the overload of exactly these argument types)

        ep = kern.overloads[tuple(numba.typeof(a) for a in args)].entry_point
        rows.append(("pull kernel via entry_point", lambda: ep(*args)))
        rows.append(("np.empty(rows)", lambda: np.empty(r.size, dtype=dtype)))
    print(f"{spec} n={n} nnz={H.nnz} {H.dtype}", flush=True)
    for name, f in rows:
        f()
        print(f"  {name:32s} {_time(f):7.2f} µs", flush=True)
