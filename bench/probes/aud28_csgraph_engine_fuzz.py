"""Audit 28e: session 27's csgraph fuzzers run on the facade's ENGINE path (GPU logic on NumPy).

    /tmp/venv-main/bin/python bench/probes/aud28_csgraph_engine_fuzz.py sp [--no-thin] [ARGS]
    /tmp/venv-main/bin/python bench/probes/aud28_csgraph_engine_fuzz.py other [--no-thin] [ARGS]

``sp`` runs ``aud27_csgraph_fuzz.py`` (the shortest paths), ``other`` runs
``aud27b_csgraph_fuzz.py`` (the other 21 names); ARGS are that fuzzer's own (seeds,
``--cases N``, ``--only``, ``--quiet``, ...: see its docstring). Nothing of theirs is copied:
this wrapper loads them and replaces their ``_call`` (the one place each calls a function of
SciPy or of the facade) so that every facade call runs with
``algorithms.csgraph._validation.FORCE_ENGINE = True``, set in the forked worker right before
the call and reset after it (SciPy's calls run with it off; it changes nothing of SciPy's
anyway).

``--no-thin`` also sets ``_thin.THIN_ON_CPU`` and ``_traversal.THIN_ON_CPU`` False during
the facade's calls, so that the thin-graph probes never hand a small graph to SciPy's host
routine: the engine's own searches run on every graph (on the GPU they run on every graph
the probes call wide). Without it the probes run as on the GPU.

To show the engine path is really taken, each facade call counts (per function name, in the
worker; printed by the worker at exit and summed by the parent): the calls that chose the
engine path (``_validation.engine_forced()`` answering True, or the engine helpers the
functions call directly), the calls of SciPy's csgraph routines made by the facade (its host
route, its thin-graph hand-offs and the host pieces its engine path keeps: strong components'
depth-first search, depth-first orders, matching, flow), and the calls of
``_validation.host_route``. The table is printed at the end.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import multiprocessing as mp
import os
import sys
import tempfile
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

#: The per-process tally file (the forked workers append theirs at each call; the parent
#: sums them at the end): function -> Counter of events.
TALLY_DIR = tempfile.mkdtemp(prefix="aud28e_")
TALLY = collections.defaultdict(collections.Counter)
CURRENT = [None]  # the facade function now running (None: SciPy's call or the fuzzer's own)


def _load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


class _CountingScipy:
    """Stands for ``scipy.sparse.csgraph`` inside the facade's modules: each routine called
    is counted against the facade function running."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        attr = getattr(self._real, name)
        if not callable(attr) or isinstance(attr, type):
            return attr

        def counted(*a, **k):
            if CURRENT[0] is not None:
                TALLY[CURRENT[0]][f"scipy.{name}"] += 1
            return attr(*a, **k)
        return counted


def _instrument():
    """Count the engine path's choices, SciPy's routines and host routes in the facade."""
    import scipy.sparse.csgraph as scg

    from algorithms.csgraph import _graphalg, _shortest, _thin, _tools, _traversal
    from algorithms.csgraph import _validation as v

    proxy = _CountingScipy(scg)
    _shortest.scg = proxy  # also _shortest._scg(), which _tools and _traversal call
    _traversal.scg = proxy
    _thin.scg = proxy
    _graphalg._scg = proxy

    real_forced = v.engine_forced

    def engine_forced():
        r = real_forced()
        if r and CURRENT[0] is not None:
            TALLY[CURRENT[0]]["engine"] += 1
        return r
    v.engine_forced = engine_forced

    real_host_route = v.host_route

    def host_route(*a, **k):
        if CURRENT[0] is not None:
            TALLY[CURRENT[0]]["host_route"] += 1
        return real_host_route(*a, **k)
    v.host_route = host_route

    # the functions that read FORCE_ENGINE directly rather than engine_forced(): their
    # engine helpers, counted by name
    for mod, names in ((_tools, ("_laplacian_engine", "_to_dense_engine")),
                       (_graphalg, ("_stored_csr",)),
                       (_shortest, ("_engine_paths", "_fw_engine", "_yen_paths")),
                       (_traversal, ("_bfs_engine", "_bfs_device", "_dfs_device"))):
        for name in names:
            if not hasattr(mod, name):
                continue
            real = getattr(mod, name)

            def wrap(*a, _real=real, _name=name, **k):
                if CURRENT[0] is not None:
                    TALLY[CURRENT[0]][f"engine:{_name}"] += 1
                return _real(*a, **k)
            setattr(mod, name, wrap)
    # the MST's engine path (Borůvka) and the components' engine
    for mod, name in ((_graphalg._mst, "_boruvka"),
                      (_graphalg._components, "connected_components")):
        real = getattr(mod, name)

        def wrap2(*a, _real=real, _name=name, **k):
            if CURRENT[0] is not None:
                TALLY[CURRENT[0]][f"engine:{_name}"] += 1
            return _real(*a, **k)
        setattr(mod, name, wrap2)


def _dump():
    path = os.path.join(TALLY_DIR, f"{os.getpid()}.txt")
    with open(path, "w") as f:
        for fn, c in TALLY.items():
            for ev, k in c.items():
                f.write(f"{fn}\t{ev}\t{k}\n")


def _summary():
    tot = collections.defaultdict(collections.Counter)
    for name in os.listdir(TALLY_DIR):
        with open(os.path.join(TALLY_DIR, name)) as f:
            for line in f:
                fn, ev, k = line.rstrip("\n").split("\t")
                tot[fn][ev] += int(k)
    print("\n==== engine-path tally (facade calls; events counted inside them)")
    for fn in sorted(tot):
        c = tot[fn]
        calls = c.pop("calls", 0)
        eng = c.pop("calls_engine", 0)
        rest = ", ".join(f"{k}={v}" for k, v in sorted(c.items()))
        print(f"  {fn}: {calls} calls, {eng} took the engine path; {rest}")


FLOAT_DTYPES = ("float64", "float32", "float16")
SPARSE_FAMILY = ("csr", "coo", "csc", "lil", "dok", "bsr", "dia")


def engine_documented(fz, spec, fn, kw, exc_s, exc_f, res_s, res_f):
    """The engine path's documented deviations in the shortest paths (the module docstring
    of ``algorithms.csgraph``), or None: a stored -inf weight raises ``InvalidValue``, and
    where shortest paths tie a predecessor may be another valid one than SciPy's."""
    import semiring as sr
    if (exc_f is not None and isinstance(exc_f, sr.InvalidValue) and "-inf" in str(exc_f)
            and spec["dtype"] in FLOAT_DTYPES
            and (spec["kind"].startswith(SPARSE_FAMILY) or spec["kind"].startswith("masked"))
            and -np.inf in spec["w"]):
        return "stored -inf refused"
    if exc_s is not None or exc_f is not None or not isinstance(res_s, tuple) or \
            not isinstance(res_f, tuple) or len(res_s) != len(res_f) or len(res_s) < 2:
        return None
    d_s, p_s, d_f, p_f = (np.asarray(x) for x in (res_s[0], res_s[1], res_f[0], res_f[1]))
    if d_s.tobytes() != d_f.tobytes() or p_s.dtype != p_f.dtype or p_s.shape != p_f.shape \
            or p_s.tobytes() == p_f.tobytes():
        return None
    if len(res_s) == 3:  # min_only: the sources too may differ where they tie
        pass
    elif any(np.asarray(a).tobytes() != np.asarray(b).tobytes()
             for a, b in zip(res_s[2:], res_f[2:])):
        return None
    try:
        ok = valid_predecessors(fz.build(spec), fn, kw, d_f, p_f,
                                res_f[2] if len(res_f) == 3 else None)
    except Exception:  # noqa: BLE001
        return None
    return "tied predecessors" if ok else None


def engine_documented_b(fname, kind, dtype, spec, res_s, res_f):
    """The engine path's documented deviations among the other functions, or None: a
    stored -inf weight in ``floyd_warshall`` raises ``InvalidValue`` (a sparse or masked
    input's: a dense one's is no edge), and the Laplacian array of a bool graph raises
    ``UnsignedLaplacian`` (a TypeError) where SciPy raises NumPy's private casting error."""
    import semiring as sr
    from algorithms.csgraph._tools import UnsignedLaplacian
    fs, ff = res_s[0], res_f[0]
    if (fname == "floyd_warshall" and ff == "err" and isinstance(res_f[1], sr.InvalidValue)
            and "-inf" in str(res_f[1]) and dtype in FLOAT_DTYPES
            and (kind.startswith(SPARSE_FAMILY) or kind == "masked")
            and -np.inf in spec["w"]):
        return "documented (engine): stored -inf refused"
    if (fname == "laplacian" and fs == ff == "err" and isinstance(res_f[1], UnsignedLaplacian)
            and isinstance(res_s[1], TypeError)):
        return "documented (engine): UnsignedLaplacian for NumPy's casting error"
    return None


def valid_predecessors(G, fn, kw, dist, pred, min_sources):
    """Whether ``pred`` is a shortest-path forest for ``dist`` on ``G`` as SciPy reads it."""
    import scipy.sparse.csgraph as scg
    from scipy.sparse.csgraph._validation import validate_graph
    directed = bool(kw.get("directed", True))
    if fn == "shortest_path" and kw.get("method") == "FW":
        return False  # FW's predecessors are SciPy's k order: no tie is documented there
    S = validate_graph(G, directed, dense_output=False)
    n = S.shape[0]
    if kw.get("unweighted"):
        S = S.copy()
        S.data[:] = 1.0
    W = scg.csgraph_to_dense(S, null_value=np.inf)
    if not directed:
        W = np.minimum(W, W.T)
    ind = kw.get("indices")
    if min_sources is not None:
        srcs = set((np.asarray(ind).ravel().astype(np.int64) % n).tolist()) if n else set()
        for v in range(n):
            p = pred[v]
            if p == -9999:
                if np.isfinite(dist[v]) and v not in srcs:
                    return False
                continue
            if not (dist[p] + W[p, v] == dist[v]):
                return False
            x, k = v, 0
            while pred[x] != -9999 and k <= n:
                x, k = pred[x], k + 1
            if x not in srcs or min_sources[v] != x:
                return False
        return True
    if ind is None:
        sources = np.arange(n)
    else:
        sources = np.asarray(ind).ravel().astype(np.int64) % max(n, 1)
    D, P = dist.reshape(-1, n), pred.reshape(-1, n)
    for row, s in enumerate(sources):
        d, p = D[row], P[row]
        none = p == -9999
        expect = ~np.isfinite(d)
        expect[s] = True
        if not np.array_equal(none, expect):
            return False
        for v in np.flatnonzero(~none):
            u = p[v]
            if not (d[u] + W[u, v] == d[v] or np.isclose(d[u] + W[u, v], d[v], rtol=1e-12,
                                                         atol=0)):
                return False
            x, k = v, 0
            while x != s and k <= n:
                x, k = p[x], k + 1
            if x != s:
                return False
    return True


def main(argv):
    if not argv or argv[0] not in ("sp", "other"):
        print(__doc__)
        return 2
    which, rest = argv[0], list(argv[1:])
    no_thin = "--no-thin" in rest
    if no_thin:
        rest.remove("--no-thin")
    no_csgraph = "--no-cpu-csgraph" in rest
    if no_csgraph:
        rest.remove("--no-cpu-csgraph")
    bfs_mod = importlib.import_module("algorithms.bfs")
    sssp_mod = importlib.import_module("algorithms.sssp")
    fz = _load("aud27_csgraph_fuzz" if which == "sp" else "aud27b_csgraph_fuzz")
    _instrument()
    from algorithms.csgraph import _thin, _traversal
    from algorithms.csgraph import _validation as v

    real_call = fz._call

    def facade_call(fn_name, run):
        """Run ``run()`` (one facade call) with the engine path forced."""
        saved = (v.FORCE_ENGINE, _thin.THIN_ON_CPU, _traversal.THIN_ON_CPU,
                 sssp_mod.CPU_CSGRAPH, bfs_mod.CPU_CSGRAPH)
        v.FORCE_ENGINE = True
        if no_thin:
            _thin.THIN_ON_CPU = _traversal.THIN_ON_CPU = False
        if no_csgraph:
            sssp_mod.CPU_CSGRAPH = bfs_mod.CPU_CSGRAPH = False
        CURRENT[0] = fn_name
        before = sum(v_ for k, v_ in TALLY[fn_name].items() if k == "engine"
                     or k.startswith("engine:"))
        try:
            return run()
        finally:
            after = sum(v_ for k, v_ in TALLY[fn_name].items() if k == "engine"
                        or k.startswith("engine:"))
            TALLY[fn_name]["calls"] += 1
            TALLY[fn_name]["calls_engine"] += after > before
            CURRENT[0] = None
            (v.FORCE_ENGINE, _thin.THIN_ON_CPU, _traversal.THIN_ON_CPU,
             sssp_mod.CPU_CSGRAPH, bfs_mod.CPU_CSGRAPH) = saved
            _dump()

    if which == "sp":
        import algorithms.csgraph as fac

        def _call(mod, fn, G, kw):
            if mod is fac:
                return facade_call(fn, lambda: real_call(mod, fn, G, kw))
            return real_call(mod, fn, G, kw)
        fz._call = _call
        # who_hangs' lone facade call: forced too
        real_alone = fz._alone

        def _alone(which_, spec, fn, kw, q):
            if which_ == "facade":
                v.FORCE_ENGINE = True
            return real_alone(which_, spec, fn, kw, q)
        fz._alone = _alone
        real_after = fz.documented_after

        def documented_after(spec, fn, kw, exc_s, exc_f, res_s, res_f):
            if real_after(spec, fn, kw, exc_s, exc_f, res_s, res_f):
                return True
            why = engine_documented(fz, spec, fn, kw, exc_s, exc_f, res_s, res_f)
            if why:
                TALLY[fn][f"accepted:{why}"] += 1
                _dump()
            return bool(why)
        fz.documented_after = documented_after
    else:
        def _call(fn, g, args, kw):
            if getattr(fn, "__module__", "").startswith("algorithms"):
                return facade_call(fn.__name__, lambda: real_call(fn, g, args, kw))
            return real_call(fn, g, args, kw)
        fz._call = _call
        real_documented = fz.documented

        def documented(fname, kind, dtype, spec, args, kw, doc, res_s, res_f):
            why = real_documented(fname, kind, dtype, spec, args, kw, doc, res_s, res_f)
            if why:
                return why
            why = engine_documented_b(fname, kind, dtype, spec, res_s, res_f)
            if why:
                TALLY[fname][f"accepted:{why}"] += 1
                _dump()
            return why
        fz.documented = documented
    try:
        rc = fz.main(rest)
    finally:
        _summary()
    return rc


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    mp.set_start_method("fork")
    sys.exit(main(sys.argv[1:]))
