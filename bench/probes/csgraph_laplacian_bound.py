"""The GPU Laplacian's operator forms against SciPy's, drawn as
``tests/test_csgraph_engine_exact.py::test_laplacian_exactly_as_scipy`` draws them (float32 /
float64 weights, CSR, COO or dense, every keyword), many more of them, recording every case
past the test's bound with all it needs to reproduce (the weights, the keywords, both
results, both diagonals, the bound): session 11's H200 run failed that bound once and its
log cut the example. Runs on CuPy / cupyx input (``dry``: the engine path on NumPy).

Usage: PYTHONPATH=. python3 bench/probes/csgraph_laplacian_bound.py [OUT_DIR|-] [CASES=4000]
       [dry]"""
import json
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from algorithms.csgraph import _validation

OUT = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "-" else None
CASES = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
DRY = len(sys.argv) > 3 and sys.argv[3] == "dry"
warnings.simplefilter("ignore")
if DRY:
    _validation.FORCE_ENGINE = True
else:
    import cupy as cp
    import cupyx.scipy.sparse as cps


def on(G):
    if DRY:
        return G
    if isinstance(G, np.ndarray):
        return cp.asarray(G)
    if G.format == "coo":
        return cps.coo_matrix((cp.asarray(G.data), (cp.asarray(G.row), cp.asarray(G.col))),
                              shape=G.shape)
    out = cps.csr_matrix((cp.asarray(G.data), cp.asarray(G.indices), cp.asarray(G.indptr)),
                         shape=G.shape)
    out.has_canonical_format = bool(G.has_canonical_format)
    return out


def host(x):
    return np.asarray(x.get() if hasattr(x, "get") and not isinstance(x, np.ndarray) else x)


def apply(L, X):
    return L @ X if hasattr(L, "matvec") else L(X)


def bound_of(W, d1, n, X, dtype, normed, out_degree, symmetrized):
    """The test's bound, verbatim."""
    A = np.abs(np.nan_to_num(W.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0))
    g = A.sum(axis=1 if out_degree else 0) + (A.sum(axis=0 if out_degree else 1)
                                              if symmetrized else 0)
    nd = 1.0 / np.nan_to_num(d1.astype(np.float64), nan=1.0, posinf=1.0) if normed else \
        np.ones(max(n, 1))
    scale = max(1.0, g.max(initial=0.0)) * max(1.0, X.max(initial=0.0)) * \
        max(1.0, np.abs(nd).max(initial=0.0)) ** 2
    return 4 * (2 * n + 1) * np.finfo(dtype).eps * scale


#: Seconds the probe runs at most (it stops drawing then and reports what it did).
TIME_CAP_S = 20
rng0 = np.random.default_rng(2026)
bad, worst, t0, done = [], 0.0, time.perf_counter(), 0
for it in range(CASES):
    if time.perf_counter() - t0 > TIME_CAP_S:
        break
    n = int(rng0.integers(0, 8))
    seed = int(rng0.integers(0, 2**31 - 1))
    dtype = [np.float64, np.float32][int(rng0.integers(2))]
    fmt = ["csr", "coo", "dense"][int(rng0.integers(3))]
    normed, out_degree, symmetrized, special = (bool(b) for b in rng0.integers(0, 2, 4))
    form = ["function", "lo"][int(rng0.integers(2))]
    rng = np.random.default_rng(seed)
    W = np.round(rng.random((n, n)) * 5, 2)
    W = (W * (rng.random((n, n)) < 0.5)).astype(dtype)
    if special and n:
        W[rng.integers(0, n), rng.integers(0, n)] = rng.choice([np.inf, np.nan])
    G = W if fmt == "dense" else sp.coo_matrix(W) if fmt == "coo" else sp.csr_matrix(W)
    kw = dict(normed=normed, use_out_degree=out_degree, symmetrized=symmetrized, form=form,
              return_diag=True)
    L1, d1 = scg.laplacian(G.copy(), **kw)
    L2, d2 = csgraph.laplacian(on(G), **kw)
    X = np.arange(2 * n, dtype=float).reshape(n, 2)
    r1 = np.asarray(apply(L1, X))
    r2 = host(apply(L2, X if DRY else cp.asarray(X)))
    b = bound_of(W, d1, n, X, dtype, normed, out_degree, symmetrized)
    done += 1
    same_special = np.array_equal(np.isnan(r1), np.isnan(r2)) and np.array_equal(
        np.where(np.isinf(r1), r1, 0), np.where(np.isinf(r2), r2, 0))
    fin = np.isfinite(r1) & np.isfinite(r2)
    err = float(np.abs(r2[fin] - r1[fin]).max(initial=0.0))
    worst = max(worst, err / b)
    if not same_special or err > b:
        bad.append(dict(n=n, seed=seed, dtype=np.dtype(dtype).name, fmt=fmt, kw=kw,
                        special=special, W=W.astype(np.float64).tolist(),
                        r1=r1.tolist(), r2=r2.tolist(), d1=host(d1).astype(float).tolist(),
                        d2=host(d2).astype(float).tolist(), bound=b, err=err,
                        same_special=bool(same_special)))
        print("BAD", json.dumps(bad[-1]), flush=True)
print(f"cases {done}, past the bound or NaN/inf apart: {len(bad)}, worst err/bound "
      f"{worst:.3g}, {time.perf_counter() - t0:.1f} s", flush=True)
if OUT:
    with open(f"{OUT}/csgraph_laplacian_bound.json", "w") as fh:
        json.dump(dict(cases=done, bad=bad, worst_ratio=worst), fh)
