"""SciPy-exact ``scipy.sparse.csgraph`` wrappers for components, spanning trees, flow,
matchings and orderings.

Which path runs, and why:

======================================  ==========================================================
function                                path
======================================  ==========================================================
``connected_components`` (weak, or      native (:func:`algorithms.connected_components`) on the
``directed=False``)                     input's device: Afforest's kernels on the GPU, SciPy's
                                        search on the host; SciPy numbers components in order
                                        of their least vertex, and so does Afforest: equal labels.
``connected_components`` (strong)       SciPy's Tarjan on the host (GPU input: a copy of its
                                        structure, the labels back): SciPy numbers strong
                                        components in the order its depth-first search
                                        completes them, which only that sequential search
                                        yields in general; the O(n + m) host pass *is* the
                                        relabel. GPU input with a symmetric pattern (tested on
                                        the device) runs Afforest: its strong components are
                                        the weak ones, and SciPy's numbering is then by least
                                        vertex. (The native GPU algorithm,
                                        ``algorithms.connected_components(A, "strong")``,
                                        numbers them by least vertex.)
``minimum_spanning_tree``               host input: SciPy's Kruskal; GPU input: native Borůvka
                                        over SciPy's CSR (stored order kept), ties broken by
                                        (weight, stored position) exactly as SciPy's stable
                                        sort: SciPy's tree.
``maximum_flow``, the matchings,        SciPy's compiled routines on the host by design (see
``reverse_cuthill_mckee``,              :mod:`algorithms.flow`, :mod:`algorithms.matching`,
``structural_rank``                     :mod:`algorithms.ordering`); GPU input is copied to the
                                        host explicitly and results back.
======================================  ==========================================================

Deviations from SciPy:

- Errors are the engine's (``semiring.DomainMismatch`` is a ``TypeError``,
  ``InvalidValue``/``DimensionMismatch`` are ``ValueError``, ``InvalidIndex`` an
  ``IndexError``), each naming the function; SciPy raises ``TypeError``/``ValueError`` for the
  same inputs (``maximum_flow`` with a float ``source``: SciPy's ``IndexError`` from inside,
  here ``DomainMismatch``).
- ``minimum_spanning_tree(overwrite=True)`` never modifies the input (SciPy may).
- ``connected_components(connection="strong")`` answers for a CSR with duplicate entries
  (SciPy 1.17 never returns: its Tarjan loop spins); repeated entries of a row are dropped
  first, which leaves SciPy's search order and numbering unchanged.
- ``maximum_bipartite_matching`` refuses a ``perm_type`` other than ``'row'`` or
  ``'column'`` (SciPy answers any other string as ``'column'``).
- ``reverse_cuthill_mckee`` of a 0 × 0 graph returns an empty permutation (SciPy raises a
  ValueError from inside NumPy).
- GPU input (CuPy, cupyx.scipy.sparse, a GPU ``semiring.Matrix``) is accepted everywhere;
  ``maximum_flow`` takes a ``semiring.Matrix`` with integer values on the GPU (cupyx sparse
  matrices cannot hold integers) and answers with its flow as a GPU ``semiring.Matrix``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sps
import scipy.sparse.csgraph as _scg

import semiring as sr
from semiring.matrix import row_of_entries

from .. import components as _components
from .. import matching as _matching
from .. import mst as _mst
from . import _validation
from ._validation import (as_graph, as_scipy_csr, graph_kind, on_host_when_small, scipy_csr,
                          sparse_output, to_float64)

__all__ = ["connected_components", "maximum_bipartite_matching", "maximum_flow",
           "min_weight_full_bipartite_matching", "minimum_spanning_tree",
           "reverse_cuthill_mckee", "structural_rank"]


def _is_cupyx_sparse(a) -> bool:
    if not type(a).__module__.startswith("cupyx"):
        return False
    import cupyx.scipy.sparse as cps  # noqa: PLC0415 (CuPy is optional: GPU input only)

    return cps.issparse(a)


def _host_sparse(graph, op: str, arg: str = "graph"):
    """(a scipy.sparse matrix on the host in its own format, the input's device) for the
    sparse inputs SciPy's CPU routines take, plus their GPU forms (cupyx sparse, a
    semiring.Matrix on either device), copied to the host explicitly."""

    if isinstance(graph, sr.Matrix):
        M = graph.to_cpu() if graph.device == "gpu" else graph
        return sps.csr_array(M.to_scipy()), graph.device
    if sps.issparse(graph):
        return graph, "cpu"
    if _is_cupyx_sparse(graph):
        return graph.get(), "gpu"
    raise sr.DomainMismatch(f"{op}: {arg} must be sparse (scipy.sparse, cupyx.scipy.sparse or a "
                            f"semiring.Matrix), got {type(graph).__name__}")


def _without_repeats(S):
    """A CSR or CSC ``S`` without its repeated entries (the first of each kept, the stored
    order otherwise as it was), else ``S`` itself. SciPy's Hopcroft–Karp
    (``maximum_bipartite_matching``, ``structural_rank``) writes past its arrays on a row with
    repeated entries: the heap corrupts and the process aborts later (``munmap_chunk(): invalid
    pointer``; an 8-vertex CSC with 84 entries, session 27's audit). Both read the structure
    only, which the repeats do not change."""
    if S.format not in ("csr", "csc") or _validation.canonical_csr(S):
        return S
    nnz = int(S.indptr[-1])
    major = row_of_entries(np, S.indptr, nnz)
    key = major * max(S.shape[1] if S.format == "csr" else S.shape[0], 1) \
        + S.indices[:nnz].astype(np.int64)
    _, first = np.unique(key, return_index=True)
    if first.size == nnz:
        return S
    keep = np.zeros(nnz, dtype=bool)
    keep[first] = True
    indptr = np.concatenate([[0], np.cumsum(np.bincount(major[keep],
                                                        minlength=S.indptr.size - 1))])
    return type(S)((S.data[:nnz][keep], S.indices[:nnz][keep],
                    indptr.astype(S.indptr.dtype)), shape=S.shape)


# ------------------------------------------------------------------------ components


@on_host_when_small
def connected_components(csgraph, directed=True, connection="weak", return_labels=True):
    """Connected components, as ``scipy.sparse.csgraph.connected_components``: the same
    ``n_components`` and the same labels, numbered as SciPy numbers them.

    Weak components (and all components with ``directed=False``) run on the input's device
    (:func:`algorithms.connected_components`: Afforest on the GPU, whatever the size: 0.28 ms
    at n = 1024 with 10⁴ entries on the H200 host, where a host copy and SciPy took 0.38 ms;
    host input runs SciPy's search, a ``scipy.sparse`` CSR as it is). Strong components
    (``directed=True``) are numbered by SciPy in the order its depth-first search completes
    them (see the module docstring), which only that sequential search yields in general:
    host input runs SciPy's Tarjan; GPU input first tests its pattern for symmetry on the
    device (from ``_graphalg.SYMMETRIC_TEST_NNZ`` = 2¹⁷ stored entries): a symmetric
    pattern (an undirected graph stored both ways, a grid) has the weak components as its
    strong ones, numbered by least vertex as SciPy's search numbers them, and runs Afforest
    on the GPU; any other pattern (or a smaller graph) runs SciPy's Tarjan on a host copy of
    the structure only (indptr and indices, one transfer), the labels uploaded back: a
    directed path of 10⁵ vertices costs that copy and upload over SciPy's 1 ms (1.4 ms on
    the H200 host), the price of answering on the GPU.

    Parameters
    ----------
    csgraph : sparse matrix (any kind), dense or masked array, CuPy array, semiring.Matrix
        The N × N graph (dense: 0, inf and NaN are not edges).
    directed : bool
        False: components of the undirected graph (``connection`` is not read).
    connection : {'weak', 'strong'}
        Case-insensitive, as in SciPy.
    return_labels : bool

    Returns
    -------
    n_components : int
    labels : array of int32 (NumPy, or CuPy for GPU input)
        Only with ``return_labels``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_array(np.array([[0, 1, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0],
    ...                            [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]]))
    >>> n, labels = csgraph.connected_components(G, directed=False)
    >>> n, labels.tolist()
    (2, [0, 0, 0, 1, 1])
    >>> n, labels = csgraph.connected_components(G, connection="strong")
    >>> n, labels.tolist()
    (5, [2, 1, 0, 4, 3])
    """
    op = "connected_components"
    S = scipy_csr(csgraph)
    if S is not None and (connection == "weak" or (connection == "strong" and not directed)):
        if S.shape[0] and sr.centrality.compiled("cpu"):
            # the CPU backend's compiled union of every stored entry's endpoints over the
            # input's own arrays (any order, repeats and explicit zeros are edges, as SciPy
            # reads them), numbered by least vertex as SciPy numbers them; SciPy's search
            # first casts a non-float64 CSR to float64 (three copies, a scan) and builds the
            # transpose: on the 2-core host 1.8 against 9.5 ms on grid-256², 7.7 against
            # 17.9 on Kronecker-14 (loaded; session 24)
            labels = _components.connected_components(
                sr.Matrix.from_csr(S.indptr, S.indices, None, S.shape, check=False))
            n_components = int(labels.max()) + 1
            return (n_components, labels) if return_labels else n_components
        # SciPy's compiled search on the input as it is: its numbering (by least vertex)
        return _scg.connected_components(S, directed=False, return_labels=return_labels)
    if S is not None and connection == "strong" and _validation.canonical_csr(S):
        # SciPy's Tarjan on the input's own structure (no duplicate entries: its search
        # returns; the rows scanned where the flag says canonical: a flag set over duplicates
        # would send SciPy's search into its endless loop)
        return _scg.connected_components(_validation.structure_csr(S.indptr, S.indices, S.shape[0], True),
                                         directed=True, connection="strong",
                                         return_labels=return_labels)
    if not isinstance(connection, (str, bytes)):
        # (SciPy calls connection.lower(): bytes get as far as its ValueError)
        raise sr.DomainMismatch(f"{op}: connection must be 'weak' or 'strong', got "
                                f"{type(connection).__name__}")
    connection = connection.lower()
    if connection not in ("weak", "strong"):
        raise sr.InvalidValue(f"{op}: connection must be 'weak' or 'strong', got {connection!r}")
    _validation.masked_warnings(csgraph)  # SciPy's validate_graph, after its connection check
    if (connection == "weak" or not directed) and as_graph_device(csgraph) == "cpu":
        # SciPy's compiled search: the same numbering (by least vertex), no per-call algebra
        S = _first_of_duplicates(as_scipy_csr(csgraph, op))
        n_components, labels = _scg.connected_components(S, directed=False)
        n_components = int(n_components)
    elif connection == "weak" or not directed:
        A = as_graph(csgraph, op, dup="first")
        labels = _components.connected_components(A, "weak")
        n_components = int(labels.max()) + 1 if labels.size else 0
    elif as_graph_device(csgraph) == "gpu" or _validation.engine_forced():
        # SciPy's Tarjan reads the structure only: copy indptr and indices (one transfer), not
        # the weights (nor cast them to float64 on the host, as SciPy's validation would)
        from . import _thin  # noqa: PLC0415  (_thin imports this package's validation only)

        indptr, indices, n, canonical = _thin.traversal_structure(csgraph, op, True,
                                                                  combine=False,
                                                                  with_canonical=True)
        xp = sr.array_module(as_graph_device(csgraph))
        if _symmetric_pattern(xp, indptr, indices, n):
            # strong components of a symmetric pattern are its weak ones, and SciPy's
            # numbering is then theirs too (see _symmetric_pattern): Afforest on the device
            M = sr.Matrix.from_csr(indptr, indices, None, (n, n), check=False)
            labels = _components.connected_components(M, "weak", symmetric=True)
            n_components = int(labels.max()) + 1 if n else 0
            return (n_components, labels) if return_labels else n_components
        ip, ind = _thin._to_host([indptr.astype(xp.int32, copy=False),
                                  indices.astype(xp.int32, copy=False)])
        # (canonical known on the device: spares the host its scan of every row)
        S = _validation.structure_csr(ip, ind, n, canonical)
        # the stored order: SciPy's DFS follows it
        n_components, labels = _scg.connected_components(_first_of_duplicates(S),
                                                         directed=True, connection="strong")
        n_components = int(n_components)
        if as_graph_device(csgraph) == "gpu":
            labels = sr.to_device(labels, "gpu")
    else:
        S = _first_of_duplicates(as_scipy_csr(csgraph, op))  # the stored order: SciPy's
        n_components, labels = _scg.connected_components(S, directed=True, connection="strong")  # DFS follows it
        n_components = int(n_components)
    return (n_components, labels) if return_labels else n_components


#: Strong components of GPU input test the pattern for symmetry first from this many stored
#: entries: below it SciPy's Tarjan on a host copy of the structure costs less than the
#: test's launches and Afforest. H200 host, symmetric path / host path, ms
#: (``bench/probes/csgraph_strong_gpu.py``, session 12): grid-128² (65 k entries) 1.32 /
#: 0.70, grid-256² (261 k) 1.29 / 1.44, urand-14-ef8 (262 k) 0.71 / 2.00, grid-1024² 1.32 /
#: 20.4, grid-2048² 2.98 / 68.1 (SciPy's own call on the host CSR: 44.0): the host path grows
#: with the entries (faster on a grid's local rows than on random ones), the symmetric path
#: stays near 1 ms to 4 M entries; 2¹⁷ sits between the two grids.
SYMMETRIC_TEST_NNZ = 1 << 17


def _symmetric_pattern(xp, indptr, indices, n: int) -> bool:
    """Whether every stored (i, j) has a stored (j, i) (a symmetric pattern: an undirected
    graph, a grid), tested on the structure's device by one search of the transposed keys
    among the sorted keys i·n + j (sorted already for a CSR with sorted rows).

    Where it holds, the strong components are the weak ones, and SciPy's numbering of strong
    components (the order in which its depth-first search completes them, roots taken in
    vertex order) is the order of their least vertices: the search from the least vertex not
    yet visited reaches its whole component, which completes before the next root starts.
    So Afforest's labels (by least vertex) are SciPy's; a grid-2048² CSR then costs the
    GPU a few searches and Afforest, 2.98 ms on the H200 host (the test 2.1 of them), instead
    of a host copy and SciPy's Tarjan (68.1 ms; SciPy's own call on the host CSR 44.0)."""
    nnz = int(indices.size)
    if nnz < SYMMETRIC_TEST_NNZ or n == 0 or n > 3 * 10**9:  # keys < n² < 2⁶³
        return False
    try:
        ptr = indptr.astype(xp.int64)
        rows = xp.searchsorted(ptr, xp.arange(nnz, dtype=xp.int64), side="right") - 1
        del ptr
        cols = indices.astype(xp.int64)
        keys = rows * n + cols
        tkeys = cols * n + rows
        del rows, cols
        if not bool((keys[1:] >= keys[:-1]).all()):  # unsorted rows: sort the keys
            keys = xp.sort(keys)
        pos = xp.minimum(xp.searchsorted(keys, tkeys), nnz - 1)
        return bool((keys[pos] == tkeys).all())
    except MemoryError:  # the host path needs no device memory beyond the input
        return False


def _first_of_duplicates(S):
    """S without the repeated entries of a row (the first of each kept, in stored order).

    SciPy 1.17's strong ``connected_components`` never returns on a CSR with duplicate
    entries (its Tarjan loop spins; e.g. indptr [0, 3, 6, 6, 10, 11, 12], indices [3, 3, 5, 4,
    3, 1, 5, 4, 2, 5, 4, 0]). A repeated edge v → w adds nothing to a depth-first search (w is
    visited by then), so dropping it leaves the search, and SciPy's numbering, unchanged."""
    if S.nnz < 2 or _validation.canonical_csr(S):  # (the rows, not a flag that may lie)
        return S

    n = S.shape[0]
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(S.indptr))
    key = rows * n + S.indices
    _, first = np.unique(key, return_index=True)
    if first.size == key.size:
        return S
    keep = np.sort(first)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows[keep], minlength=n))])
    return sps.csr_array((S.data[keep], S.indices[keep], indptr), shape=S.shape)


def as_graph_device(csgraph) -> str:
    """Where a facade input lives."""
    if isinstance(csgraph, sr.Matrix):
        return csgraph.device
    return "gpu" if sr.is_gpu_array(csgraph) or _is_cupyx_sparse(csgraph) else "cpu"


# ------------------------------------------------------------------------ spanning tree


def _stored_csr(csgraph, op):
    """(indptr, indices, float64 data, n, device) of the graph in the CSR SciPy's
    ``validate_graph`` makes: a CSR input in its stored order (duplicates, unsorted indices
    and explicit zeros kept), other formats through ``tocsr()``, dense and masked input as
    SciPy converts them."""
    device = as_graph_device(csgraph)
    if device == "gpu":
        if _is_cupyx_sparse(csgraph):
            # SciPy's conversion, as the host path reads it (a COO's duplicates and a
            # non-float64 CSR's summed): a plain tocsr() kept a float32 CSR's duplicates as
            # parallel edges where SciPy's astype sums them (an H200 run: an edge of weight 0
            # where SciPy's tree has weight 1)
            indptr, indices, data, shape, _ = _validation._sparse_csr_float64(
                csgraph, op, "csgraph", True)
            return indptr, indices, data, shape[0], "gpu"
        A = as_graph(csgraph, op, dup="min")
        return A.indptr, A.indices, A.values, A.nrows, "gpu"
    S = as_scipy_csr(csgraph, op)
    return S.indptr, S.indices, S.data, S.shape[0], "cpu"


@on_host_when_small
def minimum_spanning_tree(csgraph, overwrite=False):
    """A minimum spanning tree (forest) of the undirected graph, as
    ``scipy.sparse.csgraph.minimum_spanning_tree``: the same edges, in the same orientation,
    float64, explicit zero-weight tree edges dropped from the result as SciPy drops them.

    Host input runs SciPy's Kruskal (a ``scipy.sparse`` CSR as it is, other inputs after
    conversion). GPU input runs Borůvka on the GPU (:func:`algorithms.minimum_spanning_forest`'s
    algorithm) over the CSR SciPy would see; ties are broken by stored position, as SciPy's
    stable sort breaks them, so the tree is SciPy's even where several are minimal. Below
    ``_validation.HOST_MAX_WORK['minimum_spanning_tree']`` = 2¹⁷ stored entries GPU input runs
    SciPy on a host copy instead (H100, 8N entries: N = 10⁴ route 7.6 ms, Borůvka 26 ms;
    N = 3·10⁴ route 23.6 ms, Borůvka 20.6 ms).

    Parameters
    ----------
    csgraph : sparse matrix (any kind), dense or masked array, CuPy array, semiring.Matrix
        The N × N graph; an entry (i, j) or (j, i) is the undirected edge {i, j}.
    overwrite : bool
        Accepted for SciPy's signature; the input is never modified.

    Returns
    -------
    csr_matrix, csr_array or cupyx csr_matrix
        ``csr_matrix`` for a ``scipy.sparse`` matrix or ``numpy.matrix`` input, ``csr_array``
        for other host input, ``cupyx.scipy.sparse.csr_matrix`` for GPU input.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> X = sp.csr_matrix(np.array([[0, 8, 0, 3], [0, 0, 2, 5], [0, 0, 0, 6], [0, 0, 0, 0]]))
    >>> T = csgraph.minimum_spanning_tree(X)
    >>> type(T).__name__, T.toarray().astype(int).tolist()
    ('csr_matrix', [[0, 0, 0, 3], [0, 0, 2, 5], [0, 0, 0, 0], [0, 0, 0, 0]])
    """
    op = "minimum_spanning_tree"
    _validation.masked_warnings(csgraph)  # SciPy's validate_graph comes first
    S = scipy_csr(csgraph)
    if S is not None:  # the common case: SciPy's Kruskal on the input (it copies it first)
        return _scg.minimum_spanning_tree(S, overwrite=False)
    # SciPy answers a numpy.matrix with a csr_matrix, as it does a scipy.sparse matrix
    kind = "spmatrix" if isinstance(csgraph, np.matrix) else graph_kind(csgraph)
    if as_graph_device(csgraph) == "cpu" and not _validation.FORCE_ENGINE:
        # host input: SciPy's compiled Kruskal on the facade's own copy (the tree is SciPy's
        # by construction; Borůvka on NumPy cost 2.5 ms against SciPy's 0.3 ms at n = 1000)
        T = _scg.minimum_spanning_tree(as_scipy_csr(csgraph, op), overwrite=True)
        return sparse_output(kind, T.data, T.indices, T.indptr, T.shape)
    indptr, indices, data, n, device = _stored_csr(csgraph, op)
    xp = sr.array_module(device)
    rows = _components._rows_of(xp, indptr, int(indices.size))
    keep = _mst._boruvka(n, rows, indices, data, device)
    # SciPy's eliminate_zeros, done here: cupyx's drops negative weights and fails on n = 0
    keep &= data != 0
    counts = sr.device.bincount(rows[keep], n)
    indptr = xp.concatenate([xp.zeros(1, counts.dtype), xp.cumsum(counts)]).astype(indptr.dtype)
    return sparse_output(kind, data[keep], indices[keep], indptr, (n, n))


# ------------------------------------------------------------------------ flow


def _flow_vertex(op, arg, v, n):
    """A source/sink: an integer (NotAVertex otherwise: a TypeError, and the IndexError
    SciPy's raises for a float), in [0, n) (InvalidValue, a ValueError as SciPy's,
    otherwise)."""
    if sr.is_gpu_array(v) and v.ndim == 0:
        v = v.item()
    if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iu":
        v = v.item()
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise _validation.NotAVertex(f"{op}: {arg} must be an integer, got {type(v).__name__}")
    if not 0 <= int(v) < n:
        raise sr.InvalidValue(f"{op}: {arg} value ({int(v)}) must be between 0 and {n - 1}")
    return int(v)


def _flow_scalar(v):
    if (sr.is_gpu_array(v) or isinstance(v, np.ndarray)) and v.ndim == 0 \
            and v.dtype.kind in "iuf":
        return v.item()
    return v


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(
        v, (bool, np.bool_))


def _flow_vertices(op, source, sink, n):
    """(source, sink) in SciPy's order of checks: both ranges and their difference first
    (ValueError, whatever their type: ``source=1e20`` is out of range), then the source's type
    (SciPy indexes with it: a float raises IndexError); an integral float ``sink`` is read as
    its integer, as SciPy's routine converts it (a non-integral one raises: the facade's
    deviation, SciPy truncates it)."""
    s, t = _flow_scalar(source), _flow_scalar(sink)
    for arg, v in (("source", s), ("sink", t)):
        if _is_real(v) and not 0 <= v < n:
            raise sr.InvalidValue(f"{op}: {arg} value ({v}) must be between 0 and {n - 1}")
    if _is_real(s) and _is_real(t) and s == t:
        raise sr.InvalidValue(f"{op}: source and sink vertices must differ, got {s} for both")
    if isinstance(t, np.ndarray) and t.ndim == 0:
        t = t.item()  # (a 0-d object array: SciPy's routine converts the sink as a number)
    if _validation.integral(t, index_objects=False) is not None:
        # an integral float, Fraction or Decimal sink, as SciPy's routine converts it (the
        # source SciPy indexes with: only integers)
        t = _validation.integral(t, index_objects=False)
    return _flow_vertex(op, "source", s, n), _flow_vertex(op, "sink", t, n)


def maximum_flow(csgraph, source, sink, *, method="dinic"):
    """A maximum flow, as ``scipy.sparse.csgraph.maximum_flow`` (SciPy's compiled routine on
    the host, by design: see :mod:`algorithms.flow`).

    Parameters
    ----------
    csgraph : scipy.sparse CSR matrix or array with integer capacities, or a semiring.Matrix
        with integer values (either device; cupyx sparse matrices cannot hold integers).
    source, sink : int
        Distinct vertices in [0, N).
    method : {'dinic', 'edmonds_karp'}

    Returns
    -------
    MaximumFlowResult
        SciPy's result class: ``flow_value`` and ``flow`` (SciPy's CSR kind for host input; a
        GPU ``semiring.Matrix`` for a GPU ``semiring.Matrix``).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_array(np.array([[0, 5], [0, 0]]))
    >>> res = csgraph.maximum_flow(G, 0, 1)
    >>> int(res.flow_value), res.flow.toarray().tolist()
    (5, [[0, 5], [-5, 0]])
    """
    op = "maximum_flow"

    device = "cpu"
    if isinstance(csgraph, sr.Matrix):
        device = csgraph.device
        M = csgraph.to_cpu() if device == "gpu" else csgraph
        S = sps.csr_array(M.to_scipy())
    elif sps.issparse(csgraph):
        if csgraph.format != "csr":
            raise sr.DomainMismatch(f"{op}: graph must be in CSR format, got "
                                    f"{csgraph.format.upper()}")
        S = csgraph
    elif _is_cupyx_sparse(csgraph):
        raise sr.DomainMismatch(f"{op}: graph capacities must be integers; a cupyx sparse "
                                f"matrix holds {csgraph.dtype} (pass a semiring.Matrix with "
                                f"integer values for GPU input)")
    else:
        raise sr.DomainMismatch(f"{op}: graph must be in CSR format, got "
                                f"{type(csgraph).__name__}")
    if S.ndim != 2 or S.shape[0] != S.shape[1]:
        raise sr.DimensionMismatch(f"{op}: graph must be specified as a square matrix, got "
                                   f"shape {tuple(S.shape)}")
    if S.dtype.kind not in "iu":  # SciPy raises ValueError here
        raise sr.InvalidValue(f"{op}: graph capacities must be integers, got {S.dtype}")
    if method not in ("dinic", "edmonds_karp"):
        raise sr.InvalidValue(f"{op}: method must be 'dinic' or 'edmonds_karp', got {method!r}")
    n = S.shape[0]
    source, sink = _flow_vertices(op, source, sink, n)
    res = _scg.maximum_flow(S, source, sink, method=method)
    if device == "gpu":
        return type(res)(res.flow_value, sr.Matrix.from_scipy(res.flow, device="gpu"))
    return res


# ------------------------------------------------------------------------ matchings, ordering


def maximum_bipartite_matching(graph, perm_type="row"):
    """A maximum matching, as ``scipy.sparse.csgraph.maximum_bipartite_matching`` (SciPy's
    Hopcroft–Karp on the host, by design: see :mod:`algorithms.matching`; GPU input is copied
    to the host and the result back).

    Parameters
    ----------
    graph : sparse (CSR, CSC or COO; cupyx sparse or semiring.Matrix for GPU input), (M, N)
    perm_type : {'row', 'column'}

    Returns
    -------
    array of int32 (NumPy, or CuPy for GPU input); -1 where unmatched

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> B = sp.csr_array(np.array([[1, 1, 0], [1, 0, 0], [0, 0, 0], [0, 1, 1]]))
    >>> csgraph.maximum_bipartite_matching(B).tolist()
    [1, 0, 3]
    """
    op = "maximum_bipartite_matching"
    S, device = _host_sparse(graph, op)
    if S.format not in ("csr", "csc", "coo"):
        raise sr.DomainMismatch(f"{op}: graph must be in CSC, CSR, or COO format, got "
                                f"{S.format.upper()}")
    # (a 1-D or 3-D sparse array: SciPy unpacks its shape and fails unnamed)
    _validation.check_2d(op, "graph", S.shape)
    if perm_type not in ("row", "column"):
        raise sr.InvalidValue(f"{op}: perm_type must be 'row' or 'column', got {perm_type!r}")

    return sr.to_device(_scg.maximum_bipartite_matching(_without_repeats(S),
                                                        perm_type=perm_type), device)


def min_weight_full_bipartite_matching(biadjacency, maximize=False):
    """A minimum-weight full matching, as
    ``scipy.sparse.csgraph.min_weight_full_bipartite_matching`` (SciPy's LAPJVsp on the
    host, by design: see :mod:`algorithms.matching`; GPU input is copied to the host and the
    result back).

    Parameters
    ----------
    biadjacency : sparse (cupyx sparse or semiring.Matrix for GPU input), (M, N)
    maximize : bool

    Returns
    -------
    row_ind, col_ind : arrays (NumPy, or CuPy for GPU input)

    Raises
    ------
    ValueError
        SciPy's: no full matching exists. ``InvalidValue`` (a ValueError): weights too far
        apart for float64 sums, or -inf (+inf with ``maximize``), where SciPy's loop can
        never end or answers wrongly (the facade's deviation:
        :func:`algorithms.matching.check_lapjvsp_range`).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> W = sp.csr_array(np.array([[5, 1, 0], [1, 2, 3], [0, 4, 1.0]]))
    >>> rows, cols = csgraph.min_weight_full_bipartite_matching(W)
    >>> rows.tolist(), cols.tolist()
    ([0, 1, 2], [1, 0, 2])
    """
    op = "min_weight_full_bipartite_matching"
    S, device = _host_sparse(biadjacency, op, "biadjacency")
    if S.format in ("csr", "csc", "coo"):  # SciPy's TypeError names the others
        # (a 1-D or 3-D sparse array: SciPy unpacks its shape and fails unnamed)
        _validation.check_2d(op, "biadjacency", S.shape)
        # (where SciPy's loop never ends; SciPy reads maximize's truth value)
        _matching.check_lapjvsp_range(S, op, "biadjacency", bool(maximize))
    rows, cols = _scg.min_weight_full_bipartite_matching(S, maximize=maximize)
    return sr.to_device(rows, device), sr.to_device(cols, device)


def reverse_cuthill_mckee(graph, symmetric_mode=False):
    """The reverse Cuthill–McKee permutation, as ``scipy.sparse.csgraph.reverse_cuthill_mckee``
    (SciPy's on the host, by design: see :mod:`algorithms.ordering`; GPU input is copied to
    the host and the permutation back).

    Parameters
    ----------
    graph : sparse CSR or CSC (cupyx sparse or semiring.Matrix for GPU input), (N, N)
    symmetric_mode : bool

    Returns
    -------
    array of int32 (NumPy, or CuPy for GPU input)

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> csgraph.reverse_cuthill_mckee(sp.csr_array(np.eye(3))).tolist()
    [2, 1, 0]
    """
    op = "reverse_cuthill_mckee"
    S, device = _host_sparse(graph, op)
    if S.format not in ("csr", "csc"):
        raise sr.DomainMismatch(f"{op}: input must be in CSC or CSR sparse format, got "
                                f"{S.format.upper()}")
    _validation.check_2d(op, "graph", S.shape)  # (SciPy reads out of bounds: IndexError)
    if S.shape[0] != S.shape[1]:
        raise sr.DimensionMismatch(f"{op}: input must be a square matrix, got shape {S.shape}")
    if S.shape[0] == 0:  # SciPy raises from inside numpy ("zero-size array to reduction")
        return sr.to_device(np.zeros(0, dtype=np.int32), device)

    return sr.to_device(_scg.reverse_cuthill_mckee(S, symmetric_mode=symmetric_mode), device)


def structural_rank(graph):
    """The structural rank, as ``scipy.sparse.csgraph.structural_rank`` (SciPy's on the host,
    by design: see :mod:`algorithms.ordering`; GPU input is copied to the host).

    Parameters
    ----------
    graph : sparse (cupyx sparse or semiring.Matrix for GPU input), (M, N)

    Returns
    -------
    numpy.int64 (SciPy's type)

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> int(csgraph.structural_rank(sp.csr_array(np.array([[1, 1], [1, 0]]))))
    2
    """
    op = "structural_rank"
    S, _device = _host_sparse(graph, op)
    _validation.check_2d(op, "graph", S.shape)  # (SciPy indexes its shape: IndexError)
    return _scg.structural_rank(_without_repeats(S))

