"""Session 17 (sp11): odd *arguments* of every ``algorithms.csgraph`` name against SciPy 1.17.1,
on both host paths (SciPy path and engine path, ``_validation.FORCE_ENGINE``).

Where ``csgraph_conformance.py`` draws graphs and input kinds, this draws the other
arguments: ``indices`` as lists/tuples/0-d/uint64/integral floats/duplicates/unsorted,
``limit`` 0/negative/inf, ``min_only`` with duplicate indices, ``overwrite=True``,
``null_value`` nan/±inf, ``return_labels``, ``symmetric_mode``, ``maximum_flow`` methods and
capacity kinds, every Laplacian keyword on every sparse format, odd predecessor matrices,
masks of every shape, 0×0/1×1/n×0, read-only and subclass inputs, and graphs of ~2000
vertices ('auto' choices). Each call's outcome is compared with SciPy's: values (NaN equal),
dtypes, shapes, types, formats, exception classes (ours must be an instance of SciPy's), and
the caller's arrays unchanged (where SciPy leaves them unchanged).

Usage: PYTHONPATH=. python3 bench/probes/csgraph_args_audit.py [SEED=0] [--engine] [-v]
Prints one ``DIFF`` line per discrepancy; exit status 1 if any."""
from __future__ import annotations

import copy
import sys
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

sys.path.insert(0, "bench/probes")
from csgraph_conformance import PRED_FUNCS, _unchanged, outcome, same, tied_predecessors  # noqa: E402

from algorithms import csgraph  # noqa: E402
from algorithms.csgraph import _validation  # noqa: E402

DIFFS = []
DOCUMENTED = {}
FORTRAN = [False]


def documented(name, kw, got, ref):
    """The documented deviation a differing call hits (module docstring of algorithms.csgraph)
    or None."""
    if got[0] == "err" and "got bool" in str(got[1]):
        return "bool indices / i_start refused"
    if (got[0] == "ok" and ref[0] == "err" and type(ref[1]).__name__ == "NegativeCycleError"
            and not kw.get("directed", True)):
        return "SciPy's false undirected Bellman-Ford cycle"
    if got[0] == "ok" and ref[0] == "err" and type(ref[1]).__name__ == "AxisError":
        return "SciPy's AxisError where no entry is masked (nomask)"
    if got[0] == "ok" and ref[0] == "err" and any(m in str(ref[1]) for m in (
            "csgraph must be sparse", "must be lil, csr, or csc", "Buffer dtype mismatch")):
        return "SciPy fails where the facade answers (dense/other formats/int64 indices)"
    if ref[0] == "ok" and name in ("floyd_warshall", "shortest_path") and FORTRAN[0]:
        return "SciPy's floyd_warshall computes nothing on Fortran-ordered input"
    if name == "reverse_cuthill_mckee" and got[0] == "ok" and ref[0] == "err" and "zero-size" in str(ref[1]):
        return "reverse_cuthill_mckee of 0x0: an empty order"
    if ref[0] == "err" and isinstance(ref[1], (AttributeError, TypeError)) and any(
            m in str(ref[1]) for m in ("object has no attribute", "'list' and 'int'")):
        return "lists and scalars: SciPy cannot read them (AttributeError); the facade reads lists"
    if (got[0] == ref[0] == "err" and type(got[1]).__name__ == "UnsignedLaplacian"
            and isinstance(ref[1], (TypeError, OverflowError))):
        return "laplacian of unsigned/bool: UnsignedLaplacian (TypeError+OverflowError), not NumPy's private UFuncTypeError"
    if got[0] == "err" and "must have a real dtype, got complex" in str(got[1]):
        return "complex weights refused (SciPy drops the imaginary part)"
    if name == "construct_dist_matrix" and got[0] == "ok" and ref[0] == "err":
        return "construct_dist_matrix takes any integer predecessors / every format"
    return None
N_CALLS = [0]
VERBOSE = "-v" in sys.argv


def _copy(x):
    if sp.issparse(x):
        return x.copy()
    if isinstance(x, (np.ndarray, list, dict)):
        return copy.deepcopy(x)
    return x


def check(name, args, kw=None, label="", ref_fn=None, ref_args=None, cmp=None):
    """Compare facade `name` with SciPy's on the same arguments."""
    kw = kw or {}
    N_CALLS[0] += 1
    a_args = [_copy(a) for a in args]
    a_kw = {k: _copy(v) for k, v in kw.items()}
    b_args = [_copy(a) for a in (ref_args if ref_args is not None else args)]
    b_kw = {k: _copy(v) for k, v in kw.items()}
    keep = [_copy(a) for a in args]
    got = outcome(getattr(csgraph, name), *a_args, **a_kw)
    ref = outcome(ref_fn or getattr(scg, name), *b_args, **b_kw)
    tag = f"{name}{label} kw={ {k: (v if isinstance(v, type) or np.ndim(v) == 0 or np.size(v) < 6 else '...') for k, v in kw.items()} }"
    diff = None
    if got[0] != ref[0]:
        diff = f"outcome: ours {got[0]} {got[1]!r:.150} | scipy {ref[0]} {ref[1]!r:.150}"
    elif got[0] == "err":
        if not isinstance(got[1], type(ref[1])):
            diff = f"exception class: ours {type(got[1]).__name__} ({got[1]!s:.100}) | scipy {type(ref[1]).__name__} ({ref[1]!s:.100})"
    else:
        diff = (cmp or same)(got[1], ref[1])
    # mutation: ours must leave every argument unchanged
    for i, (k0, a1) in enumerate(zip(keep, a_args)):
        if isinstance(k0, (np.ndarray, list)) or sp.issparse(k0):
            try:
                if type(k0) is not type(a1) or not _unchanged(k0, a1):
                    diff = (diff or "") + f" | arg {i} mutated by ours"
            except Exception as e:  # noqa: BLE001
                diff = (diff or "") + f" | arg {i} compare failed {e!r}"
    if diff:
        diff = " ".join(diff.split())
        why = documented(name, kw, got, ref)
        if (not why and _validation.FORCE_ENGINE and got[0] == ref[0] == "ok"
                and name in PRED_FUNCS and isinstance(ref[1], tuple)
                and tied_predecessors(name, args[0], kw, got[1], ref[1]) is None):
            why = "engine: another valid predecessor among tied shortest paths"
        if why:
            DOCUMENTED[why] = DOCUMENTED.get(why, 0) + 1
            return got, ref
        DIFFS.append(f"DIFF {tag}: {diff}")
        print(DIFFS[-1], flush=True)
    elif VERBOSE:
        print(f"ok {tag}")
    return got, ref


def graphs(rng, n, density=0.3, neg=False, zeros=True):
    M = rng.random((n, n)) < density
    W = np.round(rng.random((n, n)) * 9 + 1, 1)
    if neg:
        W = W - 3
    D = np.where(M, W, 0.0)
    S = sp.csr_array(D)
    if zeros and n > 1:
        r, c = rng.integers(0, n, 2)
        S = S.tolil(); S[r, c] = 0; S = S.tocsr()  # may not store explicit zero via lil
    return D, S


def index_forms(n, rng):
    f = [0, -1, [0], (0,), [1, 0], [0, 0], np.array(0), np.array([0, 1], np.uint64),
         np.array([0, 1], np.int8), np.array([1.0, 0.0]), np.array(1.0), np.float64(1.0),
         np.array([[0, 1]]), [], np.array([], np.int64), [n - 1, 0, n - 1], np.uint64(1),
         np.array([0, 1], np.uint32), np.array([0, 1], ">i8"), np.array([-1, -n]),
         np.array([0, 1])[::-1], range(2), np.array([True, False]), True,
         np.int32(0), [np.int64(1)], np.array([0, 1], np.uint8)]
    if n < 2:
        f = [x for x in f if np.all(np.asarray(x if not isinstance(x, range) else list(x), dtype=float) < n)
             and np.all(np.asarray(x if not isinstance(x, range) else list(x), dtype=float) >= -n)]
    return f


def sweep_shortest(rng):
    for n in (1, 2, 5, 7):
        for trial in range(3):
            D, S = graphs(rng, n)
            for inp, lab in ((S, ":csr_array"), (sp.csr_matrix(S), ":csr_matrix"), (D, ":dense")):
                for idx in index_forms(n, rng):
                    for fn in ("dijkstra", "shortest_path", "bellman_ford", "johnson"):
                        check(fn, [inp], {"indices": idx}, lab)
                        check(fn, [inp], {"indices": idx, "return_predecessors": True,
                                          "directed": False}, lab)
                    check("dijkstra", [inp], {"indices": idx, "min_only": True,
                                              "return_predecessors": True}, lab)
                    check("dijkstra", [inp], {"indices": idx, "min_only": True, "limit": 3.0}, lab)
                    check("breadth_first_order", [inp, idx], {}, lab) if np.ndim(idx) == 0 else None
                for lim in (0, 0.0, -1, -np.inf, np.inf, 2.5, np.float32(2.5), 1e308, 5):
                    for mo in (False, True):
                        check("dijkstra", [inp], {"limit": lim, "min_only": mo,
                                                  "indices": [0, n - 1]}, lab)
                        check("dijkstra", [inp], {"limit": lim, "return_predecessors": True,
                                                  "indices": 0, "min_only": mo}, lab)
                for m in ("auto", "FW", "D", "BF", "J"):
                    for d in (True, False):
                        for u in (True, False):
                            check("shortest_path", [inp], {"method": m, "directed": d,
                                                           "unweighted": u,
                                                           "return_predecessors": True}, lab)
                check("floyd_warshall", [inp], {"overwrite": True}, lab)
                check("floyd_warshall", [inp], {"overwrite": True, "directed": False,
                                                "unweighted": True}, lab)
                check("shortest_path", [inp], {"overwrite": True, "method": "FW"}, lab)
                check("shortest_path", [inp], {"overwrite": True}, lab)
                check("dijkstra", [inp], {"indices": [0, 0], "min_only": True,
                                          "return_predecessors": True}, lab)


def sweep_traversal(rng):
    for n in (1, 2, 6):
        for trial in range(3):
            D, S = graphs(rng, n)
            for inp, lab in ((S, ":csr_array"), (sp.csr_matrix(S), ":csr_matrix"), (D, ":dense"),
                             (S.tocoo(), ":coo"), (sp.lil_array(S), ":lil")):
                for i0 in (0, -1, np.int64(0), np.uint64(0), 0.0, np.array(0), np.array([0]),
                           [0], n - 1, np.int8(0)):
                    for d in (True, False):
                        for rp in (True, False):
                            check("breadth_first_order", [inp, i0], {"directed": d,
                                                                     "return_predecessors": rp}, lab)
                            check("depth_first_order", [inp, i0], {"directed": d,
                                                                   "return_predecessors": rp}, lab)
                        check("breadth_first_tree", [inp, i0], {"directed": d}, lab)
                        check("depth_first_tree", [inp, i0], {"directed": d}, lab)
                for d in (True, False, 0, 1, None):
                    for c in ("weak", "strong", "WEAK", "Strong", "w"):
                        for rl in (True, False, 0, None):
                            check("connected_components", [inp], {"directed": d, "connection": c,
                                                                  "return_labels": rl}, lab)
                for o in (True, False):
                    check("minimum_spanning_tree", [inp], {"overwrite": o}, lab)


def sweep_tools(rng):
    for n in (0, 1, 2, 5):
        D = np.round(rng.random((n, n)) * 5, 0) * (rng.random((n, n)) < 0.5)
        if n > 1:
            D[0, 1] = np.inf
            D[1, 0] = np.nan
        for nv in (0, 0.0, 1.0, np.nan, np.inf, -np.inf, 5, np.float32(1.0)):
            for nn in (True, False):
                for inf_n in (True, False):
                    kw = {"null_value": nv, "nan_null": nn, "infinity_null": inf_n}
                    check("csgraph_from_dense", [D], kw, f":n{n}")
                    check("csgraph_masked_from_dense", [D], kw, f":n{n}")
                    check("csgraph_from_dense", [D.astype(np.float32)], kw, f":f32 n{n}")
                    check("csgraph_from_dense", [np.asfortranarray(D)], kw, f":F n{n}")
        S = sp.csr_array(np.nan_to_num(D, posinf=7.0, nan=0.0))
        for nv in (0, np.nan, np.inf, -np.inf, 3.0):
            check("csgraph_to_dense", [S], {"null_value": nv}, f":n{n}")
            check("csgraph_to_dense", [sp.csr_matrix(S)], {"null_value": nv}, f":mat n{n}")
            check("csgraph_to_dense", [S.tocsc()], {"null_value": nv}, f":csc n{n}")
            check("csgraph_to_dense", [sp.lil_matrix(S)], {"null_value": nv}, f":lil n{n}")
        check("csgraph_to_masked", [S], {}, f":n{n}")
        check("csgraph_to_masked", [sp.csr_matrix(S)], {}, f":mat n{n}")
        # masks of every shape
        for mask in (np.zeros((n, n), bool), np.ones((n, n), bool), np.ma.nomask, False, True,
                     np.zeros(n, bool) if n else np.zeros(0, bool), np.zeros((1, n), bool)):
            try:
                M = np.ma.masked_array(np.nan_to_num(D, posinf=7.0, nan=0.0), mask=mask)
            except Exception:  # noqa: BLE001
                continue
            check("csgraph_from_masked", [M], {}, f":n{n} mask={np.shape(mask)}")
            hm = M.copy(); hm.harden_mask()
            check("csgraph_from_masked", [hm], {}, f":hard n{n}")
            check("dijkstra", [M], {}, f":masked n{n} mask={np.shape(mask)}")
        # n x 0, 0 x n, 1-D, 3-D
        for bad in (np.zeros((2, 0)), np.zeros((0, 2)), np.zeros(3), np.zeros((2, 2, 2)),
                    sp.csr_array((2, 3)), sp.csr_array((0, 3))):
            for fn, a in (("csgraph_to_dense", []), ("csgraph_from_dense", []),
                          ("dijkstra", []), ("connected_components", []),
                          ("minimum_spanning_tree", []), ("laplacian", []),
                          ("structural_rank", []), ("maximum_bipartite_matching", []),
                          ("reverse_cuthill_mckee", []), ("breadth_first_order", [0]),
                          ("csgraph_to_masked", []), ("floyd_warshall", []),
                          ("min_weight_full_bipartite_matching", [])):
                check(fn, [bad] + a, {}, f":bad{getattr(bad, 'shape', None)}{type(bad).__name__}")


def sweep_laplacian(rng):
    fmts = ["csr", "csc", "coo", "lil", "dok", "bsr", "dia"]
    for n in (0, 1, 2, 4):
        D = np.round(rng.random((n, n)) * 4, 0) * (rng.random((n, n)) < 0.6)
        for f in fmts:
            for cls in ("array", "matrix"):
                G = getattr(sp, f"{f}_{cls}")(D)
                for normed in (False, True):
                    for ret in (False, True):
                        for ut in (False, True):
                            for form in ("array", "function", "lo"):
                                for sym in (False, True):
                                    for dt in (None, np.float32, np.int32, np.float64):
                                        for cp_ in (True, False):
                                            if rng.random() > 0.15:
                                                continue
                                            kw = dict(normed=normed, return_diag=ret, use_out_degree=ut,
                                                      form=form, symmetrized=sym, dtype=dt, copy=cp_)
                                            check("laplacian", [G], kw, f":{f}_{cls} n{n}")
        for g, lab in ((D, "dense"), (D.astype(np.int64), "int64"), (D.astype(np.float32), "f32"),
                       (np.asfortranarray(D), "F"), (np.matrix(D), "npmatrix"),
                       (D.astype(bool), "bool")):
            for normed in (False, True):
                for ret in (False, True):
                    for dt in (None, np.float32, np.float64, np.int64):
                        for form in ("array", "function", "lo"):
                            check("laplacian", [g], dict(normed=normed, return_diag=ret, dtype=dt,
                                                         form=form), f":{lab} n{n}")


def sweep_graphalg(rng):
    for shp in ((0, 0), (1, 1), (2, 3), (3, 2), (4, 4), (5, 3), (3, 0), (0, 3), (6, 6)):
        D = (rng.random(shp) < 0.5) * np.round(rng.random(shp) * 5 + 1)
        if shp[0] > 1 and shp[1] > 0:
            D[1, :] = 0  # empty row
        for dt in (np.float64, np.int8, bool, np.float16, np.complex128, np.int64, np.uint64,
                   np.float32):
            Dd = D.astype(dt)
            for cls in (sp.csr_array, sp.csr_matrix, sp.csc_array, sp.coo_array, sp.lil_matrix,
                        sp.dok_array, sp.bsr_array):
                try:
                    G = cls(Dd)
                except Exception:  # noqa: BLE001
                    continue
                lab = f":{cls.__name__} {dt.__name__ if hasattr(dt, '__name__') else dt}{shp}"
                check("structural_rank", [G], {}, lab)
                for pt in ("row", "column"):
                    check("maximum_bipartite_matching", [G], {"perm_type": pt}, lab)
                check("min_weight_full_bipartite_matching", [G], {}, lab)
                check("min_weight_full_bipartite_matching", [G], {"maximize": True}, lab)
                if shp[0] == shp[1]:
                    for sm in (True, False, 0, 1):
                        check("reverse_cuthill_mckee", [G], {"symmetric_mode": sm}, lab)
            check("structural_rank", [Dd], {}, f":dense {shp}")


def _flow_cmp(a, b):
    return same(a, b)


def sweep_flow(rng):
    for n in (2, 3, 6):
        for dt in (np.int32, np.int64, np.int16, np.float64, np.uint32, np.int8, bool):
            C = (rng.random((n, n)) < 0.5) * rng.integers(1, 10, (n, n))
            np.fill_diagonal(C, 0)
            for big in (False, True):
                Cb = C.astype(np.int64)
                if big and dt == np.int64:
                    Cb = Cb * (2 ** 31 - 1)
                elif big and dt == np.int32:
                    Cb = (Cb > 0) * (2 ** 31 - 1)
                try:
                    Cd = Cb.astype(dt)
                except Exception:  # noqa: BLE001
                    continue
                for cls in (sp.csr_array, sp.csr_matrix, sp.csc_array, sp.coo_matrix):
                    G = cls(Cd)
                    for s, t in ((0, n - 1), (0, 0), (n - 1, 0), (np.int64(0), np.uint8(1)),
                                 (0.0, 1), (-1, 0), (0, n)):
                        for m in ("dinic", "edmonds_karp", "DINIC", "bogus"):
                            check("maximum_flow", [G, s, t], {"method": m},
                                  f":{cls.__name__} {np.dtype(dt).name} big={big}")


def sweep_paths(rng):
    n = 5
    D, S = graphs(rng, n)
    d, P = scg.shortest_path(S, return_predecessors=True)
    for PP, lab in ((P, "int32"), (P.astype(np.int64), "int64"), (P[0], "1-D"),
                    (P.astype(float), "float"), (np.full((n, n), -9999, np.int32), "none"),
                    (np.asfortranarray(P), "F"), (P[:2], "2xN"), (P[:, :3], "Nx3"),
                    (np.full((n, n), -1, np.int32), "-1"), (P.tolist(), "list"),
                    (np.zeros((n, n), np.int32), "zeros (cycles)")):
        for g, gl in ((S, "csr"), (D, "dense"), (sp.csr_matrix(S), "csr_matrix")):
            for d_ in (True, False):
                if lab in ("zeros (cycles)", "-1"):
                    continue  # SciPy loops forever on cycling predecessors (documented)
                check("construct_dist_matrix", [g, PP], {"directed": d_}, f":{lab} {gl}")
                check("reconstruct_path", [g, PP], {"directed": d_}, f":{lab} {gl}")


def sweep_yen(rng):
    n = 6
    D, S = graphs(rng, n, density=0.5)
    for K in (1, 3, 50, 10 ** 6, np.int64(3), 0, -1):
        for d in (True, False):
            check("yen", [S, 0, n - 1, K], {"directed": d}, f":K={K}")
            check("yen", [S, 0, n - 1, K], {"directed": d, "return_predecessors": True}, f":K={K}")
    check("yen", [S, 0, 0, 3], {}, ":s==t")
    check("yen", [sp.csr_matrix(S), 0, n - 1, 3], {"unweighted": True}, ":matrix")
    check("yen", [D, 0, n - 1, 3], {}, ":dense")


def sweep_inputs(rng):
    """Odd input kinds on every function."""
    n = 5
    D, S = graphs(rng, n)
    S64 = S.copy(); S64.indices = S64.indices.astype(np.int64); S64.indptr = S64.indptr.astype(np.int64)
    ro = D.copy(); ro.setflags(write=False)
    Sro = S.copy(); Sro.data.setflags(write=False); Sro.indices.setflags(write=False)
    Fd = np.asfortranarray(D)
    strided = np.zeros((n, 2 * n)); strided[:, ::2] = D; strided = strided[:, ::2]
    hard = np.ma.masked_array(D, mask=D == 0, hard_mask=True)
    Snan = S.copy(); Snan.data[0] = np.nan
    Sinf = S.copy(); Sinf.data[-1] = np.inf
    inputs = {"int64idx": S64, "readonly_dense": ro, "readonly_sparse": Sro, "fortran": Fd,
              "strided": strided, "hard_mask": hard, "npmatrix": np.matrix(D), "stored_nan": Snan,
              "stored_inf": Sinf, "dia": sp.dia_array(D), "bsr": sp.bsr_matrix(D),
              "dok": sp.dok_array(D), "f16": D.astype(np.float16), "int8": D.astype(np.int8),
              "uint64": D.astype(np.uint64), "bool": D.astype(bool)}
    for lab, g in inputs.items():
        calls = [("dijkstra", [], {}), ("dijkstra", [], {"indices": 0, "return_predecessors": True}),
                 ("shortest_path", [], {}), ("floyd_warshall", [], {}), ("bellman_ford", [], {}),
                 ("johnson", [], {}), ("breadth_first_order", [0], {}),
                 ("depth_first_order", [0], {}), ("breadth_first_tree", [0], {}),
                 ("depth_first_tree", [0], {}), ("connected_components", [], {}),
                 ("connected_components", [], {"connection": "strong"}),
                 ("minimum_spanning_tree", [], {}), ("laplacian", [], {}),
                 ("laplacian", [], {"normed": True}), ("reverse_cuthill_mckee", [], {}),
                 ("structural_rank", [], {}), ("maximum_bipartite_matching", [], {}),
                 ("csgraph_to_dense", [], {}), ("csgraph_to_masked", [], {}),
                 ("csgraph_from_dense", [], {}), ("csgraph_masked_from_dense", [], {}),
                 ("yen", [0, n - 1, 2], {}), ("shortest_path", [], {"overwrite": True}),
                 ("floyd_warshall", [], {"overwrite": True})]
        FORTRAN[0] = lab == "fortran"
        for fn, a, kw in calls:
            if "nan" in lab and fn in ("yen",):
                continue
            check(fn, [g] + a, kw, f":{lab}")


def sweep_large(rng):
    for n in (2000,):
        nnz = 6 * n
        r = rng.integers(0, n, nnz); c = rng.integers(0, n, nnz)
        w = np.round(rng.random(nnz) * 10 + 0.5, 2)
        S = sp.csr_array((w, (r, c)), shape=(n, n))
        for m in ("auto", "D", "J"):
            check("shortest_path", [S], {"method": m, "indices": [0, 5, 17]}, f":n{n}")
        check("shortest_path", [S], {"indices": 3, "return_predecessors": True}, f":n{n}")
        check("dijkstra", [S], {"indices": np.arange(0, n, 97), "min_only": True}, f":n{n}")
        check("connected_components", [S], {"connection": "strong"}, f":n{n}")
        check("connected_components", [S], {"directed": False}, f":n{n}")
        check("minimum_spanning_tree", [S], {}, f":n{n}")
        check("breadth_first_order", [S, 0], {}, f":n{n}")
        check("depth_first_order", [S, 0], {}, f":n{n}")
        check("reverse_cuthill_mckee", [S], {}, f":n{n}")
        check("reverse_cuthill_mckee", [S], {"symmetric_mode": True}, f":n{n}")
        check("structural_rank", [S], {}, f":n{n}")
        check("maximum_bipartite_matching", [S], {}, f":n{n}")
        check("laplacian", [S], {"normed": True}, f":n{n}")
        check("laplacian", [S.tocoo()], {"symmetrized": True}, f":n{n}")
        Ci = sp.csr_array((rng.integers(1, 100, nnz), (r, c)), shape=(n, n))
        Ci.setdiag(0); Ci.eliminate_zeros()
        check("maximum_flow", [Ci, 0, n - 1], {}, f":n{n}")
        check("maximum_flow", [Ci, 0, n - 1], {"method": "edmonds_karp"}, f":n{n}")
        D = S.toarray()
        check("shortest_path", [D], {"indices": [0, 1]}, f":dense n{n}")
        check("shortest_path", [S[:300, :300]], {}, ":auto n300")


SWEEPS = [sweep_shortest, sweep_traversal, sweep_tools, sweep_laplacian, sweep_graphalg,
          sweep_flow, sweep_paths, sweep_yen, sweep_inputs, sweep_large]


def main(argv):
    seed = int(next((a for a in argv if a.isdigit()), 0))
    only = next((a.split("=")[1] for a in argv if a.startswith("--only=")), None)
    _validation.FORCE_ENGINE = "--engine" in argv
    warnings.simplefilter("ignore")
    for sw in SWEEPS:
        if only and only not in sw.__name__:
            continue
        before = len(DIFFS)
        sw(np.random.default_rng(seed))
        print(f"# {sw.__name__}: {len(DIFFS) - before} diffs, {N_CALLS[0]} calls so far", flush=True)
    for why, k in DOCUMENTED.items():
        print(f"# documented: {why}: {k}")
    print(f"# total: {len(DIFFS)} diffs in {N_CALLS[0]} calls (seed {seed}, engine={_validation.FORCE_ENGINE})")
    return 1 if DIFFS else 0



def sweep_misc(rng):
    """Keyword values of odd types, on every function that takes them."""
    n = 5
    D, S = graphs(rng, n)
    Dn = np.where(D > 0, D - 4, 0.0)
    Sn = sp.csr_array(Dn)
    for d in (np.bool_(True), np.bool_(False), 0, 1, None, "yes", np.array(True), 2):
        for fn, a, kw in (("dijkstra", [], {}), ("shortest_path", [], {}),
                          ("floyd_warshall", [], {}), ("johnson", [], {}),
                          ("bellman_ford", [], {}), ("breadth_first_order", [0], {}),
                          ("depth_first_tree", [0], {}), ("connected_components", [], {}),
                          ("reconstruct_path", [scg.dijkstra(S, indices=0,
                                                             return_predecessors=True)[1]], {})):
            check(fn, [S] + a, {"directed": d, **kw}, f":directed={d!r}")
        for fn in ("dijkstra", "shortest_path", "bellman_ford", "johnson", "floyd_warshall"):
            check(fn, [S], {"return_predecessors": d}, f":rp={d!r}")
            check(fn, [S], {"unweighted": d}, f":unw={d!r}")
        check("breadth_first_order", [S, 0], {"return_predecessors": d}, f":rp={d!r}")
        check("connected_components", [S], {"return_labels": d}, f":rl={d!r}")
        check("laplacian", [S], {"normed": d}, f":normed={d!r}")
        check("laplacian", [S], {"symmetrized": d}, f":sym={d!r}")
        check("laplacian", [S], {"use_out_degree": d}, f":uod={d!r}")
        check("laplacian", [S], {"return_diag": d}, f":rd={d!r}")
        check("min_weight_full_bipartite_matching", [S + sp.eye_array(n)], {"maximize": d}, f":max={d!r}")
    for m in ("d", "fw", "Dijkstra", "", None, "BF ", "auto", "A", 3):
        check("shortest_path", [S], {"method": m}, f":method={m!r}")
    for lim in (np.array(3.0), np.array([3.0]), "inf", None, 3 + 0j, np.float16(2), True):
        check("dijkstra", [S], {"limit": lim}, f":limit={lim!r}")
    for idx in ([], None, np.array([], int)):
        check("dijkstra", [S], {"indices": idx, "min_only": True}, f":idx={idx!r}")
        check("dijkstra", [S], {"indices": idx, "min_only": True, "return_predecessors": True},
              f":idx={idx!r}")
    check("dijkstra", [S], {"indices": [2, 2, 0], "min_only": True, "return_predecessors": True})
    check("johnson", [Sn], {"indices": [2, 2, 0], "return_predecessors": True}, ":neg")
    check("bellman_ford", [Sn], {"indices": [2, 2, 0], "return_predecessors": True}, ":neg")
    check("shortest_path", [Sn], {"indices": [2, 2, 0], "method": "auto"}, ":neg")
    check("shortest_path", [Dn], {"method": "auto"}, ":neg dense")
    check("floyd_warshall", [Sn], {"return_predecessors": True}, ":neg")
    for nv in ("0", None, [0], np.array(0.0)):
        check("csgraph_from_dense", [D], {"null_value": nv}, f":nv={nv!r}")
        check("csgraph_to_dense", [S], {"null_value": nv}, f":nv={nv!r}")
    check("csgraph_from_dense", [D.tolist()], {}, ":list")
    check("csgraph_from_dense", [D.astype(int)], {"null_value": 0.5}, ":int nv=0.5")
    check("csgraph_masked_from_dense", [D.astype(int)], {"null_value": 0.5}, ":int nv=0.5")
    check("csgraph_from_dense", [D.astype(int)], {"null_value": np.nan}, ":int nv=nan")
    check("csgraph_from_dense", [D.astype(np.float32)], {"null_value": 1e-9}, ":f32")
    check("csgraph_from_dense", [D.astype(bool)], {}, ":bool")
    check("csgraph_from_dense", [D.astype(np.complex128)], {}, ":complex")
    for st in ([], [[]], [[1.0]], 3.0, "x"):
        for fn in ("dijkstra", "connected_components", "csgraph_from_dense", "laplacian",
                   "minimum_spanning_tree"):
            check(fn, [st], {}, f":{st!r}")
    for conn in ("weak", "strong"):
        for nsq in (np.ones((2, 3)), sp.csr_array(np.ones((3, 2)))):
            check("connected_components", [nsq], {"connection": conn}, ":non-square")
            check("breadth_first_order", [nsq, 0], {}, ":non-square")
            check("minimum_spanning_tree", [nsq], {}, ":non-square")
            check("laplacian", [nsq], {}, ":non-square")
            check("dijkstra", [nsq], {}, ":non-square")
            check("reverse_cuthill_mckee", [nsq], {}, ":non-square")
    # ties of equal weights for MST, zero-weight self loops, explicit zeros only
    Z = sp.csr_array((np.zeros(3), ([0, 1, 2], [1, 2, 0])), shape=(3, 3))
    for fn, a in (("minimum_spanning_tree", []), ("dijkstra", []), ("connected_components", []),
                  ("breadth_first_tree", [0]), ("depth_first_tree", [0]), ("laplacian", []),
                  ("maximum_bipartite_matching", []), ("structural_rank", []),
                  ("reverse_cuthill_mckee", []), ("csgraph_to_dense", []),
                  ("min_weight_full_bipartite_matching", []), ("maximum_flow", [0, 2]),
                  ("floyd_warshall", []), ("johnson", []), ("bellman_ford", []),
                  ("yen", [0, 2, 2])):
        check(fn, [Z] + a, {}, ":explicit zeros")
        check(fn, [sp.csr_matrix(Z)] + a, {}, ":explicit zeros matrix")
        if fn != "maximum_flow" and fn != "min_weight_full_bipartite_matching":
            check(fn, [Z.astype(np.int32)] + a, {}, ":explicit zeros int32")


SWEEPS.append(sweep_misc)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
