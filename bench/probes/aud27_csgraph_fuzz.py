"""Session 27 audit: the csgraph facade's shortest paths on host input against SciPy.

    /tmp/venv-main/bin/python bench/probes/aud27_csgraph_fuzz.py [SEEDS] [--cases N] [--quiet]

SEEDS: a seed or a range ``A-B`` (default ``0-3``); each seed runs ``--cases`` random cases
(default 3000). Every case is one graph (n 0..40, built from an edge list: duplicates,
unsorted rows, explicit zeros, +-inf, NaN, negative and -0.0 weights) given as one input kind
(csr_matrix / csr_array with int32 or int64 index arrays, raw or canonical, with or without
lying canonical flags, read-only arrays; coo, csc, lil, dok, bsr, dia; dense C or F order,
np.matrix, masked array, nested list) of one dtype (float64/32/16, int8/32/64, uint8/64,
bool), and one call of ``dijkstra`` (directed, indices, return_predecessors, unweighted,
limit, min_only), ``bellman_ford``, ``johnson`` or ``shortest_path`` (method auto / D / BF /
J / FW), made on SciPy and on ``algorithms.csgraph`` with separately built copies of the
input. Compared: the results bit for bit (float64 bit patterns; predecessors exactly),
dtypes, shapes, the tuple structure, whether both raise and whether the facade's exception is
an instance of SciPy's class, the warnings (category and message), that the facade leaves
the input's arrays (and its attributes) as they were, and that its results share no memory
with the input and are writeable. The targeted hand-made cases (``TARGETED``) run first.

Documented deviations (``algorithms/csgraph/__init__.py``) are skipped, each by an explicit
test in :func:`documented`: Dijkstra on weights SciPy reads as negative (the facade raises;
SciPy may hang, so SciPy is not called there), indices that are bools or non-integral floats,
limit NaN, SciPy's false undirected Bellman-Ford NegativeCycleError, lists with 'auto',
Floyd-Warshall on COO/DOK/BSR/DIA or on an F-ordered dense array.

Every case runs in a worker process with a timeout (SciPy's Dijkstra can loop forever), so
the script cannot hang; a case that times out is rerun with SciPy alone and the facade alone
to say which one hangs. Each distinct discrepancy (function, input kind, kind of mismatch) is
shrunk (edges dropped while it persists) and printed once with a self-contained reproducer;
the final line gives the counts.
"""

from __future__ import annotations

import copy
import multiprocessing as mp
import sys
import traceback
import warnings

import numpy as np

TIMEOUT_FIRST = 90.0  # the first case compiles the facade's Numba kernels
TIMEOUT = 20.0
WHO_HANGS_FACADE = 45.0  # a fresh process compiles the kernels again
WHO_HANGS_MAX = 5  # timeouts rerun alone to say who hangs (the rest: "timeout")

KINDS = ["csr_matrix", "csr_array", "csr_raw", "csr_raw_array", "csr64", "csr_lying",
         "csr_readonly", "coo", "csc", "csc_raw", "lil", "dok", "bsr", "dia", "dense",
         "dense_F", "matrix", "masked", "masked_nomaskzeros", "list", "dense_ro",
         "nonsquare_csr", "nonsquare_dense"]
KIND_P = np.array([8, 5, 10, 5, 6, 3, 3, 5, 4, 3, 3, 3, 3, 2, 8, 2, 3, 4, 2, 3, 2, 1, 1],
                  float)
DTYPES = ["float64", "float32", "float16", "int8", "int32", "int64", "uint8", "uint64", "bool"]
DTYPE_P = np.array([30, 8, 4, 6, 3, 6, 4, 3, 4], float)


# ------------------------------------------------------------------ graphs and their inputs


def random_spec(rng):
    """A graph: n, an edge list (r, c, w as Python floats), a dtype and an input kind."""
    n = int(rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 25, 40],
                       p=[.02, .05, .08, .1, .1, .1, .1, .1, .1, .08, .07, .05, .05]))
    dens = rng.choice([0.05, 0.15, 0.3, 0.6, 1.2])
    m = int(rng.poisson(dens * n * n)) if n else 0
    m = min(m, 4 * n * n)
    r = rng.integers(0, max(n, 1), m).tolist() if n else []
    c = rng.integers(0, max(n, 1), m).tolist() if n else []
    mode = rng.choice(["int", "frac", "wide", "tiny"], p=[.45, .35, .1, .1])
    if mode == "int":
        w = rng.integers(0, 6, m).astype(float)
    elif mode == "frac":
        w = np.round(rng.uniform(0, 10, m), 3)
    elif mode == "wide":
        w = 10.0 ** rng.uniform(-20, 20, m)
        if m and rng.random() < .3:
            w[rng.integers(0, m, 2)] = 1.5e308  # sums overflow to inf
    else:
        w = rng.choice([1e-9, 5e-324, 1e-300, 2.0 ** -60, 1.0, 3.0], m)
    w = w.tolist()
    specials = {"neg": .12, "nan": .07, "inf": .1, "-inf": .04, "zero": .15, "-0": .04}
    for name, p in specials.items():
        if m and rng.random() < p:
            for _ in range(int(rng.integers(1, 3))):
                k = int(rng.integers(0, m))
                w[k] = {"neg": -float(rng.integers(1, 4)) * (1 if mode == "int" else 0.37),
                        "nan": np.nan, "inf": np.inf, "-inf": -np.inf, "zero": 0.0,
                        "-0": -0.0}[name]
    if m and rng.random() < .08:  # a negative that a duplicate outweighs
        k = int(rng.integers(0, m))
        r.append(r[k]); c.append(c[k]); w[k] = -1.0; w.append(3.0)
    kind = str(rng.choice(KINDS, p=KIND_P / KIND_P.sum()))
    dtype = str(rng.choice(DTYPES, p=DTYPE_P / DTYPE_P.sum()))
    dense = kind in ("dense", "dense_F", "matrix", "masked", "masked_nomaskzeros", "list",
                     "dense_ro", "nonsquare_dense")
    if dense and rng.random() < .5:
        dtype = "float64"
    if not dense and dtype == "float16":  # scipy.sparse has no float16
        dtype = "float32"
    return dict(n=n, r=[int(x) for x in r], c=[int(x) for x in c], w=[float(x) for x in w],
                kind=kind, dtype=dtype)


def _cast(w, dtype):
    w = np.asarray(w, dtype=np.float64)
    dt = np.dtype(dtype)
    if dt == bool:
        return w != 0
    if dt.kind in "iu":
        w = np.where(np.isfinite(w), w, 0.0)
        info = np.iinfo(dt)
        w = np.trunc(w)
        if dt.kind == "u":
            w = np.abs(w)
        return np.clip(w, info.min, min(info.max, 2**52)).astype(dt)
    with np.errstate(over="ignore"):
        return w.astype(dt)


def _raw_csr(n, r, c, w, idx=np.int32, by="row"):
    """(data, indices, indptr) grouped by row (``by='col'``: column), the edge list's order
    kept within a row: duplicates and unsorted indices as drawn."""
    key = np.asarray(r if by == "row" else c, dtype=np.int64)
    other = np.asarray(c if by == "row" else r, dtype=np.int64)
    o = np.argsort(key, kind="stable")
    ptr = np.concatenate([[0], np.cumsum(np.bincount(key, minlength=n))]) if n else np.zeros(1)
    return w[o], other[o].astype(idx), ptr.astype(idx)


def _dense(spec):
    n = spec["n"]
    a = np.zeros((n, n), dtype=np.float64)
    for i, j, x in zip(spec["r"], spec["c"], spec["w"]):
        a[i, j] = x  # the last write wins
    return a


def build(spec):
    """The input of ``spec``: a fresh object each call."""
    import scipy.sparse as sp
    n, kind, dtype = spec["n"], spec["kind"], spec["dtype"]
    r, c = np.asarray(spec["r"], dtype=np.int64), np.asarray(spec["c"], dtype=np.int64)
    w = _cast(spec["w"], dtype)
    if kind in ("csr_matrix", "csr_array"):
        cls = sp.csr_matrix if kind == "csr_matrix" else sp.csr_array
        S = cls(sp.coo_matrix((w, (r, c)), shape=(n, n)))
        S.sum_duplicates()
        return S
    if kind in ("csr_raw", "csr_raw_array", "csr64", "csr_lying", "csr_readonly"):
        cls = sp.csr_array if kind == "csr_raw_array" else sp.csr_matrix
        d, i, p = _raw_csr(n, r, c, w, np.int64 if kind == "csr64" else np.int32)
        S = cls((d, i, p), shape=(n, n))
        if kind == "csr64":  # SciPy's constructor may narrow them: put them back
            S.indices, S.indptr = i, p
        if kind == "csr_lying":
            S.has_sorted_indices = True
            S.has_canonical_format = True
        if kind == "csr_readonly":
            for a in (S.data, S.indices, S.indptr):
                a.flags.writeable = False
        return S
    if kind == "coo":
        return sp.coo_matrix((w, (r, c)), shape=(n, n))
    if kind == "nonsquare_csr":
        return sp.csr_matrix(sp.coo_matrix((w, (r, c)), shape=(n, n + 1)))
    if kind == "csc":
        return sp.csc_matrix(sp.coo_matrix((w, (r, c)), shape=(n, n)))
    if kind == "csc_raw":
        d, i, p = _raw_csr(n, r, c, w, np.int32, by="col")
        return sp.csc_matrix((d, i, p), shape=(n, n))
    if kind == "lil":
        return sp.coo_matrix((w, (r, c)), shape=(n, n)).tolil()
    if kind == "dok":
        return sp.coo_matrix((w, (r, c)), shape=(n, n)).todok()
    if kind == "bsr":
        return sp.coo_matrix((w, (r, c)), shape=(n, n)).tobsr(blocksize=(1, 1))
    if kind == "dia":
        return sp.coo_matrix((w, (r, c)), shape=(n, n)).todia()
    a = _cast(_dense(spec), dtype)
    if kind == "dense":
        return a
    if kind == "dense_F":
        return np.asfortranarray(a)
    if kind == "matrix":
        return np.matrix(a)
    if kind == "masked":
        return np.ma.masked_array(a, mask=(a == 0))
    if kind == "masked_nomaskzeros":  # unmasked zeros where an edge was drawn (SciPy: edges)
        mask = np.ones((n, n), dtype=bool)
        mask[r, c] = False
        return np.ma.masked_array(a, mask=mask)
    if kind == "list":
        return a.tolist()
    if kind == "dense_ro":
        a.flags.writeable = False
        return a
    if kind == "nonsquare_dense":
        return np.hstack([a, np.zeros((n, 1), dtype=a.dtype)])
    raise ValueError(kind)


def build_source(spec):
    """Python source that builds ``spec``'s input as ``G`` (for a reproducer)."""
    n, kind, dtype = spec["n"], spec["kind"], spec["dtype"]
    w = _cast(spec["w"], dtype)
    L = [f"w = np.array({_lst(w)}, dtype=np.{dtype if dtype != 'bool' else 'bool_'})"]
    rc = f"(np.array({spec['r']}, dtype=np.int64), np.array({spec['c']}, dtype=np.int64))"
    coo = f"sp.coo_matrix((w, {rc}), shape=({n}, {n}))"
    if kind in ("csr_matrix", "csr_array"):
        L += [f"G = sp.{kind}({coo})", "G.sum_duplicates()"]
    elif kind in ("csr_raw", "csr_raw_array", "csr64", "csr_lying", "csr_readonly"):
        it = "int64" if kind == "csr64" else "int32"
        d, i, p = _raw_csr(n, np.asarray(spec["r"], dtype=np.int64),
                           np.asarray(spec["c"], dtype=np.int64), w)
        cls = "csr_array" if kind == "csr_raw_array" else "csr_matrix"
        L = [f"data = np.array({_lst(d)}, dtype=np.{dtype if dtype != 'bool' else 'bool_'})",
             f"indices = np.array({i.tolist()}, dtype=np.{it})",
             f"indptr = np.array({p.tolist()}, dtype=np.{it})",
             f"G = sp.{cls}((data, indices, indptr), shape=({n}, {n}))"]
        if kind == "csr64":
            L.append("G.indices, G.indptr = indices, indptr  # int64 index arrays")
        if kind == "csr_lying":
            L += ["G.has_sorted_indices = True", "G.has_canonical_format = True"]
        if kind == "csr_readonly":
            L.append("for a in (G.data, G.indices, G.indptr): a.flags.writeable = False")
    elif kind == "coo":
        L.append(f"G = {coo}")
    elif kind == "nonsquare_csr":
        L.append(f"G = sp.csr_matrix(sp.coo_matrix((w, {rc}), shape=({n}, {n + 1})))")
    elif kind == "csc":
        L.append(f"G = sp.csc_matrix({coo})")
    elif kind == "csc_raw":
        d, i, p = _raw_csr(n, np.asarray(spec["r"], dtype=np.int64),
                           np.asarray(spec["c"], dtype=np.int64), w, by="col")
        L = [f"data = np.array({_lst(d)}, dtype=np.{dtype if dtype != 'bool' else 'bool_'})",
             f"G = sp.csc_matrix((data, np.array({i.tolist()}, dtype=np.int32), "
             f"np.array({p.tolist()}, dtype=np.int32)), shape=({n}, {n}))"]
    elif kind in ("lil", "dok", "dia"):
        L.append(f"G = {coo}.to{kind}()")
    elif kind == "bsr":
        L.append(f"G = {coo}.tobsr(blocksize=(1, 1))")
    else:
        a = _cast(_dense(spec), dtype)
        dt = f"np.{dtype if dtype != 'bool' else 'bool_'}"
        L = [f"a = np.array({_lst(a)}, dtype={dt})"]
        L.append({"dense": "G = a", "dense_F": "G = np.asfortranarray(a)",
                  "matrix": "G = np.matrix(a)",
                  "masked": "G = np.ma.masked_array(a, mask=(a == 0))",
                  "masked_nomaskzeros":
                      f"mask = np.ones(({n}, {n}), dtype=bool)\nmask[{spec['r']}, "
                      f"{spec['c']}] = False\nG = np.ma.masked_array(a, mask=mask)",
                  "list": "G = a.tolist()",
                  "dense_ro": "G = a\nG.flags.writeable = False",
                  "nonsquare_dense": f"G = np.hstack([a, np.zeros(({n}, 1), dtype=a.dtype)])",
                  }[kind])
    return "\n".join(L)


def _lst(a):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        return repr(np.asarray(a, dtype=np.float64).tolist()).replace("nan", "np.nan") \
            .replace("inf", "np.inf")
    return repr(a.tolist())


# ------------------------------------------------------------------ calls


def random_call(rng, n):
    """(function name, kwargs) with the options the brief names."""
    fn = str(rng.choice(["dijkstra", "bellman_ford", "johnson", "shortest_path"],
                        p=[.4, .17, .17, .26]))
    kw = {}
    if rng.random() < .3:
        kw["directed"] = False
    elif rng.random() < .1:
        kw["directed"] = [True, 0, 1, 0.5, None, "", np.bool_(False), np.array(True),
                          "no"][int(rng.integers(0, 9))]
    if rng.random() < .3:
        kw["return_predecessors"] = True
    if rng.random() < .2:
        kw["unweighted"] = True
    if fn == "shortest_path":
        kw["method"] = str(rng.choice(["auto", "D", "BF", "J", "FW"], p=[.3, .2, .2, .15, .15]))
    if rng.random() < .6:
        kw["indices"] = random_indices(rng, n)
    if fn == "dijkstra":
        if rng.random() < .35:
            kw["limit"] = random_limit(rng)
        if rng.random() < .25:
            kw["min_only"] = True
    return fn, kw


def random_indices(rng, n):
    k = int(rng.integers(0, 22))
    nn = max(n, 1)
    i = int(rng.integers(0, nn))
    return [
        lambda: i, lambda: np.int64(i), lambda: np.int32(i), lambda: np.uint8(min(i, 255)),
        lambda: -1, lambda: -nn, lambda: n, lambda: -n - 1,
        lambda: [int(x) for x in rng.integers(0, nn, int(rng.integers(1, 5)))],
        lambda: rng.integers(0, nn, int(rng.integers(1, 5))),
        lambda: rng.integers(0, nn, (2, 2)), lambda: [], lambda: np.array([], dtype=np.int64),
        lambda: [i, i, i], lambda: np.array(i), lambda: [float(i), 0.0],
        lambda: float(i), lambda: True, lambda: np.array([True, False]), lambda: 1.5,
        lambda: 2**31, lambda: [2**40],
    ][k]()


def random_limit(rng):
    k = int(rng.integers(0, 14))
    return [0, 0.0, 1, 2.5, 3.0, np.inf, -1.0, np.nan, 1e300, -0.0, np.float32(2.5),
            np.array(4.0), True, -np.inf][k]


# ------------------------------------------------------------------ comparison


def _call(mod, fn, G, kw):
    with warnings.catch_warnings(record=True) as wl:
        warnings.simplefilter("always")
        try:
            res = getattr(mod, fn)(G, **kw)
            exc = None
        except Exception as e:  # noqa: BLE001
            res, exc = None, e
    warns = [(w.category.__name__, str(w.message)) for w in wl]
    return res, exc, warns


def _snapshot(G):
    """The input's arrays (copies) and attribute names."""
    import scipy.sparse as sp
    if sp.issparse(G):
        arrays = {k: np.array(v, copy=True) for k, v in vars(G).items()
                  if isinstance(v, np.ndarray)}
        if G.format == "dok":
            arrays["dok"] = dict(G.items())
        if G.format == "lil":
            arrays["rows"] = [list(x) for x in G.rows]
            arrays["lildata"] = [list(x) for x in G.data]
        return arrays, sorted(vars(G))
    if isinstance(G, np.ma.MaskedArray):
        return {"data": np.array(G.data, copy=True),
                "mask": np.array(np.ma.getmaskarray(G), copy=True)}, []
    if isinstance(G, np.ndarray):
        return {"a": np.array(G, copy=True), "flags": (G.flags.c_contiguous,
                                                        G.flags.writeable)}, []
    return {"list": copy.deepcopy(G)}, []


def _same(a, b):
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and (
            a.tobytes() == b.tobytes() if a.dtype.kind != "O" else
            bool(np.all(a == b)))
    if isinstance(a, (list, dict, tuple)):
        try:
            return repr(a) == repr(b)
        except Exception:  # noqa: BLE001
            return False
    return a == b


def _arrays_of(res):
    return list(res) if isinstance(res, tuple) else [res]


def compare(spec, fn, kw):
    """The list of mismatches (category, detail) of one case; [] when the facade is SciPy's
    or the difference is a documented deviation."""
    import scipy.sparse.csgraph as scg

    from algorithms import csgraph as fac
    doc = documented_before(spec, fn, kw)
    LAST_DOC[0] = doc
    if doc == "skip":
        return []
    Gs, Gf = build(spec), build(spec)
    before, attrs_before = _snapshot(Gf)
    if doc == "facade-only":  # SciPy may hang: the facade must raise its documented error
        res_f, exc_f, _ = _call(fac, fn, Gf, kw)
        out = []
        if exc_f is None or not isinstance(exc_f, ValueError):
            out.append(("negative-dijkstra-not-refused",
                        f"facade: {type(exc_f).__name__ if exc_f else _short(res_f)}"))
        return out + _mutation(Gf, before, attrs_before, None)
    res_s, exc_s, w_s = _call(scg, fn, Gs, kw)
    Gs_after_attrs = _snapshot(Gs)[1]
    res_f, exc_f, w_f = _call(fac, fn, Gf, kw)
    if documented_after(spec, fn, kw, exc_s, exc_f, res_s, res_f):
        LAST_DOC[0] = "skip-after"
        return []
    out = []
    if (exc_s is None) != (exc_f is None):
        out.append(("raises-differ", f"scipy: {_desc(res_s, exc_s)}\nfacade: {_desc(res_f, exc_f)}"))
    elif exc_s is not None:
        if not isinstance(exc_f, type(exc_s)):
            out.append(("exception-class", f"scipy: {type(exc_s).__name__}: {exc_s}\n"
                                           f"facade: {type(exc_f).__name__} "
                                           f"{[c.__name__ for c in type(exc_f).__mro__[:-2]]}: "
                                           f"{exc_f}"))
    else:
        if isinstance(res_s, tuple) != isinstance(res_f, tuple) or (
                isinstance(res_s, tuple) and len(res_s) != len(res_f)):
            out.append(("structure", f"scipy: {_short(res_s)}\nfacade: {_short(res_f)}"))
        else:
            for k, (a, b) in enumerate(zip(_arrays_of(res_s), _arrays_of(res_f))):
                if type(a) is not type(b):
                    out.append(("type", f"[{k}] {type(a).__name__} vs {type(b).__name__}"))
                    continue
                a, b = np.asarray(a), np.asarray(b)
                if a.dtype != b.dtype or a.shape != b.shape:
                    out.append(("dtype-shape", f"[{k}] scipy {a.dtype}{a.shape} facade "
                                               f"{b.dtype}{b.shape}"))
                    continue
                if a.tobytes() != b.tobytes():
                    try:
                        np.testing.assert_array_equal(a, b)
                        cat = "bits"  # equal as numbers (e.g. -0.0 / 0.0, NaN payloads)
                    except AssertionError:
                        cat = "values"
                    out.append((cat, f"[{k}] scipy:\n{a!r}\nfacade:\n{b!r}"))
            for k, b in enumerate(_arrays_of(res_f)):
                if isinstance(b, np.ndarray) and not b.flags.writeable:
                    out.append(("result-readonly", f"[{k}]"))
                if isinstance(b, np.ndarray) and _shares(b, Gf):
                    out.append(("result-shares-input", f"[{k}]"))
    if w_s != w_f:
        out.append(("warnings", f"scipy: {w_s}\nfacade: {w_f}"))
    out += _mutation(Gf, before, attrs_before, Gs_after_attrs)
    return out


def _shares(b, G):
    import scipy.sparse as sp
    arrs = ([v for v in vars(G).values() if isinstance(v, np.ndarray)] if sp.issparse(G) else
            [np.asarray(G)] if isinstance(G, np.ndarray) else [])
    return any(np.shares_memory(b, a) for a in arrs)


def _mutation(Gf, before, attrs_before, scipy_attrs_after):
    out = []
    after, attrs_after = _snapshot(Gf)
    for k, v in before.items():
        if not _same(v, after.get(k)):
            out.append(("input-mutated", f"{k}: before {v!r}\nafter {after.get(k)!r}"))
    if scipy_attrs_after is not None and attrs_after != scipy_attrs_after:
        out.append(("input-attributes", f"before {attrs_before}\nafter SciPy "
                                        f"{scipy_attrs_after}\nafter the facade {attrs_after}"))
    return out


def _desc(res, exc):
    return f"{type(exc).__name__}: {exc}" if exc is not None else _short(res)


def _short(res):
    s = repr(res)
    return s if len(s) < 1500 else s[:1500] + "..."


# ------------------------------------------------------------------ documented deviations


def _reads_negative(spec, kw):
    """Whether SciPy's Dijkstra reads a negative weight (its own validate_graph's CSR)."""
    from scipy.sparse.csgraph._validation import validate_graph
    if kw.get("unweighted"):
        return False
    try:
        S = validate_graph(build(spec), kw.get("directed", True), dense_output=False)
    except Exception:  # noqa: BLE001
        return False
    return bool(np.any(S.data < 0))


def _bad_indices(ind):
    """bool or non-integral float indices (documented: the facade raises DomainMismatch)."""
    if ind is None:
        return False
    a = np.asarray(ind)
    if a.dtype == bool:
        return True
    return a.dtype.kind == "f" and a.size and bool(np.any(a != np.floor(a)))


def _dijkstra_like(fn, kw, spec):
    if fn == "dijkstra":
        return True
    if fn == "shortest_path":
        m = kw.get("method", "auto")
        if m == "D":
            return True
        if m == "auto":
            return _auto(spec, kw) == "D"
    return False


def _auto(spec, kw):
    """SciPy's choice of 'auto' on the input."""
    import scipy.sparse as sp
    G = build(spec)
    n = spec["n"]
    if sp.issparse(G):
        Nk = G.nnz
        edges = G.data if G.format in ("csr", "csc", "coo") else G.tocoo().data
    elif isinstance(G, np.ma.MaskedArray):
        Nk, edges = G.count(), G.compressed()
    else:
        a = np.asarray(G)
        edges = a[np.isfinite(a)]
        edges = edges[edges != 0]
        Nk = edges.size
    if kw.get("indices") is not None or Nk < n * n / 4:
        return "J" if np.any(edges < 0) else "D"
    return "FW"


def documented_before(spec, fn, kw):
    """'skip', 'facade-only' (SciPy may hang), or None (compare)."""
    if _bad_indices(kw.get("indices")):
        return "skip"
    if fn == "dijkstra" and isinstance(kw.get("limit"), float) and np.isnan(kw["limit"]):
        return "skip"
    if spec["kind"] == "list" and fn == "shortest_path" and kw.get("method", "auto") == "auto":
        return "skip"
    m = kw.get("method", "auto")
    if fn == "shortest_path" and m in ("FW", "auto") and kw.get("indices") is None and (
            spec["kind"] in ("coo", "dok", "bsr", "dia", "dense_F")):
        if m == "FW" or _auto(spec, kw) == "FW":
            return "skip"
    if _dijkstra_like(fn, kw, spec) and spec["n"] and _reads_negative(spec, kw):
        return "facade-only"
    return None


def documented_after(spec, fn, kw, exc_s, exc_f, res_s, res_f):
    import scipy.sparse.csgraph as scg
    bf = fn == "bellman_ford" or (fn == "shortest_path" and kw.get("method") == "BF")
    if bf and not kw.get("directed", True) and isinstance(exc_s, scg.NegativeCycleError) \
            and exc_f is None:
        return True  # SciPy's false undirected NegativeCycleError (documented)
    if exc_f is not None and exc_s is not None and "out of range" in str(exc_s) \
            and isinstance(exc_f, ValueError):
        return True
    if exc_s is None and exc_f is not None and "indices must lie in" in str(exc_f):
        # an index beyond int32 that SciPy's cast wraps into range (np.int64(2**32) reads
        # as 0): the facade's documented IndexOutOfRange
        ind = np.asarray(kw.get("indices")).ravel()
        return bool(ind.size and np.any(np.abs(ind.astype(object)) >= 2**31))
    return False


# ------------------------------------------------------------------ shrinking and reporting


def _family(kind):
    return ("csr" if kind.startswith("csr") else "sparse" if kind in (
        "coo", "csc", "csc_raw", "lil", "dok", "bsr", "dia") else "dense")


def signature(spec, fn, kw, cats):
    """What makes two mismatches the same one: the categories and, by category, the
    exception classes, the function and the input's family."""
    key = []
    for c, d in sorted(set(cats)):
        if c in ("exception-class", "raises-differ"):
            heads = []
            for line in d.split("\n"):
                if line.startswith(("scipy:", "facade:")):
                    h = line.split(":", 1)[1].strip().split(" ")[0].rstrip(":")
                    heads.append("result" if h[:1] in "(a[" and not h.endswith("Error")
                                 else h)
            key.append((c, *heads))
        elif c == "input-attributes":
            key.append((c, _family(spec["kind"])))
        else:
            key.append((c, fn, kw.get("method"), _family(spec["kind"])))
    if any(k[0] == "raises-differ" for k in key):
        key.append((fn if fn != "shortest_path" else kw.get("method", "auto"),
                    _family(spec["kind"])))
    return tuple(key)


def shrink(spec, fn, kw, cats):
    """Drop edges (halves, then one at a time) and lower n while a mismatch of the same
    categories persists."""
    want = {c for c, _ in cats}

    def bad(s):
        try:
            return want <= {c for c, _ in compare(s, fn, kw)}
        except Exception:  # noqa: BLE001
            return False

    s = copy.deepcopy(spec)
    chunk = max(len(s["w"]) // 2, 1)
    while chunk >= 1 and s["w"]:
        k, progressed = 0, False
        while k < len(s["w"]):
            t = dict(s, r=s["r"][:k] + s["r"][k + chunk:], c=s["c"][:k] + s["c"][k + chunk:],
                     w=s["w"][:k] + s["w"][k + chunk:])
            if bad(t):
                s, progressed = t, True
            else:
                k += chunk
        if not progressed:
            chunk //= 2
    used = max([*s["r"], *s["c"]], default=-1) + 1
    ind = kw.get("indices")
    for n2 in range(used, s["n"]):
        if ind is not None:
            break  # indices name vertices: keep n
        t = dict(s, n=n2)
        if bad(t):
            s = t
            break
    return s


def reproducer(spec, fn, kw):
    kws = ", ".join(f"{k}={_kwrepr(v)}" for k, v in kw.items())
    return (f"import numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg\n"
            f"from algorithms import csgraph\n{build_source(spec)}\n"
            f"print(scg.{fn}(G{', ' if kws else ''}{kws}))\n"
            f"print(csgraph.{fn}(G{', ' if kws else ''}{kws}))")


def _kwrepr(v):
    if isinstance(v, np.ndarray):
        return f"np.array({v.tolist()}, dtype=np.{v.dtype})"
    if isinstance(v, np.generic):
        return f"np.{type(v).__name__}({v.item()!r})"
    if isinstance(v, float) and not np.isfinite(v):
        return "np.nan" if np.isnan(v) else ("np.inf" if v > 0 else "-np.inf")
    return repr(v)


# ------------------------------------------------------------------ targeted cases


def targeted():
    """Hand-made (spec, fn, kw) cases: boundaries of the compiled route."""
    cases = []
    path = dict(n=4, r=[0, 1, 2], c=[1, 2, 3], w=[1.0, 2.0, 3.0])
    for kind in KINDS:
        for dtype in ("float64", "float32", "int8", "bool", "uint64", "float16"):
            if dtype == "float16" and kind not in ("dense", "dense_F", "matrix", "masked",
                                                   "masked_nomaskzeros", "list", "dense_ro",
                                                   "nonsquare_dense"):
                continue
            sp_ = dict(path, kind=kind, dtype=dtype)
            for fn in ("dijkstra", "bellman_ford", "johnson"):
                for kw in ({}, {"indices": 0}, {"indices": [0, 3]}, {"directed": False},
                           {"unweighted": True}, {"return_predecessors": True, "indices": 1}):
                    cases.append((sp_, fn, kw))
            for m in ("auto", "D", "BF", "J", "FW"):
                cases.append((sp_, "shortest_path", {"method": m}))
                cases.append((sp_, "shortest_path", {"method": m, "directed": False}))
            for lim in (0, 1.0, 3.0, 6.0, np.inf, -1.0, 2.999999999):
                cases.append((sp_, "dijkstra", {"indices": 0, "limit": lim}))
                cases.append((sp_, "dijkstra", {"limit": lim, "min_only": True,
                                                "indices": [0, 2]}))
    # duplicates whose sum is >= 0 though one is negative (SciPy's cast sums them)
    dup = dict(n=3, r=[0, 0, 1], c=[1, 1, 2], w=[-1.0, 3.0, 2.0])
    for kind in ("csr_raw", "csr_raw_array", "csr_lying", "csr_readonly", "coo", "csc_raw",
                 "csr64"):
        for dtype in ("int8", "float32", "int64", "float64"):
            for fn, kw in (("dijkstra", {"indices": 0}), ("dijkstra", {"indices": [0]}),
                           ("dijkstra", {"indices": 0, "directed": False}),
                           ("dijkstra", {}), ("dijkstra", {"min_only": True, "indices": 0}),
                           ("shortest_path", {"method": "D", "indices": 0}),
                           ("shortest_path", {"method": "auto", "indices": 0}),
                           ("shortest_path", {"method": "auto"}),
                           ("bellman_ford", {"indices": 0}), ("johnson", {"indices": 0})):
                cases.append((dict(dup, kind=kind, dtype=dtype), fn, kw))
    # a self-loop, an isolated vertex, explicit zeros, inf and -0.0
    odd = dict(n=5, r=[0, 0, 1, 1, 2, 3], c=[0, 1, 1, 2, 3, 0],
               w=[0.0, -0.0, 2.0, np.inf, 0.5, 7.25])
    for kind in KINDS:
        for fn, kw in (("dijkstra", {}), ("dijkstra", {"directed": False}),
                       ("dijkstra", {"unweighted": True, "directed": False}),
                       ("bellman_ford", {}), ("johnson", {"directed": False}),
                       ("shortest_path", {}), ("shortest_path", {"method": "FW"}),
                       ("dijkstra", {"return_predecessors": True}),
                       ("dijkstra", {"min_only": True, "return_predecessors": True})):
            cases.append((dict(odd, kind=kind, dtype="float64"), fn, kw))
    # indices of every kind on one graph
    g = dict(n=3, r=[0, 1], c=[1, 2], w=[1.0, 1.0], kind="csr_matrix", dtype="float64")
    for ind in (0, -1, -3, 3, -4, np.int64(2), np.uint64(1), np.int8(-1), [], [0, 0],
                np.array([[0, 1], [2, 0]]), np.array(1), [1.0], 2.0, 2**31, -2**31 - 1,
                [2**40], np.int64(2**32), np.array([], dtype=float), (0, 1), range(2)):
        for fn in ("dijkstra", "bellman_ford", "johnson", "shortest_path"):
            cases.append((g, fn, {"indices": ind}))
        cases.append((g, "dijkstra", {"indices": ind, "min_only": True}))
    # argument precedence: a bad limit beside a bad graph or bad indices
    for kw in ({"indices": 5, "limit": -1.0}, {"indices": 5, "limit": "x"},
               {"limit": "x"}, {"limit": None}, {"limit": np.array([3.0])},
               {"limit": np.array(3.0)}, {"limit": True}, {"limit": np.float32(0.1)}):
        cases.append((g, "dijkstra", kw))
        cases.append((dict(g, kind="csr_raw"), "dijkstra", kw))
    fr = dict(n=4, r=[0, 1, 2, 0], c=[1, 2, 3, 3], w=[0.1, 0.2, 0.3, 0.6000000000000001])
    for kind in ("csr_matrix", "csr_raw", "dense", "coo", "masked", "list"):
        for lim in (0.1 + 0.2, 0.3, 0.1 + 0.2 + 0.3, 0.6, 0.6000000000000001, 0.1, 5e-324):
            for kw in ({"indices": 0, "limit": lim}, {"limit": lim},
                       {"limit": lim, "directed": False},
                       {"limit": lim, "min_only": True, "indices": [0, 3]},
                       {"limit": lim, "unweighted": True}):
                cases.append((dict(fr, kind=kind, dtype="float64"), "dijkstra", kw))
    ns = dict(n=0, r=[], c=[], w=[], kind="dense", dtype="float64")
    for fn in ("dijkstra", "bellman_ford", "johnson", "shortest_path"):
        cases.append((ns, fn, {}))
        cases.append((ns, fn, {"indices": []}))
        cases.append((dict(ns, kind="csr_matrix"), fn, {"return_predecessors": True}))
    cases.append((dict(ns, kind="csr_matrix"), "dijkstra", {"min_only": True}))
    return cases


# ------------------------------------------------------------------ worker / driver


COMPILED_RUNS = [0]
LAST_DOC = [None]


def _count_compiled():
    """Count the facade's runs of the compiled Dijkstra (how often the fuzz reaches it)."""
    from semiring.backend.cpu import compiled
    real = compiled.dijkstra_distances

    def counted(*a, **k):
        COMPILED_RUNS[0] += 1
        return real(*a, **k)
    compiled.dijkstra_distances = counted


def _worker(conn):
    warnings.simplefilter("ignore")
    _count_compiled()
    while True:
        msg = conn.recv()
        if msg is None:
            return
        spec, fn, kw, do_shrink = msg
        try:
            before = COMPILED_RUNS[0]
            cats = compare(spec, fn, kw)
            ran = COMPILED_RUNS[0] > before
            doc = LAST_DOC[0]
            small = shrink(spec, fn, kw, cats) if (cats and do_shrink) else spec
            cats2 = compare(small, fn, kw) if small is not spec else cats
            conn.send(("ok" if not ran else "ok-compiled", cats, small, cats2, doc))
        except Exception:  # noqa: BLE001
            conn.send(("crash", traceback.format_exc(), spec, [], None))


def _alone(which, spec, fn, kw, q):
    import scipy.sparse.csgraph as scg

    from algorithms import csgraph as fac
    mod = scg if which == "scipy" else fac
    try:
        getattr(mod, fn)(build(spec), **kw)
    except Exception:  # noqa: BLE001
        pass
    q.put(which)


def who_hangs(spec, fn, kw):
    out = []
    for which in ("scipy", "facade"):
        q = mp.Queue()
        p = mp.Process(target=_alone, args=(which, spec, fn, kw, q))
        p.start()
        p.join(WHO_HANGS_FACADE if which == "facade" else TIMEOUT)
        if p.is_alive():
            p.kill()
            p.join()
            out.append(which)
    return out


class Runner:
    def __init__(self):
        self.proc = None
        self.first = True

    def start(self):
        self.parent, child = mp.Pipe()
        self.proc = mp.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        self.first = True

    def run(self, spec, fn, kw, do_shrink):
        if self.proc is None or not self.proc.is_alive():
            self.start()
        self.parent.send((spec, fn, kw, do_shrink))
        t = TIMEOUT_FIRST if self.first else TIMEOUT * (8 if do_shrink else 1)
        if self.parent.poll(t):
            self.first = False
            return self.parent.recv()
        self.proc.kill()
        self.proc.join()
        self.proc = None
        return ("timeout", None, spec, [], None)

    def close(self):
        if self.proc is not None and self.proc.is_alive():
            self.parent.send(None)
            self.proc.join(5)
            if self.proc.is_alive():
                self.proc.kill()


def main(argv):
    seeds, cases, quiet = "0-3", 3000, False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--cases":
            cases = int(args.pop(0))
        elif a == "--quiet":
            quiet = True
        else:
            seeds = a
    lo, _, hi = seeds.partition("-")
    seed_list = list(range(int(lo), int(hi or lo) + 1))
    runner = Runner()
    found = {}  # signature -> [count, first (spec, fn, kw, cats)]
    total = timeouts = crashes = 0
    compiled_cases = [0]
    skipped = {}

    def one(spec, fn, kw):
        nonlocal total, timeouts, crashes
        total += 1
        status, cats, small, cats2, doc = runner.run(spec, fn, kw, do_shrink=False)
        if status == "ok-compiled":
            compiled_cases[0] += 1
        if doc:
            skipped[doc] = skipped.get(doc, 0) + 1
        if status == "timeout":
            timeouts += 1
            if timeouts > WHO_HANGS_MAX:
                cats = [("timeout", "not rerun alone")]
                hung = []
            else:
                hung = who_hangs(spec, fn, kw)
                cats = [("timeout", f"hangs: {hung or 'neither alone (slow?)'}")]
            if "facade" in hung and "scipy" in hung:
                cats = [("timeout-both", "SciPy and the facade both hang")]
        elif status == "crash":
            crashes += 1
            cats = [("probe-crash", cats)]
        if not cats:
            return
        sig = signature(spec, fn, kw, cats)
        if sig in found:
            found[sig][0] += 1
            return
        if cats[0][0] not in ("timeout", "timeout-both", "probe-crash"):
            st, _, small, cats2, _ = runner.run(spec, fn, kw, do_shrink=True)
            if not st.startswith("ok") or not cats2:
                small, cats2 = spec, cats
        else:
            small, cats2 = spec, cats
        found[sig] = [1, (small, fn, kw, cats2)]
        if not quiet:
            _print(len(found), sig, small, fn, kw, cats2)

    for spec, fn, kw in targeted():
        one(spec, fn, kw)
    print(f"targeted cases: {total}", flush=True)
    for seed in seed_list:
        rng = np.random.default_rng(seed)
        for _ in range(cases):
            spec = random_spec(rng)
            fn, kw = random_call(rng, spec["n"])
            one(spec, fn, kw)
        print(f"seed {seed}: {total} cases so far, {len(found)} distinct discrepancies",
              flush=True)
    runner.close()
    print("\n==== summary ====")
    for k, (sig, (cnt, _)) in enumerate(found.items(), 1):
        print(f"#{k} x{cnt}: {sig}")
    n_cases = sum(c for c, _ in found.values())
    print(f"documented deviations: {skipped.get('skip', 0)} cases not compared, "
          f"{skipped.get('facade-only', 0)} Dijkstra calls on weights SciPy reads as negative "
          f"checked to raise (SciPy not called), {skipped.get('skip-after', 0)} answers "
          f"accepted after the call (SciPy's false undirected NegativeCycleError, indices "
          f"beyond int32 that SciPy wraps, out-of-range messages)")
    print(f"FINAL: {total} cases ({compiled_cases[0]} ran the facade's compiled Dijkstra), "
          f"{n_cases} discrepant cases, {len(found)} distinct discrepancies, {timeouts} "
          f"timeouts, {crashes} probe crashes")
    return 0


def _print(k, sig, spec, fn, kw, cats):
    print(f"\n---- discrepancy #{k}: {sig}")
    for c, d in cats:
        print(f"[{c}] {d}")
    print("reproducer:\n" + reproducer(spec, fn, kw), flush=True)


if __name__ == "__main__":
    mp.set_start_method("fork")
    sys.exit(main(sys.argv[1:]))
