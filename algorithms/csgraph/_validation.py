"""Input conversion shared by every function of :mod:`algorithms.csgraph`.

One entry point per concern, so that all 26 names read their arguments the same way:

- :func:`as_graph`: any input SciPy's csgraph accepts (and the engine's own) -> a canonical
  float64 :class:`semiring.Matrix` on the input's device, in SciPy's semantics.
- :func:`as_scipy_csr`: the same, as a fresh ``scipy.sparse.csr_array`` *in the caller's stored
  order* (duplicates and unsorted indices kept), for CPU paths that hand the graph to SciPy's
  compiled routine (whose answer then depends on the stored order exactly as SciPy's does).
- :func:`graph_kind` / :func:`sparse_output`: the output-kind rule (what SciPy returns for
  that input kind).
- :func:`normalize_indices` / :func:`normalize_vertex`: source lists and single vertices.

Input kinds and their meaning (SciPy's ``validate_graph``):

=====================================  ==========================================================
input                                  edges
=====================================  ==========================================================
``scipy.sparse`` matrix or array,      every stored entry, explicit zeros included; duplicate
any format (non-canonical CSR too)     entries combined by the function's ``dup`` rule
``cupyx.scipy.sparse`` matrix          the same, on the GPU
dense NumPy / CuPy array, list         entries other than ``null_value`` (0), ``inf``/``-inf``
                                       and NaN (each switchable, as in SciPy); for a float
                                       array "equal" is SciPy's ``isclose`` (rtol 1e-5,
                                       atol 1e-8: a weight of 1e-9 is no edge)
``numpy.ma.MaskedArray``               the unmasked entries (a masked entry is a non-edge)
:class:`semiring.Matrix`               its entries (already canonical)
=====================================  ==========================================================

Weights: every real dtype SciPy accepts (bool, int8 … uint64, float16 … float64) becomes
float64, as SciPy converts it; complex and object input raise :class:`semiring.DomainMismatch`
(SciPy silently drops the imaginary part). The caller's arrays are never modified, and the
returned graph never shares a writable buffer with them: a later change to the caller's array
cannot reach a result computed from it (the conversion copies; its cost is one pass over the
edges, which every function pays anyway).

Duplicate entries: first SciPy's own conversion (:func:`scipy_view`: a COO's duplicates and a
non-float64 CSR's are summed, as ``tocsr`` and ``astype`` sum them); the duplicates that remain
(a float64 CSR's) are parallel edges, combined by the function's rule (``dup``), what SciPy does
for that function when a row stores the same column twice: ``'min'`` for shortest paths, traversal trees' path lengths and spanning trees (SciPy's
dense conversion keeps the smallest), ``'sum'`` where SciPy does arithmetic on the matrix
(``laplacian``, ``breadth_first_tree``'s weights, ``maximum_flow``'s capacities), ``'first'``
to keep the first stored entry (structure-only uses).

Output kind (``graph_kind``): ``'spmatrix'`` for a ``scipy.sparse`` *matrix* input (SciPy
answers ``csr_matrix``), ``'sparray'`` for every other host input (sparse *arrays*, dense,
masked, lists, a CPU ``semiring.Matrix``: SciPy answers ``csr_array``), ``'cupyx'`` for GPU
input (``cupyx.scipy.sparse.csr_matrix``, the only CSR class CuPy has).

Examples
--------
>>> import numpy as np, scipy.sparse as sp
>>> from algorithms.csgraph._validation import as_graph, normalize_indices, graph_kind
>>> S = sp.csr_matrix(([5.0, 1.0], [1, 1], [0, 2, 2]), shape=(2, 2))  # a duplicate (0, 1)
>>> as_graph(S, "dijkstra", dup="min").to_dense(missing=np.inf).tolist()
[[inf, 1.0], [inf, inf]]
>>> M = np.ma.masked_array([[0, 1.0], [0, 0]], mask=[[0, 1], [0, 0]])
>>> as_graph(M, "dijkstra").nvals  # the three unmasked entries, zeros included
3
>>> normalize_indices([], 4, "dijkstra"), normalize_indices(-1, 4, "dijkstra")
((array([], dtype=int64), (0,)), (array([3]), ()))
>>> graph_kind(S), graph_kind(np.zeros((2, 2)))
('spmatrix', 'sparray')
"""

from __future__ import annotations

import contextvars
import decimal
import functools
import importlib
import numbers
import operator
import os

import numpy as np
import scipy
import scipy.sparse as sps

import semiring as sr
from semiring.matrix import canonical_csr, row_of_entries

__all__ = ["DUP_RULES", "FORCE_ENGINE", "SCIPY_1_18", "HOST_MAX_WORK", "HOST_MAX_WORK_BATCH",
           "HOST_NONNEG_BOUNDS_OF", "HOST_PREDECESSORS_SHIFT",
           "as_graph", "as_scipy_csr", "check_output_bytes", "masked_warnings",
           "canonical_csr", "check_2d", "fast_vertex", "int_flag", "real_number", "graph_kind", "scipy_csr", "scipy_structure", "scipy_view", "structure_csr", "is_gpu_input", "normalize_count",
           "normalize_indices", "normalize_vertex", "on_host_when_small", "sparse_output",
           "to_float64"]

#: The duplicate-combination rules :func:`as_graph` takes.
DUP_RULES = ("min", "sum", "max", "first")

#: Where SciPy's behaviour changed between releases the facade follows the installed SciPy:
#: from 1.18 ``validate_graph`` drops the stored zeros of a BSR input's blocks (gh-23142, see
#: :func:`scipy_view`) and ``reconstruct_path`` refuses predecessors of a non-integer dtype
#: (gh-23577).
SCIPY_1_18 = tuple(int(x) for x in scipy.__version__.split(".")[:2]) >= (1, 18)

#: Tests only: run the facade's engine (GPU) path on host input too, with NumPy arrays, so that
#: the code the GPU runs is checked against SciPy on a machine without a GPU.
FORCE_ENGINE = False


#: Small GPU input runs the host path (SciPy's compiled routine) on a copy and answers on the
#: GPU, where that is faster than the engine path's fixed cost of launches and host syncs.
#: The bound is on the work estimate of :func:`_work`: stored entries (dense input: N²) times
#: the searches asked for (``indices``; all N when None); 0 switches a function's rule off.
#: Measured per function on an H100 host (``bench/probes/csgraph_route.py``: random graphs of
#: 8N entries, best of 5; route / engine ms):
#:
#: - ``breadth_first_order``: the route wins up to N = 10⁵ (8·10⁵ entries: 14.6 / 19.9 ms; the
#:   engine's level loop costs 9 ms even at N = 1000): 2²⁰.
#: - ``breadth_first_tree``: route to N = 3·10⁴ (8.1 / 19.4 ms), engine at 10⁵ (27.6 / 16.7):
#:   2¹⁹.
#: - ``dijkstra``, ``shortest_path`` (one source, distances): the route's host path is the
#:   compiled Dijkstra (with Numba, session 25-26). H200 host, session 27: route to N = 1.5·10⁴
#:   (1.2·10⁵ entries: 2.3 / 3.1 ms), even at 2·10⁴ (3.2 / 3.2-4.1), engine from 3·10⁴ (5.0 /
#:   3.2): 2¹⁷; several sources: :data:`HOST_MAX_WORK_BATCH`; predecessors:
#:   :data:`HOST_PREDECESSORS_SHIFT`.
#: - ``bellman_ford``, ``johnson``: SciPy's are O(N·nnz): the engine wins already at N = 1000
#:   (23.7 / 2.3 ms, 33.4 / 3.7 ms); SciPy's cost falls below the engine's 2 ms near 2000
#:   entries: 2¹¹; distances on weights >= 0 take ``dijkstra``'s bounds
#:   (:data:`HOST_NONNEG_BOUNDS_OF`; H200 host, session 27: route / engine N = 10⁴ 1.5 / 3.0
#:   ms, N = 2·10⁴ 2.9 / 2.8).
#: - ``depth_first_order``: the search runs on the host whatever the size; below 2²⁰
#:   entries the undirected rows are SciPy's to build on the host (the GPU's transpose costs
#:   more launches than SciPy's whole transpose there).
#: - ``depth_first_tree``: as ``breadth_first_tree`` (the search on the host either way; the
#:   GPU's tree gathers are launches a small graph does not repay): 2¹⁹.
#: - ``connected_components``: route to N = 3000 (H200 host, session 26, weak components:
#:   N = 1000 0.385 / 0.601 ms, N = 3000 0.823 / 0.878), engine from 10⁴ (1.30 / 0.625):
#:   2¹⁵. (Session 11 had the engine ahead at N = 1024, 0.28 / 0.38 ms: its weak components
#:   have read a host copy below ``components.WEAK_HOST_MAX_ENTRIES`` since, after the GPU's
#:   canonical check.)
#: - ``laplacian`` (``form='array'``): the element-wise GPU path costs 2.35 ms at n = 1024 with
#:   10⁴ entries, SciPy's 0.32 ms (H200 host, session 10's bench); SciPy's cost reaches the
#:   engine's near 2¹⁶ entries.
#: - ``minimum_spanning_tree``: route to N = 10⁴ (7.6 / 26 ms), engine from 3·10⁴ (23.6 /
#:   20.6 ms): 2¹⁷.
HOST_MAX_WORK = {
    "breadth_first_order": 1 << 20,
    "depth_first_order": 1 << 20,
    "depth_first_tree": 1 << 19,
    "laplacian": 1 << 16,
    "breadth_first_tree": 1 << 19,
    "dijkstra": 1 << 17,
    "bellman_ford": 1 << 11,
    "johnson": 1 << 11,
    "shortest_path": 1 << 17,
    "connected_components": 1 << 15,
    "minimum_spanning_tree": 1 << 17,
}

#: The bound for calls with several sources, where the engine runs them all in one batched
#: search (:func:`algorithms.multi_source_sssp`) whose fixed cost is higher than one
#: Δ-stepping's: 8 sources, distances, H200 host, session 27, route / engine: N = 10⁴ (6.4·10⁵
#: entries × sources) 9.6 / 11.4 ms, N = 1.5·10⁴ 15.1 / 11.2: 2¹⁹ (entries × sources).
#: Functions not named here use :data:`HOST_MAX_WORK`.
HOST_MAX_WORK_BATCH = {
    "dijkstra": 1 << 19,
    "shortest_path": 1 << 19,
}

#: Calls asking for predecessors run SciPy's routine on the route (its Fibonacci heap's ties,
#: not the compiled loop), ~2.4× the distances' cost, where the engine's grows ~1.6×: their
#: bound is the distances' shifted right by this much. H200 host, session 27, one source,
#: route / engine: N = 10⁴ 3.5 / 5.1 ms, N = 1.5·10⁴ 5.3 / 5.0.
HOST_PREDECESSORS_SHIFT = {
    "dijkstra": 1,
    "shortest_path": 1,
}

#: ``bellman_ford`` and ``johnson`` asking for distances only, on weights >= 0 without NaN
#: (one reduction on the GPU tells), take the bounds of the function named here: their host
#: path runs the same compiled Dijkstra there (``_shortest.HOST_COMPILED_SOURCES_PATHS``, with
#: Numba), not SciPy's O(N · nnz) passes that :data:`HOST_MAX_WORK`'s 2¹¹ bounds.
HOST_NONNEG_BOUNDS_OF = {
    "bellman_ford": "dijkstra",
    "johnson": "dijkstra",
}


#: Results below this many bytes skip the free-memory query of :func:`check_output_bytes` (a
#: system call: 2 µs of a 30 µs call on a small graph); far below any machine's free memory.
CHECK_BYTES_FROM = 1 << 28

_CSR_TYPES = (sps.csr_matrix, sps.csr_array)
_INT32 = np.dtype(np.int32)


def scipy_csr(csgraph):
    """The fast path's test: ``csgraph`` itself when it is a square ``scipy.sparse.csr_matrix``
    or ``csr_array`` (exactly those classes) of a real dtype with int32 index arrays, else None.

    Such an input is what SciPy's routines read as it is (its ``validate_graph`` converts it to
    float64 CSR, copying only when the dtype differs), so a host call hands it straight to
    SciPy's compiled routine: a few attribute reads instead of a conversion, no copy, and the
    answer SciPy's by construction (stored order, duplicates, explicit zeros and stored inf
    edges read exactly as SciPy reads them). Callers use it only with SciPy routines that
    neither write into their input nor keep it (no result can go stale). None also when the
    tests' :data:`FORCE_ENGINE` is set.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms.csgraph._validation import scipy_csr
    >>> S = sp.csr_array(np.eye(2))
    >>> scipy_csr(S) is S, scipy_csr(S.tocsc()), scipy_csr(np.eye(2))
    (True, None, None)
    """
    t = type(csgraph)
    if (t is sps.csr_matrix or t is sps.csr_array) and not FORCE_ENGINE:
        shape = csgraph.shape
        if len(shape) == 2 and shape[0] == shape[1] and csgraph.indices.dtype == _INT32 \
                and csgraph.indptr.dtype == _INT32 and csgraph.data.dtype.kind in "biuf":
            return csgraph
    return None


def structure_csr(indptr, indices, n: int, canonical: bool):
    """A float64 SciPy CSR over ``indptr`` and ``indices`` themselves (int32: no copy) whose
    values are one broadcast 1.0 (no array of m): what SciPy's structure-only routines
    (strong components, the breadth- and depth-first orders) read without a copy. Their
    ``validate_graph`` casts any other dtype to float64, copying all three arrays and
    scanning the rows for their canonical flag (to sum duplicates and sort): on the 2-core
    host 2.1 of SciPy's 3.5 ms for the strong components of a float32 path of 10⁵
    vertices, 0.9 of 3.9 ms on Kronecker-14, and about 0.5 of 1.8 ms for its
    breadth-first order. ``canonical``: the rows are known sorted without duplicates
    (:func:`canonical_csr`), which sets the flag (a float64 CSR is read as it is: no flag
    needed)."""
    S = sps.csr_array((np.broadcast_to(np.float64(1.0), (indices.size,)), indices, indptr),
                      shape=(n, n), copy=False)
    if canonical:
        S.has_canonical_format = True
    return S


def scipy_structure(S):
    """For a :func:`scipy_csr` input ``S`` handed to a SciPy routine that reads its
    structure only (directed searches): the rows SciPy would read, as :func:`structure_csr`
    (no copy), or ``S`` itself where SciPy's own conversion changes them (a non-float64 CSR
    with unsorted or repeated entries: SciPy's cast sums and sorts them, and so must its
    copy). A float64 CSR is read as it is stored; another dtype's rows are scanned
    (:func:`canonical_csr`) in place of SciPy's scan of its copy.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms.csgraph._validation import scipy_structure
    >>> S = sp.csr_array(np.array([[0, 2], [3, 0]], dtype=np.float32))
    >>> V = scipy_structure(S)
    >>> V.dtype, V.data.strides, np.shares_memory(V.indices, S.indices)
    (dtype('float64'), (0,), True)
    """
    if S.dtype == np.float64:
        return structure_csr(S.indptr, S.indices, S.shape[0], False)
    if canonical_csr(S):
        return structure_csr(S.indptr, S.indices, S.shape[0], True)
    return S


def int_flag(value, op: str, arg: str, *, strings: bool = True) -> bool:
    """A flag as SciPy's compiled code reads it, through an integer conversion:
    ``int(value) != 0``, so ``0.5`` is False and ``'0'`` (where ``strings``: Python's ``int``,
    as ``floyd_warshall`` calls it) too; ``None``, a list, ``'yes'`` or NaN raise the class
    SciPy raises (:class:`semiring.DomainMismatch`, a TypeError; :class:`semiring.InvalidValue`,
    a ValueError). Without ``strings`` (Cython's conversion, ``construct_dist_matrix``) a
    string is a TypeError.

    Examples
    --------
    >>> from algorithms.csgraph._validation import int_flag
    >>> int_flag(True, "f", "directed"), int_flag(0.5, "f", "directed"), int_flag("1", "f", "d")
    (True, False, True)
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if not strings and isinstance(value, (str, bytes)):
        raise sr.DomainMismatch(f"{op}: {arg} must be a number (SciPy reads it as an integer), "
                                f"got {value!r}")
    try:
        return int(value) != 0
    except TypeError as e:
        raise sr.DomainMismatch(f"{op}: {arg} must be a number (SciPy reads it as an integer), "
                                f"got {value!r}") from e
    except ValueError as e:
        raise sr.InvalidValue(f"{op}: {arg} must be an integer (SciPy reads it as one), "
                              f"got {value!r}") from e


def real_number(value, op: str, arg: str) -> float:
    """A float argument as SciPy's compiled signature reads it (a C ``double``): any real
    number or 0-d array, as ``float``; a string, ``None``, a list or a 1-element array raise
    :class:`semiring.DomainMismatch` (a TypeError, SciPy's class).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms.csgraph._validation import real_number
    >>> real_number(np.array(2), "construct_dist_matrix", "null_value")
    2.0
    """
    if not isinstance(value, (str, bytes)) and value is not None:
        try:
            return float(value)
        except TypeError:
            pass
    raise sr.DomainMismatch(f"{op}: {arg} must be a real number, got {value!r}")


def fast_vertex(i, n: int) -> bool:
    """Whether ``i`` is a plain ``int`` or a NumPy integer scalar in [0, n) (the fast path's
    vertex test; anything else, ``bool`` included, goes through :func:`normalize_vertex` /
    :func:`normalize_indices`). NumPy scalars are what indexing an array of sources gives.

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms.csgraph._validation import fast_vertex
    >>> fast_vertex(0, 3), fast_vertex(np.int64(2), 3), fast_vertex(-1, 3), fast_vertex(True, 3)
    (True, True, False, False)
    """
    return (type(i) is int or isinstance(i, np.integer)) and bool(0 <= i < n)


def _routable(csgraph) -> bool:
    # cupyx COO/CSC input is left to the engine: SciPy sums a COO's duplicates on conversion
    # where the engine (and a CSR input on either path) takes the function's rule
    if isinstance(csgraph, sr.Matrix) or sr.is_gpu_array(csgraph):
        return True
    return _is_cupyx_sparse(csgraph) and csgraph.format == "csr"


def _entries(csgraph) -> int:
    if isinstance(csgraph, sr.Matrix):
        return int(csgraph.nvals)
    if _is_cupyx_sparse(csgraph):
        return int(csgraph.nnz)
    return int(csgraph.size)


def _searches(csgraph, indices) -> int:
    if indices is None:
        return int(csgraph.shape[0]) if len(getattr(csgraph, "shape", ())) == 2 else 0
    return max(1, int(np.size(indices)))  # a CuPy array's size: no copy


def _work(csgraph, indices) -> int:
    return _entries(csgraph) * _searches(csgraph, indices)


def _align8(k: int) -> int:
    return (k + 7) & ~7


def _gather_to_host(arrays, pinned_from=None):
    """Host copies of several GPU arrays with one synchronization (fresh memory: nothing is
    shared with the caller's arrays). With ``pinned_from``, a transfer of at least that many
    bytes lands in page-locked memory from CuPy's pinned pool: one asynchronous copy an array
    straight into it, at 8-byte-aligned offsets, then one stream synchronization (the views
    keep the block until they are released). Otherwise each is copied, without a kernel, into
    one device byte buffer, which comes back in one pageable ``get``. On an H200 host
    (``bench/probes/csgraph_route_split.py``, session 26) a CSR of 8000 entries took 19 µs
    the first way and 44 µs the second."""
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU input only)

    arrays = [cp.ascontiguousarray(a) for a in arrays]
    offsets, total = [], 0
    for a in arrays:
        offsets.append(total)
        total += _align8(a.nbytes)
    stream = cp.cuda.get_current_stream()
    if pinned_from is not None and total >= pinned_from:
        import cupyx  # noqa: PLC0415  (CuPy is optional: GPU input only)

        host = cupyx.empty_pinned(max(total, 8), dtype=np.uint8)
        base = host.ctypes.data
        for a, o in zip(arrays, offsets):
            if a.nbytes:
                cp.cuda.runtime.memcpyAsync(base + o, a.data.ptr, a.nbytes,
                                            cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
        stream.synchronize()
    else:
        buf = cp.empty(max(total, 8), dtype=cp.uint8)
        for a, o in zip(arrays, offsets):
            if a.nbytes:
                cp.cuda.runtime.memcpyAsync(buf.data.ptr + o, a.data.ptr, a.nbytes,
                                            cp.cuda.runtime.memcpyDeviceToDevice, stream.ptr)
        host = buf.get()
    return [host[o:o + a.nbytes].view(a.dtype).reshape(a.shape)
            for a, o in zip(arrays, offsets)]


def _scatter_to_gpu(arrays):
    """GPU copies of several host arrays in one host-to-device transfer: packed into one host
    byte buffer (8-byte-aligned offsets), uploaded once (``cupy.asarray`` stages a host array
    through its pinned pool itself), and answered as views of that device buffer."""
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU input only)

    offsets, total = [], 0
    for a in arrays:
        offsets.append(total)
        total += _align8(a.nbytes)
    host = np.empty(max(total, 8), dtype=np.uint8)
    for a, o in zip(arrays, offsets):
        host[o:o + a.nbytes] = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
    dev = cp.asarray(host)
    return [dev[o:o + a.nbytes].view(a.dtype).reshape(a.shape)
            for a, o in zip(arrays, offsets)]


#: The host route's copy of a GPU graph goes through page-locked memory (CuPy's pinned pool,
#: reused call after call) from this many bytes: the link's rate instead of the driver's
#: pageable staging (the 2048² grid's structure, 84 MB: 1.6 ms pinned, 25.5 ms pageable on
#: the H200 host, session 11), and, since session 26, for small copies too: asynchronous
#: copies straight into the pinned block and one synchronization (19 µs for a CSR of 8000
#: entries, against 44 µs for the device staging buffer and a pageable get). The thin
#: traversals' copies use the same bound (``_thin.PINNED_BYTES``).
PINNED_BYTES = 0


def _to_host(a):
    if isinstance(a, sr.Matrix):
        return a.to_cpu()
    if _is_cupyx_sparse(a) and a.format == "csr":
        indptr, indices, data = _gather_to_host([a.indptr, a.indices, a.data],
                                                pinned_from=PINNED_BYTES)
        return sps.csr_matrix((data, indices, indptr), shape=a.shape)
    if _is_cupyx_sparse(a) or sr.is_gpu_array(a):
        return a.get()
    return a


def _to_gpu_result(res):
    """A host result (arrays, scipy CSR, ints, tuples of them) on the GPU, every array of it in
    one upload."""
    flat = []

    def plan(r):
        if isinstance(r, tuple):
            return ("tuple", [plan(x) for x in r])
        if sps.issparse(r):
            if r.format == "coo":  # a Laplacian: COO as SciPy (and the engine) answer it
                k = len(flat)
                flat.extend([r.data, r.row, r.col])
                return ("coo", k, r.shape)
            r = r.tocsr()
            k = len(flat)
            flat.extend([r.data, r.indices, r.indptr])
            return ("csr", k, r.shape)
        if isinstance(r, np.ndarray):
            flat.append(r)
            return ("array", len(flat) - 1)
        return ("value", r)

    tree = plan(res)
    dev = _scatter_to_gpu(flat) if flat else []

    def build(t):
        if t[0] == "tuple":
            return tuple(build(x) for x in t[1])
        if t[0] == "csr":
            import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU input only)

            k = t[1]
            return cps.csr_matrix((dev[k], dev[k + 1], dev[k + 2]), shape=t[2])
        if t[0] == "coo":
            import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU input only)

            k = t[1]
            return cps.coo_matrix((dev[k], (dev[k + 1], dev[k + 2])), shape=t[2])
        if t[0] == "array":
            return dev[t[1]]
        return t[1]

    return build(tree)


class ThinGraph(Exception):
    """Internal: an engine path found its graph long and thin (``_thin``: the device loop
    would pay a barrier per level, SciPy is O(N + nnz)); the decorator
    :func:`on_host_when_small` answers by :func:`host_route` instead. Never escapes the
    facade. ``use``: another (undecorated) facade function with the same leading parameters
    to run on the host copy (``dijkstra`` for a ``bellman_ford`` without negative weights:
    the same distances, where SciPy's Bellman–Ford makes N passes over every edge);
    ``method``: the ``method`` argument to run ``shortest_path`` with instead."""

    def __init__(self, op: str, *, use=None, method: str | None = None):
        super().__init__(op)
        self.use = use
        self.method = method

    def redirect(self, fn, args, kw):
        """(function, args, kw) the host route runs."""
        if self.use is not None:
            fn = self.use
        if self.method is not None:
            if args:
                args = (self.method,) + tuple(args[1:])
            else:
                kw = {**kw, "method": self.method}
        return fn, args, kw


#: Set while :func:`host_route` runs a function on a host copy: the engine path is off then,
#: even under the tests' :data:`FORCE_ENGINE` (the host route is SciPy's, by definition).
_HOSTING = contextvars.ContextVar("csgraph_hosting", default=False)


def engine_forced() -> bool:
    """Whether the tests' :data:`FORCE_ENGINE` applies now (not inside :func:`host_route`)."""
    return FORCE_ENGINE and not _HOSTING.get()


def host_route(fn, csgraph, args, kw):
    """``fn`` (a facade function, undecorated) on a host copy of GPU input, its arrays answered
    on the GPU (CuPy arrays, cupyx CSR) in one upload; host input runs ``fn`` itself with the
    engine path off. The same answers as the engine path: both are SciPy's."""
    token = _HOSTING.set(True)
    try:
        if not is_gpu_input(csgraph):
            return fn(csgraph, *args, **kw)
        args = tuple(_to_host(a) for a in args)
        kw = {k: _to_host(v) for k, v in kw.items()}
        return _to_gpu_result(fn(_to_host(csgraph), *args, **kw))
    finally:
        _HOSTING.reset(token)


def on_host_when_small(fn):
    """Run ``fn`` (a facade function whose first argument is the graph and whose ``indices``
    argument, if any, selects the searches) on a host copy of GPU input whose work is at most
    ``HOST_MAX_WORK[fn.__name__]``, with its arrays answered on the GPU (CuPy arrays, cupyx
    CSR); and wherever the engine path raises :class:`ThinGraph` (a long, thin graph). The
    same answers as the engine path: both are SciPy's, by construction and test."""
    limit_name = fn.__name__
    code = fn.__code__
    params = code.co_varnames[1:code.co_argcount]  # after the graph
    takes_indices = "indices" in params

    def argument(args, kw, name, default):
        if name in kw:
            return kw[name]
        k = params.index(name) if name in params else len(args)
        return args[k] if k < len(args) else default

    def bound(name, batch, predecessors):
        limit = HOST_MAX_WORK.get(name, 0)
        if batch:
            limit = HOST_MAX_WORK_BATCH.get(name, limit)
        return limit >> HOST_PREDECESSORS_SHIFT.get(name, 0) if predecessors else limit

    @functools.wraps(fn)
    def run(csgraph, *args, **kw):
        t = type(csgraph)
        if t is sps.csr_matrix or t is sps.csr_array or t is np.ndarray:  # host input
            if not FORCE_ENGINE:
                return fn(csgraph, *args, **kw)
        elif (HOST_MAX_WORK.get(limit_name, 0) and is_gpu_input(csgraph)
              and _routable(csgraph) and len(getattr(csgraph, "shape", ())) == 2):
            indices = argument(args, kw, "indices", None) if takes_indices else ()  # () one search
            batch = _searches(csgraph, indices) > 1
            predecessors = bool(argument(args, kw, "return_predecessors", False))
            work = _work(csgraph, indices)
            if work <= bound(limit_name, batch, predecessors):
                return host_route(fn, csgraph, args, kw)
            like = HOST_NONNEG_BOUNDS_OF.get(limit_name)
            if (like and not predecessors and work <= bound(like, batch, False)
                    and _host_compiled() and _gpu_weights_nonneg(csgraph)):
                return host_route(fn, csgraph, args, kw)
        try:
            return fn(csgraph, *args, **kw)
        except ThinGraph as thin:
            use, args, kw = thin.redirect(fn, args, kw)
            return host_route(use, csgraph, args, kw)

    return run


# ------------------------------------------------------------------------------ input kinds


def _is_scipy_sparse(a) -> bool:
    return sps.issparse(a)


def _is_cupyx_sparse(a) -> bool:
    if not type(a).__module__.startswith("cupyx"):
        return False
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU input only)

    return cps.issparse(a)


def _host_compiled() -> bool:
    """Whether the CPU backend's compiled loops run here (Numba installed and on)."""
    return importlib.import_module("semiring.backend.cpu.compiled").ENABLED


def _gpu_weights_nonneg(csgraph) -> bool:
    """Whether every stored weight of routable GPU input is >= 0 and none is NaN (one
    reduction and its synchronization; a dense array's zeros are no edges and pass)."""
    if isinstance(csgraph, sr.Matrix):
        w = csgraph.values
        return bool(csgraph.iso_value >= 0) if w is None else _min_nonneg(w)
    return _min_nonneg(csgraph if sr.is_gpu_array(csgraph) else csgraph.data)


def _min_nonneg(w) -> bool:
    # min propagates NaN, which fails the test as a negative weight does; other dtypes
    # (complex) are the engine path's to reject
    if w.size == 0 or w.dtype.kind == "b":
        return True
    return w.dtype.kind in "iuf" and bool(w.min() >= 0)


def is_gpu_input(csgraph) -> bool:
    """Whether the graph lives on the GPU (CuPy array, cupyx sparse, GPU ``semiring.Matrix``):
    the facade then computes on the GPU and answers with CuPy arrays."""
    if isinstance(csgraph, sr.Matrix):
        return csgraph.device == "gpu"
    return sr.is_gpu_array(csgraph) or _is_cupyx_sparse(csgraph)


def graph_kind(csgraph) -> str:
    """The output kind for sparse results: ``'spmatrix'`` (answer ``scipy.sparse.csr_matrix``),
    ``'sparray'`` (``scipy.sparse.csr_array``) or ``'cupyx'`` (``cupyx.scipy.sparse.csr_matrix``).
    SciPy 1.17 answers ``csr_matrix`` only for ``scipy.sparse`` matrix input."""
    if is_gpu_input(csgraph):
        return "cupyx"
    if _is_scipy_sparse(csgraph):
        return "spmatrix" if isinstance(csgraph, sps.spmatrix) else "sparray"
    return "sparray"


def sparse_output(kind: str, data, indices, indptr, shape, *, format: str = "csr"):
    """A CSR (or other ``format``) result of the given :func:`graph_kind` from CSR arrays (on the
    kind's device)."""
    if kind == "cupyx":
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU input only)

        out = cps.csr_matrix((data, indices, indptr), shape=shape)
        return out if format == "csr" else out.asformat(format)
    cls = sps.csr_matrix if kind == "spmatrix" else sps.csr_array
    out = cls((data, indices, indptr), shape=shape)
    return out if format == "csr" else out.asformat(format)


def to_float64(values, op: str, arg: str = "csgraph"):
    """Weights as float64, as SciPy converts them (a fresh array); complex/object refused."""
    dt = np.dtype(values.dtype)
    if dt.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: {arg} must have a real dtype (bool, integer or float), "
                                f"got {dt}")
    return values.astype(np.float64, copy=True)


def _check_square(op: str, arg: str, shape, square: bool):
    check_2d(op, arg, shape)
    if square and shape[0] != shape[1]:
        raise sr.DimensionMismatch(f"{op}: {arg} must be square (N, N), got shape {tuple(shape)}")


#: ``numpy.ma.masked_values``' defaults, with which SciPy's ``csgraph_masked_from_dense`` (and so
#: every dense input of scipy.sparse.csgraph) finds the null entries of a float array.
MASKED_VALUES_RTOL, MASKED_VALUES_ATOL = 1e-5, 1e-8


def _dense_edges(xp, a, null_value, infinity_null, nan_null):
    """Where a dense array holds an edge (SciPy's csgraph_masked_from_dense)."""
    if null_value is not None and not isinstance(null_value, (int, float, np.number)):
        # SciPy reads ``DTYPE(null_value)``: a one-element sequence or array is its element
        null = np.asarray(null_value)
        if null.size != 1 or null.dtype.kind not in "biufU":
            raise sr.InvalidValue(f"null_value must be a number, got {null_value!r}")
        null_value = float(null.reshape(-1)[0])
    if null_value is not None and np.isinf(float(null_value)):
        # SciPy: an infinite null value is infinity_null=True, so -inf is no edge either
        null_value, infinity_null = None, True
    if null_value is None:
        edge = xp.ones(a.shape, dtype=bool)
    elif np.isnan(float(null_value)):  # SciPy: a NaN null value masks the NaNs
        edge = ~xp.isnan(a) if a.dtype.kind in "fc" else xp.ones(a.shape, dtype=bool)
    elif a.dtype.kind == "f":
        # SciPy masks the null values with numpy.ma.masked_values, whose test for a float
        # array is isclose (rtol 1e-5, atol 1e-8), not equality: a weight of 1e-9 is no edge
        # (in float64 at least, as NumPy promotes a narrower array against SciPy's float64
        # null value; CuPy might compute float16's tolerance in float16, where 1e-8 is 0)
        wide = a if a.dtype.itemsize >= 8 else a.astype(xp.float64)
        edge = ~xp.isclose(wide, np.float64(null_value), rtol=MASKED_VALUES_RTOL,
                           atol=MASKED_VALUES_ATOL)
    else:
        edge = a != null_value
    if a.dtype.kind in "fc":
        if infinity_null:
            edge &= ~xp.isinf(a)
        if nan_null:
            edge &= ~xp.isnan(a)
    return edge


def _from_coo(rows, cols, vals, shape, dup: str, device: str) -> sr.Matrix:
    if dup not in DUP_RULES:
        raise sr.InvalidValue(f"as_graph: dup must be one of {DUP_RULES}, got {dup!r}")
    return sr.Matrix.from_coo(rows, cols, vals, nrows=shape[0], ncols=shape[1],
                              dup_op=getattr(sr.binary, dup if dup != "sum" else "plus"),
                              device=device)


def masked_warnings(csgraph, times: int = 1) -> None:
    """SciPy's warnings of reading a masked array as a sparse graph, given again: SciPy's
    ``validate_graph`` (where a function wants a CSR: every one but ``floyd_warshall``,
    ``shortest_path``'s own validation, ``construct_dist_matrix`` and ``laplacian``) hands it
    to ``csgraph_from_masked``, whose ``numpy.ma.asarray`` takes a view, and NumPy checks the
    view's fill value against its dtype: a float16 array whose default fill value (1e20) has
    been read (its ``repr`` does) warns "overflow encountered in cast" twice (RuntimeWarning).
    The facade reads the mask and the data without a view, so it takes the same view here,
    ``times`` times (SciPy's traversal trees read the graph twice: the search, then
    ``reconstruct_path``). Nothing for other input; the view costs no copy."""
    if isinstance(csgraph, np.ma.MaskedArray):
        for _ in range(times):
            np.ma.asarray(csgraph)


def stored_nan_as_inf(A: sr.Matrix, csgraph) -> sr.Matrix:
    """``A`` (read by :func:`as_graph` with ``dup="min"``, which passes over a NaN among
    parallel edges) with a stored NaN weight of sparse input as inf: SciPy's dense conversion
    of a sparse graph (``csgraph_to_dense``, starting every cell at its null value) keeps an
    entry only where it is smaller than the cell, which a NaN never is. Dense and masked
    input keep their NaN, as SciPy's own reading of them does."""
    if not (isinstance(csgraph, sr.Matrix) or _is_scipy_sparse(csgraph)
            or _is_cupyx_sparse(csgraph)):
        return A
    v = A.values
    if v is None or v.dtype.kind != "f":
        return A
    xp = A.xp
    nan = xp.isnan(v)
    if not bool(nan.any()):
        return A
    return sr.Matrix.from_csr(A.indptr, A.indices, xp.where(nan, xp.inf, v), A.shape,
                              check=False)


def scipy_view(S, op: str, arg: str = "csgraph", *, cast_sums: bool = True):
    """The CSR that SciPy's ``validate_graph`` makes of a scipy or cupyx sparse input (its
    ``tocsr().astype(float64)``), in that CSR's stored order; the caller's arrays are never
    written (a new matrix where anything changes, else ``S`` itself).

    SciPy's conversion decides which duplicate entries remain parallel edges, so every path
    must read the same CSR to give SciPy's answers:

    - a format other than CSR goes through ``tocsr()``: a COO input's duplicates are summed
      (and its rows sorted); CSC, BSR (explicit zeros of its blocks included; from SciPy 1.18,
      with ``cast_sums``, its stored zeros dropped, as ``validate_graph`` then drops them),
      DIA, LIL and DOK keep their entries;
    - with ``cast_sums`` (every function that calls ``validate_graph`` with CSR output), a
      dtype other than float64 is cast by ``astype``, which sums duplicates and sorts each row
      of a non-canonical CSR; float64 input keeps them as stored, parallel edges that the
      functions read by their own rule (shortest paths: the smallest). ``floyd_warshall``,
      ``construct_dist_matrix``, ``csgraph_to_dense`` read the data through a plain cast
      (``cast_sums=False``): parallel edges whatever the dtype.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms.csgraph._validation import scipy_view
    >>> S = sp.csr_matrix((np.array([5, 1], dtype=np.int8), [1, 1], [0, 2, 2]), shape=(2, 2))
    >>> scipy_view(S, "dijkstra").data.tolist(), scipy_view(S, "x", cast_sums=False).data.tolist()
    ([6.0], [5, 1])
    """
    dt = np.dtype(S.dtype)
    if dt.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: {arg} must have a real dtype (bool, integer or float), "
                                f"got {dt}")
    if S.format == "coo" and _is_cupyx_sparse(S):
        # explicit, as SciPy's tocsr sums (and never in the caller's arrays); SciPy sums
        # bools as bools (True + True is True): in float64 here, then clipped to 1
        S = S.astype(np.float64) if dt == bool else S.copy()
        S.sum_duplicates()
        if dt == bool:
            S.data = S.data.clip(0.0, 1.0)
    if S.format != "csr":
        bsr = S.format == "bsr"
        S = S.tocsr()
        if bsr and cast_sums and SCIPY_1_18:
            S.eliminate_zeros()  # (SciPy 1.18's validate_graph; tocsr made S a new matrix)
    # (canonical_csr, not the flag: SciPy's astype builds a new matrix, which computes its
    # own flag, so it sums the duplicates of a CSR whose flag claims there are none)
    if cast_sums and dt != np.float64 and not canonical_csr(S):
        if _is_cupyx_sparse(S):
            S = S.astype(np.float64)  # a copy (bool too: the sum of two True is 2.0)
            S.has_canonical_format = False
            S.sum_duplicates()
        else:
            S = S.astype(np.float64)  # SciPy's own cast: duplicates summed, rows sorted
    return S


def _sparse_csr_float64(S, op, arg, square, cast_sums=True, owned=False):
    """(indptr, indices, float64 data, shape, canonical) of a scipy or cupyx sparse input, as
    fresh arrays in the stored order of SciPy's conversion (:func:`scipy_view`). ``owned``: S
    is already a private copy (a GPU input's host copy), whose index arrays need no copy."""
    _check_square(op, arg, S.shape, square)
    C = scipy_view(S, op, arg, cast_sums=cast_sums)
    if owned or C is not S:  # a private matrix: its arrays are nobody else's
        indptr, indices = C.indptr, C.indices
    else:
        indptr, indices = C.indptr.copy(), C.indices.copy()
    data = to_float64(C.data, op, arg)
    # (the caller's own matrix: canonical_csr, whose scan leaves no flag on it)
    canonical = canonical_csr(C) if C is S else bool(C.has_canonical_format)
    return indptr, indices, data, S.shape, canonical


def _csc_undirected(csgraph, directed: bool):
    """SciPy reads an undirected CSC graph as its transpose (a free CSR view): the same graph,
    but its neighbours in the transpose's stored order, which traversal orders show."""
    if not directed and (_is_scipy_sparse(csgraph) or _is_cupyx_sparse(csgraph)) \
            and csgraph.format == "csc":
        return csgraph.T
    return csgraph


def as_scipy_csr(csgraph, op: str, *, arg: str = "csgraph", square: bool = True,
                 null_value=0, infinity_null: bool = True, nan_null: bool = True,
                 directed: bool = True, borrow: bool = False, cast_sums: bool = True):
    """A fresh float64 ``scipy.sparse.csr_array`` of a host graph, in the caller's stored order
    (unsorted indices and duplicates kept, explicit zeros kept), for CPU paths that run SciPy's
    compiled csgraph routine. Dense and masked input is converted as SciPy converts it.
    GPU input is moved to the host (callers use it only where the CPU path runs by design).
    ``directed=False`` reads a CSC input as its transpose, as SciPy does; ``cast_sums`` as in
    :func:`as_graph`.

    ``borrow=True`` returns a ``scipy.sparse`` CSR input itself when SciPy's routines can read
    it as it is (real dtype, int32 indices): for callers that only hand it to a SciPy routine
    that does not write into its input and keep nothing from it (no cache can go stale), this
    saves the copy, the fixed cost that dominates a call on a small graph.

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms.csgraph._validation import as_scipy_csr
    >>> S = as_scipy_csr(np.array([[0, 2], [np.inf, 0]]), "dijkstra")
    >>> type(S).__name__, S.nnz, S.dtype
    ('csr_array', 1, dtype('float64'))
    """
    csgraph = _csc_undirected(csgraph, directed)
    if isinstance(csgraph, sr.Matrix):
        A = _cast_matrix(csgraph, op, arg, square)
        A = A.to_cpu() if A.device == "gpu" else A
        return sps.csr_array((A.values.copy(), A.indices.copy(), A.indptr.copy()), shape=A.shape)
    if borrow and _is_scipy_sparse(csgraph) and csgraph.format == "csr" \
            and csgraph.dtype.kind in "biuf" and csgraph.indices.dtype == np.int32 \
            and csgraph.indptr.dtype == np.int32:
        _check_square(op, arg, csgraph.shape, square)
        return csgraph
    if _is_scipy_sparse(csgraph) or _is_cupyx_sparse(csgraph):
        owned = _is_cupyx_sparse(csgraph)
        S = csgraph.get() if owned else csgraph  # GPU input: a fresh host copy, ours
        indptr, indices, data, shape, canonical = _sparse_csr_float64(S, op, arg, square,
                                                                      cast_sums, owned)
        if max(shape) < 2**31 - 1 and indices.size < 2**31 - 1:  # SciPy's ITYPE (yen needs it)
            indptr = indptr.astype(np.int32, copy=False)  # already fresh: no second copy
            indices = indices.astype(np.int32, copy=False)
        out = sps.csr_array((data, indices, indptr), shape=shape)
        out.has_canonical_format = canonical
        return out
    A = as_graph(csgraph, op, arg=arg, square=square, null_value=null_value,
                 infinity_null=infinity_null, nan_null=nan_null)
    A = A.to_cpu() if A.device == "gpu" else A
    return sps.csr_array((A.values, A.indices, A.indptr), shape=A.shape)


def _cast_matrix(A: sr.Matrix, op: str, arg: str, square: bool) -> sr.Matrix:
    _check_square(op, arg, A.shape, square)
    xp = A.xp
    if A.is_iso:
        dt = np.dtype(A.dtype)
        if dt.kind not in "biuf":
            raise sr.DomainMismatch(f"{op}: {arg} must have a real dtype, got {dt}")
        vals = xp.full(A.nvals, float(A.iso_value), dtype=xp.float64)
    else:
        vals = to_float64(A.values, op, arg)
    # the engine treats a Matrix's arrays as immutable: share the structure, own the values
    return sr.Matrix.from_csr(A.indptr, A.indices, vals, A.shape, check=False)


def as_graph(csgraph, op: str, *, dup: str = "min", arg: str = "csgraph", square: bool = True,
             null_value=0, infinity_null: bool = True, nan_null: bool = True,
             directed: bool = True, cast_sums: bool = True) -> sr.Matrix:
    """The graph of any input SciPy's csgraph takes, as a canonical float64
    :class:`semiring.Matrix` on the input's device (see the module docstring for the kinds).

    Parameters
    ----------
    csgraph : scipy/cupyx sparse, ndarray, cupy array, masked array, list, semiring.Matrix
    op : str
        The calling function's name, for error messages.
    dup : {'min', 'sum', 'max', 'first'}
        How duplicate entries of a sparse input combine (SciPy's rule for ``op``).
    arg : str
        The argument's name, for error messages.
    square : bool
        Require an (N, N) shape (:class:`semiring.DimensionMismatch` otherwise).
    null_value, infinity_null, nan_null
        For dense input, as in ``scipy.sparse.csgraph.csgraph_from_dense``: the entries equal to
        ``null_value`` (None: none), infinite (``infinity_null``) or NaN (``nan_null``) are not
        edges.
    directed : bool
        ``False`` reads a CSC input as its transpose, as SciPy does for undirected graphs (the
        same undirected graph; the stored order of neighbours is the transpose's).
    cast_sums : bool
        Read a sparse input as SciPy's ``validate_graph`` converts it (:func:`scipy_view`:
        a non-float64 dtype's duplicates summed); ``False`` for the functions that read
        SciPy's dense conversion instead (``floyd_warshall``, ``construct_dist_matrix``).

    Returns
    -------
    semiring.Matrix
        float64, canonical CSR, never sharing a writable buffer with the caller's arrays.

    Raises
    ------
    semiring.DimensionMismatch
        Not 2-D, or not square where ``square``.
    semiring.DomainMismatch
        Complex, object or otherwise non-real weights, or an input of no known kind.

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms.csgraph._validation import as_graph
    >>> as_graph(np.array([[0, 3], [np.nan, 0]], dtype=np.float16), "dijkstra").to_coo()
    (array([0]), array([1]), array([3.]))
    """
    csgraph = _csc_undirected(csgraph, directed)
    if isinstance(csgraph, sr.Matrix):
        return _cast_matrix(csgraph, op, arg, square)
    if _is_scipy_sparse(csgraph) or _is_cupyx_sparse(csgraph):
        gpu = _is_cupyx_sparse(csgraph)
        device = "gpu" if gpu else "cpu"
        _check_square(op, arg, csgraph.shape, square)
        S = scipy_view(csgraph, op, arg, cast_sums=cast_sums)
        if canonical_csr(S):
            data = to_float64(S.data, op, arg)
            return sr.Matrix.from_csr(S.indptr.copy(), S.indices.copy(), data, S.shape,
                                      check=False)
        # each entry's row from the CSR's own arrays, in the stored order, so 'first' is the
        # first stored entry (S.tocoo() would store SciPy's canonical flag on S, the caller's
        # own matrix where nothing had to change)
        m = int(S.indptr[-1])  # (index and data arrays may hold more: SciPy reads nnz)
        rows = row_of_entries(sr.array_module(device), S.indptr, m)
        return _from_coo(rows, S.indices[:m].copy(), to_float64(S.data[:m], op, arg),
                         csgraph.shape, dup, device)
    if isinstance(csgraph, np.ma.MaskedArray):
        # asarray: the data of a masked numpy.matrix is a matrix, whose fancy indexing is 2-D
        a = np.asarray(np.ma.getdata(csgraph))
        _check_square(op, arg, a.shape, square)
        edge = ~np.asarray(np.ma.getmaskarray(csgraph))
        rows, cols = np.nonzero(edge)
        return _from_coo(rows, cols, to_float64(a[rows, cols], op, arg), a.shape, "first", "cpu")
    if sr.is_gpu_array(csgraph):
        xp, a, device = sr.array_module("gpu"), csgraph, "gpu"
    else:
        try:
            a = np.asarray(csgraph)
        except ValueError as e:  # ragged lists: NumPy's ValueError, the class SciPy raises
            raise sr.InvalidValue(f"{op}: {arg} must be a sparse matrix, a 2-D array or a "
                                  f"semiring.Matrix, got a {type(csgraph).__name__} that is "
                                  f"no array ({e})") from e
        except Exception as e:  # noqa: BLE001  (anything else NumPy cannot read)
            raise sr.DomainMismatch(f"{op}: {arg} must be a sparse matrix, a 2-D array or a "
                                    f"semiring.Matrix, got {type(csgraph).__name__}") from e
        if a.dtype == object:
            raise NotAGraph(f"{op}: {arg} must be a sparse matrix, a 2-D array or a "
                            f"semiring.Matrix, got {type(csgraph).__name__} of objects")
        xp, device = np, "cpu"
    _check_square(op, arg, a.shape, square)
    if a.dtype.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: {arg} must have a real dtype (bool, integer or float), "
                                f"got {a.dtype}")
    edge = _dense_edges(xp, a, null_value, infinity_null, nan_null)
    rows, cols = xp.nonzero(edge)
    return sr.Matrix.from_coo(rows, cols, a[rows, cols].astype(xp.float64), nrows=a.shape[0],
                              ncols=a.shape[1], device=device)


# ------------------------------------------------------------------------------ indices


class NotAGraph(sr.DomainMismatch, ValueError):
    """Input that NumPy reads only as an array of objects (a ``LinearOperator``, ``None``, a
    dict): a :class:`semiring.DomainMismatch` (a ``TypeError``, SciPy's class for a 2-D array
    of objects) and a ``ValueError``, SciPy's class for anything else (its
    ``csgraph_masked_from_dense`` finds the 0-d array of one object not 2-D first: "graph
    should have two dimensions")."""


class NotTwoD(sr.DimensionMismatch, IndexError):
    """A graph that is not 2-D (a 1-D or 3-D ``scipy.sparse`` array): a
    :class:`semiring.DimensionMismatch` (a ``ValueError``, SciPy's class for most) and an
    ``IndexError``, the class SciPy's routines raise where they read ``shape[1]`` of a 1-D
    array (``structural_rank``, ``floyd_warshall``, ``csgraph_to_dense``)."""


def check_2d(op: str, arg: str, shape) -> None:
    """Raise :class:`NotTwoD` naming ``arg`` unless ``shape`` has two axes."""
    if len(shape) != 2:
        raise NotTwoD(f"{op}: {arg} must be 2-D, got shape {tuple(shape)}")


class IndexOutOfRange(sr.InvalidIndex, ValueError):
    """A vertex index out of range: the engine's :class:`semiring.InvalidIndex` (an
    ``IndexError``) and a ``ValueError``, the class SciPy raises for it (``indices out of range
    0...N``, yen's and maximum_flow's ``source``/``sink``), so that code written against SciPy
    (``except ValueError``, ``pytest.raises(ValueError)``) catches it as it catches SciPy's."""


class NegativeVertex(IndexOutOfRange, OverflowError):
    """A negative vertex where only [0, N) is allowed: an :class:`IndexOutOfRange` and an
    ``OverflowError``, the class SciPy's traversals raise for a negative ``i_start`` (its
    conversion to an unsigned int)."""


class IndexOverflow(IndexOutOfRange, OverflowError):
    """Indices given as Python integers beyond int32: an :class:`IndexOutOfRange` and an
    ``OverflowError``, the class SciPy's conversion of them (``np.array(indices,
    dtype=int32)``) raises. (NumPy integer arrays SciPy casts silently, wrapping: the facade
    answers those with :class:`IndexOutOfRange`.)"""


class NotAVertex(sr.DomainMismatch, IndexError):
    """A vertex that is no integer: a :class:`semiring.DomainMismatch` (a ``TypeError``) and an
    ``IndexError``, the class SciPy's ``maximum_flow`` raises for a float ``source``."""


def integral(x, index_objects: bool = True):
    """``x`` as an ``int`` where it is an integral number SciPy reads as one (an integer, an
    integral float, an integral :class:`fractions.Fraction` or :class:`decimal.Decimal`, with
    ``index_objects`` an object with ``__index__``), else None (bools included: the facade
    refuses them). (SciPy's ``indices`` conversion reads ``__index__``; its ``i_start``,
    ``source`` and ``sink`` refuse such objects.)

    Examples
    --------
    >>> from fractions import Fraction
    >>> from algorithms.csgraph._validation import integral
    >>> integral(2.0), integral(Fraction(4, 2)), integral(2.5), integral(True)
    (2, 2, None, None)
    """
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x.item()  # (an element of an object array may be a 0-d array)
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (numbers.Real, decimal.Decimal)):
        try:
            i = int(x)
        except (ValueError, OverflowError):  # nan, inf
            return None
        return i if x == i else None
    if isinstance(x, numbers.Number) or not index_objects:  # complex
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None


def _host_ints(value, op: str, arg: str) -> np.ndarray:
    if sr.is_gpu_array(value):
        value = value.get()
    a = np.asarray(value)
    if a.dtype == object:
        # Python numbers of other types (Fraction, Decimal, __index__ objects), which SciPy's
        # int32 conversion reads: integral ones read as their integer
        flat = [integral(x) for x in a.ravel().tolist()]
        if any(v is None for v in flat):
            bad = a.ravel()[[v is None for v in flat].index(True)]
            raise sr.DomainMismatch(f"{op}: {arg} must be integers, got {bad!r}")
        return np.array(flat, dtype=np.int64).reshape(a.shape)
    if a.dtype == bool or a.dtype.kind not in "iuf":
        if a.size or a.dtype.kind not in "iufb":
            raise sr.DomainMismatch(f"{op}: {arg} must be integers, got {a.dtype}")
    if a.dtype.kind == "f":
        if a.size and not bool(np.all(np.isfinite(a)) and np.all(a == np.floor(a))):
            bad = a.ravel()[~(np.isfinite(a.ravel()) & (a.ravel() == np.floor(a.ravel())))][0]
            raise sr.DomainMismatch(f"{op}: {arg} must be integers, got {float(bad)!r}")
    return a.astype(np.int64)


def normalize_indices(indices, n: int, op: str, arg: str = "indices"):
    """Source vertices as SciPy reads ``indices``: ``(flat int64 array in [0, n), shape)``.

    ``shape`` is the shape the results take before their last axis (``result.reshape(shape +
    (N,))``): ``None`` means every vertex (shape ``(n,)``); a scalar gives one source and shape
    ``()`` (the result drops the source axis); ``[]`` gives shape ``(0,)`` (results of shape
    (0, N)); a 2-D ``indices`` gives a 3-D result, as in SciPy; negative indices count
    from the end (``-1`` is ``n - 1``), as in SciPy; integral floats are accepted (``[]`` is a
    float array), other values raise :class:`semiring.DomainMismatch`; anything outside
    [-n, n) raises :class:`IndexOutOfRange` (an :class:`semiring.InvalidIndex` and, as SciPy's
    error, a ``ValueError``; :class:`IndexOverflow`, also an ``OverflowError``, where SciPy's
    int32 conversion of Python integers overflows) naming ``arg``.

    Examples
    --------
    >>> from algorithms.csgraph._validation import normalize_indices
    >>> normalize_indices([0, -1], 5, "dijkstra")
    (array([0, 4]), (2,))
    >>> normalize_indices(None, 3, "dijkstra")
    (array([0, 1, 2]), (3,))
    >>> normalize_indices(1, 3, "dijkstra")
    (array([1]), ())
    """
    if indices is None:
        return np.arange(n, dtype=np.int64), (n,)
    a = _host_ints(indices, op, arg)
    flat = a.ravel().copy()
    flat[flat < 0] += n
    bad = (flat < 0) | (flat >= n)
    if bool(bad.any()):
        error = IndexOutOfRange
        try:  # SciPy's own conversion, which overflows first on Python ints beyond int32
            np.array(indices, dtype=np.int32)
        except OverflowError:
            error = IndexOverflow
        except Exception:  # noqa: BLE001, S110  (any other failure: the range error stands)
            pass
        raise error(f"{op}: {arg} must lie in [-{n}, {n}), got "
                              f"{int(a.ravel()[np.flatnonzero(bad)[0]])} (indices out of range "
                              f"0...N, N = {n})")
    return flat, a.shape


def normalize_vertex(i, n: int, op: str, arg: str, *, negative: bool = False) -> int:
    """One vertex index (``i_start``, ``source``, ``sink``): an integer in [0, n), or with
    ``negative=True`` in [-n, n) counted from the end; an integral float is read as its
    integer (as SciPy reads it). Raises :class:`semiring.DomainMismatch` for a non-integer
    (a bool included; :class:`NotAVertex`, also an ``IndexError``) and :class:`IndexOutOfRange`
    (an :class:`semiring.InvalidIndex` and a ``ValueError``; :class:`NegativeVertex`, also an
    ``OverflowError``, below 0) naming ``arg`` out of range (SciPy reads out of bounds for
    some of these).

    Examples
    --------
    >>> from algorithms.csgraph._validation import normalize_vertex
    >>> normalize_vertex(2, 3, "breadth_first_order", "i_start")
    2
    """
    if sr.is_gpu_array(i) and i.ndim == 0:
        i = i.item()
    if isinstance(i, np.ndarray) and i.ndim == 0:
        i = i.item()  # (an object array's too: SciPy converts the number it holds)
    # an integral float, Fraction or Decimal as its integer, as SciPy reads it (and as
    # ``indices`` takes it)
    value = integral(i, index_objects=False)
    if value is None:
        raise NotAVertex(f"{op}: {arg} must be an integer, got {type(i).__name__}")
    i = value
    lo = -n if negative else 0
    if not lo <= i < n:
        raise (NegativeVertex if i < 0 else IndexOutOfRange)(
            f"{op}: {arg} must lie in [{lo}, {n}), got {i} (for csgraph with shape (N, N), "
            f"must have {lo} <= {arg} < N = {n})")
    return i + n if i < 0 else i


def normalize_count(k, op: str, arg: str) -> int:
    """A non-negative integer count (``K`` of ``yen``), read as SciPy reads it: as an index
    (``operator.index``: Python and NumPy integers, 0-d integer arrays, objects with
    ``__index__``); bools, floats and larger arrays refused (SciPy refuses them too).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms.csgraph._validation import normalize_count
    >>> normalize_count(3, "yen", "K"), normalize_count(np.array(2), "yen", "K")
    (3, 2)
    """
    boolean = isinstance(k, (bool, np.bool_)) or getattr(k, "dtype", None) == np.bool_
    try:
        k_int = None if boolean else operator.index(k)
    except TypeError:
        k_int = None
    if k_int is None:
        raise sr.DomainMismatch(f"{op}: {arg} must be an integer, got {type(k).__name__}"
                                + (f" of {k.dtype} and shape {k.shape}"
                                   if isinstance(k, np.ndarray) else ""))
    if k_int < 0:
        raise sr.InvalidValue(f"{op}: {arg} must be >= 0, got {k_int}")
    return k_int


def _free_bytes(device: str) -> int:
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU input only)

        free, _total = cp.cuda.runtime.memGetInfo()
        return int(free) + int(cp.get_default_memory_pool().free_bytes())
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 1 << 62


def check_output_bytes(op: str, nbytes: int, device: str) -> None:
    """Raise :class:`semiring.OutOfMemory` naming the bytes when the results alone (e.g. a
    (len(indices), N) float64 distance matrix) cannot fit in the device's free memory, before
    any work: a graph of 2³¹ vertices and a few edges answers at once instead of thrashing.

    Examples
    --------
    >>> from algorithms.csgraph._validation import check_output_bytes
    >>> check_output_bytes("dijkstra", 8 * 10, "cpu")  # 80 bytes: fine
    >>> try:
    ...     check_output_bytes("dijkstra", 1 << 70, "cpu")
    ... except MemoryError as e:
    ...     print(str(e)[:45])
    dijkstra: the results need 118059162071741130
    """
    if nbytes < CHECK_BYTES_FROM:
        return
    free = _free_bytes(device)
    if nbytes > free:
        raise sr.OutOfMemory(f"{op}: the results need {nbytes} bytes of {device.upper()} memory, "
                             f"{free} bytes are free", needed=int(nbytes), free=int(free))
