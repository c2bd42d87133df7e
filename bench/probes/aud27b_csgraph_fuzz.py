"""Audit 27b: the csgraph facade's functions other than the shortest paths, against SciPy.

    /tmp/venv-main/bin/python bench/probes/aud27b_csgraph_fuzz.py [SEEDS] [--cases N]
        [--only NAME[,NAME...]] [--no-shrink] [--quiet] [--timeout S]

SEEDS: one seed or a range ``A-B`` (default ``0-1``); each seed runs ``--cases`` random cases
(default 2500) after the hand-made targeted cases (``targeted()``, once). ``--only`` keeps the
calls of the named functions. Every case is one graph (n 0..30, from an edge list with
duplicates, unsorted rows, explicit zeros, +-inf, NaN, negative weights; square or not) given
as one input kind (csr_matrix / csr_array with int32 or int64 indices, canonical or raw
(duplicates and unsorted rows kept), csc, coo, lil, dok, bsr, dia, dense C / F order,
np.matrix, masked array, nested list) of one dtype (float64/32/16, int8/int64, uint8, bool),
and one call, made on SciPy and on ``algorithms.csgraph`` with separately built copies of
the input: breadth_first_order, depth_first_order, breadth_first_tree, depth_first_tree,
connected_components, minimum_spanning_tree, laplacian (every keyword; 'function' and 'lo'
forms compared by applying them), floyd_warshall, reconstruct_path, construct_dist_matrix,
csgraph_from_dense, csgraph_masked_from_dense, csgraph_from_masked, csgraph_to_dense,
csgraph_to_masked, reverse_cuthill_mckee, structural_rank, maximum_flow,
maximum_bipartite_matching, min_weight_full_bipartite_matching, yen.

Compared: results bit for bit (tobytes; NaN-aware assert_array_equal only to label a
bits-only difference), Python types, dtypes, shapes, sparse formats and index dtypes, the
stored arrays (order included; an order-only difference is labelled so), masks, whether both
raise and whether the facade's exception is an instance of SciPy's class, warnings (category
and message), and that the facade leaves its input as it was (arrays, masks, list contents,
and vars() of the object, against what SciPy's own call leaves on its copy).

Documented deviations (``algorithms/csgraph/__init__.py``, ``_graphalg.py``) are skipped by
explicit rules in :func:`documented`. Each case runs in a forked worker with a timeout (SciPy
loops forever on some inputs, and SciPy's ``yen`` can abort the process); the worker reports
"facade done" before calling SciPy, so a hang or crash is attributed. Each distinct
discrepancy (function, input kind, kind of mismatch) is printed once with a self-contained
reproducer; the last line gives the counts.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import sys
import time
import traceback
import warnings
from collections import Counter

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as S
import scipy.sparse.linalg as spla

from algorithms import csgraph as F

TIMEOUT = 15.0
TIMEOUT_FIRST = 120.0

SPARSE_KINDS = ["csr_matrix", "csr_array", "csr_raw", "csr_raw_array", "csr64", "csr64_raw",
                "csc", "csc_raw", "coo", "coo_array", "lil", "dok", "bsr", "dia"]
DENSE_KINDS = ["dense", "dense_F", "matrix", "masked", "list"]
KINDS = SPARSE_KINDS + DENSE_KINDS
DTYPES = ["float64", "float32", "float16", "int8", "int64", "uint8", "bool"]

FUNCS = {  # name: relative frequency
    "breadth_first_order": 8, "depth_first_order": 8, "breadth_first_tree": 6,
    "depth_first_tree": 6, "connected_components": 10, "minimum_spanning_tree": 7,
    "laplacian": 12, "floyd_warshall": 6, "reconstruct_path": 6,
    "construct_dist_matrix": 6, "csgraph_from_dense": 5, "csgraph_masked_from_dense": 4,
    "csgraph_from_masked": 3, "csgraph_to_dense": 5, "csgraph_to_masked": 4,
    "reverse_cuthill_mckee": 5, "structural_rank": 4, "maximum_flow": 6,
    "maximum_bipartite_matching": 5, "min_weight_full_bipartite_matching": 5, "yen": 4,
}


# ------------------------------------------------------------------ graphs and inputs


def random_spec(rng, square=True):
    n = int(rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 24, 30],
                       p=[.03, .05, .08, .1, .1, .1, .1, .1, .1, .08, .07, .05, .04]))
    ncols = n if square else int(rng.integers(0, 12))
    dens = rng.choice([0.05, 0.15, 0.3, 0.6, 1.2])
    m = int(rng.poisson(dens * n * ncols)) if n and ncols else 0
    r = rng.integers(0, max(n, 1), m).tolist() if m else []
    c = rng.integers(0, max(ncols, 1), m).tolist() if m else []
    mode = rng.choice(["int", "frac", "special", "neg"], p=[.45, .25, .15, .15])
    if mode == "int":
        w = rng.integers(0, 6, m).astype(float)
    elif mode == "frac":
        w = np.round(rng.uniform(0, 10, m), 3)
    elif mode == "neg":
        w = rng.integers(-4, 6, m).astype(float)
    else:
        w = rng.choice([0.0, -0.0, 1.0, 2.5, -1.0, np.inf, -np.inf, np.nan, 1e-9, 3.0], m)
    if m and rng.random() < 0.25:  # a negative that a duplicate outweighs
        i = int(rng.integers(0, m))
        r.append(r[i]); c.append(c[i]); w = np.append(w, 7.0); w[i] = -2.0
    if m and rng.random() < 0.2:  # self-loops
        for _ in range(int(rng.integers(1, 3))):
            v = int(rng.integers(0, min(n, ncols))) if min(n, ncols) else 0
            if min(n, ncols):
                r.append(v); c.append(v); w = np.append(w, float(rng.choice([0.0, 2.0, -1.0])))
    perm = rng.permutation(len(r)) if r else []
    r = [r[i] for i in perm]; c = [c[i] for i in perm]; w = [float(w[i]) for i in perm]
    return dict(n=n, ncols=ncols, r=r, c=c, w=w)


def cast(w, dtype):
    a = np.asarray(w, dtype=np.float64)
    if dtype in ("float64", "float32", "float16"):
        return a.astype(dtype)
    a = np.where(np.isfinite(a), a, 3.0)
    if dtype == "bool":
        return a != 0
    if dtype == "uint8":
        a = np.abs(a)
    return np.trunc(a).astype(dtype)


def build(spec, kind, dtype, idx=np.int32):
    """The input (a fresh object each call)."""
    n, nc = spec["n"], spec["ncols"]
    r = np.asarray(spec["r"], dtype=np.int64)
    c = np.asarray(spec["c"], dtype=np.int64)
    w = cast(spec["w"], dtype)
    if kind in DENSE_KINDS:
        D = np.zeros((n, nc), dtype=w.dtype)
        D[r, c] = w  # the last write wins
        if kind == "dense":
            return D
        if kind == "dense_F":
            return np.asfortranarray(D)
        if kind == "matrix":
            return np.asmatrix(D)
        if kind == "masked":
            mask = np.ones((n, nc), bool)
            mask[r, c] = False
            return np.ma.masked_array(D, mask=mask)
        return D.tolist()
    if kind in ("csr_raw", "csr_raw_array", "csr64_raw", "csc_raw"):
        major, minor = (c, r) if kind == "csc_raw" else (r, c)
        nmaj = nc if kind == "csc_raw" else n
        order = np.argsort(major, kind="stable")  # rows grouped, columns in drawn order
        counts = np.bincount(major, minlength=nmaj) if nmaj else np.zeros(0, np.int64)
        it = np.int64 if kind == "csr64_raw" else idx
        indptr = np.concatenate([[0], np.cumsum(counts)]).astype(it)
        if kind == "csc_raw":
            return sp.csc_matrix((w[order], minor[order].astype(it), indptr), shape=(n, nc))
        cls = sp.csr_array if kind == "csr_raw_array" else sp.csr_matrix
        return cls((w[order], minor[order].astype(it), indptr), shape=(n, nc))
    C = sp.coo_matrix((w, (r, c)), shape=(n, nc))
    if kind == "coo":
        return C
    if kind == "coo_array":
        return sp.coo_array((w, (r, c)), shape=(n, nc))
    if kind in ("csr_matrix", "csr_array", "csr64"):
        M = C.tocsr()
        if kind == "csr_array":
            M = sp.csr_array(M)
        if kind == "csr64":
            M.indices = M.indices.astype(np.int64); M.indptr = M.indptr.astype(np.int64)
        return M
    if kind == "csc":
        return C.tocsc()
    if kind == "lil":
        return C.tolil()
    if kind == "dok":
        return C.todok()
    if kind == "bsr":
        return C.tobsr()
    if kind == "dia":
        return C.todia()
    raise ValueError(kind)


def input_repr(spec, kind, dtype):
    return f"build({spec!r}, {kind!r}, {dtype!r})"


# ------------------------------------------------------------------ snapshots of an input


def snapshot(x):
    if sp.issparse(x):
        d = {}
        for k, v in vars(x).items():
            if isinstance(v, np.ndarray):
                d[k] = ("arr", v.dtype.str, v.shape, v.tobytes())
            elif isinstance(v, list):  # lil rows
                d[k] = ("list", repr(v))
            elif isinstance(v, dict):
                d[k] = ("dict", repr(sorted(v.items())))
            else:
                d[k] = ("val", repr(v))
        if x.format == "dok":
            d["__items__"] = repr(sorted(x.items()))
        if x.format == "lil":
            d["__rows__"] = repr(x.rows.tolist()) + repr(x.data.tolist())
        return d
    if isinstance(x, np.ma.MaskedArray):
        return dict(data=x.data.tobytes(), mask=np.ma.getmaskarray(x).tobytes(),
                    dtype=x.dtype.str, fill=repr(x.fill_value),
                    hard=x.hardmask, flags=(x.flags.c_contiguous, x.flags.f_contiguous))
    if isinstance(x, np.ndarray):
        return dict(data=x.tobytes(), dtype=x.dtype.str, type=type(x).__name__,
                    flags=(x.flags.c_contiguous, x.flags.f_contiguous, x.flags.writeable))
    if isinstance(x, list):
        return dict(list=repr(x))
    return dict(repr=repr(x))


def snapshot_diff(a, b):
    keys = sorted(set(a) | set(b))
    return [k for k in keys if a.get(k) != b.get(k)]


# ------------------------------------------------------------------ comparison


PROBE_V = None


def _probe_vec(n, k=2):
    rng = np.random.default_rng(12345)
    return rng.standard_normal((n, k))


def same_arr(a, b, where, out):
    if type(a) is not type(b):
        out.append(f"{where}: type {type(a).__name__} vs {type(b).__name__}")
        return
    if isinstance(a, np.ma.MaskedArray):
        if a.dtype != b.dtype or a.shape != b.shape:
            out.append(f"{where}: masked dtype/shape {a.dtype}{a.shape} vs {b.dtype}{b.shape}")
            return
        if np.ma.getmaskarray(a).tobytes() != np.ma.getmaskarray(b).tobytes():
            out.append(f"{where}: mask differs")
        if a.data.tobytes() != b.data.tobytes():
            out.append(f"{where}: masked data differs")
        if repr(a.fill_value) != repr(b.fill_value):
            out.append(f"{where}: fill_value {a.fill_value!r} vs {b.fill_value!r}")
        return
    if a.dtype != b.dtype or a.shape != b.shape:
        out.append(f"{where}: dtype/shape {a.dtype}{a.shape} vs {b.dtype}{b.shape}")
        return
    if np.ascontiguousarray(a).tobytes() != np.ascontiguousarray(b).tobytes():
        try:
            np.testing.assert_array_equal(a, b)
            out.append(f"{where}: bits differ (values equal: -0.0/NaN payload)")
        except AssertionError:
            out.append(f"{where}: values differ")


def _canon_triplets(M):
    C = sp.coo_array(M)
    r, c, d = C.row.astype(np.int64), C.col.astype(np.int64), C.data
    o = np.lexsort((d.astype(np.float64) if d.dtype.kind != "c" else d.real, c, r))
    return r[o], c[o], d[o]


def same(a, b, where="result", out=None):
    """Differences between SciPy's ``a`` and the facade's ``b``, as strings."""
    out = [] if out is None else out
    if type(a) is not type(b):
        out.append(f"{where}: type {type(a).__module__}.{type(a).__name__} vs "
                   f"{type(b).__module__}.{type(b).__name__}")
        return out
    if isinstance(a, tuple) and hasattr(a, "_fields") or type(a).__name__ == "MaximumFlowResult":
        for f in ("flow_value", "flow"):
            same(getattr(a, f), getattr(b, f), f"{where}.{f}", out)
        return out
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            out.append(f"{where}: length {len(a)} vs {len(b)}")
            return out
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]", out)
        return out
    if sp.issparse(a):
        if a.format != b.format or a.shape != b.shape or a.dtype != b.dtype:
            out.append(f"{where}: sparse {a.format}{a.shape}{a.dtype} vs "
                       f"{b.format}{b.shape}{b.dtype}")
            return out
        if a.format in ("csr", "csc"):
            names = ("indptr", "indices", "data")
        elif a.format == "coo":
            names = ("row", "col", "data") if hasattr(a, "row") else ("coords", "data")
        else:
            names = ()
        raw = []
        for nm in names:
            x, y = getattr(a, nm), getattr(b, nm)
            if isinstance(x, tuple):
                for k, (xx, yy) in enumerate(zip(x, y)):
                    same_arr(xx, yy, f"{where}.{nm}[{k}]", raw)
            else:
                same_arr(x, y, f"{where}.{nm}", raw)
        if raw:
            ca, cb = _canon_triplets(a), _canon_triplets(b)
            canon = []
            for k, (x, y) in enumerate(zip(ca, cb)):
                if x.shape != y.shape:
                    canon.append("nnz")
                    break
                same_arr(x, y.astype(x.dtype) if k < 2 else y, f"{where}.canon{k}", canon)
            if canon:
                out.extend(raw)
            else:
                out.append(f"{where}: stored order differs (same entries): " + "; ".join(raw))
        return out
    if isinstance(a, np.ndarray):
        same_arr(a, b, where, out)
        return out
    if isinstance(a, spla.LinearOperator):
        if a.shape != b.shape or a.dtype != b.dtype:
            out.append(f"{where}: LinearOperator {a.shape}{a.dtype} vs {b.shape}{b.dtype}")
            return out
        V = _probe_vec(a.shape[1])
        for nm, arg in (("matvec", V[:, 0]), ("matmat", V)):
            ea = eb = None
            try:
                ra = getattr(a, nm)(arg)
            except Exception as e:  # noqa: BLE001
                ea = type(e)
            try:
                rb = getattr(b, nm)(arg)
            except Exception as e:  # noqa: BLE001
                eb = type(e)
            if (ea is None) != (eb is None):
                out.append(f"{where}.{nm}: raises {ea} vs {eb}")
            elif ea is None:
                same(ra, rb, f"{where}.{nm}", out)
        return out
    if callable(a):
        n = getattr(a, "_n", None)
        for k in (1, 2):
            V = _probe_vec(PROBE_N, k)
            ea = eb = None
            try:
                ra = a(V.copy())
            except Exception as e:  # noqa: BLE001
                ea = type(e)
            try:
                rb = b(V.copy())
            except Exception as e:  # noqa: BLE001
                eb = type(e)
            if (ea is None) != (eb is None):
                out.append(f"{where}(v): raises {ea} vs {eb}")
            elif ea is None:
                same(ra, rb, f"{where}(v[{k}])", out)
        del n
        return out
    if isinstance(a, (float, np.floating)):
        if not (a == b or (a != a and b != b)) or np.signbit(a) != np.signbit(b):
            out.append(f"{where}: {a!r} vs {b!r}")
        return out
    if a != b:
        out.append(f"{where}: {a!r} vs {b!r}")
    return out


PROBE_N = 0


# ------------------------------------------------------------------ calls


def _vertex(rng, n):
    """(value, documented-if-facade-raises)."""
    choices = ["int", "int", "int", "np64", "np32", "npu8", "neg", "n", "float", "floatint",
               "bool", "zero_d", "big"]
    k = rng.choice(choices)
    v = int(rng.integers(0, n)) if n else 0
    if k == "int":
        return v, not (0 <= v < n)
    if k == "np64":
        return np.int64(v), not (0 <= v < n)
    if k == "np32":
        return np.int32(v), not (0 <= v < n)
    if k == "npu8":
        return np.uint8(v % 256), not (0 <= v < n)
    if k == "neg":
        return int(rng.integers(-n - 1, 0)) if n else -1, True
    if k == "n":
        return n, True
    if k == "float":
        return v + 0.5, True
    if k == "floatint":
        return float(v), True
    if k == "bool":
        return bool(v % 2), True
    if k == "zero_d":
        return np.array(v), not (0 <= v < n)
    return 2 ** 31 + v, True


def _flag(rng):
    return rng.choice([True, False, True, False, 0, 1, None, "yes", "", np.bool_(True),
                       np.bool_(False), 2], p=None).item() if False else \
        [True, False, True, False, 0, 1, None, "yes", "", np.bool_(True), np.bool_(False),
         2][int(rng.integers(0, 12))]


def _bool(rng):
    return [True, False][int(rng.integers(0, 2))]


def _preds_1d(rng, n, graph_pred=None):
    k = rng.integers(0, 4)
    if k == 0 and graph_pred is not None:
        return graph_pred
    p = rng.integers(-1, n, n) if n else np.zeros(0, np.int64)
    p = np.where(p < 0, -9999, p)
    dt = [np.int32, np.int64, np.int32, np.float64][int(rng.integers(0, 4))]
    return p.astype(dt)


def _forest_preds(rng, n):
    """(n, n) int32 predecessors: row i a random tree rooted at i over a random subset."""
    P = np.full((n, n), -9999, dtype=np.int32)
    for i in range(n):
        order = [i] + [int(v) for v in rng.permutation(n) if v != i]
        k = int(rng.integers(1, n + 1))
        for t in range(1, k):
            P[i, order[t]] = order[int(rng.integers(0, t))]
    return P


def make_call(rng, fname, spec, kind, dtype):
    """(args tuple after the graph, kwargs, doc flags)."""
    n = spec["n"]
    doc = set()
    if fname in ("breadth_first_order", "depth_first_order"):
        v, bad = _vertex(rng, n)
        if bad:
            doc.add("vertex")
        kw = {}
        if rng.random() < .6:
            kw["directed"] = _flag(rng)
        if rng.random() < .5:
            kw["return_predecessors"] = _flag(rng)
        return (v,), kw, doc
    if fname in ("breadth_first_tree", "depth_first_tree"):
        v, bad = _vertex(rng, n)
        if bad:
            doc.add("vertex")
        kw = {"directed": _flag(rng)} if rng.random() < .6 else {}
        return (v,), kw, doc
    if fname == "connected_components":
        kw = {}
        if rng.random() < .7:
            kw["directed"] = _flag(rng)
        if rng.random() < .7:
            kw["connection"] = ["weak", "strong", "strong", "WEAK", "Strong", "bad"][
                int(rng.integers(0, 6))]
        if rng.random() < .4:
            kw["return_labels"] = _flag(rng)
        return (), kw, doc
    if fname == "minimum_spanning_tree":
        return (), ({"overwrite": _bool(rng)} if rng.random() < .5 else {}), doc
    if fname == "laplacian":
        kw = {}
        for k in ("normed", "return_diag", "use_out_degree", "symmetrized"):
            if rng.random() < .5:
                kw[k] = _bool(rng) if rng.random() < .85 else [0, 1, None][int(rng.integers(0, 3))]
        if rng.random() < .4:
            kw["copy"] = _bool(rng)
        if rng.random() < .4:
            kw["form"] = ["array", "function", "lo"][int(rng.integers(0, 3))]
        if rng.random() < .3:
            kw["dtype"] = [None, np.float32, np.float64, np.int64, "float64", np.complex128][
                int(rng.integers(0, 6))]
        return (), kw, doc
    if fname == "floyd_warshall":
        kw = {}
        if rng.random() < .6:
            kw["directed"] = _flag(rng)
        if rng.random() < .5:
            kw["return_predecessors"] = _flag(rng)
        if rng.random() < .3:
            kw["unweighted"] = _bool(rng)
        if rng.random() < .3:
            kw["overwrite"] = _bool(rng)
        return (), kw, doc
    if fname == "reconstruct_path":
        p = _preds_1d(rng, n)
        kw = {"directed": _flag(rng)} if rng.random() < .6 else {}
        if n and rng.random() < .1:
            p = p.copy(); p[0] = n  # out of range (documented)
            doc.add("pred_range")
        if p.dtype != np.int32:
            doc.add("pred_dtype")
        return (p,), kw, doc
    if fname == "construct_dist_matrix":
        P = _forest_preds(rng, n)
        if rng.random() < .2:
            P = P.astype(np.int64)
            doc.add("pred_dtype")
        kw = {}
        if rng.random() < .6:
            kw["directed"] = [True, False, 0, 1][int(rng.integers(0, 4))]
        if rng.random() < .4:
            kw["null_value"] = [0.0, -1, np.nan, 7, np.inf][int(rng.integers(0, 5))]
        return (P,), kw, doc
    if fname in ("csgraph_from_dense", "csgraph_masked_from_dense"):
        kw = {}
        if rng.random() < .6:
            kw["null_value"] = [0, 1, np.inf, np.nan, None, -1.5, 0.0, 3][
                int(rng.integers(0, 8))]
        if rng.random() < .4:
            kw["nan_null"] = _bool(rng)
        if rng.random() < .4:
            kw["infinity_null"] = _bool(rng)
        if fname == "csgraph_masked_from_dense" and rng.random() < .4:
            kw["copy"] = _bool(rng)
        return (), kw, doc
    if fname == "csgraph_to_dense":
        kw = {"null_value": [0, np.inf, -1, np.nan][int(rng.integers(0, 4))]} \
            if rng.random() < .6 else {}
        return (), kw, doc
    if fname in ("csgraph_from_masked", "csgraph_to_masked", "structural_rank"):
        return (), {}, doc
    if fname == "reverse_cuthill_mckee":
        return (), ({"symmetric_mode": _flag(rng)} if rng.random() < .6 else {}), doc
    if fname == "maximum_flow":
        s, bs = _vertex(rng, n)
        t, bt = _vertex(rng, n)
        if rng.random() < .1:
            t = s
        if bs or bt:
            doc.add("vertex")
        kw = {"method": ["dinic", "edmonds_karp"][int(rng.integers(0, 2))]} \
            if rng.random() < .7 else {}
        return (s, t), kw, doc
    if fname == "maximum_bipartite_matching":
        kw = {"perm_type": ["row", "column"][int(rng.integers(0, 2))]} \
            if rng.random() < .7 else {}
        return (), kw, doc
    if fname == "min_weight_full_bipartite_matching":
        return (), ({"maximize": _flag(rng)} if rng.random() < .6 else {}), doc
    if fname == "yen":
        s, bs = _vertex(rng, n)
        t, bt = _vertex(rng, n)
        if bs or bt:
            doc.add("vertex")
        K = [1, 2, 3, 5][int(rng.integers(0, 4))]
        kw = {}
        if rng.random() < .5:
            kw["directed"] = _flag(rng)
        if rng.random() < .5:
            kw["return_predecessors"] = _bool(rng)
        if rng.random() < .3:
            kw["unweighted"] = _bool(rng)
        return (s, t, K), kw, doc
    raise ValueError(fname)


def choose_input(rng, fname):
    """(kind, dtype, square) suited to the function (mostly; sometimes deliberately not)."""
    odd = rng.random() < .08
    if fname in ("csgraph_from_dense", "csgraph_masked_from_dense") and not odd:
        kind = ["dense", "dense", "dense_F", "matrix", "list"][int(rng.integers(0, 5))]
    elif fname == "csgraph_from_masked" and not odd:
        kind = "masked"
    elif fname in ("csgraph_to_dense", "csgraph_to_masked", "reverse_cuthill_mckee",
                   "structural_rank", "maximum_bipartite_matching",
                   "min_weight_full_bipartite_matching") and not odd:
        kind = SPARSE_KINDS[int(rng.integers(0, len(SPARSE_KINDS)))]
    elif fname == "maximum_flow" and not odd:
        kind = ["csr_matrix", "csr_array", "csr_raw", "csr_raw_array", "csr64"][
            int(rng.integers(0, 5))]
    else:
        kind = KINDS[int(rng.integers(0, len(KINDS)))]
    if fname == "maximum_flow" and not odd:
        dtype = ["int64", "int8", "int64", "uint8"][int(rng.integers(0, 4))]
        if rng.random() < .15:
            dtype = "float64"
    else:
        p = np.array([40, 10, 4, 8, 8, 5, 5], float)
        dtype = DTYPES[int(rng.choice(len(DTYPES), p=p / p.sum()))]
    if dtype == "float16" and kind in SPARSE_KINDS:
        dtype = "float32"
    square = True
    if fname in ("maximum_bipartite_matching", "min_weight_full_bipartite_matching",
                 "structural_rank") and rng.random() < .5:
        square = False
    if rng.random() < .03:
        square = False
    return kind, dtype, square


# ------------------------------------------------------------------ documented deviations


def _dup_in_rows(x):
    if not (sp.issparse(x) and x.format in ("csr", "csc")):
        return False
    for i in range(len(x.indptr) - 1):
        row = x.indices[x.indptr[i]:x.indptr[i + 1]]
        if len(np.unique(row)) != len(row):
            return True
    return False


def skip_scipy(fname, spec, kind, dtype, args, kw):
    """Calls where SciPy is known to hang (documented); SciPy is not called."""
    if fname == "connected_components" and kind in ("csr_raw", "csr_raw_array", "csr64_raw",
                                                   "csc_raw"):
        conn = kw.get("connection", "weak")
        if isinstance(conn, str) and conn.lower() == "strong" and kw.get("directed", True):
            return "strong components of a CSR with duplicates (SciPy loops)"
    if fname == "min_weight_full_bipartite_matching":
        w = np.asarray(spec["w"], float)
        if np.isinf(w).any() or np.isnan(w).any():
            return "inf/NaN weights (SciPy's LAPJVsp may loop)"
    if fname == "construct_dist_matrix" and "pred_range" in ():
        return "x"
    return None


def documented(fname, kind, dtype, spec, args, kw, doc, res_s, res_f):
    """A reason if a difference here is a documented deviation, else None.
    res_*: ('ok', value) or ('err', exc)."""
    fs, ff = res_s[0], res_f[0]
    if fs in ("crash", "timeout") and doc & {"vertex"}:
        return "documented: SciPy hangs/crashes on an out-of-range or float vertex"
    if kind == "list" and fs == "err" and ff == "ok":
        return "documented: lists accepted everywhere"
    if kind == "list" and fs == "err" and isinstance(res_s[1], AttributeError):
        return "documented: lists accepted (SciPy fails on them)"
    if ff == "err" and doc & {"vertex", "pred_range"}:
        return "documented: vertex/predecessor out of range, bool or float"
    if fs == "err" and ff == "ok":
        if kind == "list" and fname in ("connected_components", "laplacian",
                                        "construct_dist_matrix"):
            return "documented: lists accepted"
        if fname in ("floyd_warshall", "construct_dist_matrix") and kind in (
                "coo", "coo_array", "dok", "bsr", "dia", "masked", "list"):
            return "documented: SciPy fails on this format"
        if fname in ("csgraph_to_dense", "csgraph_to_masked") and kind in DENSE_KINDS:
            return "documented: dense input read"
        if fname == "csgraph_from_masked" and kind != "masked":
            return "documented: plain array read as masked"
        if fname == "csgraph_from_dense":
            return "documented?: csgraph_from_dense where SciPy fails (AxisError / 0x0)"
        if fname == "reverse_cuthill_mckee" and spec["n"] == 0:
            return "documented: 0x0 RCM"
        if fname == "construct_dist_matrix" and "pred_dtype" in doc:
            return "documented: int64 predecessors"
        if fname == "reconstruct_path" and "pred_dtype" in doc:
            return None
    if ff == "err" and fname == "reverse_cuthill_mckee" and spec["n"] != spec["ncols"]:
        return "documented: RCM of a non-square graph raises"
    if ff == "err" and fname == "min_weight_full_bipartite_matching":
        from semiring import InvalidValue
        if isinstance(res_f[1], InvalidValue) and "spread" in str(res_f[1]).lower() or \
                "inf" in str(res_f[1]).lower() or "apart" in str(res_f[1]).lower():
            return "documented: LAPJVsp range"
    if fname == "laplacian" and kind == "masked":
        return "documented: masked entries read as zeros"
    if fname == "floyd_warshall" and kind == "dense_F":
        return "documented: F-ordered FW"
    if fname == "reverse_cuthill_mckee" and fs == ff == "ok" and \
            np.array_equal(res_s[1], res_f[1]) and res_s[1].dtype != res_f[1].dtype:
        # SciPy's own result dtype alternates int32 / int64 on successive calls with an
        # int64-indexed input (200 calls on one matrix: 100 of each): not comparable
        return "SciPy's RCM dtype is call-history dependent (int64 indices)"
    if fname == "yen" and fs == "ok" and ff == "ok" and kw.get("return_predecessors"):
        d_s, d_f = res_s[1][0], res_f[1][0]
        if d_s.tobytes() == d_f.tobytes() and len(np.unique(d_s)) < len(d_s):
            return "documented: yen's order among paths of equal length"
    return None


# ------------------------------------------------------------------ running one case


def _call(fn, g, args, kw):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = fn(g, *args, **kw)
            res = ("ok", r)
        except Exception as e:  # noqa: BLE001
            res = ("err", e)
    return res, [(w.category.__name__, str(w.message)) for w in ws]


def run_case(case, conn=None):
    """Run one case; returns a list of (signature, detail) discrepancies."""
    global PROBE_N
    fname, spec, kind, dtype, args, kw, doc = case
    PROBE_N = spec["n"]
    found = []
    gf = build(spec, kind, dtype)
    before = snapshot(gf)
    t0 = time.time()
    rf, wf = _call(getattr(F, fname), gf, args, kw)
    after = snapshot(gf)
    if conn is not None:
        conn.send(("facade_done", time.time() - t0))
    skip = skip_scipy(fname, spec, kind, dtype, args, kw)
    if skip:
        if rf[0] == "err" and "connected_components" == fname:
            found.append(("facade raises where SciPy loops", f"{type(rf[1]).__name__}: {rf[1]}"))
        return found, "skipped_scipy"
    gs = build(spec, kind, dtype)
    sbefore = snapshot(gs)
    rs, ws = _call(getattr(S, fname), gs, args, kw)
    safter = snapshot(gs)
    # mutation of the input
    fchg, schg = snapshot_diff(before, after), snapshot_diff(sbefore, safter)
    arrays = [k for k in fchg if k in ("data", "mask", "list", "__items__", "__rows__")
              or (isinstance(after.get(k), tuple) and after[k][0] == "arr")]
    extra = [k for k in fchg if k not in schg]
    if arrays or extra:
        found.append(("input modified", f"facade changed {fchg} (SciPy's call changed {schg}): "
                      + "; ".join(f"{k}: {str(before.get(k))[:60]} -> {str(after.get(k))[:60]}"
                                  for k in fchg)))
    elif fchg:  # the attributes SciPy's own call changes too: noted, not counted
        found.append(("info: input attributes changed as SciPy's call changes them",
                      f"{fchg}"))
    why = documented(fname, kind, dtype, spec, args, kw, doc, rs, rf)
    if why:
        return found, why
    if rs[0] != rf[0]:
        se = f"{type(rs[1]).__name__}: {str(rs[1])[:200]}" if rs[0] == "err" else "answers"
        fe = f"{type(rf[1]).__name__}: {str(rf[1])[:200]}" if rf[0] == "err" else "answers"
        sv = "" if rs[0] == "err" else " " + _short(rs[1])
        fv = "" if rf[0] == "err" else " " + _short(rf[1])
        found.append(("raises" if rf[0] == "err" else "answers where SciPy raises",
                      f"SciPy: {se}{sv} | facade: {fe}{fv}"))
    elif rs[0] == "err":
        if not isinstance(rf[1], type(rs[1])):
            found.append(("exception class", f"SciPy {type(rs[1]).__mro__[:3]}: {rs[1]} | facade "
                          f"{type(rf[1]).__name__} (mro {[c.__name__ for c in type(rf[1]).__mro__]}): {rf[1]}"))
    else:
        diffs = same(rs[1], rf[1])
        if diffs:
            sig = "values: " + _diffsig(diffs)
            found.append((sig, "; ".join(diffs[:6]) + f"\n      SciPy: {_short(rs[1])}\n"
                          f"      facade: {_short(rf[1])}"))
    if ws != wf:
        found.append(("warnings", f"SciPy {ws} | facade {wf}"))
    return found, None


def _diffsig(diffs):
    import re
    return ",".join(sorted({re.sub(r"\[\d+\]|\(v\[\d\]\)", "", d.split(":")[0]) + ":" +
                            re.sub(r"(?<![A-Za-z])[-+]?\d[\d.eE+-]*", "#", d.split(":", 1)[1])[:60]
                            for d in diffs}))[:160]


def _short(x):
    try:
        if sp.issparse(x):
            out = f"{type(x).__name__}(fmt={x.format}, shape={x.shape}, dtype={x.dtype}"
            if x.format in ("csr", "csc"):
                out += f", data={x.data.tolist()}, indices={x.indices.tolist()}, " \
                       f"indptr={x.indptr.tolist()}"
            elif x.format == "coo":
                out += f", row={x.row.tolist()}, col={x.col.tolist()}, data={x.data.tolist()}"
            return out[:600] + ")"
        if isinstance(x, tuple):
            return "(" + ", ".join(_short(t) for t in x) + ")"
        if isinstance(x, np.ma.MaskedArray):
            return f"masked({x.dtype}, data={x.data.tolist()}, mask={np.ma.getmaskarray(x).tolist()})"[:600]
        if isinstance(x, np.ndarray):
            return f"{type(x).__name__}({x.tolist()}, dtype={x.dtype})"[:600]
        return repr(x)[:300]
    except Exception:  # noqa: BLE001
        return object.__repr__(x)


# ------------------------------------------------------------------ targeted cases


def E(n, edges, ncols=None):
    r = [e[0] for e in edges]; c = [e[1] for e in edges]; w = [float(e[2]) for e in edges]
    return dict(n=n, ncols=n if ncols is None else ncols, r=r, c=c, w=w)


def targeted():
    cases = []
    g4 = E(4, [(0, 1, 1), (1, 2, 2), (2, 0, 3), (2, 3, 0), (3, 3, 5)])
    gdup = E(3, [(0, 2, 1), (0, 1, 4), (0, 2, -1), (1, 0, 2), (2, 1, np.nan)])
    ginf = E(4, [(0, 1, np.inf), (1, 2, -np.inf), (2, 3, np.nan), (3, 0, -1), (0, 2, 0)])
    empty = E(0, [])
    one = E(1, [(0, 0, 2)])
    iso = E(5, [(0, 1, 1), (3, 4, 2)])
    graphs = [g4, gdup, ginf, empty, one, iso]
    for g in graphs:
        for kind in KINDS:
            for dtype in ("float64", "float32", "int8", "bool"):
                if dtype == "float32" and kind in DENSE_KINDS:
                    dtype = "float16"
                n = g["n"]
                v = 0 if n else 0
                doc = set() if n else {"vertex"}
                for fn in ("breadth_first_order", "depth_first_order", "breadth_first_tree",
                           "depth_first_tree"):
                    for directed in (True, False):
                        cases.append((fn, g, kind, dtype, (v,), {"directed": directed}, doc))
                for conn in ("weak", "strong"):
                    for directed in (True, False):
                        cases.append(("connected_components", g, kind, dtype, (),
                                      {"directed": directed, "connection": conn}, set()))
                cases.append(("minimum_spanning_tree", g, kind, dtype, (), {}, set()))
                for form in ("array", "function", "lo"):
                    for normed in (False, True):
                        cases.append(("laplacian", g, kind, dtype, (),
                                      {"normed": normed, "form": form, "return_diag": True},
                                      set()))
                    cases.append(("laplacian", g, kind, dtype, (),
                                  {"symmetrized": True, "form": form, "use_out_degree": True},
                                  set()))
                cases.append(("floyd_warshall", g, kind, dtype, (),
                              {"return_predecessors": True}, set()))
                cases.append(("floyd_warshall", g, kind, dtype, (),
                              {"directed": False, "overwrite": True}, set()))
                cases.append(("csgraph_to_dense", g, kind, dtype, (), {"null_value": -1},
                              set()))
                cases.append(("csgraph_to_masked", g, kind, dtype, (), {}, set()))
                cases.append(("csgraph_from_dense", g, kind, dtype, (), {}, set()))
                cases.append(("csgraph_from_dense", g, kind, dtype, (),
                              {"null_value": np.inf}, set()))
                cases.append(("csgraph_masked_from_dense", g, kind, dtype, (), {}, set()))
                cases.append(("csgraph_from_masked", g, kind, dtype, (), {}, set()))
                cases.append(("reverse_cuthill_mckee", g, kind, dtype, (),
                              {"symmetric_mode": True}, set()))
                cases.append(("structural_rank", g, kind, dtype, (), {}, set()))
                cases.append(("maximum_bipartite_matching", g, kind, dtype, (), {}, set()))
                cases.append(("min_weight_full_bipartite_matching", g, kind, dtype, (), {},
                              set()))
                P = np.full(n, -9999, np.int32)
                if n > 1:
                    P[1] = 0
                cases.append(("reconstruct_path", g, kind, dtype, (P,), {"directed": False},
                              set()))
                PP = np.full((n, n), -9999, np.int32)
                for i in range(n):
                    for j in range(n):
                        if i != j:
                            PP[i, j] = i
                cases.append(("construct_dist_matrix", g, kind, dtype, (PP,),
                              {"directed": False}, set()))
                cases.append(("construct_dist_matrix", g, kind, dtype, (PP,), {}, set()))
    # flow
    fl = E(4, [(0, 1, 3), (1, 3, 2), (0, 2, 2), (2, 3, 5), (1, 2, 1), (0, 1, 1)])
    for kind in ("csr_matrix", "csr_array", "csr_raw", "csr64", "coo", "dense"):
        for dtype in ("int64", "int8", "uint8", "float64", "bool"):
            for st in ((0, 3), (3, 0), (0, 0), (np.int64(0), np.int32(3)), (0, 3.0), (0.0, 3)):
                for m in ("dinic", "edmonds_karp"):
                    doc = {"vertex"} if any(isinstance(t, float) for t in st) else set()
                    cases.append(("maximum_flow", fl, kind, dtype, st, {"method": m}, doc))
    # yen
    for kind in ("csr_matrix", "dense", "csr_raw"):
        for dtype in ("float64", "int8"):
            for kw in ({}, {"return_predecessors": True}, {"directed": False},
                       {"unweighted": True}):
                cases.append(("yen", g4, kind, dtype, (0, 3, 3), kw, set()))
                cases.append(("yen", iso, kind, dtype, (0, 4, 2), kw, set()))
    return cases


def random_cases(seed, count, only):
    rng = np.random.default_rng(seed)
    names = list(FUNCS) if not only else [f for f in FUNCS if f in only]
    p = np.array([FUNCS[f] for f in names], float)
    p /= p.sum()
    for _ in range(count):
        fname = names[int(rng.choice(len(names), p=p))]
        kind, dtype, square = choose_input(rng, fname)
        spec = random_spec(rng, square)
        args, kw, doc = make_call(rng, fname, spec, kind, dtype)
        yield (fname, spec, kind, dtype, args, kw, doc)


# ------------------------------------------------------------------ the worker pool


def _worker(conn):
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        case = pickle.loads(msg)
        try:
            found, note = run_case(case, conn)
        except Exception:  # noqa: BLE001
            found, note = [("probe crash", traceback.format_exc()[-800:])], None
        conn.send(("done", found, note))
        if fresh_after(case):  # SciPy may have corrupted the heap: a fresh process
            return


def fresh_after(case):
    """Cases after which the worker is replaced: SciPy's yen, and SciPy's matching / ordering
    routines on input with duplicate entries, corrupt the heap (an abort at a later free, or
    wrong answers to later calls in the same process)."""
    return case[0] == "yen" or (case[0] in (
        "maximum_bipartite_matching", "structural_rank", "reverse_cuthill_mckee",
        "min_weight_full_bipartite_matching", "maximum_flow") and case[2] in SPARSE_KINDS)


class Pool:
    def __init__(self):
        self.ctx = mp.get_context("fork")
        self.p = None
        self.first = True

    def start(self):
        a, b = self.ctx.Pipe()
        self.p = self.ctx.Process(target=_worker, args=(b,), daemon=True)
        self.p.start()
        self.conn = a

    def run(self, case, timeout):
        if self.p is None or not self.p.is_alive():
            self.start()
        self.conn.send(pickle.dumps(case))
        facade_done = False
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0 or not self.conn.poll(left):
                self.kill()
                return [("timeout", "facade" if not facade_done else "SciPy")], None
            try:
                msg = self.conn.recv()
            except (EOFError, ConnectionResetError):
                self.kill()
                return [("crash", "facade" if not facade_done else "SciPy")], None
            if msg[0] == "facade_done":
                facade_done = True
                continue
            if fresh_after(case):
                self.p.join(2)
                self.p = None
            return msg[1], msg[2]

    def kill(self):
        if self.p is not None:
            self.p.kill()
            self.p.join()
        self.p = None


def reproducer(case):
    fname, spec, kind, dtype, args, kw, doc = case
    a = ", ".join(_arg_repr(x) for x in args)
    return (f"g = build({spec!r}, {kind!r}, {dtype!r})\n"
            f"      F.{fname}(g{', ' + a if a else ''}, **{kw!r})  # vs S.{fname}(...)")


def _arg_repr(x):
    if isinstance(x, np.ndarray):
        return f"np.array({x.tolist()!r}, dtype=np.{x.dtype})"
    if isinstance(x, np.generic):
        return f"np.{type(x).__name__}({x.item()!r})"
    return repr(x)


def classify(pool, case, timeout):
    """[(signature, detail)], note: documented crash/timeouts folded into the note."""
    found, note = pool.run(case, timeout)
    if any(sig in ("timeout", "crash") and d == "SciPy" for sig, d in found) and \
            "vertex" in case[6]:
        return [], "documented: SciPy hangs/crashes on a float or out-of-range vertex"
    return found, note


def shrink(pool, case, sig, timeout, budget=120):
    """Drop edges (and trailing vertices where the arguments allow) while ``sig`` persists."""
    if sig in ("timeout", "crash"):
        return case
    fname, spec, kind, dtype, args, kw, doc = case
    spent = 0

    def still(sp_):
        nonlocal spent
        spent += 1
        f, _ = pool.run((fname, sp_, kind, dtype, args, kw, doc), timeout)
        return any(s_ == sig for s_, _ in f)

    m = len(spec["r"])
    chunk = max(1, m // 2)
    while chunk >= 1 and spent < budget:
        i = 0
        changed = False
        while i < len(spec["r"]) and spent < budget:
            cand = dict(spec, r=spec["r"][:i] + spec["r"][i + chunk:],
                        c=spec["c"][:i] + spec["c"][i + chunk:],
                        w=spec["w"][:i] + spec["w"][i + chunk:])
            if still(cand):
                spec, changed = cand, True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    # trailing vertices (only where no argument is sized by n)
    if not any(isinstance(a, np.ndarray) and a.ndim for a in args):
        while spec["n"] > 1 and spent < budget:
            n = spec["n"] - 1
            verts = [a for a in args if isinstance(a, (int, np.integer)) and not
                     isinstance(a, (bool, np.bool_))]
            if any(int(v) >= n for v in verts):
                break
            keep = [k for k in range(len(spec["r"])) if spec["r"][k] < n and spec["c"][k] < n]
            nc = n if spec["ncols"] == spec["n"] else spec["ncols"]
            if nc != n:
                keep = [k for k in keep]
            cand = dict(n=n, ncols=nc, r=[spec["r"][k] for k in keep],
                        c=[spec["c"][k] for k in keep], w=[spec["w"][k] for k in keep])
            if not still(cand):
                break
            spec = cand
    return (fname, spec, kind, dtype, args, kw, doc)


def main(argv):
    seeds = [0, 1]
    count = 2500
    only = None
    quiet = False
    timeout = TIMEOUT
    do_shrink = True
    it = iter(argv)
    for a in it:
        if a == "--cases":
            count = int(next(it))
        elif a == "--only":
            only = set(next(it).split(","))
        elif a == "--quiet":
            quiet = True
        elif a == "--no-shrink":
            do_shrink = False
        elif a == "--timeout":
            timeout = float(next(it))
        elif "-" in a:
            lo, hi = a.split("-")
            seeds = list(range(int(lo), int(hi) + 1))
        else:
            seeds = [int(a)]
    # warm the facade's compiled kernels in the parent (the forked workers inherit them)
    warm = sp.csr_matrix(np.array([[0, 1.0], [1.0, 0]]))
    F.connected_components(warm); F.breadth_first_order(warm, 0)
    pool = Pool()
    seen = {}
    counts = Counter()
    kinds_of = {}
    notes = Counter()
    per_fn = Counter()
    info = Counter()
    kinds = Counter()
    t0 = time.time()
    cases = [c for c in targeted() if not only or c[0] in only]
    allc = [("targeted", c) for c in cases]
    for s_ in seeds:
        allc += [(f"seed {s_}", c) for c in random_cases(s_, count, only)]
    total = 0
    for origin, case in allc:
        total += 1
        per_fn[case[0]] += 1
        kinds[case[2]] += 1
        found, note = classify(pool, case, TIMEOUT_FIRST if pool.first else timeout)
        pool.first = False
        if note:
            notes[note] += 1
        for sig, detail in found:
            if sig.startswith("info:"):
                info[f"{case[0]}: {sig[6:]} {detail}"] += 1
                continue
            if sig in ("timeout", "crash"):
                sig = f"{sig} in {detail}"
            key = (case[0], sig)
            counts[key] += 1
            kinds_of.setdefault(key, Counter())[f"{case[2]}/{case[3]}"] += 1
            if key not in seen:
                small = shrink(pool, case, sig, timeout) if do_shrink else case
                if small is not case:
                    f2, _ = pool.run(small, timeout)
                    detail = next((d for s2, d in f2 if s2 == sig), detail)
                seen[key] = (origin, small, detail)
                if not quiet:
                    print(f"\n#{len(seen)} {case[0]} [{case[2]}, {case[3]}] {sig}  ({origin})")
                    print(f"      {reproducer(small)}")
                    print(f"      {detail}")
                    sys.stdout.flush()
    pool.kill()
    print("\n==== summary")
    print(f"{total} cases in {time.time() - t0:.0f}s; per function: {dict(per_fn)}")
    print(f"input kinds: {dict(kinds)}")
    print(f"skipped/accepted by rule: {dict(notes)}")
    for k, v in sorted(info.items()):
        print(f"  info ({v} cases): {k}")
    for key, n in sorted(counts.items(), key=lambda t: -t[1]):
        ks = ", ".join(f"{k}:{v}" for k, v in kinds_of[key].most_common(6))
        print(f"  {n:5d}  {key[0]}: {key[1]}   [{ks}{', ...' if len(kinds_of[key]) > 6 else ''}]")
    print("(reproducers: from bench/probes/aud27b_csgraph_fuzz.py import build; "
          "from algorithms import csgraph as F; import scipy.sparse.csgraph as S)")
    print(f"DISCREPANCIES: {len(seen)} distinct, {sum(counts.values())} cases")
    return 1 if seen else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
