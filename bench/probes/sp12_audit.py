"""Session 18 (sp12): fourth adversarial audit of ``algorithms.csgraph`` against SciPy 1.17.1, on
both host paths (SciPy path; engine path with ``_validation.FORCE_ENGINE``).

Where ``csgraph_conformance.py`` draws graphs/input kinds and ``csgraph_args_audit.py`` the
other arguments, this draws what neither compared:

- the *flags* of every array answer (C/F-contiguous, writeable, owns its data or not in
  the sense "shares memory with the caller's input") and of sparse answers
  (``has_sorted_indices``, ``has_canonical_format``, index dtypes, the answer's arrays
  shared with the input), beyond value/dtype/shape/class;
- input containers not drawn before: big-endian dtypes (dense and sparse data), 1×N/N×1/1×1
  shapes, object arrays, sparse arrays with int64 indices on every function, DIA/BSR with
  stored zeros, non-contiguous sparse data arrays, ``numpy.matrix`` on every function, masked
  arrays of big-endian data;
- keyword combinations: ``return_predecessors`` + ``unweighted`` + ``overwrite`` +
  ``directed`` on every shortest-path function, ``limit`` with distances tied at the limit,
  ``min_only`` + ``return_predecessors`` + ``limit``, Johnson/Bellman–Ford negative weights
  with unreachable parts and negative cycles reachable or not from ``indices``, yen's K past
  the number of paths and ``source == sink`` with ``return_predecessors``, maximum_flow's
  result attributes (types of ``flow_value``, ``flow``'s class/format/dtype/flags) on int32
  capacities summing past 2³¹, both matchings on non-square and infeasible inputs, trees
  of int/bool/float32 input;
- the error's class where SciPy raises, and the caller's arguments unchanged.

Usage: PYTHONPATH=. python3 bench/probes/sp12_audit.py [SEED=0] [--engine] [--only=NAME] [-v]
Prints one ``DIFF`` line per discrepancy; exit status 1 if any."""
from __future__ import annotations

import re
import sys
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

sys.path.insert(0, "bench/probes")
import csgraph_args_audit as base  # noqa: E402
from csgraph_args_audit import DIFFS, check  # noqa: E402
from csgraph_conformance import same  # noqa: E402

from algorithms.csgraph import _validation  # noqa: E402

FLAG_DIFFS = []
_base_documented = base.documented


def documented(name, kw, got, ref):
    """csgraph_args_audit's documented deviations plus those this sweep reaches (the module
    docstring of ``algorithms.csgraph`` and each function's)."""
    why = _base_documented(name, kw, got, ref)
    if why:
        return why
    if got[0] == "err" and "real or complex dtype, got object" in str(got[1]):
        return "object arrays refused (SciPy's laplacian computes with them)"
    if got[0] == ref[0] == "err" and "got ndarray of" in str(got[1]) and isinstance(
            got[1], TypeError) and "must be sparse" in str(ref[1]):
        return "object arrays refused where SciPy refuses every dense input"
    if name == "yen" and got[0] == "ok" and ref[0] == "err" and "Invalid shape" in str(ref[1]):
        return "SciPy's yen fails on a graph without edges (yen's docstring)"
    if name == "yen" and got[0] == ref[0] == "ok" and same(got[1][0], ref[1][0]) is None:
        return "yen: another order among paths of equal length (yen's docstring)"
    if (name == "reverse_cuthill_mckee" and kw.get("symmetric_mode") and got[0] == "err"
            and "square" in str(got[1])):
        return "reverse_cuthill_mckee(symmetric_mode=True) of a non-square graph refused"
    if name == "min_weight_full_bipartite_matching" and "too far apart" in str(got[1]):
        return "min_weight_full_bipartite_matching: weights too far apart (LAPJVSP_MAX_SPREAD)"
    if (got[0] == "err" and ref[0] == "ok" and (
            "must be 'row' or 'column'" in str(got[1])
            or re.search(r"must be an integer, got (Fraction|Decimal|float|bool)$", str(got[1]))
            or re.search(r"must be integers, got (True|1\.5|array\(True|Fraction\(3, 2\)|"
                         r"Decimal\('1\.5'\))", str(got[1])))):
        return "bools, non-integral vertices and odd perm_type refused (module docstring)"
    if got[0] == ref[0] == "err" and isinstance(got[1], TypeError) and (
            "NaN" in str(ref[1]) or "InvalidOperation" in type(ref[1]).__name__):
        return "Decimal('NaN') vertex: our TypeError, SciPy's ValueError from int()"
    return None


base.documented = documented


def _leaves(x):
    """The arrays and sparse matrices of an answer, in order."""
    if isinstance(x, tuple) or type(x).__name__.endswith("Result"):
        if hasattr(x, "flow_value"):
            return [x.flow_value, x.flow]
        out = []
        for y in x:
            out += _leaves(y)
        return out
    return [x]


def _arrays_of(x):
    if sp.issparse(x):
        return [getattr(x, a) for a in ("data", "indices", "indptr", "row", "col", "coords")
                if isinstance(getattr(x, a, None), np.ndarray)]
    if isinstance(x, np.ndarray):
        return [np.ma.getdata(x)]
    return []


def _shares(out, inputs) -> bool:
    return any(np.shares_memory(o, i) for o in _arrays_of(out) for a in inputs
               for i in _arrays_of(a))


def flags_of(x, inputs):
    """What of an answer's leaf a caller can observe beyond its values."""
    if isinstance(x, np.ndarray):
        f = x.flags
        return dict(C=f.c_contiguous, F=f.f_contiguous, W=f.writeable, bo=x.dtype.byteorder,
                    shares=_shares(x, inputs), cls=type(x).__name__)
    if sp.issparse(x):
        d = dict(cls=type(x).__name__, fmt=x.format, shares=_shares(x, inputs),
                 W=all(a.flags.writeable for a in _arrays_of(x)), bo=x.dtype.byteorder)
        if x.format in ("csr", "csc"):
            d.update(sorted=bool(x.has_sorted_indices), canon=bool(x.has_canonical_format),
                     idx=str(x.indices.dtype), ptr=str(x.indptr.dtype))
        if x.format == "coo":
            d.update(idx=str(x.row.dtype))
        return d
    return dict(cls=type(x).__name__)


def check4(name, args, kw=None, label=""):
    """check() of csgraph_args_audit plus the answers' flags and sharing with the input."""
    kw = kw or {}
    got, ref = check(name, args, kw, label)
    if got[0] == ref[0] == "ok":
        # the answers of both were computed on copies: compare sharing with those copies is
        # impossible, so call both again on the same originals (neither may mutate them:
        # check() already verified ours)
        import copy as _c
        a1 = [_c.copy(a) if not isinstance(a, np.ndarray) else a for a in args]
        b1 = [a.copy() if isinstance(a, np.ndarray) or sp.issparse(a) else a for a in args]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                g = getattr(base.csgraph, name)(*a1, **kw)
                r = getattr(scg, name)(*b1, **kw)
            except Exception:  # noqa: BLE001
                return got, ref
        gl, rl = _leaves(g), _leaves(r)
        for k, (x, y) in enumerate(zip(gl, rl)):
            fx, fy = flags_of(x, a1), flags_of(y, b1)
            if fx != fy:
                # SciPy on its copy b1 vs ours on the caller's own a1: sharing compared alike
                bad = {k2: (fx.get(k2), fy.get(k2)) for k2 in set(fx) | set(fy)
                       if fx.get(k2) != fy.get(k2)}
                if (set(bad) == {"shares"} and bad["shares"] == (False, True)
                        and (kw.get("overwrite") or kw.get("copy") is False)):
                    why = "never mutates: overwrite=True / copy=False answer a new array"
                    base.DOCUMENTED[why] = base.DOCUMENTED.get(why, 0) + 1
                    continue
                msg = f"FLAGS {name}{label} kw={kw!r:.120} leaf {k}: ours/scipy {bad}"
                if msg not in FLAG_DIFFS:
                    FLAG_DIFFS.append(msg)
                    DIFFS.append(msg)
                    print(msg, flush=True)
    return got, ref


def graph(rng, n, density=0.35, lo=1, hi=9, integral=True):
    M = rng.random((n, n)) < density
    W = rng.integers(lo, hi + 1, (n, n)).astype(float) if integral else \
        np.round(rng.random((n, n)) * (hi - lo) + lo, 2)
    D = np.where(M, W, 0.0)
    return D, sp.csr_array(D)


# ------------------------------------------------------------------------------ sweeps


def sweep_flags(rng):
    """Every function's answer flags on plain inputs of several kinds."""
    n = 6
    D, S = graph(rng, n)
    Dn = np.where(D > 0, D - 2, 0.0)
    Dn[Dn < 0] = np.where(rng.random((Dn < 0).sum()) < 0.5, 1.0, Dn[Dn < 0])
    np.fill_diagonal(Dn, 0)
    inputs = {"csr": S, "csr_matrix": sp.csr_matrix(S), "dense": D, "coo": S.tocoo(),
              "csc": S.tocsc(), "masked": np.ma.masked_equal(D, 0), "npmatrix": np.matrix(D),
              "f32": D.astype(np.float32), "i32csr": S.astype(np.int32)}
    for lab, G in inputs.items():
        for d in (True, False):
            for rp in (True, False):
                for u in (True, False):
                    for fn in ("dijkstra", "bellman_ford", "johnson", "floyd_warshall"):
                        check4(fn, [G], dict(directed=d, return_predecessors=rp, unweighted=u),
                               f":{lab}")
                        if fn != "floyd_warshall":
                            for idx in (2, [2], np.array(2), [0, 3, 0], np.array([[1, 2]])):
                                check4(fn, [G], dict(directed=d, return_predecessors=rp,
                                                     unweighted=u, indices=idx), f":{lab}")
                    for m in ("auto", "FW", "D", "BF", "J"):
                        check4("shortest_path", [G], dict(method=m, directed=d,
                                                          return_predecessors=rp, unweighted=u,
                                                          overwrite=True), f":{lab}")
                check4("dijkstra", [G], dict(directed=d, return_predecessors=rp, min_only=True,
                                             indices=[0, 3], limit=4.0), f":{lab}")
                check4("breadth_first_order", [G, 1], dict(directed=d, return_predecessors=rp),
                       f":{lab}")
                check4("depth_first_order", [G, 1], dict(directed=d, return_predecessors=rp),
                       f":{lab}")
            check4("breadth_first_tree", [G, 0], dict(directed=d), f":{lab}")
            check4("depth_first_tree", [G, 0], dict(directed=d), f":{lab}")
            check4("connected_components", [G], dict(directed=d), f":{lab}")
            check4("connected_components", [G], dict(directed=d, connection="strong"), f":{lab}")
        check4("minimum_spanning_tree", [G], {}, f":{lab}")
        check4("minimum_spanning_tree", [G], {"overwrite": True}, f":{lab}")
        check4("reverse_cuthill_mckee", [G], {}, f":{lab}")
        check4("structural_rank", [G], {}, f":{lab}")
        check4("maximum_bipartite_matching", [G], {}, f":{lab}")
        check4("maximum_bipartite_matching", [G], {"perm_type": "column"}, f":{lab}")
        check4("min_weight_full_bipartite_matching", [G + 0 * np.eye(n) if not sp.issparse(G)
                                                      else G], {}, f":{lab}")
        check4("csgraph_to_dense", [G], {}, f":{lab}")
        check4("csgraph_to_dense", [G], {"null_value": np.inf}, f":{lab}")
        check4("csgraph_to_masked", [G], {}, f":{lab}")
        check4("csgraph_from_dense", [G], {}, f":{lab}")
        check4("csgraph_masked_from_dense", [G], {}, f":{lab}")
        check4("csgraph_masked_from_dense", [G], {"copy": False}, f":{lab}")
        if isinstance(G, np.ma.MaskedArray):
            check4("csgraph_from_masked", [G], {}, f":{lab}")
        for normed in (False, True):
            for rd in (False, True):
                for form in ("array", "function", "lo"):
                    for cp in (True, False):
                        check4("laplacian", [G], dict(normed=normed, return_diag=rd, form=form,
                                                      copy=cp), f":{lab}")
        d, P = scg.shortest_path(S, return_predecessors=True)
        check4("reconstruct_path", [G, P[2]], {}, f":{lab}")
        check4("reconstruct_path", [G, P[2]], {"directed": False}, f":{lab}")
        check4("construct_dist_matrix", [G, P], {}, f":{lab}")
        check4("yen", [G, 0, n - 1, 3], {}, f":{lab}")
        check4("yen", [G, 0, n - 1, 3], {"return_predecessors": True, "directed": False},
               f":{lab}")
    Ci = (D > 0).astype(np.int32) * rng.integers(1, 5, (n, n)).astype(np.int32)
    np.fill_diagonal(Ci, 0)
    for cls in (sp.csr_array, sp.csr_matrix):
        for m in ("dinic", "edmonds_karp"):
            check4("maximum_flow", [cls(Ci), 0, n - 1], {"method": m}, f":{cls.__name__}")


def sweep_containers(rng):
    """Big-endian, 1×N/N×1, object arrays, int64 indices, non-contiguous sparse data."""
    n = 5
    D, S = graph(rng, n)
    be = D.astype(">f8")
    # (scipy.sparse refuses big-endian data; index arrays it keeps as given)
    Sbe_i = sp.csr_array((S.data, S.indices.astype(">i4"), S.indptr.astype(">i4")),
                         shape=S.shape)
    S64 = S.copy(); S64.indices = S64.indices.astype(np.int64); S64.indptr = S64.indptr.astype(np.int64)
    big = np.zeros(2 * S.nnz); big[::2] = S.data
    Sstr = sp.csr_array((big[::2], S.indices, S.indptr), shape=S.shape)
    coo64 = S.tocoo(); coo64.row = coo64.row.astype(np.int64); coo64.col = coo64.col.astype(np.int64)
    Dz = D.copy(); Dz[0, 1] = 0
    Sz = sp.csr_array((np.r_[S.data, 0.0], np.r_[S.indices, 4], np.r_[S.indptr[:-1], S.nnz + 1]),
                      shape=(n, n)) if False else S
    ins = {"dense>f8": be, "dense>i4": D.astype(">i4"), "csr>i4idx": Sbe_i,
           "csr_int64idx": S64, "csr_strided_data": Sstr, "coo_int64": coo64,
           "masked>f8": np.ma.masked_equal(be, 0), "dia": sp.dia_array(D), "bsr22": sp.bsr_array(
               np.pad(D, ((0, 1), (0, 1)))[:n + 1, :n + 1], blocksize=(2, 2)) if False else
           sp.bsr_array(D), "object": D.astype(object), "1x1": np.array([[3.0]]),
           "1x1sparse": sp.csr_array(np.array([[0.0]])), "f16": D.astype(np.float16),
           "uint16": D.astype(np.uint16), "longdouble": D.astype(np.longdouble)}
    calls = [("dijkstra", [], {}), ("dijkstra", [], {"indices": 0, "return_predecessors": True}),
             ("shortest_path", [], {"method": "FW"}), ("shortest_path", [], {}),
             ("bellman_ford", [], {"indices": [0]}), ("johnson", [], {"indices": 0}),
             ("floyd_warshall", [], {"return_predecessors": True}),
             ("breadth_first_order", [0], {}), ("depth_first_order", [0], {"directed": False}),
             ("breadth_first_tree", [0], {}), ("depth_first_tree", [0], {"directed": False}),
             ("connected_components", [], {}),
             ("connected_components", [], {"connection": "strong"}),
             ("minimum_spanning_tree", [], {}), ("laplacian", [], {}),
             ("laplacian", [], {"normed": True, "return_diag": True}),
             ("laplacian", [], {"form": "lo", "symmetrized": True}),
             ("reverse_cuthill_mckee", [], {}), ("reverse_cuthill_mckee", [], {"symmetric_mode": True}),
             ("structural_rank", [], {}), ("maximum_bipartite_matching", [], {}),
             ("min_weight_full_bipartite_matching", [], {}),
             ("csgraph_to_dense", [], {}), ("csgraph_to_masked", [], {}),
             ("csgraph_from_dense", [], {}), ("csgraph_masked_from_dense", [], {}),
             ("yen", [0, 0, 2], {}), ("maximum_flow", [0, 0], {})]
    for lab, G in ins.items():
        for fn, a, kw in calls:
            if lab.startswith("1x1") and fn == "yen":
                a = [0, 0, 2]
            check4(fn, [G] + a, kw, f":{lab}")
    # 1×N and N×1 graphs: non-square (SciPy's error class) on square-only functions
    for shp in ((1, 4), (4, 1), (1, 0), (0, 1)):
        M = np.ones(shp)
        for G, lab in ((M, "dense"), (sp.csr_array(M), "csr"), (sp.coo_matrix(M), "coo")):
            for fn, a, kw in calls:
                if fn in ("yen", "maximum_flow"):
                    a = [0, 0] if fn == "maximum_flow" else [0, 0, 1]
                check4(fn, [G] + a, kw, f":{lab}{shp}")
    # maximum_flow: int32 capacities, flows summing past 2**31 - 1 through distinct edges
    big = 2 ** 31 - 1
    C = np.zeros((4, 4), np.int32)
    C[0, 1] = C[0, 2] = C[1, 3] = C[2, 3] = big
    for cls in (sp.csr_array, sp.csr_matrix):
        for m in ("dinic", "edmonds_karp"):
            check4("maximum_flow", [cls(C), 0, 3], {"method": m}, f":overflow {cls.__name__}")
            check4("maximum_flow", [cls(C.astype(np.int64)), 0, 3], {"method": m},
                   f":int64 {cls.__name__}")
    # flows with negative capacities, self loops and antiparallel edges
    C2 = np.array([[0, 3, 0, 1], [2, 5, 4, 0], [0, 0, 0, 2], [0, 0, 0, 0]], np.int32)
    for m in ("dinic", "edmonds_karp"):
        check4("maximum_flow", [sp.csr_array(C2), 0, 3], {"method": m}, ":selfloop")
        check4("maximum_flow", [sp.csr_array(-C2), 0, 3], {"method": m}, ":negative")
        check4("maximum_flow", [sp.csr_array(C2.astype(np.float64)), 0, 3], {"method": m}, ":float")
        check4("maximum_flow", [sp.csr_array(C2.astype(np.float64) + 0.5 * (C2 > 0)), 0, 3],
               {"method": m}, ":nonintegral")
        check4("maximum_flow", [C2, 0, 3], {"method": m}, ":dense")
        check4("maximum_flow", [sp.csc_array(C2), 0, 3], {"method": m}, ":csc")
        check4("maximum_flow", [sp.coo_array(C2), 0, 3], {"method": m}, ":coo")
        Cu = sp.csr_array(C2); Cu.indices = Cu.indices[::-1].copy() if False else Cu.indices
        check4("maximum_flow", [sp.csr_array(C2.T), 3, 0], {"method": m}, ":T")


def sweep_keywords(rng):
    """Keyword combinations on crafted graphs."""
    # limit exactly tied with a distance; paths through the limit
    D = np.zeros((5, 5))
    D[0, 1] = 2.0; D[1, 2] = 1.0; D[0, 2] = 3.0; D[2, 3] = 0.5; D[0, 4] = 3.0 + 1e-12
    S = sp.csr_array(D)
    for lim in (2.0, 3.0, 3.5, 3.0 + 1e-12, np.nextafter(3.0, 0), 0.0, 1e-300):
        for mo in (False, True):
            for rp in (False, True):
                for d in (True, False):
                    for u in (False, True):
                        for idx in (None, 0, [0, 2], [3], np.array([], np.int64)):
                            if idx is None and mo:
                                continue
                            check("dijkstra", [S], dict(limit=lim, min_only=mo,
                                                        return_predecessors=rp, directed=d,
                                                        unweighted=u, indices=idx), ":tie")
    # negative weights: Johnson / Bellman–Ford with unreachable parts, cycles reachable or not
    N = np.zeros((6, 6))
    N[0, 1] = 2; N[1, 2] = -1; N[2, 3] = 4; N[4, 5] = -2; N[5, 4] = 1  # 4<->5 cycle of -1
    for d in (True,):
        for fn in ("bellman_ford", "johnson"):
            for idx in (None, 0, [0, 1], 4, 5, [0, 4], [3], -2):
                for rp in (False, True):
                    for G, lab in ((sp.csr_array(N), "csr"), (N, "dense"),
                                   (sp.csr_matrix(N), "mat")):
                        check(fn, [G], dict(indices=idx, return_predecessors=rp, directed=d),
                              f":negcycle {lab}")
                        check(fn, [G], dict(indices=idx, return_predecessors=rp, directed=d,
                                            unweighted=True), f":negcycle {lab}")
            for m in ("auto", "BF", "J", "FW"):
                for idx in (None, 0, 4):
                    if m == "FW" and idx is not None:
                        continue
                    check("shortest_path", [sp.csr_array(N)], dict(method=m, indices=idx),
                          ":negcycle")
    N2 = N.copy(); N2[5, 4] = 3  # no cycle: negative edge, unreachable from 0
    for fn in ("bellman_ford", "johnson", "floyd_warshall", "shortest_path"):
        for rp in (False, True):
            for d in (True, False):
                kw = dict(return_predecessors=rp, directed=d)
                if fn != "floyd_warshall":
                    for idx in (None, 0, [4, 0], 5):
                        check(fn, [sp.csr_array(N2)], dict(kw, indices=idx), ":neg no cycle")
                else:
                    check(fn, [sp.csr_array(N2)], kw, ":neg no cycle")
    # Johnson on a negative-weight DAG where reweighting creates zero-cost edges and ties
    J = np.zeros((5, 5))
    J[0, 1] = -1; J[1, 2] = -1; J[0, 2] = -2; J[2, 3] = 1; J[0, 3] = -1; J[3, 4] = -5
    for idx in (None, 0, [0, 0, 3], 4):
        for rp in (False, True):
            check("johnson", [sp.csr_array(J)], dict(indices=idx, return_predecessors=rp), ":ties")
            check("bellman_ford", [sp.csr_array(J)], dict(indices=idx, return_predecessors=rp),
                  ":ties")
    # yen: K past the number of paths, source == sink, unreachable sink, negative weights
    Y = np.zeros((5, 5))
    Y[0, 1] = 1; Y[1, 4] = 1; Y[0, 2] = 1; Y[2, 4] = 1; Y[0, 4] = 3; Y[1, 2] = 0.5
    for K in (1, 2, 4, 5, 6, 100):
        for s, t in ((0, 4), (0, 0), (4, 0), (3, 3), (0, 3), (-5, 4), (np.int32(0), np.uint8(4))):
            for d in (True, False):
                for rp in (False, True):
                    for u in (False, True):
                        check("yen", [sp.csr_array(Y), s, t, K],
                              dict(directed=d, return_predecessors=rp, unweighted=u),
                              f":K={K} {s}->{t}")
    Yn = Y.copy(); Yn[1, 2] = -0.5
    for rp in (False, True):
        check("yen", [sp.csr_array(Yn), 0, 4, 4], dict(return_predecessors=rp), ":neg")
    # matchings: non-square, infeasible, maximize, ties
    for shp in ((2, 4), (4, 2), (3, 3), (1, 5)):
        B = rng.integers(0, 3, shp).astype(float)
        for maxi in (False, True):
            for G in (sp.csr_array(B), sp.csr_matrix(B), sp.coo_array(B), B):
                check("min_weight_full_bipartite_matching", [G], {"maximize": maxi}, f":{shp}")
                check("maximum_bipartite_matching", [G], {"perm_type": "row"}, f":{shp}")
                check("maximum_bipartite_matching", [G], {"perm_type": "column"}, f":{shp}")
    inf = sp.csr_array(np.array([[1.0, 0, 0], [1.0, 0, 0], [0, 1.0, 1.0]]))
    for maxi in (False, True):
        check("min_weight_full_bipartite_matching", [inf], {"maximize": maxi}, ":infeasible")
        check("min_weight_full_bipartite_matching", [sp.csr_array(-inf.toarray())],
              {"maximize": maxi}, ":negative infeasible")
    Bn = sp.csr_array(np.array([[-1.0, 2.0], [3.0, -4.0]]))
    for maxi in (False, True):
        check("min_weight_full_bipartite_matching", [Bn], {"maximize": maxi}, ":negative")
        check("min_weight_full_bipartite_matching", [Bn.T], {"maximize": maxi}, ":T")
    # traversal trees of int / bool / float32 / negative / explicit-zero weights
    T = np.array([[0, 3, 0, 0], [0, 0, -2, 0], [1, 0, 0, 5], [0, 0, 0, 0]])
    for dt in (np.int32, np.int64, np.float32, bool, np.int8, np.uint8):
        for G in (sp.csr_array(T.astype(dt) if dt is not np.uint8 else np.abs(T).astype(dt)),
                  T.astype(dt) if dt is not np.uint8 else np.abs(T).astype(dt)):
            for d in (True, False):
                check("breadth_first_tree", [G, 0], {"directed": d}, f":{np.dtype(dt).name}")
                check("depth_first_tree", [G, 0], {"directed": d}, f":{np.dtype(dt).name}")
                check("breadth_first_order", [G, 3], {"directed": d, "return_predecessors": False},
                      f":{np.dtype(dt).name}")
            check("minimum_spanning_tree", [G], {}, f":{np.dtype(dt).name}")
            check("connected_components", [G], {"connection": "strong"}, f":{np.dtype(dt).name}")
    # laplacian: every keyword on int / negative / asymmetric input
    L = np.array([[0, 2, 0], [1, 0, -3], [0, 0, 0]])
    for dt in (np.int32, np.float32, np.float64, np.complex64):
        for G in (L.astype(dt), sp.csr_array(L.astype(dt)), sp.coo_matrix(L.astype(dt))):
            for normed in (False, True):
                for uod in (False, True):
                    for sym in (False, True):
                        for form in ("array", "function", "lo"):
                            for rd in (False, True):
                                for ddt in (None, np.float32, np.int64):
                                    check("laplacian", [G], dict(
                                        normed=normed, use_out_degree=uod, symmetrized=sym,
                                        form=form, return_diag=rd, dtype=ddt),
                                        f":{np.dtype(dt).name} {type(G).__name__}")
    # reconstruct_path / construct_dist_matrix on their own keyword ranges
    G = sp.csr_array(np.array([[0, 1.0, 0], [0, 0, 2.0], [4.0, 0, 0]]))
    for d in (True, False):
        dist, P = scg.dijkstra(G, directed=d, return_predecessors=True)
        for nv in (np.inf, 0.0, -1.0, np.nan, -np.inf, 7):
            for g, lab in ((G, "csr"), (G.toarray(), "dense"), (sp.csr_matrix(G), "mat"),
                           (G.tocoo(), "coo")):
                check("construct_dist_matrix", [g, P], dict(directed=d, null_value=nv), f":{lab}")
        for row in (P[0], P[1], P[0:1], P, np.ma.masked_array(P[0], mask=P[0] < 0),
                    np.ma.masked_array(P[1], mask=[True, False, False])):
            for g in (G, G.toarray()):
                # (masked predecessors: SciPy's own answer on them is an IndexError or rows
                # built from the unsorted masked tail; ours is SciPy's answer on the data)
                check("reconstruct_path", [g, row], dict(directed=d), ":rows",
                      ref_args=[g, np.ma.getdata(row)])
    # csgraph_from_dense / masked / to_dense with every null rule on odd values
    F = np.array([[0, np.inf, -np.inf], [np.nan, 1e-9, 2.0], [5.0, -0.0, 0]])
    for nv in (0, np.inf, -np.inf, np.nan, 2.0, 1e-9, -0.0):
        for nn in (True, False):
            for inn in (True, False):
                for g in (F, F.astype(np.float32), F.astype(">f8"), np.matrix(F),
                          F.tolist()):
                    kw = dict(null_value=nv, nan_null=nn, infinity_null=inn)
                    check("csgraph_from_dense", [g], kw, f":{type(g).__name__}")
                    check("csgraph_masked_from_dense", [g], kw, f":{type(g).__name__}")
    for nv in (0, np.inf, -1.0, np.nan):
        for g in (sp.csr_array(np.array([[0, 1.0], [2.0, 0]])),
                  sp.csr_array((np.array([0.0, 1.0]), np.array([0, 1]), np.array([0, 1, 2])),
                               shape=(2, 2)),
                  sp.csr_array((np.array([1.0, 5.0]), np.array([1, 1]), np.array([0, 2, 2])),
                               shape=(2, 2)),
                  sp.coo_array((np.array([1.0, 5.0]), (np.array([0, 0]), np.array([1, 1]))),
                               shape=(2, 2))):
            check("csgraph_to_dense", [g], {"null_value": nv}, ":dup/zero")
            check("csgraph_to_masked", [g], {}, ":dup/zero")
    # connected_components: 'WEAK' / 'Strong' etc. on the engine path, directed strings
    for conn in ("weak", "strong", "WEAK", "STRONG", " weak", "strongly"):
        check("connected_components", [S], {"connection": conn}, f":{conn!r}")
    # shortest_path with indices arrays of every dtype/shape on FW (SciPy ignores? raises?)
    for idx in (0, [0, 1], np.array([[0], [1]])):
        check("shortest_path", [S], {"method": "FW", "indices": idx}, ":FW indices")
        check("shortest_path", [S.toarray()], {"method": "FW", "indices": idx}, ":FW indices dense")
        check("shortest_path", [S.toarray()], {"method": "auto", "indices": idx}, ":auto idx dense")


def sweep_random(rng):
    """Random graphs (n up to 40) × random keyword combinations, comparing flags too."""
    for trial in range(60):
        n = int(rng.integers(1, 40))
        dens = float(rng.choice([0.05, 0.15, 0.5]))
        D, S = graph(rng, n, dens, lo=int(rng.choice([0, 1])), hi=int(rng.choice([1, 3, 9])),
                     integral=bool(rng.integers(2)))
        kind = rng.integers(0, 4)
        G = (S, sp.csr_matrix(S), D, S.tocoo())[kind]
        idx = [None, int(rng.integers(0, n)), list(rng.integers(0, n, 3)),
               rng.integers(-n, n, (2, 2))][int(rng.integers(0, 4))]
        d, rp, u = (bool(x) for x in rng.integers(0, 2, 3))
        for fn in ("dijkstra", "bellman_ford", "johnson"):
            check4(fn, [G], dict(indices=idx, directed=d, return_predecessors=rp, unweighted=u),
                   f":rand n{n}")
        lim = float(rng.choice([np.inf, 1.0, 2.0, 3.0, 5.5]))
        if idx is not None:
            check4("dijkstra", [G], dict(indices=idx, directed=d, return_predecessors=rp,
                                         unweighted=u, limit=lim, min_only=True), f":rand n{n}")
        check4("floyd_warshall", [G], dict(directed=d, return_predecessors=rp, unweighted=u),
               f":rand n{n}")
        check4("shortest_path", [G], dict(directed=d, return_predecessors=rp, unweighted=u,
                                          indices=idx), f":rand n{n}")
        s = int(rng.integers(0, n))
        check4("breadth_first_tree", [G, s], dict(directed=d), f":rand n{n}")
        check4("depth_first_tree", [G, s], dict(directed=d), f":rand n{n}")
        check4("depth_first_order", [G, s], dict(directed=d, return_predecessors=rp),
               f":rand n{n}")
        check4("minimum_spanning_tree", [G], {}, f":rand n{n}")
        _, pr = scg.breadth_first_order(S, s, directed=d)
        for pk in (pr, pr.astype(np.int64)):
            check4("reconstruct_path", [G, pk], dict(directed=d), f":rand n{n} {pk.dtype}")
        check4("connected_components", [G], dict(directed=d, connection="strong"), f":rand n{n}")
        check4("reverse_cuthill_mckee", [G], dict(symmetric_mode=d), f":rand n{n}")
        check4("laplacian", [G], dict(normed=d, use_out_degree=rp, symmetrized=u), f":rand n{n}")
        if n > 1:
            check4("yen", [G, 0, n - 1, int(rng.integers(1, 6))],
                   dict(directed=d, return_predecessors=rp, unweighted=u), f":rand n{n}")
        C = (D > 0).astype(np.int32) * rng.integers(1, 9, (n, n)).astype(np.int32)
        np.fill_diagonal(C, 0)
        if n > 1:
            check4("maximum_flow", [sp.csr_array(C), 0, n - 1],
                   dict(method=str(rng.choice(["dinic", "edmonds_karp"]))), f":rand n{n}")


def sweep_large(rng):
    """Graphs of 300-1500 vertices (integral weights: many ties) × keyword combinations."""
    for n, deg in ((300, 3), (800, 2), (1500, 6)):
        m = n * deg
        r, c = rng.integers(0, n, m), rng.integers(0, n, m)
        w = rng.integers(1, 4, m).astype(float)
        S = sp.csr_array((w, (r, c)), shape=(n, n))
        Sm = sp.csr_matrix(S)
        # negative edges on a DAG (no cycle): forward edges only
        f = r < c
        N = sp.csr_array((w[f] - 2.0, (r[f], c[f])), shape=(n, n))
        idx = rng.integers(0, n, 5)
        lim = 3.0
        for G, lab in ((S, "csr"), (Sm, "mat"), (S.tocoo(), "coo")):
            for d in (True, False):
                for u in (False, True):
                    check4("dijkstra", [G], dict(indices=idx, directed=d, unweighted=u,
                                                 return_predecessors=True, limit=lim), f":n{n} {lab}")
                    check4("dijkstra", [G], dict(indices=idx, directed=d, unweighted=u,
                                                 return_predecessors=True, limit=lim,
                                                 min_only=True), f":n{n} {lab}")
                    check4("shortest_path", [G], dict(indices=idx[:2], directed=d, unweighted=u,
                                                      return_predecessors=True), f":n{n} {lab}")
                check4("breadth_first_tree", [G, int(idx[0])], dict(directed=d), f":n{n} {lab}")
                check4("depth_first_tree", [G, int(idx[0])], dict(directed=d), f":n{n} {lab}")
                check4("breadth_first_order", [G, int(idx[0])], dict(directed=d), f":n{n} {lab}")
                check4("connected_components", [G], dict(directed=d, connection="strong"),
                       f":n{n} {lab}")
            check4("minimum_spanning_tree", [G], {}, f":n{n} {lab}")
        for fn in ("bellman_ford", "johnson"):
            for rp in (False, True):
                check4(fn, [N], dict(indices=idx, return_predecessors=rp), f":n{n} neg DAG")
        check4("shortest_path", [N], dict(indices=idx), f":n{n} neg DAG auto")
        check4("yen", [S, int(idx[0]), int(idx[1]), 4], {}, f":n{n}")
        C = sp.csr_array((rng.integers(1, 50, m).astype(np.int32), (r, c)), shape=(n, n))
        C.setdiag(0); C.eliminate_zeros()
        for meth in ("dinic", "edmonds_karp"):
            check4("maximum_flow", [C, int(idx[0]), int(idx[1]) if idx[1] != idx[0] else
                                    (int(idx[0]) + 1) % n], dict(method=meth), f":n{n}")
        check4("maximum_bipartite_matching", [S], {"perm_type": "column"}, f":n{n}")
        check4("min_weight_full_bipartite_matching", [S + sp.eye_array(n)], {}, f":n{n}")
        check4("reverse_cuthill_mckee", [S], {}, f":n{n}")
        check4("laplacian", [S], {"normed": True, "symmetrized": True, "return_diag": True},
               f":n{n}")


class _Index:
    def __index__(self):
        return 1

    def __repr__(self):
        return "_Index()"


def sweep_numbers(rng):
    """Vertices, indices and counts as other number types (Fraction, Decimal, object arrays,
    ``__index__`` objects, 0-d arrays), keyword strings as bytes / NumPy strings, and odd
    values of every string or flag keyword."""
    from decimal import Decimal
    from fractions import Fraction

    D = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 1, 0.]])
    S = sp.csr_array(D)
    C = S.astype(np.int32)
    values = [_Index(), Fraction(1), Decimal(1), Fraction(3, 2), Decimal("1.5"), Decimal("NaN"),
              np.array(1, dtype=object), np.array(1.0), np.array(True, dtype=object)]
    for v in values:
        check("breadth_first_order", [S, v], {}, f":{v!r}")
        check("depth_first_tree", [S, v], {}, f":{v!r}")
        check("yen", [S, v, 3, 2], {}, f":source {v!r}")
        check("yen", [S, 0, v, 2], {}, f":sink {v!r}")
        check("maximum_flow", [C, v, 3], {}, f":source {v!r}")
        check("maximum_flow", [C, 0, v], {}, f":sink {v!r}")
        for idx in (v, [v, 0], np.array([v, 2], dtype=object)):
            for fn in ("dijkstra", "bellman_ford", "johnson", "shortest_path"):
                check(fn, [S], {"indices": idx, "return_predecessors": True}, f":{idx!r}")
            check("dijkstra", [S], {"indices": idx, "min_only": True}, f":{idx!r}")
    for K in (2, np.array(2), np.array(2, np.uint8), np.array([2]), np.array(2.0), True,
              np.array(True), _Index(), 2.0, np.int8(2), np.array(-1), None, "2"):
        check("yen", [S, 0, 3, K], {}, f":K={K!r}")
    for pt in ("row", "column", np.str_("row"), b"row", None):
        check("maximum_bipartite_matching", [S], {"perm_type": pt}, f":pt={pt!r}")
    for conn in ("weak", b"weak", b"strong", np.str_("strong"), "WEAK", None, 0):
        check("connected_components", [S], {"connection": conn}, f":conn={conn!r}")
    for m in (np.str_("D"), b"D", "dinic ", np.str_("dinic"), None):
        check("shortest_path", [S], {"method": m}, f":m={m!r}")
        check("maximum_flow", [C, 0, 3], {"method": m}, f":m={m!r}")
    for form in (np.str_("array"), "ARRAY", b"lo", None):
        check("laplacian", [S], {"form": form}, f":form={form!r}")
    for dt in ("float32", np.dtype("int64"), complex, bool, np.float16, ">f8"):
        for G in (S, D):
            check("laplacian", [G], {"dtype": dt, "normed": True}, f":dtype={dt!r}")
            check("laplacian", [G], {"dtype": dt, "form": "lo"}, f":dtype={dt!r}")


def sweep_not_2d(rng):
    """1-D and n-D ``scipy.sparse`` arrays (SciPy 1.15+) on every function."""
    ins = {}
    for f in ("coo_array", "csr_array", "dok_array"):
        ins[f + " 1-D"] = getattr(sp, f)(np.array([0, 1.0, 2.0]))
    ins["coo 3-D"] = sp.coo_array(np.ones((2, 2, 2)))
    ins["coo 1x1x1"] = sp.coo_array(np.ones((1, 1, 1)))
    calls = [("dijkstra", [], {}), ("shortest_path", [], {}), ("floyd_warshall", [], {}),
             ("bellman_ford", [], {}), ("johnson", [], {}), ("breadth_first_order", [0], {}),
             ("depth_first_order", [0], {}), ("breadth_first_tree", [0], {}),
             ("depth_first_tree", [0], {}), ("connected_components", [], {}),
             ("minimum_spanning_tree", [], {}), ("laplacian", [], {}),
             ("reverse_cuthill_mckee", [], {}), ("structural_rank", [], {}),
             ("maximum_bipartite_matching", [], {}),
             ("min_weight_full_bipartite_matching", [], {}), ("csgraph_to_dense", [], {}),
             ("csgraph_to_masked", [], {}), ("csgraph_from_dense", [], {}),
             ("yen", [0, 1, 2], {}), ("maximum_flow", [0, 1], {}),
             ("reconstruct_path", [np.array([-9999, 0, 1], np.int32)], {}),
             ("construct_dist_matrix", [np.array([[-9999, 0, 1], [2, -9999, 1], [2, 0, -9999]],
                                                 np.int32)], {})]
    for lab, G in ins.items():
        for fn, a, kw in calls:
            if fn == "maximum_flow" and G.ndim == 1 and G.format == "csr":
                # SciPy 1.17.1's maximum_flow of a 1-D int32 CSR array crashes the process
                # (segmentation fault); ours must raise a ValueError naming the shape
                try:
                    base.csgraph.maximum_flow(G.astype(np.int32), *a)
                except ValueError as e:
                    assert "shape (3,)" in str(e), e
                    continue
                DIFFS.append(f"DIFF maximum_flow:{lab}: no ValueError")
                continue
            check(fn, [G.astype(np.int32) if fn == "maximum_flow" else G] + a, kw, f":{lab}")


SWEEPS = [sweep_flags, sweep_containers, sweep_keywords, sweep_random, sweep_large,
          sweep_numbers, sweep_not_2d]


def main(argv):
    seed = int(next((a for a in argv if a.isdigit()), 0))
    only = next((a.split("=")[1] for a in argv if a.startswith("--only=")), None)
    _validation.FORCE_ENGINE = "--engine" in argv
    base.VERBOSE = "-v" in argv
    warnings.simplefilter("ignore")
    for sw in SWEEPS:
        if only and only not in sw.__name__:
            continue
        before = len(DIFFS)
        sw(np.random.default_rng(seed))
        print(f"# {sw.__name__}: {len(DIFFS) - before} diffs, {base.N_CALLS[0]} calls so far",
              flush=True)
    for why, k in base.DOCUMENTED.items():
        print(f"# documented: {why}: {k}")
    print(f"# total: {len(DIFFS)} diffs in {base.N_CALLS[0]} calls (seed {seed}, "
          f"engine={_validation.FORCE_ENGINE})")
    return 1 if DIFFS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
