"""Audit 28f: the csgraph tools' and trees' GPU branches, run on NumPy, against SciPy.

    /tmp/venv-main/bin/python bench/probes/aud28f_csgraph_engine_tools.py [--cases N]
        [--seed S] [--only NAME[,NAME]] [--quiet]
    /tmp/venv312/bin/python bench/probes/aud28f_csgraph_engine_tools.py ...   (SciPy 1.18)

Run from the repository root (or anywhere: the root is put on ``sys.path``). Exits 1 when a
defect is found, printing each (input, SciPy's answer, the facade's).

Session 28's engine fuzz (``aud28_csgraph_engine_fuzz.py``) never counted an engine call for
``construct_dist_matrix``, ``reconstruct_path``, the five conversions and ``laplacian``'s
cupyx path: they do not consult ``FORCE_ENGINE`` (the first seven run one device-agnostic
code on NumPy or CuPy), or consulted it only after a host-only branch. This harness takes
each GPU branch on host input:

- ``csgraph_to_dense``: ``FORCE_ENGINE`` now takes its engine branch (``_to_dense_engine``)
  for scipy.sparse input too (before, only dense input reached it);
- ``laplacian``: ``_tools.OWN_SPARSE_ON_CPU`` sends scipy CSR / CSC / COO through
  ``_laplacian_own_sparse``, the code every cupyx input runs (``FORCE_ENGINE`` alone runs
  SciPy's own steps on NumPy);
- traversal orders and trees: each case draws whether ``_traversal._small`` answers True (the
  GPU's small-graph branch: SciPy's search on a copy of the structure) or False (the level
  loop, with ``_thin.THIN_ON_CPU`` off so no probe hands it back);
- ``construct_dist_matrix``, ``reconstruct_path``, ``csgraph_from_dense``,
  ``csgraph_from_masked``, ``csgraph_to_masked``: one code for every device (``xp`` is the
  input's array module); ``csgraph_masked_from_dense`` is SciPy's on a host copy for CuPy input.

Each case: a random graph (n 0..40; duplicates, unsorted rows, explicit zeros, ±inf, NaN,
negative and -0.0 weights; dtypes float64/32/16, int8/32/64, uint8, bool) in one of the kinds
SciPy accepts (CSR/CSC/COO/LIL/DOK/BSR/DIA matrices and arrays, a non-canonical CSR, dense,
``numpy.matrix``, masked, list), random keywords. Compared: output type, dtype, shape, bits
(NaN equal, the sign of zeros compared), masks; exception classes (the facade's must be an
instance of SciPy's); warning categories; the caller's input never modified. SciPy raising
where the facade answers is listed apart ("SciPy fails") for review against the documented
deviations. ``laplacian``'s operator forms are compared by applying them to random vectors;
its cupyx path's float32/float16 sums may differ in the last bits (float64 sums cast, as on
the GPU): those are counted as "ulp", not defects.
"""

from __future__ import annotations

import argparse
import collections
import copy
import os
import sys
import traceback
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from algorithms import csgraph  # noqa: E402
from algorithms.csgraph import _thin, _tools, _traversal  # noqa: E402
from algorithms.csgraph import _validation as _v  # noqa: E402

NAMES = ("construct_dist_matrix", "reconstruct_path", "csgraph_from_dense",
         "csgraph_from_masked", "csgraph_masked_from_dense", "csgraph_to_dense",
         "csgraph_to_masked", "laplacian", "breadth_first_tree", "depth_first_tree",
         "breadth_first_order", "depth_first_order")
WEIGHTS = np.array([1.0, 2.0, 3.5, 0.0, -0.0, -1.0, -2.5, np.inf, -np.inf, np.nan, 1e-9, 7.25])
DTYPES = ("float64",) * 6 + ("float32", "float16", "int8", "int32", "int64", "uint8", "bool")
SPARSE = ("csr_matrix", "csr_array", "csr_raw", "csc_matrix", "csc_array", "lil_matrix",
          "lil_array", "coo_matrix", "coo_array", "dok_matrix", "bsr_matrix", "dia_matrix")
DENSE = ("dense", "matrix", "masked", "list")


def rand_graph(rng, n):
    """(rows, cols, float64 weights) with duplicates, unsorted order, specials."""
    m = int(rng.integers(0, 3 * n + 1)) if n else 0
    r = rng.integers(0, n, m) if n else np.zeros(0, int)
    c = rng.integers(0, n, m) if n else np.zeros(0, int)
    if rng.random() < .7:
        w = np.round(rng.random(m) * 9 + .5, 2)
    else:
        w = rng.integers(1, 6, m).astype(float)
    special = rng.random(m) < rng.choice([0, .1, .3])
    w[special] = rng.choice(WEIGHTS, int(special.sum()))
    if rng.random() < .3 and m:  # duplicates
        k = int(rng.integers(1, m + 1))
        r, c = np.concatenate([r, r[:k]]), np.concatenate([c, c[:k]])
        w = np.concatenate([w, rng.choice(WEIGHTS, k) if rng.random() < .5 else w[:k] + 1])
    return r, c, w


def cast(w, dtype):
    with np.errstate(all="ignore"):
        if dtype == "bool":
            return np.nan_to_num(w) != 0
        if np.dtype(dtype).kind in "iu":
            x = np.nan_to_num(w, posinf=9, neginf=-9)
            return np.clip(x, np.iinfo(dtype).min, np.iinfo(dtype).max).astype(dtype)
        return w.astype(dtype)


def make_input(rng, kind, n, dtype):
    if dtype == "float16" and kind not in DENSE:  # scipy.sparse has no float16
        dtype = "float32"
    r, c, w = rand_graph(rng, n)
    w = cast(w, dtype)
    if kind in DENSE:
        D = np.zeros((n, n), dtype=dtype)
        D[r, c] = w  # the last of duplicates
        if kind == "matrix":
            return np.asmatrix(D)
        if kind == "masked":
            mask = rng.random((n, n)) < .4 if rng.random() < .8 else np.ma.nomask
            return np.ma.masked_array(D, mask=mask)
        if kind == "list":
            return D.tolist()
        return D if rng.random() < .8 else np.asfortranarray(D)
    if kind == "csr_raw":  # non-canonical CSR, stored as drawn (rows grouped, unsorted)
        order = np.argsort(r, kind="stable")
        r, c, w = r[order], c[order], w[order]
        indptr = np.searchsorted(r, np.arange(n + 1)).astype(np.int32)
        cls = sp.csr_matrix if rng.random() < .5 else sp.csr_array
        return cls((w, c.astype(np.int32), indptr), shape=(n, n))
    coo = sp.coo_matrix((w, (r, c)), shape=(n, n))
    if kind.startswith("coo"):
        return coo if kind == "coo_matrix" else sp.coo_array(coo)
    fmt, fam = kind.split("_")
    if fmt in ("lil", "dok"):  # one entry per cell (the last drawn)
        D = np.zeros((n, n), dtype=dtype)
        D[r, c] = w
        M = getattr(sp, kind)(D)
        return M
    M = coo.asformat(fmt) if fmt != "bsr" else coo.tobsr(blocksize=(1, 1))
    return M if fam == "matrix" else getattr(sp, fmt + "_array")(M)


def rand_forest(rng, n, root=None):
    """Predecessors of a random forest (every chain ends at a root, -9999)."""
    p = np.full(n, -9999, dtype=np.int64)
    order = rng.permutation(n)
    if root is not None:
        order = np.concatenate([[root], order[order != root]])
    for k in range(1, n):
        if rng.random() < .8:
            p[order[k]] = order[rng.integers(0, k)]
    return p


def pred_kind(rng, p, two_d=False):
    k = rng.choice(["int32"] * 6 + ["int64", "float64", "list", "masked"])
    if k == "list":
        return p.tolist(), k
    if k == "masked":
        return np.ma.masked_array(p.astype(np.int32), mask=False), k
    return p.astype(k), k


def pick(rng, seq, p=None):
    """One element of a list of mixed objects (``Generator.choice`` would make it an array)."""
    return seq[int(rng.choice(len(seq), p=p))]


def draw_case(rng, fname):
    n = int(rng.integers(0, 41)) if rng.random() < .8 else int(rng.integers(0, 4))
    dtype = str(rng.choice(DTYPES))
    if fname in ("csgraph_from_dense", "csgraph_masked_from_dense"):
        kind = str(rng.choice(["dense", "dense", "matrix", "list"]))
    elif fname == "csgraph_from_masked":
        kind = "masked"
    elif fname in ("csgraph_to_dense", "csgraph_to_masked"):
        kind = str(rng.choice(SPARSE[:7] + ("csr_raw",)))
    else:
        kind = str(rng.choice(SPARSE + DENSE))
    G = make_input(rng, kind, n, dtype)
    args, kw = (), {}
    if fname == "csgraph_to_dense":
        kw["null_value"] = pick(rng, [0, -1, np.inf, -np.inf, np.nan, 2.5, np.float32(2),
                                      True, np.array(3.0), None, "1", [1]],
                                [.2, .2, .1, .05, .1, .1, .05, .04, .04, .04, .04, .04]) \
            if rng.random() < .8 else 0
    elif fname in ("csgraph_from_dense", "csgraph_masked_from_dense"):
        if rng.random() < .7:
            kw["null_value"] = pick(rng, [0, 1, 1.0, None, np.nan, np.inf, -np.inf, 7.25, -1])
        if rng.random() < .5:
            kw["nan_null"] = bool(rng.random() < .5)
        if rng.random() < .5:
            kw["infinity_null"] = bool(rng.random() < .5)
        if fname == "csgraph_masked_from_dense" and rng.random() < .4:
            kw["copy"] = bool(rng.random() < .5)
    elif fname == "laplacian":
        for k, vals in (("normed", [False, True]), ("return_diag", [False, True]),
                        ("use_out_degree", [False, True]), ("copy", [True, False]),
                        ("form", ["array", "array", "function", "lo"]),
                        ("dtype", [None, None, np.float64, np.float32, np.int64,
                                   np.complex128]),
                        ("symmetrized", [False, True])):
            if rng.random() < .5:
                kw[k] = vals[int(rng.integers(0, len(vals)))]
    elif fname in ("breadth_first_tree", "depth_first_tree", "breadth_first_order",
                   "depth_first_order"):
        if n == 0:
            n, G = 1, make_input(rng, kind, 1, dtype)
        args = (int(rng.integers(0, n)),)
        if rng.random() < .5:
            kw["directed"] = bool(rng.random() < .5)
        if "order" in fname and rng.random() < .3:
            kw["return_predecessors"] = False
    elif fname == "reconstruct_path":
        if rng.random() < .5 and n:
            S = sp.csr_matrix(np.nan_to_num(np.abs(np.asarray(_dense_of(G), float)),
                                            posinf=0))
            _, p = scg.breadth_first_order(S, int(rng.integers(0, n)))
            p = p.astype(np.int64)
        else:
            p = rand_forest(rng, n)
        P, _ = pred_kind(rng, p)
        args = (P,)
        if rng.random() < .6:
            kw["directed"] = bool(rng.random() < .5)
    elif fname == "construct_dist_matrix":
        P = np.stack([rand_forest(rng, n, root=i) for i in range(n)]) if n else \
            np.zeros((0, 0), np.int64)
        if rng.random() < .85:
            P = P.astype(np.int32)
        args = (P,)
        if rng.random() < .6:
            kw["directed"] = bool(rng.random() < .5)
        if rng.random() < .4:
            kw["null_value"] = pick(rng, [0.0, -1.0, np.nan, -np.inf, 5])
    return G, kind, dtype, args, kw


def _dense_of(G):
    if sp.issparse(G):
        return G.toarray()
    return np.ma.getdata(np.asarray(G)) if not isinstance(G, list) else np.array(G)


# --------------------------------------------------------------------------- comparison

def _bits_equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind in "fc":
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        if a.dtype.kind == "f":
            same &= np.signbit(a) == np.signbit(b)
        return bool(same.all())
    return bool(np.array_equal(a, b))


def _ulp_close(a, b, scale=None):
    """Within a few roundings: of the result's dtype, or (``scale`` = (eps, magnitude)) of the
    graph's (float32 weights summed in float64 on one path and float32 on the other)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape or a.dtype.kind not in "fc":
        return False
    eps, mag = scale or (np.finfo(a.dtype).eps, 1.0)
    eps = max(eps, np.finfo(a.dtype).eps)
    with np.errstate(all="ignore"):
        ok = np.isclose(a, b, rtol=16 * eps, atol=16 * eps * mag, equal_nan=True)
    return bool(ok.all())


def compare(exp, got, ctx):
    """None when equal; 'ulp' when within a few ulps; else a description."""
    if isinstance(exp, tuple):
        if not isinstance(got, tuple) or len(got) != len(exp):
            return f"tuple {len(exp)} vs {type(got).__name__}"
        res = [compare(e, g, ctx) for e, g in zip(exp, got)]
        bad = [r for r in res if r not in (None, "ulp")]
        return bad[0] if bad else ("ulp" if "ulp" in res else None)
    if type(exp) is not type(got):
        return f"type {type(exp).__name__} vs {type(got).__name__}"
    if isinstance(exp, np.ma.MaskedArray):
        if not np.array_equal(np.ma.getmaskarray(exp), np.ma.getmaskarray(got)):
            return "mask"
        if exp.dtype != got.dtype:
            return f"dtype {exp.dtype} vs {got.dtype}"
        m = ~np.ma.getmaskarray(exp)
        if not _bits_equal(np.ma.getdata(exp)[m], np.ma.getdata(got)[m]):
            return "masked data"
        if not _bits_equal(np.asarray(exp.fill_value), np.asarray(got.fill_value)):
            return f"fill_value {exp.fill_value} vs {got.fill_value}"
        return None
    if sp.issparse(exp):
        if exp.format != got.format or exp.dtype != got.dtype or exp.shape != got.shape:
            return f"sparse {exp.format}/{exp.dtype}/{exp.shape} vs " \
                   f"{got.format}/{got.dtype}/{got.shape}"
        if ctx.get("own"):  # the cupyx Laplacian: its COO's stored order is its own
            a, b = exp.toarray(), got.toarray()
            return None if _bits_equal(a, b) else (
                "ulp" if _ulp_close(a, b, ctx.get("scale")) else "values")
        if exp.format == "csr":
            for att in ("indptr", "indices"):
                if not np.array_equal(getattr(exp, att), getattr(got, att)):
                    return f"csr {att}"
            return None if _bits_equal(exp.data, got.data) else "csr data"
        a, b = exp.toarray(), got.toarray()
        return None if _bits_equal(a, b) else "values"
    if isinstance(exp, np.ndarray):
        if _bits_equal(exp, got):
            return None
        if exp.dtype == got.dtype and exp.shape == got.shape and ctx.get("own") \
                and _ulp_close(exp, got, ctx.get("scale")):
            return "ulp"
        return f"array {exp.dtype}{exp.shape} vs {got.dtype}{got.shape}"
    if callable(exp) or hasattr(exp, "matvec"):
        n = ctx["n"]
        rng = np.random.default_rng(7)
        for shape in ((n,), (n, 2)):
            v = rng.random(shape)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    e = exp(v) if callable(exp) else exp.matvec(v) if v.ndim == 1 \
                        else exp.matmat(v)
                except Exception as err:  # noqa: BLE001
                    e = err
                try:
                    g = got(v) if callable(got) else got.matvec(v) if v.ndim == 1 \
                        else got.matmat(v)
                except Exception as err:  # noqa: BLE001
                    g = err
            if isinstance(e, Exception) or isinstance(g, Exception):
                if type(e) is not type(g):
                    return f"operator raised {e!r} vs {g!r}"
                continue
            r = compare(np.asarray(e), np.asarray(g), {**ctx, "own": True})
            if r not in (None, "ulp"):
                with np.errstate(all="ignore"):
                    d = np.nanmax(np.abs(np.asarray(e) - np.asarray(g))) if np.size(e) else 0
                return f"operator {r} (max |diff| {d:.3g})"
        if hasattr(exp, "dtype") and np.dtype(exp.dtype) != np.dtype(got.dtype):
            return f"operator dtype {exp.dtype} vs {got.dtype}"
        return None
    if exp != got and not (exp != exp and got != got):
        return f"{exp!r} vs {got!r}"
    return None


def snapshot(x):
    return copy.deepcopy(x)


def unchanged(before, after):
    if isinstance(before, list):
        return before == after or repr(before) == repr(after)
    if sp.issparse(before):
        if before.format != after.format:
            return False
        if before.format in ("lil", "dok"):
            return _bits_equal(before.toarray(), after.toarray())
        if before.format == "dia":
            return _bits_equal(before.data, after.data) and \
                np.array_equal(before.offsets, after.offsets)
        if before.format == "coo":
            return _bits_equal(before.data, after.data) and \
                np.array_equal(before.row, after.row) and np.array_equal(before.col, after.col)
        return all(_bits_equal(getattr(before, a), getattr(after, a))
                   for a in ("data", "indices", "indptr"))
    if isinstance(before, np.ma.MaskedArray):
        return _bits_equal(np.ma.getdata(before), np.ma.getdata(after)) and \
            np.array_equal(np.ma.getmaskarray(before), np.ma.getmaskarray(after))
    return _bits_equal(before, after)


def call(f, G, args, kw):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            with np.errstate(all="warn"):
                res = f(G, *args, **kw)
            err = None
        except Exception as e:  # noqa: BLE001
            res, err = None, e
    return res, err, sorted({x.category.__name__ for x in w})


class Engine:
    """The GPU branches on NumPy for one call (``small``: the traversals' small-graph one)."""

    def __init__(self, small):
        self.small = small

    def __enter__(self):
        self.saved = (_v.FORCE_ENGINE, _tools.OWN_SPARSE_ON_CPU, _traversal._small,
                      _thin.THIN_ON_CPU, _traversal.THIN_ON_CPU)
        _v.FORCE_ENGINE = True
        _tools.OWN_SPARSE_ON_CPU = True
        _thin.THIN_ON_CPU = _traversal.THIN_ON_CPU = False
        if self.small:
            _traversal._small = lambda csgraph, op: True
        return self

    def __exit__(self, *exc):
        (_v.FORCE_ENGINE, _tools.OWN_SPARSE_ON_CPU, _traversal._small, _thin.THIN_ON_CPU,
         _traversal.THIN_ON_CPU) = self.saved


def run_case(fname, G, kind, dtype, args, kw, small):
    n = len(G) if isinstance(G, list) else G.shape[0]
    # laplacian of a masked array: the facade reads masked entries as zeros (a documented
    # deviation), so SciPy is asked about the filled array
    ref = np.array(np.ma.filled(G, 0)) if fname == "laplacian" and kind == "masked" \
        else snapshot(G)
    exp, e1, w1 = call(getattr(scg, fname), ref, snapshot(args), dict(kw))
    before, before_args = snapshot(G), snapshot(args)
    with Engine(small):
        got, e2, w2 = call(getattr(csgraph, fname), G, args, dict(kw))
    out = []
    if not unchanged(before, G):
        out.append("input modified")
    if not all(unchanged(a, b) for a, b in zip(before_args, args)):
        out.append("argument modified")
    if e1 is not None or e2 is not None:
        if e1 is None:
            out.append(f"facade raised {type(e2).__name__}: {e2}")
        elif e2 is None or (fname == "laplacian" and kind == "list"):
            # (SciPy's laplacian fails on every list; the facade reads it: documented)
            return out, "scipy_fails", f"{type(e1).__name__}: {str(e1)[:80]}"
        elif not isinstance(e2, type(e1)) and not (
                # NumPy's private UFuncTypeError subclasses: the facade raises a TypeError
                # (documented: _tools.UnsignedLaplacian)
                type(e1).__module__.startswith("numpy") and isinstance(e1, TypeError)
                and isinstance(e2, TypeError)):
            out.append(f"exception {type(e1).__name__}({e1}) vs {type(e2).__name__}({e2})")
        return out, None, None
    if w1 != w2 and not (fname == "laplacian" and set(w2) <= set(w1)):
        out.append(f"warnings {w1} vs {w2}")
    own = fname == "laplacian" and sp.issparse(G) and G.format in ("csr", "csc", "coo")
    scale = None
    if own:
        w = np.asarray(G.data, dtype=np.float64)
        w = np.abs(w[np.isfinite(w)])
        dt = np.dtype(G.dtype)
        scale = (np.finfo(dt).eps if dt.kind == "f" else 0.0,
                 max(1.0, float(w.sum()) if w.size else 1.0) * 4)
    r = compare(exp, got, {"n": n, "own": own, "scale": scale})
    if r == "ulp":
        return out, "ulp", None
    if r is not None:
        out.append(r)
    return out, None, None


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300, help="cases per function")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    names = a.only.split(",") if a.only else NAMES
    rng = np.random.default_rng(a.seed)
    tally = collections.Counter()
    fails = collections.Counter()
    defects = 0
    for fname in names:
        for k in range(a.cases):
            G, kind, dtype, args, kw = draw_case(rng, fname)
            small = bool(rng.random() < .5)
            try:
                bad, note, msg = run_case(fname, G, kind, dtype, args, kw, small)
            except Exception:  # noqa: BLE001  (the harness's own failure: a defect too)
                bad, note, msg = [traceback.format_exc(limit=3)], None, None
            tally[fname] += 1
            if note == "scipy_fails":
                fails[(fname, kind if kind in DENSE else "sparse", msg)] += 1
            elif note == "ulp":
                tally[fname + " ulp"] += 1
            if bad:
                defects += 1
                if not a.quiet or defects <= 20:
                    n = len(G) if isinstance(G, list) else G.shape[0]
                    print(f"DEFECT {fname} kind={kind} dtype={dtype} n={n} small={small} "
                          f"args={[type(x).__name__ for x in args]} kw={kw}: {bad}")
    print("cases:", dict(tally))
    print("SciPy fails, the facade answers:")
    for (f, k, m), c in sorted(fails.items()):
        print(f"  {c:4d} {f} [{k}] {m}")
    print(f"defects: {defects}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
