"""A ``scipy.sparse.csgraph``-compatible facade: SciPy's 26 names, signatures, keywords,
outputs and sentinels, on the CPU or the GPU (where the input lives).

Replace ``from scipy.sparse import csgraph`` with ``from algorithms import csgraph``: the same
calls return the same answers (distances, orders, trees, dtypes, shapes, output kinds); the
native API (``algorithms.bfs``, ``algorithms.sssp``, ...) is the one to use in new code.

Paths
-----
Every function converts its input with :mod:`algorithms.csgraph._validation` (scipy.sparse
matrices and arrays of every format, non-canonical CSR, dense NumPy with 0/inf/NaN non-edges,
masked arrays, lists, cupyx sparse, CuPy arrays, ``semiring.Matrix``; every real dtype, as
float64). Host input then runs SciPy's own compiled routine where SciPy's answer is right (the
best CPU implementation there is: a small graph costs what SciPy costs plus one copy of its
edges); a CSR's structure-only searches (strong components, directed breadth- and depth-first
orders) read a float64 view of its own index arrays, sparing SciPy's cast of the values, and
its weak components run the CPU backend's compiled union where Numba is installed (SciPy's
numbering, without SciPy's cast and transpose). GPU input runs the engine's algorithms on the GPU and answers with CuPy arrays and
``cupyx`` matrices. Each function's docstring names its paths; the README's conformance table
lists them all.

Where GPU input cannot beat SciPy
--------------------------------
GPU input answers on the GPU (CuPy arrays, cupyx matrices), so a call that SciPy answers in
microseconds on a host CSR cannot be faster on a device: the least it costs is SciPy's own
search plus a copy of the graph down and of the answer up. Two kinds of input are there by
nature, and take the host paths named in each function's docstring:

- small graphs (n ≈ 1000, 10⁴ entries): every launch and host sync costs more than SciPy's
  whole search (18 µs for ``breadth_first_order``), so these run SciPy on a host copy
  (``_validation.HOST_MAX_WORK``) or of the structure only: 0.34-0.87× SciPy's speed on the
  H200 host (``breadth_first_order`` 0.19 ms: copies 69 µs, host CSR 16, SciPy 18);
- long, thin graphs (a path of 10⁵ vertices): a device search pays a barrier per level, one
  per vertex there, so SciPy runs on a host copy (``_thin``): 0.47-0.59× SciPy's speed
  (``dijkstra`` 4.7 ms against SciPy's 2.2, ``breadth_first_order`` 1.2 against 0.67),
  where the device loop took 3 s.

Strong components (SciPy numbers them by its depth-first search's completion order) run that
search on a host copy of the structure unless the pattern is symmetric (see
``connected_components``). Everything else on large graphs runs on the GPU (the README's
table gives the ratios).

Deviations from SciPy (where SciPy misbehaves)
----------------------------------------------
- An undirected graph with a negative edge: ``dijkstra`` (and ``shortest_path(method='D')``)
  raises :class:`NegativeCycleError` (SciPy hangs); the other methods raise where SciPy does.
- ``dijkstra`` with negative weights raises :class:`semiring.InvalidValue` (SciPy warns and
  returns distances that may be wrong, or hangs on a negative cycle), a NaN weight beside
  them too. ``yen`` follows SciPy
  (Johnson's reweighting; :class:`NegativeCycleError` on a negative cycle).
- ``min_weight_full_bipartite_matching`` raises :class:`semiring.InvalidValue` on weights too
  far apart for float64 (``algorithms.matching.LAPJVSP_MAX_SPREAD``; integer dtypes too, which
  SciPy reads as float64), where SciPy's LAPJVsp can loop forever, and on a -inf weight (+inf
  with ``maximize=True``), where it answers "no full matching exists" although one exists, or
  loops forever.
- ``i_start``, ``source``, ``sink`` outside [0, N) raise
  :class:`~algorithms.csgraph._validation.IndexOutOfRange` naming the argument (SciPy
  returns an empty order or reads out of bounds); ``indices`` outside [-N, N) raise it too
  (SciPy's ValueError names no argument): an :class:`semiring.InvalidIndex` that is also
  the ``ValueError`` SciPy raises (and its ``OverflowError`` for Python integers beyond int32,
  ``IndexOverflow``; NumPy integers there SciPy wraps silently). Non-integral float indices or vertices and bools raise
  :class:`semiring.DomainMismatch` (SciPy truncates a float and reads ``True`` as 1);
  ``dijkstra``'s ``limit=nan`` raises :class:`semiring.InvalidValue` (SciPy reaches only
  the sources); integral numbers of other types (``fractions.Fraction``,
  ``decimal.Decimal``, 0-d and object arrays holding them) read as their integers, as SciPy
  reads them (session 18); ``maximum_bipartite_matching``'s ``perm_type`` other than 'row'/'column'
  raises :class:`semiring.InvalidValue` (SciPy reads it as 'column').
- ``reverse_cuthill_mckee(symmetric_mode=True)`` of a non-square graph raises
  :class:`semiring.DimensionMismatch` as ``symmetric_mode=False`` does (SciPy skips its shape
  check there: it answers an order of the wrong length, or reads out of bounds: IndexError).
- Sparse trees (``reconstruct_path``, ``breadth_first_tree``, ``depth_first_tree``) store each
  row's children in SciPy's order (``numpy.argsort`` of the predecessors, so
  ``has_sorted_indices`` is False as in SciPy's answer); GPU answers store them sorted
  (CuPy's argsort is stable), the same matrix.
- A stored ``-inf`` weight: host input answers what SciPy answers (which follows no rule:
  -inf, NaN or NegativeCycleError by method); GPU input raises :class:`semiring.InvalidValue`
  in the shortest-path functions (it used to drop the edge; a masked array's unmasked -inf
  too on the engine path, session 28's engine fuzz), and ``yen`` raises it on every
  device (SciPy's ``yen`` answers no path where one exists).
- ``laplacian``'s array of a graph whose dtype cannot hold its negated entries: SciPy fails
  with NumPy's error (an ``OverflowError``, or NumPy's private ``UFuncTypeError`` subclasses,
  TypeErrors, for a bool graph or ``normed=True``); the engine path (GPU input) raises
  ``_tools.UnsignedLaplacian``, a ``TypeError`` and an ``OverflowError`` both (CuPy's own
  errors differ from NumPy's), where SciPy raises.
- ``maximum_bipartite_matching`` and ``structural_rank`` hand SciPy a CSR / CSC with its
  repeated entries dropped (the first of each kept, in stored order): SciPy's Hopcroft–Karp
  corrupts the heap on rows with repeats, and the process aborts later.
- ``yen`` is the facade's own (SciPy's routine is not called): on a graph of no edges it
  answers ``source == sink`` with ``[0.]`` where SciPy raises ValueError ("Invalid shape in
  axis 0"), and among parallel edges it reads the smallest, where SciPy's lengths of the
  later paths can be wrong.
- Complex weights raise :class:`semiring.DomainMismatch` (SciPy drops the imaginary part),
  except in ``laplacian``, which computes with them as SciPy does; so do object arrays
  (SciPy fails on them too, but its ``laplacian`` of a dense object array answers one), as
  ``_validation.NotAGraph``, also the ``ValueError`` SciPy raises for input NumPy reads as one
  object (a ``LinearOperator``, ``None``: "graph should have two dimensions").
- SciPy 1.17.1's ``floyd_warshall`` (and ``shortest_path`` with 'FW', or 'auto' choosing it) on
  a Fortran-ordered dense or masked array (``numpy.asfortranarray``, a transpose's ``.T``)
  computes nothing: its kernel's "ndarray is not C-contiguous" is raised in a ``noexcept``
  function, printed and ignored, and the input comes back with its zeros as inf. The facade
  answers the distances (SciPy's answer on the C-ordered copy).
- The caller's input is never modified: ``overwrite=True`` and ``laplacian(copy=False)`` have
  no effect (``csgraph_masked_from_dense(copy=False)`` keeps SciPy's documented sharing).
- ``laplacian`` of a masked array reads masked entries as zeros (SciPy reads the data under
  the mask); lists are accepted everywhere (SciPy's ``laplacian`` and
  ``shortest_path(method='auto')`` fail on them).
- ``construct_dist_matrix`` accepts any integer predecessors (SciPy demands int32) and raises
  on predecessors that cycle (SciPy loops forever); ``reconstruct_path`` and it raise
  :class:`semiring.InvalidIndex` for a predecessor ≥ N (SciPy reads out of bounds), and read
  every negative predecessor as none (SciPy's ``reconstruct_path`` does; its
  ``construct_dist_matrix`` loops forever on -1). SciPy 1.17.1's ``construct_dist_matrix``
  writes inf over the zeros of the caller's dense graph (``directed=True``); the facade's
  never does.
- ``directed`` as SciPy reads it (session 17's audit): ``floyd_warshall`` (and
  ``shortest_path`` when it runs 'FW') and ``construct_dist_matrix`` convert it to an integer,
  so ``0.5`` and (FW only) ``'0'`` mean undirected and ``None`` or ``'yes'`` raise SciPy's
  error class on every path; the other functions read its truth value, as SciPy's do.
  ``construct_dist_matrix``'s ``null_value`` is a C double in SciPy: a string, ``None`` or a
  list raises its TypeError.
- Results too large for the device's free memory (a 2³¹-vertex graph's distance rows) raise
  :class:`semiring.OutOfMemory` naming the bytes before any work; host graphs beyond SciPy's
  int32 indices run the engine's path.
- SciPy's undirected Bellman–Ford (``bellman_ford`` and ``shortest_path(method='BF')`` with
  ``directed=False``) raises a false :class:`NegativeCycleError` on fractional weights once
  distances pass about 8 (its final test has an absolute tolerance of 1e-15): the facade
  answers the distances there (Dijkstra's, where no negative edge lies in a source's
  component) and raises where one does.
- SciPy fails where the facade answers (found by ``bench/probes/csgraph_conformance.py``):
  ``floyd_warshall`` / ``shortest_path(method='FW')`` and ``construct_dist_matrix`` on COO,
  DOK, BSR and DIA input (SciPy: "csgraph must be lil, csr, or csc format"),
  ``construct_dist_matrix`` on masked arrays and lists, ``connected_components`` on lists,
  ``csgraph_from_dense`` where no entry is null (SciPy's AxisError), ``yen`` on a CSR with
  int64 indices (SciPy's buffer dtype mismatch); session 16's audit: ``csgraph_to_dense`` and
  ``csgraph_to_masked`` on dense input (SciPy: "csgraph must be sparse"; the facade reads it as
  every function does), ``csgraph_from_masked`` on a plain array and every function on a masked
  array whose mask is ``nomask`` (SciPy's AxisError), ``reverse_cuthill_mckee`` of a 0 × 0
  graph (an empty order).
- Session 28f's engine-tools fuzz (``bench/probes/aud28f_csgraph_engine_tools.py``): the
  facade answers where SciPy fails on ``csgraph_masked_from_dense(list, copy=False)`` (NumPy
  2's "Unable to avoid copy") and on ``reconstruct_path`` with predecessors given as a list;
  GPU input's ``csgraph_masked_from_dense(copy=False)`` answers a host copy (no sharing is
  possible); a cupyx DIA input's ``laplacian`` answers COO (SciPy keeps DIA); the operator
  forms of cupyx input sum A ⊕ Aᴴ before applying it, so with ±inf weights a NaN can stand
  where SciPy's separate products leave another value, and a float32 degree can differ in
  its last bit (float64 sums cast).
- A dense input's non-edges (not a deviation: SciPy's rule, often missed): SciPy finds the
  entries equal to ``null_value`` with ``numpy.ma.masked_values``, which for a float array
  tests ``isclose`` (rtol 1e-5, atol 1e-8), so a weight of 1e-9 (or within 1e-5 of a non-zero
  ``null_value``) is no edge; every path follows it (``_validation.MASKED_VALUES_ATOL``).
  ``laplacian`` reads the array itself, tiny weights included, as SciPy does.
- A sparse input's ``has_canonical_format`` flag is not trusted (SciPy's routines never read
  it): a CSR whose flag claims sorted rows without duplicates is read for what it stores.
- Duplicate entries of a sparse input (not a deviation: every path follows SciPy, whose rule
  depends on the format and the dtype): SciPy's conversion sums a COO's duplicates and, when
  it casts a non-float64 CSR, that CSR's duplicates too (sorting its rows, which traversal
  orders show); a float64 CSR keeps them as parallel edges (shortest paths and spanning trees
  take the smallest, tree weights their sum). ``floyd_warshall``, ``construct_dist_matrix``
  and ``csgraph_to_dense`` read them through SciPy's dense conversion: the smallest, whatever
  the dtype. GPU input follows the same rule (``_validation.scipy_view``; a cupyx COO's
  duplicates are summed by cupyx, in another order than SciPy's ``tocsr``: the last bit of
  such a sum can differ). Tree weights (``reconstruct_path``, the traversal trees) are
  SciPy's CSR indexing bit for bit: parallel edges summed from 0.0 in stored order (a lone
  -0.0 of a non-canonical CSR reads as +0.0). ``csgraph_to_dense`` and ``csgraph_to_masked``
  refuse COO, DOK, BSR and DIA input (cupyx COO and DIA too) with SciPy's ``ValueError``
  ("csgraph must be lil, csr, or csc format"), since converting it would sum its duplicates.
- GPU input: where shortest paths tie, a predecessor may be another vertex on a shortest path
  than the one SciPy's Dijkstra names (the device search relaxes in parallel; Dijkstra,
  Bellman–Ford and Johnson, and ``min_only``'s sources likewise); distances, unreached
  vertices (-9999) and every predecessor's validity are SciPy's. Floyd–Warshall's
  predecessors are SciPy's exactly (its k order; session 28's engine fuzz found the
  all-pairs product's in their place for integer weights).

Examples
--------
>>> import numpy as np, scipy.sparse as sp
>>> from algorithms import csgraph
>>> G = sp.csr_array(np.array([[0, 1.0, 4.0], [0, 0, 2.0], [0, 0, 0]]))
>>> csgraph.dijkstra(G, indices=0).tolist()
[0.0, 1.0, 3.0]
>>> type(csgraph.breadth_first_tree(G, 0)).__name__
'csr_array'
"""

from ._graphalg import (connected_components, maximum_bipartite_matching, maximum_flow,
                        min_weight_full_bipartite_matching, minimum_spanning_tree,
                        reverse_cuthill_mckee, structural_rank)
from ._shortest import (NegativeCycleError, bellman_ford, construct_dist_matrix, dijkstra,
                        floyd_warshall, johnson, reconstruct_path, shortest_path, yen)
from ._tools import (csgraph_from_dense, csgraph_from_masked, csgraph_masked_from_dense,
                     csgraph_to_dense, csgraph_to_masked, laplacian)
from ._traversal import (breadth_first_order, breadth_first_tree, depth_first_order,
                         depth_first_tree)

__all__ = ["NegativeCycleError", "bellman_ford", "breadth_first_order",
           "breadth_first_tree", "connected_components", "construct_dist_matrix",
           "csgraph_from_dense", "csgraph_from_masked", "csgraph_masked_from_dense",
           "csgraph_to_dense", "csgraph_to_masked", "depth_first_order", "depth_first_tree",
           "dijkstra", "floyd_warshall", "johnson", "laplacian", "maximum_bipartite_matching",
           "maximum_flow", "min_weight_full_bipartite_matching", "minimum_spanning_tree",
           "reconstruct_path", "reverse_cuthill_mckee", "shortest_path", "structural_rank", "yen"]
