"""An outside-in conformance sweep of ``algorithms.csgraph`` against ``scipy.sparse.csgraph``
(issue 15): every one of SciPy's 26 names called with random graphs in every input kind SciPy
accepts (every sparse format as matrix and array, non-canonical CSR, dense with 0/inf/NaN,
masked, lists, every real dtype, empty and one-vertex graphs; session 16: a CSR whose
has_canonical_format flag lies, dense weights SciPy reads as null by isclose, Fortran-ordered
and read-only dense, longdouble) and random keyword
combinations, on the CPU. Each call's outcome (the value, or the exception's class) is
compared with SciPy's exactly: types and output kinds, dtypes, shapes, values (NaN equal).

Host input runs SciPy's own routines behind the facade, so any difference is a facade bug or
a documented deviation (module docstring of ``algorithms.csgraph``): calls that hit a
documented deviation are classified as such, not counted as failures. SciPy's own hazards are
avoided (its ``dijkstra`` hangs on an undirected negative edge, its strong components on a
CSR with duplicates, ``construct_dist_matrix`` on cycling predecessors; ``yen`` is compared
only on graphs with edges and in a child process: SciPy 1.17.1's can abort the process).

``--engine`` runs the facade's GPU-path code on NumPy (``_validation.FORCE_ENGINE``) and
compares what the engine must match exactly (distances, labels, orders, trees' weights;
predecessors only where shortest paths are unique is not checked: skipped).

``--gpu`` (a machine with a GPU) calls the facade with the GPU form of each input that has
one (a scipy CSR/CSC/COO of float32/float64/bool as the cupyx matrix of the same format and
stored arrays, a dense array as a CuPy array of the same dtype, predecessor arrays as CuPy
arrays; masked arrays, lists and the other sparse formats or dtypes have none: counted as
``no GPU form``) and compares its answer, moved to the host, with SciPy's on the host input:
values, dtypes and shapes exactly (a cupyx sparse answer as the SciPy class SciPy returned),
every result on the GPU; Laplacians, whose float sums the GPU adds in another order, to
1e-5 (float32) / 1e-12 relative.

Usage: PYTHONPATH=. python3 bench/probes/csgraph_conformance.py [N_GRAPHS=200] [SEED=0]
       [--engine | --gpu] [--only NAME[,NAME]] [-v]
Prints one line per discrepancy (``DIFF``) and a summary per function; exit status 1 if any
``DIFF``."""
from __future__ import annotations

import inspect
import multiprocessing as mp
import sys
import warnings
from collections import Counter

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import semiring as sr
from algorithms import csgraph
from algorithms.csgraph import _validation

SPARSE = ["csr_matrix", "csr_array", "csc_matrix", "csc_array", "coo_matrix", "coo_array",
          "lil_matrix", "lil_array", "dok_matrix", "dok_array", "bsr_matrix", "bsr_array",
          "dia_matrix", "dia_array"]
KINDS = SPARSE + ["csr_noncanonical", "csr_array_noncanonical", "dense", "dense_inf",
                  "dense_nan", "masked", "list", "csr_int64_idx",
                  # session 15 (audit8): kinds an outside reviewer tries first
                  "npmatrix", "csr_noncanonical_int64", "masked_full", "masked_nomask",
                  # session 16 (sp9): a flag that lies, SciPy's isclose null test, memory layouts
                  "csr_noncanonical_lying", "dense_tiny", "dense_fortran", "dense_readonly"]
TRACE = False
DTYPES = [np.float64, np.float32, np.float16, np.int8, np.uint8, np.int16, np.uint16,
          np.int32, np.uint32, np.int64, np.uint64, bool, np.complex128, np.longdouble]
#: The shortest-path functions (where a stored -inf is the engine path's deviation).
PATH_FUNCS = ("shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall")


# ------------------------------------------------------------------------------ inputs


def random_graph(rng):
    """(n, rows, cols, weights): a random edge list (self-loops, duplicates, zeros possible)."""
    n = int(rng.choice([0, 1, 1, 2, 3, 4, 5, 6, 8, 10]))
    m = int(rng.integers(0, 3 * n + 1)) if n else 0
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    kind = rng.integers(0, 6)
    if kind == 5:  # stored -inf edges (SciPy's answers follow no rule; session 15)
        w = rng.integers(1, 10, m).astype(np.float64)
        w[rng.random(m) < 0.2] = -np.inf
    elif kind == 4:  # stored inf edges (a vertex reached only through one is unreached)
        w = rng.integers(1, 10, m).astype(np.float64)
        w[rng.random(m) < 0.3] = np.inf
    elif kind == 0:
        w = rng.integers(1, 10, m).astype(np.float64)
    elif kind == 1:
        w = rng.integers(0, 4, m).astype(np.float64)  # explicit zeros
    elif kind == 2:
        w = np.round(rng.random(m) * 5, 2)
    else:
        w = rng.integers(-2, 8, m).astype(np.float64)  # negative weights
    return n, r, c, w


def make_input(kind, dtype, n, r, c, w, rng):
    """An input of that kind and dtype, or None where the combination does not exist."""
    dt = np.dtype(dtype)
    if dt.kind in "ub" and (w < 0).any():
        w = np.abs(w)
    if dt.kind not in "fc":  # an integer dtype stores no inf
        w = np.where(np.isinf(w), 9.0, w)
    if dt == bool:
        wv = w != 0
    elif dt.kind == "c":  # some entries with an imaginary part (SciPy drops it but laplacian)
        wv = w + 1j * (rng.random(w.size) < 0.3)
    else:
        wv = w.astype(dt)
    if dt == np.float16 and kind not in ("dense", "dense_inf", "dense_nan", "masked", "list"):
        return None  # scipy.sparse has no float16
    if kind in SPARSE:
        fmt, cls = kind.split("_")
        ctor = getattr(sp, f"coo_{cls}")
        if fmt == "dok" and dt == np.float16:
            return None
        try:
            return ctor((wv, (r, c)), shape=(n, n)).asformat(fmt)
        except Exception:  # noqa: BLE001  (a format that refuses the dtype: not an input)
            return None
    if kind in ("csr_noncanonical", "csr_array_noncanonical", "csr_noncanonical_int64",
                "csr_noncanonical_lying"):
        cls = sp.csr_matrix if kind == "csr_noncanonical" else sp.csr_array
        # int64 indices (as a CSR built from NumPy's default ints has) take the facade's
        # copying conversion, not the int32 borrow: each row reversed there (unsorted)
        it = np.int64 if kind == "csr_noncanonical_int64" else np.int32
        o = np.lexsort((-np.arange(r.size), r)) if it == np.int64 else np.argsort(r,
                                                                                  kind="stable")
        ptr = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=n))]).astype(it)
        S = cls((wv[o], c[o].astype(it), ptr), shape=(n, n))
        if kind == "csr_noncanonical_lying":
            # a flag anyone may set: sorted rows without duplicates claimed, neither true
            # (SciPy's routines never read it; its astype builds a new matrix, which sums)
            S.has_canonical_format = True
        return S
    if kind == "csr_int64_idx":
        S = sp.csr_array((wv, (r, c)), shape=(n, n))
        S.indices = S.indices.astype(np.int64)
        S.indptr = S.indptr.astype(np.int64)
        return S
    D = sp.coo_array((wv if dt.kind == "c" else w, (r, c)),
                     shape=(n, n)).toarray()  # duplicates summed
    if kind == "dense_inf" and n:
        D[rng.random((n, n)) < 0.2] = np.inf
    if kind == "dense_nan" and n:
        D[rng.random((n, n)) < 0.2] = np.nan
    if kind in ("dense_inf", "dense_nan", "dense_tiny") and dt.kind != "f":
        return None
    if kind == "dense_tiny" and n:
        # weights SciPy reads as its null value 0: numpy.ma.masked_values' isclose (atol 1e-8)
        tiny = rng.random((n, n)) < 0.3
        D[tiny] = rng.choice([1e-9, -5e-9, 1e-8, 1e-300, 2e-8, 1e-7], int(tiny.sum()))
    if kind == "masked":
        return np.ma.masked_array(D.astype(dt), mask=rng.random((n, n)) < 0.3)
    if kind == "masked_full":  # every entry masked: no edge at all
        return np.ma.masked_array(D.astype(dt), mask=np.ones((n, n), dtype=bool))
    if kind == "masked_nomask":  # mask=nomask: every entry an edge, zeros included
        return np.ma.masked_array(D.astype(dt))
    D = D.astype(dt)
    if kind == "npmatrix":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PendingDeprecationWarning)
            return np.matrix(D)
    if kind == "list":
        return D.tolist()
    if kind == "dense_fortran":
        # (SciPy is called with a C-ordered copy: its Floyd–Warshall computes nothing on a
        # Fortran-ordered array, a documented SciPy bug)
        return np.asfortranarray(D)
    if kind == "dense_readonly":
        D.setflags(write=False)
    return D


def copy_input(G):
    if sp.issparse(G):
        return G.copy()
    if isinstance(G, np.ma.MaskedArray):
        return G.copy()
    if isinstance(G, np.ndarray):
        return G.copy()
    return [list(row) for row in G]


# ------------------------------------------------------------------------------ compare


def outcome(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ("ok", f(*args, **kw))
        except Exception as e:  # noqa: BLE001  (the outcome compared is the class)
            return ("err", e)


def same(a, b, path="") -> str | None:
    """None when a (facade) equals b (SciPy) exactly, else what differs."""
    if isinstance(b, tuple) or type(b).__name__.endswith("Result"):
        if type(a) is not type(b) and not (isinstance(a, tuple) and isinstance(b, tuple)):
            return f"{path}type {type(a).__name__} != {type(b).__name__}"
        if hasattr(b, "flow_value"):
            return (same(a.flow_value, b.flow_value, path + "flow_value.")
                    or same(a.flow, b.flow, path + "flow."))
        if len(a) != len(b):
            return f"{path}len {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = same(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if sp.issparse(b):
        if type(a) is not type(b):
            return f"{path}type {type(a).__name__} != {type(b).__name__}"
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"{path}dtype/shape {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        if a.format != b.format:
            return f"{path}format {a.format} != {b.format}"
        A, B = a.toarray(), b.toarray()
        if not np.array_equal(A, B, equal_nan=A.dtype.kind in "fc"):
            return f"{path}values differ: {A.tolist()} != {B.tolist()}"
        if a.nnz != b.nnz:
            return f"{path}nnz {a.nnz} != {b.nnz}"
        return None
    if isinstance(b, np.ma.MaskedArray):
        if not isinstance(a, np.ma.MaskedArray):
            return f"{path}type {type(a).__name__} != MaskedArray"
        if not np.array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b)):
            return f"{path}mask differs"
        return same(np.ma.getdata(a)[~np.ma.getmaskarray(a)],
                    np.ma.getdata(b)[~np.ma.getmaskarray(b)], path + "data.") or (
            None if a.dtype == b.dtype else f"{path}dtype {a.dtype} != {b.dtype}")
    if isinstance(b, np.ndarray):
        if type(a) is not type(b):
            return f"{path}type {type(a).__name__} != ndarray"
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"{path}dtype/shape {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        if not np.array_equal(a, b, equal_nan=b.dtype.kind in "fc"):
            return f"{path}values differ: {a.tolist()} != {b.tolist()}"
        return None
    if callable(b) or type(b).__name__.endswith("LinearOperator"):
        n = b.shape[0] if hasattr(b, "shape") else None
        if type(a).__name__ != type(b).__name__ and not (callable(a) and callable(b)):
            return f"{path}type {type(a).__name__} != {type(b).__name__}"
        if hasattr(b, "dtype") and getattr(a, "dtype", None) != b.dtype:
            return f"{path}dtype {getattr(a, 'dtype', None)} != {b.dtype}"
        if n is None:
            return None
        X = np.arange(2 * n, dtype=float).reshape(n, 2)
        ra = outcome(lambda: np.asarray(a @ X if hasattr(a, "matvec") else a(X)))
        rb = outcome(lambda: np.asarray(b @ X if hasattr(b, "matvec") else b(X)))
        if ra[0] != rb[0]:
            return f"{path}applied: {ra[0]} {ra[1]!r:.80} != {rb[0]} {rb[1]!r:.80}"
        return same(ra[1], rb[1], path + "applied.") if ra[0] == "ok" else None
    if type(a) is not type(b):
        if isinstance(a, (int, np.integer)) and isinstance(b, (int, np.integer)) and a == b:
            return f"{path}type {type(a).__name__} != {type(b).__name__} (equal value)"
        return f"{path}{a!r} ({type(a).__name__}) != {b!r} ({type(b).__name__})"
    if a != b and not (a != a and b != b):
        return f"{path}{a!r} != {b!r}"
    return None


# ------------------------------------------------------------------------------ ties

PRED_FUNCS = ("shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall")


def _method_weights(name, G, kw):
    """The dense (N, N) smallest weight of an edge u → v as the method reads G (inf: none),
    both directions merged for ``directed=False``; SciPy's own conversions, so that the
    check models nothing the methods could get wrong the same way."""
    directed = kw.get("directed", True)
    method = kw.get("method", {"dijkstra": "D", "bellman_ford": "BF", "johnson": "J",
                               "floyd_warshall": "FW"}.get(name))
    if method == "auto":
        method = _scipy_auto(G, kw.get("indices"))
    if method == "FW":
        W = scg._validation.validate_graph(copy_input(G), directed, csr_output=False,
                                           copy_if_dense=True)
        W = np.array(W, dtype=float)
        if not sp.issparse(G):
            W[W == 0] = np.inf
        if kw.get("unweighted"):
            W[~np.isinf(W)] = 1
    else:
        S = scg._validation.validate_graph(copy_input(G), directed, dense_output=False)
        n = S.shape[0]
        W = np.full((n, n), np.inf)
        r = np.repeat(np.arange(n), np.diff(S.indptr))
        data = np.ones(S.nnz) if kw.get("unweighted") else S.data
        np.minimum.at(W, (r, S.indices), data)
    if not directed:
        W = np.minimum(W, W.T)
    return W


def _scipy_auto(G, indices):
    """SciPy 1.17's rule for method='auto' (scipy/sparse/csgraph/_shortest_path.pyx)."""
    if sp.issparse(G):
        N, Nk = G.shape[0], G.nnz
        edges = G.data if G.format in ("csr", "csc", "coo") else G.tocoo().data
    elif isinstance(G, np.ma.MaskedArray):
        N, Nk, edges = G.shape[0], G.count(), G.compressed()
    else:
        a = np.asarray(G)
        N = a.shape[0]
        edges = a[np.isfinite(a)]
        edges = edges[edges != 0]
        Nk = edges.size
    if indices is not None or Nk < N * N / 4:
        return "J" if np.any(edges < 0) else "D"
    return "FW"


def _indices_of(kw, n):
    ind = kw.get("indices")
    if ind is None:
        return np.arange(n)
    a = np.asarray(ind).astype(np.int64).ravel()
    a[a < 0] += n
    return a


def tied_predecessors(name, G, kw, got, ref):
    """None when ``got`` (the facade's (dist, pred[, sources])) has SciPy's distances exactly
    and predecessors that are valid where shortest paths tie: every reached vertex's
    predecessor p has an edge p → v with d(p) + w = d(v) and its chain of predecessors
    reaches the row's source (min_only: a source, the one ``sources`` names) without a
    cycle; -9999 exactly at sources and unreached vertices. Else what is wrong."""
    if len(got) != len(ref) or same(got[0], ref[0]) is not None:
        return "distances differ"
    if type(got[1]) is not type(ref[1]) or got[1].dtype != ref[1].dtype \
            or got[1].shape != ref[1].shape:
        return "predecessors' type, dtype or shape differ"
    D = np.asarray(got[0], dtype=float)
    n = D.shape[-1]
    W = _method_weights(name, G, kw)
    min_only = kw.get("min_only", False)
    src = _indices_of(kw, n)
    if min_only:
        rows = [(D.reshape(n), np.asarray(got[1]).reshape(n), set(src.tolist()))]
        sources = np.asarray(got[2]).reshape(n)
        if same(got[2].dtype, ref[2].dtype) is not None or got[2].shape != ref[2].shape:
            return "sources' dtype or shape differ"
    else:
        D2, P2 = D.reshape(-1, n), np.asarray(got[1]).reshape(-1, n)
        if name == "floyd_warshall" or kw.get("method") == "FW" or (
                kw.get("indices") is None and D2.shape[0] == n):
            src = np.arange(n)
        rows = [(D2[k], P2[k], {int(src[k])}) for k in range(D2.shape[0])]
    for d, p, roots in rows:
        for v in range(n):
            if v in roots or not np.isfinite(d[v]):
                if p[v] != -9999:
                    return f"vertex {v}: predecessor {p[v]} where SciPy has none"
                if min_only and sources[v] != (v if v in roots else -9999):
                    return f"vertex {v}: source {sources[v]}"
                continue
            u = int(p[v])
            if not 0 <= u < n:
                return f"vertex {v}: predecessor {u} out of range"
            if not (d[u] + W[u, v] == d[v] or abs(d[u] + W[u, v] - d[v])
                    <= 1e-12 * max(1.0, abs(d[v]))):
                return f"vertex {v}: predecessor {u} is not on a shortest path"
            seen, x = 0, v
            while x not in roots and x >= 0 and seen <= n:
                x, seen = int(p[x]), seen + 1
            if x not in roots:
                return f"vertex {v}: its predecessors do not lead to a source"
            if min_only and sources[v] != x:
                return f"vertex {v}: source {sources[v]}, its predecessors lead to {x}"
    return None


# ------------------------------------------------------------------------------ calls


def _indices(rng, n):
    c = int(rng.integers(0, 11))
    if c == 0 or not n:
        return None if c == 0 else []
    if c == 1:
        return int(rng.integers(0, n))
    if c == 2:
        return [int(x) for x in rng.integers(0, n, int(rng.integers(0, 4)))]
    if c == 3:
        return rng.integers(0, n, int(rng.integers(1, 4)))
    if c == 4:
        return -int(rng.integers(1, n + 1))
    if c == 5:
        return np.array(int(rng.integers(0, n)), dtype=np.int32)
    if c == 6:
        return []
    if c == 7:  # integral floats (SciPy casts them)
        return [float(x) for x in rng.integers(0, n, int(rng.integers(1, 4)))]
    if c == 8:  # a NumPy integer scalar
        return np.int64(rng.integers(0, n))
    if c == 9:  # repeated sources
        i = int(rng.integers(0, n))
        return np.array([i, i, -1 if n else 0])
    return rng.integers(-n, n, (2, int(rng.integers(1, 3))))  # 2-D: a 3-D answer


def calls(rng, n, G, has_neg, has_dup, directed, kind):
    """(name, args, kwargs, hazard) of calls on G; hazard: a reason SciPy must not be called
    (a documented deviation or a SciPy hang), or None."""
    out = []
    und_neg = has_neg and not directed
    for method in ("auto", "FW", "D", "BF", "J"):
        kw = dict(method=method, directed=directed, return_predecessors=bool(rng.integers(2)),
                  unweighted=bool(rng.integers(2)))
        if method != "FW":
            kw["indices"] = _indices(rng, n)
        haz = None
        if method == "D" and has_neg and not kw["unweighted"]:
            haz = "deviation: dijkstra refuses negative weights"
        out.append(("shortest_path", (G,), kw, haz))
    kw = dict(directed=directed, indices=_indices(rng, n),
              return_predecessors=bool(rng.integers(2)), unweighted=bool(rng.integers(2)),
              limit=float(rng.choice([np.inf, 2.0, 0.0, 5.5, -1.0])),
              min_only=bool(rng.integers(2)))
    out.append(("dijkstra", (G,), kw, "deviation: dijkstra refuses negative weights"
                if has_neg and not kw["unweighted"] else None))
    for name in ("bellman_ford", "johnson"):
        kw = dict(directed=directed, indices=_indices(rng, n),
                  return_predecessors=bool(rng.integers(2)), unweighted=bool(rng.integers(2)))
        out.append((name, (G,), kw, None))
    out.append(("floyd_warshall", (G,), dict(directed=directed,
                                              return_predecessors=bool(rng.integers(2)),
                                              unweighted=bool(rng.integers(2))), None))
    if n:
        i = int(rng.integers(0, n))
        i = [i, float(i), np.int64(i)][int(rng.integers(0, 3))]  # SciPy reads each as i
        for name in ("breadth_first_order", "depth_first_order"):
            out.append((name, (G, i), dict(directed=directed,
                                           return_predecessors=bool(rng.integers(2))), None))
        for name in ("breadth_first_tree", "depth_first_tree"):
            out.append((name, (G, i), dict(directed=directed), None))
    conn = str(rng.choice(["weak", "strong", "WEAK", "Strong"]))
    out.append(("connected_components", (G,), dict(directed=directed, connection=conn,
                                                    return_labels=bool(rng.integers(2))),
                "SciPy hang: strong components of a CSR with duplicates"
                if has_dup and directed and conn.lower() == "strong" else None))
    out.append(("minimum_spanning_tree", (G,), dict(overwrite=bool(rng.integers(2))), None))
    lap = dict(normed=bool(rng.integers(2)), return_diag=bool(rng.integers(2)),
               use_out_degree=bool(rng.integers(2)), form=str(rng.choice(["array", "function",
                                                                          "lo"])),
               symmetrized=bool(rng.integers(2)))
    if rng.integers(3) == 0:
        lap["dtype"] = rng.choice([np.float32, np.float64, None])
    haz = None
    if isinstance(G, np.ma.MaskedArray):
        haz = "deviation: laplacian reads masked entries as zeros"
    elif isinstance(G, list):
        haz = "deviation: laplacian accepts lists"
    out.append(("laplacian", (G,), lap, haz))
    if kind in ("csr_matrix", "csr_array", "csc_matrix", "csc_array", "coo_matrix", "coo_array"):
        out.append(("reverse_cuthill_mckee", (G,), dict(symmetric_mode=bool(rng.integers(2))),
                    "deviation: 0 x 0 answers []" if n == 0 else None))
        out.append(("structural_rank", (G,), {}, None))
        out.append(("maximum_bipartite_matching", (G,), dict(
            perm_type=str(rng.choice(["row", "column"]))), None))
        out.append(("min_weight_full_bipartite_matching", (G,),
                    dict(maximize=bool(rng.integers(2))), None))
    return out


def path_calls(rng, n, G, directed, has_neg):
    """reconstruct_path / construct_dist_matrix from SciPy's own predecessors."""
    out = []
    if not n:
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            # (never SciPy's Dijkstra with a negative weight: it hangs, allocating, on an
            # undirected negative edge until the process dies of std::bad_alloc)
            _, P = scg.shortest_path(G, directed=directed, return_predecessors=True,
                                     method="D" if rng.integers(2) and not has_neg else "BF")
        except Exception:  # noqa: BLE001  (negative cycles: no predecessors to test with)
            return out
    i = int(rng.integers(0, n))
    out.append(("reconstruct_path", (G, P[i]), dict(directed=directed), None))
    out.append(("construct_dist_matrix", (G, P), dict(
        directed=directed, null_value=float(rng.choice([np.inf, -1.0, 0.0]))), None))
    return out


def converter_calls(rng, n, D):
    out = []
    nv = float(rng.choice([0.0, 1.0, np.nan, np.inf, -np.inf]))
    kw = dict(null_value=nv, nan_null=bool(rng.integers(2)), infinity_null=bool(rng.integers(2)))
    out.append(("csgraph_from_dense", (D,), kw, None))
    out.append(("csgraph_masked_from_dense", (D,), dict(kw, copy=True), None))
    M = np.ma.masked_array(D, mask=rng.random(D.shape) < 0.3)
    out.append(("csgraph_from_masked", (M,), {}, None))
    S = sp.csr_array(np.nan_to_num(D, posinf=0, nan=0)) if rng.integers(2) else \
        sp.csr_matrix(np.nan_to_num(D, posinf=0, nan=0))
    out.append(("csgraph_to_dense", (S,), dict(null_value=float(rng.choice([0.0, np.inf,
                                                                              -1.0]))), None))
    out.append(("csgraph_to_masked", (S,), {}, None))
    return out


def flow_calls(rng, n, r, c):
    out = []
    if n < 2:
        return out
    cap = rng.integers(0, 6, r.size).astype(rng.choice([np.int32, np.int64]))
    cls = sp.csr_matrix if rng.integers(2) else sp.csr_array
    S = cls((cap, (r, c)), shape=(n, n))
    s, t = (int(x) for x in rng.choice(n, 2, replace=False))
    out.append(("maximum_flow", (S, s, t), dict(method=str(rng.choice(["dinic",
                                                                       "edmonds_karp"]))),
                None))
    return out


# ------------------------------------------------------------------------------ driver


def _unchanged(a0, a1) -> bool:
    if sp.issparse(a1):
        if a1.format in ("csr", "csc", "bsr"):
            return (np.array_equal(a0.indptr, a1.indptr) and np.array_equal(a0.indices,
                                                                               a1.indices)
                    and np.array_equal(a0.data, a1.data, equal_nan=a1.dtype.kind == "f"))
        return np.array_equal(a0.toarray(), a1.toarray(), equal_nan=a1.dtype.kind == "f")
    if isinstance(a1, np.ma.MaskedArray):
        return (np.array_equal(np.ma.getdata(a0), np.ma.getdata(a1), equal_nan=True)
                and np.array_equal(np.ma.getmaskarray(a0), np.ma.getmaskarray(a1)))
    if isinstance(a1, np.ndarray):
        return np.array_equal(a0, a1, equal_nan=a1.dtype.kind == "f")
    return a0 == a1 or np.array_equal(np.asarray(a0, dtype=float), np.asarray(a1, dtype=float),
                                      equal_nan=True)


#: --gpu: call the facade with GPU forms of the inputs (see the module docstring).
GPU = False
#: Functions that answer a masked array, which exists on the host only (CuPy has none).
MASKED_OUT = ("csgraph_to_masked", "csgraph_masked_from_dense")
#: The dtypes a cupyx sparse matrix holds.
CUPYX_DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(bool))


class NoGpuForm(Exception):
    """An argument without a GPU form (masked array, list, a sparse format or dtype cupyx
    lacks): the call is skipped in --gpu mode."""


def to_gpu(a):
    import cupy as cp  # noqa: PLC0415  (--gpu only)
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (--gpu only)

    if sp.issparse(a):
        if a.format not in ("csr", "csc", "coo") or np.dtype(a.dtype) not in CUPYX_DTYPES or (
                a.format != "coo" and a.indices.dtype != np.int32):
            raise NoGpuForm(f"{a.format} {a.dtype}")
        if a.format == "coo":
            return cps.coo_matrix((cp.asarray(a.data), (cp.asarray(a.row), cp.asarray(a.col))),
                                  shape=a.shape)
        cls = cps.csr_matrix if a.format == "csr" else cps.csc_matrix
        out = cls((cp.asarray(a.data), cp.asarray(a.indices), cp.asarray(a.indptr)),
                  shape=a.shape)
        out.has_canonical_format = bool(a.has_canonical_format)
        return out
    if isinstance(a, np.ma.MaskedArray) or isinstance(a, list):
        raise NoGpuForm(type(a).__name__)
    if isinstance(a, np.ndarray):
        return cp.asarray(a)
    return a


def gpu_arrays(a):
    """Copies of the device arrays of a GPU input (to check it is left unchanged)."""
    if type(a).__module__.startswith("cupyx"):
        names = ("data", "row", "col") if a.format == "coo" else ("data", "indices", "indptr")
        return [getattr(a, k).copy() for k in names]
    if type(a).__module__.startswith("cupy"):
        return [a.copy()]
    return []


def on_gpu_everywhere(x) -> bool:
    """Whether every array of an answer lives on the GPU (ints and floats aside)."""
    if isinstance(x, tuple):
        return all(on_gpu_everywhere(y) for y in x)
    if isinstance(x, (np.ndarray, np.ma.MaskedArray)) or sp.issparse(x):
        return False
    return True


def to_host_like(a, b):
    """The facade's GPU answer ``a`` on the host, in the kind of SciPy's answer ``b``."""
    import cupy as cp  # noqa: PLC0415  (--gpu only)

    if isinstance(a, tuple) and isinstance(b, tuple):
        return tuple(to_host_like(x, y) for x, y in zip(a, b))
    if type(a).__module__.startswith("cupyx") and hasattr(a, "tocsr"):
        S = a.get()
        return type(b)(S) if sp.issparse(b) else S
    if isinstance(a, cp.ndarray):
        return a.get()
    if type(a).__name__.endswith("LinearOperator"):
        f = a
        return sp.linalg.LinearOperator(f.shape, matvec=lambda x: f.matvec(cp.asarray(x)).get(),
                                        matmat=lambda x: f.matmat(cp.asarray(x)).get(),
                                        dtype=f.dtype)
    if callable(a) and callable(b):
        return lambda X: a(cp.asarray(X)).get()
    return a


def laplacian_close(a, b) -> bool:
    """--gpu: a Laplacian (or its (L, d) pair) equal to SciPy's to the GPU's summation order."""
    if isinstance(b, tuple):
        return len(a) == len(b) and all(laplacian_close(x, y) for x, y in zip(a, b))
    if sp.issparse(b) and sp.issparse(a):
        if type(a) is not type(b) or a.dtype != b.dtype or a.format != b.format:
            return False
        a, b = a.toarray(), b.toarray()
    elif callable(b) and callable(a):
        n = b.shape[0] if hasattr(b, "shape") else None
        if n is None:
            return True
        if getattr(a, "dtype", None) != getattr(b, "dtype", None):
            return False
        X = np.arange(2 * n, dtype=float).reshape(n, 2)
        a, b = (np.asarray(f @ X if hasattr(f, "matvec") else f(X)) for f in (a, b))
    if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray) or a.dtype != b.dtype \
            or a.shape != b.shape:
        return False
    tol = 1e-5 if b.dtype == np.float32 else 1e-12
    return bool(np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True))


def check_one(name, args, kw, hazard, stats, verbose, label):
    if hazard is not None:
        stats[name]["skipped (" + hazard.split(":")[0] + ")"] += 1
        return 0
    def copies():
        return [copy_input(a) if isinstance(a, (np.ndarray, list)) or sp.issparse(a) else a
                for a in args]

    if TRACE:
        extra = [(type(a).__name__, a.dtype, a.indptr.tolist(), a.indices.tolist(),
                  a.data.tolist()) if sp.issparse(a) else a for a in args] \
            if name == "maximum_flow" else ""
        print(f"call {name}{label} {kw} {extra}", flush=True)
    snapshot = copies()
    ref = outcome(getattr(scg, name), *copies(), **kw)
    if GPU:
        try:
            gargs = [to_gpu(a) for a in args]
        except NoGpuForm as e:
            stats[name][f"no GPU form ({str(e).split()[0]})"] += 1
            return 0
        before = [gpu_arrays(a) for a in gargs]
        got = outcome(getattr(csgraph, name), *gargs, **kw)
        if any(not all(bool((x == y).all()) or (x.dtype.kind == "f" and bool(
                ((x == y) | (x != x) & (y != y)).all())) for x, y in zip(b, gpu_arrays(a)))
               for b, a in zip(before, gargs)):
            stats[name]["DIFF input modified"] += 1
            print(f"DIFF {name}{label} {kw}: the facade modified its GPU input", flush=True)
            return 1
        if got[0] == "ok":
            if not on_gpu_everywhere(got[1]) and name not in MASKED_OUT:
                stats[name]["DIFF answer not on the GPU"] += 1
                print(f"DIFF {name}{label} {kw}: a GPU input answered on the host", flush=True)
                return 1
            try:
                got = ("ok", to_host_like(got[1], ref[1]) if ref[0] == "ok" else got[1])
            except Exception as e:  # noqa: BLE001  (a probe: report and go on)
                stats[name]["DIFF answer unreadable"] += 1
                print(f"DIFF {name}{label} {kw}: the GPU answer could not be read: {e!r}",
                      flush=True)
                return 1
        if name == "laplacian" and ref[0] == "ok" and got[0] == "ok" \
                and same(got[1], ref[1]) is not None and laplacian_close(got[1], ref[1]):
            stats[name]["equal (to the GPU's summation order)"] += 1
            return 0
    else:
        got = outcome(getattr(csgraph, name), *args, **kw)
    for a0, a1 in zip(snapshot, args):  # the facade never modifies its input
        if a0 is not a1 and not _unchanged(a0, a1):
            stats[name]["DIFF input modified"] += 1
            print(f"DIFF {name}{label} {kw}: the facade modified its input", flush=True)
            return 1
    if ref[0] == "ok" and got[0] == "ok":
        d = same(got[1], ref[1])
        if d is None:
            stats[name]["equal"] += 1
            return 0
        if name in PRED_FUNCS and kw.get("return_predecessors"):
            v = tied_predecessors(name, args[0], kw, got[1], ref[1])
            if v is None:
                stats[name]["equal (other valid predecessors)"] += 1
                return 0
            d = f"{d}; predecessors invalid: {v}"
        stats[name]["DIFF value"] += 1
        print(f"DIFF {name}{label} {kw}: {d}", flush=True)
        return 1
    if ref[0] == "err" and got[0] == "err":
        # the facade's errors are the engine's (TypeError/ValueError/IndexError subclasses)
        base = [t for t in (IndexError, TypeError, ValueError, MemoryError)
                if isinstance(ref[1], t)]
        if isinstance(ref[1], scg.NegativeCycleError):
            ok = isinstance(got[1], scg.NegativeCycleError)
        else:
            ok = not base or isinstance(got[1], tuple(base)) or isinstance(
                got[1], (sr.DomainMismatch, sr.InvalidValue, sr.InvalidIndex,
                         sr.DimensionMismatch))
        stats[name]["both raise" if ok else "DIFF error class"] += 1
        if not ok or verbose:
            print(f"{'DIFF' if not ok else 'both'} {name}{label} {kw}: SciPy "
                  f"{type(ref[1]).__name__}: {str(ref[1])[:80]} / facade "
                  f"{type(got[1]).__name__}: {str(got[1])[:80]}", flush=True)
        return 0 if ok else 1
    if ref[0] == "err" and "must be lil, csr, or csc format" in str(ref[1]) \
            and sp.issparse(args[0]):
        # a documented deviation (the facade takes every format): its answer is SciPy's on
        # the CSR of the input (SciPy's own conversion of it)
        alt = outcome(getattr(scg, name), args[0].tocsr(), *copies()[1:], **kw)
        if alt[0] == "ok":
            if GPU:  # the GPU answer, on the host, in the kind of SciPy's on the CSR
                got = ("ok", to_host_like(got[1], alt[1]))
            d = same(got[1], alt[1])
            if d is not None and name in PRED_FUNCS and kw.get("return_predecessors"):
                d = None if tied_predecessors(name, args[0].tocsr(), kw, got[1], alt[1]) \
                    is None else d
            stats[name]["facade answers (other format), SciPy's on its CSR: "
                        + ("equal" if d is None else "DIFF")] += 1
            if d is not None:
                print(f"DIFF {name}{label} {kw}: against SciPy on the CSR: {d}", flush=True)
                return 1
            return 0
    if ref[0] == "err":
        stats[name]["facade answers, SciPy raises"] += 1
        if verbose:
            print(f"note {name}{label} {kw}: SciPy {type(ref[1]).__name__}: "
                  f"{str(ref[1])[:100]}; the facade answers", flush=True)
        return 0
    stats[name]["DIFF facade raises"] += 1
    print(f"DIFF {name}{label} {kw}: facade {type(got[1]).__name__}: {str(got[1])[:120]} "
          f"(SciPy answers)", flush=True)
    return 1


def _deviation(name, kw, dtype, w):
    """The documented deviations of the session-15 input kinds (``algorithms.csgraph``'s
    module docstring), or None."""
    dt = np.dtype(dtype)
    if dt.kind == "c" and name != "laplacian":
        return "deviation: complex weights refused (SciPy drops the imaginary part)"
    if (_validation.FORCE_ENGINE or GPU) and dt.kind == "f" and bool(np.isneginf(w).any()) \
            and (name in PATH_FUNCS or name == "yen") and (
                not kw.get("unweighted") or name == "floyd_warshall"
                or kw.get("method") in ("FW", "auto")):  # SciPy's FW keeps -inf, unweighted
        return "deviation: a stored -inf weight on the engine path raises"
    return None


def sweep(n_graphs, seed, only, verbose):
    rng = np.random.default_rng(seed)
    stats = {name: Counter() for name in scg.__all__}
    diffs = 0
    for g in range(n_graphs):
        n, r, c, w = random_graph(rng)
        kind = str(rng.choice(KINDS))
        dtype = DTYPES[int(rng.integers(len(DTYPES)))]
        G = make_input(kind, dtype, n, r, c, w, rng)
        if G is None:
            continue
        wv = w if np.dtype(dtype).kind == "f" or np.dtype(dtype) == np.int64 else w
        has_neg = bool((wv < 0).any()) and np.dtype(dtype).kind in "ifc"  # complex: its real part
        has_dup = "noncanonical" in kind or (r.size and np.unique(
            r * max(n, 1) + c).size < r.size and kind.split("_")[0] in ("csr", "csc", "bsr"))
        directed = bool(rng.integers(2))
        label = f"[graph {g}: {kind} {np.dtype(dtype).name} n={n} m={r.size}]"
        todo = calls(rng, n, G, has_neg, has_dup, directed, kind)
        if not has_dup and not np.isneginf(w).any():
            # (a stored -inf: SciPy's Bellman–Ford may answer predecessors that cycle, on
            # which SciPy's construct_dist_matrix loops forever)
            todo += path_calls(rng, n, G, directed, has_neg)
        todo = [(name, args, kw, hazard or _deviation(name, kw, dtype, w)) for name, args, kw,
                hazard in todo]
        D = np.asarray(sp.coo_array((w, (r, c)), shape=(n, n)).toarray())
        if n:
            D[rng.random((n, n)) < 0.1] = rng.choice([np.inf, np.nan, -np.inf])
        todo += converter_calls(rng, n, D) + flow_calls(rng, n, r, c)
        for name, args, kw, hazard in todo:
            if only and name not in only:
                continue
            diffs += check_one(name, args, kw, hazard, stats, verbose, label)
    return stats, diffs


def _yen_child(n_graphs, seed, q):
    rng = np.random.default_rng(seed + 1)
    st = Counter()
    diffs = 0
    for _ in range(n_graphs):
        n, r, c, w = random_graph(rng)
        w = np.where(np.isfinite(w), w, 9.0)
        if rng.integers(2):  # positive: SciPy's yen and ours agree on ties? lengths only
            w = np.abs(w) + (w == 0)
        else:  # negative weights too: SciPy reweights them (Johnson), as the facade does
            w = w + (w == 0)
        if n < 2 or r.size == 0:
            continue
        G = sp.csr_array((w, (r, c)), shape=(n, n))
        G.indices, G.indptr = G.indices.astype(np.int32), G.indptr.astype(np.int32)  # SciPy's
        s, t = int(rng.integers(0, n)), int(rng.integers(0, n))
        K = int(rng.integers(1, 5))
        kw = dict(directed=bool(rng.integers(2)), unweighted=bool(rng.integers(2)))
        ref = outcome(scg.yen, G, s, t, K, **kw)
        got = outcome(csgraph.yen, G, s, t, K, **kw)
        if ref[0] == got[0] == "ok":
            d = same(got[1], ref[1])  # the lengths (ties may pick other paths, same lengths)
            if d is not None and got[1].shape == ref[1].shape and np.allclose(got[1], ref[1],
                                                                              rtol=1e-12):
                d = None  # reweighted lengths: the correction's rounding (negative weights)
            st["equal" if d is None else "DIFF value"] += 1
            if d:
                diffs += 1
                q.put(f"DIFF yen n={n} {s}->{t} K={K} {kw}: {d}")
        elif ref[0] == got[0] == "err" and type(ref[1]) is scg.NegativeCycleError \
                and isinstance(got[1], scg.NegativeCycleError):
            st["both raise NegativeCycleError"] += 1
        else:
            st[f"{ref[0]}/{got[0]}"] += 1
            if ref[0] != got[0] or isinstance(ref[1], scg.NegativeCycleError):
                diffs += 1
                q.put(f"DIFF yen n={n} {s}->{t} K={K} {kw}: SciPy {ref[0]} {ref[1]!r:.80} / "
                      f"facade {got[0]} {got[1]!r:.80}")
    q.put(("stats", dict(st), diffs))


def _yen_gpu(n_graphs, seed):
    rng = np.random.default_rng(seed + 1)
    st = Counter()
    for _ in range(n_graphs):
        n, r, c, w = random_graph(rng)
        w = np.abs(w) + (w == 0)
        if n < 2 or r.size == 0:
            continue
        G = sp.csr_array((w, (r, c)), shape=(n, n))
        s, t = int(rng.integers(0, n)), int(rng.integers(0, n))
        K = int(rng.integers(1, 5))
        kw = dict(directed=bool(rng.integers(2)), unweighted=bool(rng.integers(2)))
        ref = outcome(csgraph.yen, G, s, t, K, **kw)
        H = sp.csr_matrix(G)
        H.indices, H.indptr = H.indices.astype(np.int32), H.indptr.astype(np.int32)
        got = outcome(csgraph.yen, to_gpu(H), s, t, K, **kw)
        if ref[0] == got[0] == "ok":
            ok = on_gpu_everywhere(got[1])
            d = same(to_host_like(got[1], ref[1]), ref[1]) if ok else "answered on the host"
            st["equal (facade on the host input)" if d is None else "DIFF value"] += 1
            if d:
                print(f"DIFF yen n={n} {s}->{t} K={K} {kw}: {d}", flush=True)
        else:
            st[f"{ref[0]}/{got[0]}"] += 1
    return st


def main(argv):
    args = [a for a in argv if not a.startswith("-")]
    n_graphs = int(args[0]) if args else 200
    seed = int(args[1]) if len(args) > 1 else 0
    verbose = "-v" in argv
    global TRACE
    TRACE = "--trace" in argv
    only = None
    if "--only" in argv:
        only = set(argv[argv.index("--only") + 1].split(","))
    if "--engine" in argv:
        _validation.FORCE_ENGINE = True
    global GPU
    GPU = "--gpu" in argv
    mode = "GPU input" if GPU else "engine path (FORCE_ENGINE)" if _validation.FORCE_ENGINE \
        else "host path"
    print(f"facade vs scipy.sparse.csgraph: {n_graphs} random graphs, seed {seed}, {mode}")
    missing = [x for x in scg.__all__ if not hasattr(csgraph, x)]
    print(f"names: {len(scg.__all__)} in SciPy, missing here: {missing or 'none'}")
    for name in scg.__all__:
        f, g = getattr(scg, name), getattr(csgraph, name, None)
        if inspect.isfunction(g) or callable(f) and not isinstance(f, type):
            try:
                sf, sg = inspect.signature(f), inspect.signature(g)
            except (TypeError, ValueError):
                continue
            if list(sf.parameters) != list(sg.parameters) or any(
                    sf.parameters[k].default != sg.parameters[k].default
                    and not (sf.parameters[k].default is not sf.parameters[k].empty
                             and np.all(sf.parameters[k].default != sf.parameters[k].default))
                    for k in sf.parameters if k in sg.parameters):
                print(f"DIFF signature {name}: SciPy {sf} / facade {sg}")
    stats, diffs = sweep(n_graphs, seed, only, verbose)
    if GPU and (not only or "yen" in only):
        # SciPy's yen may abort the process and CUDA does not survive a fork: the facade's
        # yen on GPU input against its own on the host input (path lengths)
        stats["yen"] = _yen_gpu(n_graphs, seed)
        diffs += sum(v for k, v in stats["yen"].items() if k.startswith("DIFF"))
    elif not only or "yen" in only:
        q = mp.get_context("fork").Queue()
        p = mp.get_context("fork").Process(target=_yen_child, args=(n_graphs, seed, q))
        p.start()
        p.join(300)
        yst = Counter()
        while not q.empty():
            item = q.get()
            if isinstance(item, tuple):
                yst.update(item[1])
                diffs += item[2]
            else:
                print(item)
        if p.exitcode != 0:
            yst[f"child exit code {p.exitcode} (SciPy's yen aborted?)"] += 1
        stats["yen"] = yst
    for name in sorted(stats):
        if stats[name]:
            print(f"{name:<36} " + ", ".join(f"{k}: {v}" for k, v in sorted(stats[name].items())))
    print(f"{diffs} discrepancies")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
