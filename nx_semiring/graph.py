"""The backend's graph: NetworkX's graph as the engine's CSR matrices plus the node labels.

A :class:`SemiringGraph` holds

- ``nodes`` (NetworkX's node order) and ``index`` (label → vertex number), so results map
  back to labels;
- the structure in NetworkX's *adjacency order* on the host (``indptr``, ``adj``: row u lists
  u's neighbours in the order ``G[u]`` iterates them), which the traversals need to return
  NetworkX's own orders;
- one value array per converted edge attribute (``weight=`` names it; a missing attribute
  takes the default NetworkX uses, 1), in the same order;
- the engine's matrices, built on first use and cached per attribute: ``matrix(weight)`` is
  an ``sr.Matrix`` (rows sorted, on the default device: the GPU when one answers) whose
  transpose the engine computes on demand and caches on the matrix itself.

An undirected graph is a symmetric matrix (a self-loop once); parallel edges of a multigraph
are one entry whose value is the smallest of theirs (NetworkX's rule for shortest paths).

The conversion reads ``G._adj`` (NetworkX's own data structure) with as few Python-level
operations per edge as Python allows: the neighbour labels of all rows through one
``itertools.chain`` into ``np.fromiter``; integer labels turned into vertex numbers by one
vectorized lookup (a dict lookup per edge only for other labels); each requested edge
attribute by one ``map(operator.itemgetter(attr), ...)`` pass. The engine's CSR sorts each
row by one ``argsort`` of ``row * n + column`` (none when the rows are already sorted).

Conversions are cached where NetworkX's dispatcher caches them, on the graph
(``G.__networkx_cache__["backends"]["semiring"]``, keyed by NetworkX's own
``_get_cache_key``: the edge attributes and their defaults), as nx-cugraph does: a call of
:func:`from_networkx` with a NetworkX graph is served from there, and a conversion for a new
edge attribute reuses the cached structure (labels, CSR, sort order, structural matrices) and
reads only that attribute. NetworkX clears the cache whenever the graph is changed through its
API (``add_edge``, ``remove_node``, ``G.add_edge(u, v, weight=w)``, ...); a change made behind
its back (``G[u][v]["weight"] = w``) is not seen: clear ``G.__networkx_cache__`` then, as
NetworkX documents. Graph *views* (``G.subgraph(...)``, ``reverse_view``, ...) are never cached
here, because NetworkX does not clear a view's cache when the viewed graph changes.
"""

from __future__ import annotations

import copy
import itertools
import numbers
import operator
import typing

import numpy as np
import scipy.sparse as sp

import semiring as sr

__all__ = ["SemiringGraph", "from_networkx", "to_networkx"]


# _values' ``missing`` where some edges have the attribute and others lack it (truthy: the
# attribute is partial either way)
MIXED = "mixed"


class SemiringGraph:
    """A NetworkX graph converted for the ``"semiring"`` backend (see the module docstring).

    Build it with :func:`from_networkx` (or let NetworkX's dispatcher do it); turn it back with
    :func:`to_networkx`.

    Examples
    --------
    >>> import networkx as nx, nx_semiring
    >>> G = nx.Graph([("a", "b"), ("b", "c")])
    >>> g = nx_semiring.from_networkx(G)
    >>> len(g), g.number_of_edges(), g.is_directed(), "b" in g
    (3, 2, False, True)
    >>> g.matrix().nvals   # both directions of each undirected edge
    4
    """

    __networkx_backend__ = "semiring"

    def __init__(self, nodes, indptr, adj, values, *, directed, multigraph, graph_attrs=None,
                 device=None):
        self.nodes = list(nodes)
        self._index = None
        self._identity = None     # labels are the vertex numbers 0..n-1 (exact ints)
        self._node_array = None   # nodes as a NumPy object array
        self._unequal = None      # some label is unequal to itself (a float NaN)
        self._negative = {}       # attribute -> whether some edge weighs < 0
        self._infinite = {}       # attribute -> whether some edge weighs +inf
        self.indptr = indptr  # int64, host, n + 1
        self.adj = adj        # int64, host, NetworkX's adjacency order
        self.values = dict(values)  # attribute -> host array aligned with adj
        self.defaults = {}  # attribute -> the default of an edge that lacks it
        # attribute -> the NumPy type narrower than 64 bits in which NetworkX adds its values
        # (a float32 or int32 scalar among them, graph._numbers): the engine adds 64 bits
        self.narrow = {}
        # attributes that some edge lacks (its default was filled in): NetworkX's
        # Floyd–Warshall reads such an edge as 1.0, a float, where the dispatcher's default is 1
        self.partial = set()
        # attributes that some edges have and others lack (a subset of partial): NetworkX's
        # Floyd–Warshall then mixes the present values' type with its 1.0
        self.mixed = set()
        # attribute -> the kinds ("iu", "fb", ...) of the NumPy scalars among its values (of
        # any width): NetworkX's sums of them are NumPy scalars, whose division by zero is
        # inf or nan, not an error, and whose unsigned differences wrap
        self.numpy_typed = {}
        # attributes whose values (the default where an edge lacks it included) mix Python
        # ints or bools with floats, stored as float64: NetworkX's path sums of them are ints
        # or floats path by path (0 + 1 + 2 is an int, 0 + 1 + 2.5 a float)
        self.int_float = set()
        # attributes with Python bools among their integer values: NetworkX's Floyd–Warshall
        # keeps an edge's own True as its distance (True == 1, but its repr is not 1)
        self.bools = set()
        self.directed = bool(directed)
        self.multigraph = bool(multigraph)
        # a multigraph's: whether some pair of nodes has two or more edges (keys), which the
        # conversion merged into one entry (None: not known, or not a multigraph)
        self.parallel = None
        # the graph's own attribute dict (not a copy) where it was asked for: NetworkX keeps a
        # cached conversion when only G.graph changes, and minimum_spanning_tree copies
        # G.graph as it is at the call
        self.graph = graph_attrs if graph_attrs is not None else {}
        self.nx_class = None  # type(G) of the NetworkX graph converted (its subclass)
        self.device = device or sr.default_device()
        self._matrices = {}
        self._order = None
        self._rows = None  # the row of each adjacency entry (rows())
        self._sorted_adj = None   # adj[order()]: the engine's CSR column indices
        self._device_adj = None   # (indptr, adj) on the device (device_adjacency())
        self._base = None  # a conversion on the same device whose structure this one shares
        self.edge_data = None  # with preserve_edge_attrs: NetworkX's edge dicts, adj order
        self.node_data = None  # with preserve_node_attrs: NetworkX's node dicts
        self.__networkx_cache__ = {}

    # ----------------------------------------------------------------- NetworkX-like queries
    @property
    def index(self) -> dict:
        """Label → vertex number (built on first use)."""
        if self._index is None:
            # a conversion sharing another's structure shares its labels' dict too
            self._index = self._base.index if self._base is not None else \
                {v: i for i, v in enumerate(self.nodes)}
        return self._index

    def vertex(self, node) -> int:
        """The vertex number of node ``node`` (KeyError where it is not a node). Labels that
        are the vertex numbers need no label dict: a node's number is its hash."""
        if self._index is None and self.identity:
            if node in self:
                return hash(node)
            raise KeyError(node)
        return self.index[node]

    @property
    def self_unequal(self) -> bool:
        """Whether some label is unequal to itself (``x != x``: a float NaN, a NumPy NaN).
        NetworkX's code that tells a node from the source by ``w != s`` then takes the
        source for another node (its betweenness adds the source's own dependency to it),
        where the engine's vertex numbers do not. One pass over the labels, cached; none
        for the ints 0..n-1."""
        if self._unequal is None:
            self._unequal = False if self.identity else \
                any(v != v for v in self.nodes)  # noqa: PLR0124 (NaN is the point)
        return self._unequal

    @property
    def identity(self) -> bool:
        """Whether the labels are the vertex numbers: exactly the ints 0..n-1 in order (a
        result's keys are then ``idx.tolist()``, no lookup). Known from the conversion; else
        one pass over the nodes."""
        if self._identity is None:
            nodes = self.nodes
            self._identity = set(map(type, nodes)) <= {int} and \
                nodes == list(range(len(nodes)))
        return self._identity

    def labels(self, idx) -> list:
        """The node labels of vertex numbers ``idx`` (a host integer array), as a list.

        One fancy index of the nodes as an object array and one ``tolist`` (2× a list
        comprehension over ``nodes``); where the labels are the vertex numbers, ``tolist``
        alone.
        """
        if self.identity:
            return idx.tolist()
        if self._node_array is None:
            self._node_array = np.fromiter(self.nodes, dtype=object, count=len(self.nodes))
        return self._node_array[idx].tolist()

    def has_negative(self, weight) -> bool:
        """Whether some edge's attribute ``weight`` is negative (``None``: unit weights),
        cached: one pass over the values per graph, not per call."""
        if weight is None:
            return False
        neg = self._negative.get(weight)
        if neg is None:
            w = self.weights(weight)
            neg = self._negative[weight] = bool(w.size) and bool((w < 0).any())
        return neg

    def has_inf(self, weight) -> bool:
        """Whether a path may weigh +inf (``None``: unit weights): some edge's attribute
        ``weight`` is +inf, or float weights so large that a sum of n - 1 of them may pass
        the largest float (NetworkX's Python sums overflow to inf too, 1e308 + 1e308, and
        its Dijkstra reaches a vertex at distance inf, which the engine's distances call
        unreached). Cached like :meth:`has_negative`."""
        if weight is None:
            return False
        inf = self._infinite.get(weight)
        if inf is None:
            w = self.weights(weight)
            inf = self._infinite[weight] = w.dtype.kind == "f" and w.size > 0 and (
                bool(np.isposinf(w).any()) or
                float(np.max(np.abs(w), where=np.isfinite(w), initial=0)) *
                max(self.n - 1, 1) >= FLOAT_MAX)
        return inf

    def loop_negation_wraps(self, weight) -> bool:
        """Whether NetworkX's ``to_scipy_sparse_array`` of this undirected graph reads a
        self-loop's ``weight`` otherwise than as its value: it symmetrizes by adding each
        edge twice and the self-loops' ``-wt`` once, negated in the weight's own type, which
        for NumPy unsigned integers wraps (``-np.uint8(200)`` is 56), for NumPy bools raises
        TypeError and for a signed integer type's least value wraps to itself (pagerank,
        hits and eigenvector_centrality_numpy read their matrices so). The engine's symmetric
        matrix holds the loop's value once."""
        if self.directed or weight is None or weight not in self.numpy_typed:
            return False
        kinds = set(self.numpy_typed[weight])
        if not kinds & {"u", "b", "i"}:
            return False
        loops = self.adj == self.rows()
        if not bool(loops.any()):
            return False
        if kinds & {"u", "b"}:
            return True
        w = self.weights(weight)[loops]
        return w.dtype.kind in "iu" and bool(np.isin(w, [-2**7, -2**15, -2**31, -2**63]).any())

    @property
    def n(self) -> int:
        return len(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node) -> bool:
        """``node in G`` as NetworkX's dict of nodes answers it. Where the labels are the ints
        0..n-1 and the label dict is not built, the dict's own test on its hash: the key
        ``hash(node)`` exists when it is in range, and the dict compares it with ``node``."""
        if self._index is None and self.identity:
            try:
                h = hash(node)
            except TypeError:
                return False
            return 0 <= h < len(self.nodes) and bool(h == node)
        try:
            return node in self.index
        except TypeError:
            return False

    def is_directed(self) -> bool:
        return self.directed

    def is_multigraph(self) -> bool:
        return self.multigraph

    def number_of_nodes(self) -> int:
        return len(self.nodes)

    def number_of_edges(self) -> int:
        """Edges as NetworkX counts them (an undirected edge once; parallel edges as one)."""
        m = int(self.adj.size)
        if self.directed:
            return m
        loops = int(np.count_nonzero(self.adj == np.repeat(np.arange(self.n), np.diff(self.indptr))))
        return (m - loops) // 2 + loops

    def __repr__(self) -> str:
        kind = ("Multi" if self.multigraph else "") + ("DiGraph" if self.directed else "Graph")
        return (f"<SemiringGraph of a {kind}: {self.n} nodes, {self.adj.size} stored entries, "
                f"attributes {sorted(map(str, self.values))}, on {self.device}>")

    # ----------------------------------------------------------------- the engine's matrices
    def has_attr(self, weight) -> bool:
        return weight is None or weight in self.values

    def weights(self, weight):
        """The host value array of edge attribute ``weight`` (adjacency order).

        A conversion that kept every edge's dict (``preserve_edge_attrs``: NetworkX's cache
        serves it for any one attribute too) where no edge has ``weight``: every edge weighs
        NetworkX's default 1 (that of every weighted function here), kept as that
        attribute's values."""
        if weight not in self.values and self.edge_data is not None and \
                not self.multigraph and not any(weight in d for d in self.edge_data):
            self.values[weight] = np.ones(self.adj.size, dtype=np.int64)
            self.defaults[weight] = 1
            if self.adj.size:
                self.partial.add(weight)
        if weight not in self.values:
            raise NotImplementedError(
                f"nx_semiring: edge attribute {weight!r} was not converted (converted: "
                f"{sorted(map(str, self.values))})")
        return self.values[weight]

    def with_default(self, weight, default) -> SemiringGraph:
        """This graph with attribute ``weight`` read again from the edge dicts it kept
        (``preserve_edge_attrs``), ``default`` where an edge lacks it: NetworkX's dispatcher
        converts with every attribute defaulting to 1 when a function preserves the edge
        attributes (3.7's flow functions), where the function reads its own default (the
        flows' inf). None where the dicts were not kept (a multigraph keeps them per key)."""
        if self.edge_data is None or self.multigraph:
            return None
        h = copy.copy(self)
        h.values, h.defaults = dict(self.values), dict(self.defaults)
        h.narrow, h.numpy_typed = dict(self.narrow), dict(self.numpy_typed)
        h.partial, h.mixed = set(self.partial), set(self.mixed)
        h.int_float, h.bools = set(self.int_float), set(self.bools)
        h._negative, h._infinite = {}, {}
        h._matrices = {k: M for k, M in self._matrices.items() if k[0] != weight}
        h.__networkx_cache__ = {}
        _record(h, weight, default, _values([dict(enumerate(self.edge_data))], weight, default,
                                            False, self.adj.size))
        return h

    def rows(self):
        """The row (source vertex) of each entry of ``adj``, adjacency order (host int64,
        read-only): computed once a conversion, as every structure pass reads it."""
        if self._rows is None:
            self._rows = np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.indptr))
            self._rows.flags.writeable = False
        return self._rows

    def order(self):
        """The permutation that sorts each row's entries by column (the engine's CSR), or
        ``slice(None)`` where NetworkX's adjacency order is sorted already.

        SciPy's per-row sort of (column, position) pairs (``sort_indices`` with the
        positions as the data): the columns of a row are distinct (a row lists each
        neighbour once), so the permutation is unique. One global ``argsort`` of
        ``row * n + column`` gives the same permutation 2.4x slower on kron-16 (1.8M
        entries, rows of a few entries: 236 ms against 100 ms) and 15x on a 300² grid.
        """
        if self._order is None and self._base is not None:
            self._order = self._base.order()  # the same structure: computed once
        if self._order is None:
            n, m = self.n, int(self.adj.size)
            adj, indptr = self.adj, self.indptr
            # sorted rows: each entry above its predecessor unless it starts a row
            up = adj[1:] > adj[:-1]
            up[indptr[1:-1][(indptr[1:-1] > 0) & (indptr[1:-1] < m)] - 1] = True
            if m < 2 or bool(up.all()):
                self._order = slice(None)
            else:
                # sort_indices sorts the column indices and the data in place (a copy of adj:
                # kept as the engine's column indices, sorted_adj), never indptr
                A = sp.csr_array((np.arange(m, dtype=np.int64), adj.copy(), indptr),
                                 shape=(n, n))
                A.has_sorted_indices = False
                A.sort_indices()
                self._order = A.data.astype(np.int64, copy=False)
                self._sorted_adj = A.indices.astype(np.int64, copy=False)
        return self._order

    def sorted_adj(self):
        """``adj[order()]``: each row's neighbours by increasing vertex number (the engine's
        CSR column indices), computed with the order, not gathered again."""
        perm = self.order()
        if isinstance(perm, slice):
            return self.adj
        if self._sorted_adj is None:
            self._sorted_adj = self._base.sorted_adj() if self._base is not None else \
                self.adj[perm]
        return self._sorted_adj

    def device_adjacency(self):
        """``(indptr, adj)`` on the graph's device, cached: the adjacency in NetworkX's order
        (not the engine's sorted one) for the searches that reproduce NetworkX's orders
        there; ``adj`` int32 where the vertex numbers fit."""
        if self._device_adj is None:
            if self._base is not None:
                self._device_adj = self._base.device_adjacency()
            else:
                adj = self.adj.astype(np.int32) if self.n < 2**31 else self.adj
                self._device_adj = (sr.to_device(self.indptr, self.device),
                                    sr.to_device(adj, self.device))
        return self._device_adj

    def matrix(self, weight=None, *, unit=None) -> sr.Matrix:
        """The engine's adjacency matrix, cached.

        ``weight=None`` gives the structure only: a boolean iso matrix, or with ``unit`` an
        iso matrix of that value (``unit=1``: every edge weighs 1, integer distances).
        Otherwise the values of edge attribute ``weight``.
        """
        base = self._base
        if base is not None and (weight is None or self.values.get(weight) is base.values.get(
                weight, False)):  # the same structure and values: the same matrix
            return base.matrix(weight, unit=unit)
        key = (weight, unit)
        M = self._matrices.get(key)
        if M is not None:
            return M
        perm = self.order()
        dev = self.device
        indptr = sr.to_device(self.indptr, dev)
        indices = sr.to_device(self.sorted_adj(), dev)
        if weight is None:
            if unit is None:
                M = sr.Matrix.from_csr(indptr, indices, None, (self.n, self.n), check=False)
            else:
                M = sr.Matrix.from_csr(indptr, indices, None, (self.n, self.n),
                                       iso_value=unit, dtype=np.asarray(unit).dtype,
                                       check=False)
        else:
            vals = sr.to_device(self.weights(weight)[perm], dev)
            M = sr.Matrix.from_csr(indptr, indices, vals, (self.n, self.n), check=False)
        self._matrices[key] = M
        return M

    def engine_matrix(self, weight=None, *, unit=None):
        """``matrix(...)`` and whether it is symmetric (undirected: pulls read its rows)."""
        M = self.matrix(weight, unit=unit)
        return M, not self.directed


def _neighbour_dicts(G) -> list:
    """The rows of ``G._adj`` as dicts (a view's filtered rows copied). A graph whose
    adjacency is NetworkX's plain dict of dicts gives its rows as they are, without a type
    check per row (10^6 rows: 35 → 21 ms on the 2-core helper)."""
    adj = G._adj
    if type(adj) is dict and getattr(G, "adjlist_inner_dict_factory", None) is dict:
        return list(adj.values())
    return [nbrs if type(nbrs) is dict else dict(nbrs.items()) for nbrs in adj.values()]


IDENTITY = "identity"


def _columns(nodes, adj_items, m):
    """The vertex number of every neighbour label, rows in NetworkX's order (int64), and the
    label → vertex dict where it was needed (``None`` for other integer labels: built on first
    use, ``SemiringGraph.index``; 70 ns a node, 18 ms of kron-16's conversion; ``IDENTITY``
    where the labels are the ints 0..n-1 in order: no dict is needed at all)."""
    n = len(nodes)
    flat = itertools.chain.from_iterable(adj_items)
    if n and set(map(type, nodes)) == {int}:  # exact ints (not bool, not float): vectorized
        try:
            raw = np.fromiter(flat, dtype=np.int64, count=m)
            labels = np.fromiter(nodes, dtype=np.int64, count=n)
        except OverflowError:  # a label beyond int64: the dict lookup below
            flat = itertools.chain.from_iterable(adj_items)
        else:
            lo, hi = int(labels.min()), int(labels.max())
            if lo == 0 and hi == n - 1 and bool((labels == np.arange(n)).all()):
                return raw, IDENTITY  # labels 0..n-1 in order: the label is the vertex number
            if hi - lo < 4 * n + 1024:  # dense labels: one table lookup
                table = np.empty(hi - lo + 1, dtype=np.int64)
                table[labels - lo] = np.arange(n, dtype=np.int64)
                return table[raw - lo], None
            sorter = np.argsort(labels)
            return sorter[np.searchsorted(labels, raw, sorter=sorter)], None
    index = {v: i for i, v in enumerate(nodes)}
    return np.fromiter(map(index.__getitem__, flat), dtype=np.int64, count=m), index


def _numbers(vals: list):
    """``(np.array(vals), narrow, numpy)``, for a list of exact ints and bools typed beforehand by
    one ``sum`` (an int only then: a float, a NumPy scalar, a Decimal or a string makes it
    something else, or raises), so the list is read by ``np.fromiter`` into int64 instead
    of ``np.array``'s own type discovery: 4·10^6 ints on the 2-core helper 85 → 67 ms. Ints
    beyond int64 and everything else take ``np.array`` as before (floats too: there a sum
    does not tell an int beyond int64, which ``np.array`` keeps as an object, from a float).

    ``narrow`` is ``None``, or a NumPy scalar type narrower than 64 bits among the values, in
    which NetworkX adds the path weights of such edges (Python's numbers join a NumPy scalar
    as weak scalars: ``0 + np.float32(0.1) + 2`` is a float32), rounded to float32 or
    wrapped around in int8..int32, where the engine adds float64 or int64
    (``SemiringGraph.narrow``; :func:`_narrowest`). A sum that is a Python number had no
    NumPy scalar in it (a NumPy scalar's sum with a Python number is a NumPy scalar): no
    pass over the types then. ``numpy``: the kinds of the NumPy scalars among the values
    (``np.dtype.kind`` letters, sorted), ``""`` for none.
    """
    try:
        with np.errstate(over="ignore"):  # NumPy's scalar overflow warning: NetworkX's, later
            total = sum(vals)
    except (TypeError, OverflowError):
        total = None
    numpy, narrow = "", None
    if type(total) not in (int, float):
        types = set(map(type, vals))
        if np.ndarray in types:
            # 0-d arrays compare and add in their dtype as NumPy scalars do, which the
            # scalar types read here (narrow, numpy) would not show: refused (not numeric)
            raise TypeError("NumPy arrays among the values")
        numpy = "".join(sorted({np.dtype(t).kind for t in types if issubclass(t, np.generic)}))
        narrow = _narrowest(vals)
    if type(total) is int:
        try:
            return np.fromiter(vals, dtype=np.int64, count=len(vals)), narrow, numpy
        except (OverflowError, TypeError, ValueError):
            pass
    return np.array(vals), narrow, numpy


def _narrowest(vals):
    """The NumPy scalar type narrower than 64 bits among ``vals`` that NetworkX's sums suffer
    most from (a float type before any integer type, then the smallest integer bound), or
    ``None``."""
    types = set(map(type, vals))
    narrow = [np.dtype(t) for t in types if issubclass(t, np.number) and np.dtype(t).itemsize < 8]
    if not narrow:
        # NumPy bools: NetworkX's sums that start from its int 0 are int64, exact, but two
        # of them add as a logical or (np.True_ + np.True_ is np.True_: Floyd–Warshall's
        # dist[u][w] + dist[w][v]); recorded as bool for the callers that add two weights
        return np.dtype(np.bool_) if np.bool_ in types else None
    floats = [d for d in narrow if d.kind in "fc"]
    return floats[0] if floats else min(narrow, key=lambda d: np.iinfo(d).max)


# The largest magnitude below which float64 holds every integer exactly (2^53)
FLOAT_EXACT_INT = 2.0**53

# The largest finite float64: a sum past it is inf
FLOAT_MAX = float(np.finfo(np.float64).max)


class _Read(typing.NamedTuple):
    """What :func:`_values` read of one attribute (see ``SemiringGraph``'s records)."""

    values: np.ndarray
    narrow: object  # narrow: :func:`_numbers`'
    missing: object  # False, True (some edge lacks it) or MIXED (some have it, some not)
    numpy: str  # numpy: :func:`_numbers`'
    int_float: bool  # float64 values came from Python ints or bools beside floats
    bools: bool = False  # integer values with Python bools among them


def _record(g: SemiringGraph, attr, default, read: _Read):
    """Stores ``read`` as g's attribute ``attr`` (its values and records)."""
    g.values[attr], g.defaults[attr] = read.values, default
    for name in ("narrow", "numpy_typed"):
        getattr(g, name).pop(attr, None)
    for name in ("partial", "mixed", "int_float", "bools"):
        getattr(g, name).discard(attr)
    if read.narrow is not None:
        g.narrow[attr] = read.narrow
    if read.numpy:
        g.numpy_typed[attr] = read.numpy
    if read.missing:
        g.partial.add(attr)
    if read.missing is MIXED:
        g.mixed.add(attr)
    if read.int_float:
        g.int_float.add(attr)
    if read.bools:
        g.bools.add(attr)


def _values(adj_items, attr, default, multigraph, m) -> _Read:
    """Edge attribute ``attr`` of every stored entry (adjacency order) in one pass: int64 when
    every value is an integer (or bool), else float64; ``default`` where an edge lacks it.
    Returns a :class:`_Read`: ``narrow`` and ``numpy`` as :func:`_numbers` says, ``missing``
    whether some edge lacks the attribute, ``int_float`` whether float64 values came from
    Python ints or bools beside floats (``SemiringGraph.int_float``), ``bools`` whether
    integer values have Python bools among them (``SemiringGraph.bools``: a pass over the
    types only where some value is 0 or 1). NotImplementedError
    (NetworkX runs the call) where the values are not numbers, or are integers that neither
    int64 nor float64 holds exactly: beyond int64, or beyond 2^53 among floats (NumPy turns
    such a list into float64, rounding them, where NetworkX adds Python ints exactly)."""
    missing = False
    if multigraph:
        try:
            vals = [min(d.get(attr, default) for d in keys.values())
                    for nbrs in adj_items for keys in nbrs.values()]
        except TypeError as exc:  # parallel edges NetworkX's min() cannot order (None, str)
            raise NotImplementedError(f"nx_semiring: edge attribute {attr!r} of parallel "
                                      f"edges is not ordered ({exc})") from exc
        missing = any(attr not in d for nbrs in adj_items for keys in nbrs.values()
                      for d in keys.values())
        if missing and any(attr in d for nbrs in adj_items for keys in nbrs.values()
                           for d in keys.values()):
            missing = MIXED
    else:
        def edge_dicts():
            return itertools.chain.from_iterable(map(dict.values, adj_items))

        try:
            vals = list(map(operator.itemgetter(attr), edge_dicts()))
        except KeyError:  # some edge lacks it: the slower lookup with a default
            vals = list(map(operator.methodcaller("get", attr, default), edge_dicts()))
            missing = MIXED if any(attr in d for d in edge_dicts()) else True
    try:
        a, narrow, numpy = _numbers(vals) if vals else (np.zeros(0, dtype=np.int64), None,
                                                        "")
    except (ValueError, TypeError) as exc:
        raise NotImplementedError(f"nx_semiring: edge attribute {attr!r} is not numeric") from exc
    if a.shape != (m,):
        raise NotImplementedError(f"nx_semiring: edge attribute {attr!r} is not one number per edge")
    if narrow is not None and narrow.kind in "iu" and np.bool_ in set(map(type, vals)):
        # narrow records the narrow integer type, which hides the NumPy bools beside it:
        # NetworkX's Floyd–Warshall adds two of them as a logical or (np.True_ + np.True_ is
        # np.True_), which the callers refuse only where narrow says bool
        raise NotImplementedError(f"nx_semiring: edge attribute {attr!r} mixes NumPy bools "
                                  f"with NumPy {narrow} values")
    if a.dtype.kind in "bui":
        if a.dtype.kind == "u" and a.size and int(a.max()) > np.iinfo(np.int64).max:
            raise NotImplementedError(f"nx_semiring: edge attribute {attr!r} exceeds int64")
        a = a.astype(np.int64, copy=False)
        bools = bool(((a == 0) | (a == 1)).any()) and bool in set(map(type, vals))
        return _Read(a, narrow, missing, numpy, False, bools)
    if a.dtype.kind == "f":
        if a.dtype.itemsize > 8:
            # np.longdouble values: float64 rounds them (1 + 2^-60 becomes 1), where
            # NetworkX compares and adds them in their own precision
            raise NotImplementedError(f"nx_semiring: edge attribute {attr!r} has {a.dtype} "
                                      f"values, wider than float64")
        a = a.astype(np.float64, copy=False)
        big = np.flatnonzero(np.abs(a) >= FLOAT_EXACT_INT)  # inf too: rare, checked below
        if big.size and any(isinstance(vals[i], numbers.Integral) for i in big.tolist()):
            raise NotImplementedError(f"nx_semiring: edge attribute {attr!r} has integers "
                                      f"that float64 rounds (beyond 2^53 among floats, or "
                                      f"beyond int64)")
        # one pass over the types (float values only: ~10 ns a value)
        types = set(map(type, vals))
        return _Read(a, narrow, missing, numpy, int in types or bool in types)
    raise NotImplementedError(
        f"nx_semiring: edge attribute {attr!r} has values of dtype {a.dtype}; numbers only")


def _symmetric(indptr, adj) -> bool:
    """Whether the adjacency holds v in row u exactly where it holds u in row v (one sort of
    the entries each way; checked only for undirected views, whose filters may break it)."""
    n = indptr.size - 1
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    return bool(np.array_equal(np.sort(rows * n + adj), np.sort(adj * n + rows)))


def _cache_of(G, nx, create):
    """This backend's part of ``G.__networkx_cache__`` (a dict), or ``None`` where
    conversions of ``G`` are not cached: caching is off (``nx.config.cache_converted_graphs``,
    or ``G.__networkx_cache__ = None``), or ``G`` is a view (NetworkX does not clear a view's
    cache when the graph it views changes)."""
    if not nx.config.cache_converted_graphs or hasattr(G, "_graph"):
        return None
    cache = getattr(G, "__networkx_cache__", None)
    if cache is None:
        return None
    if not create:
        return cache.get("backends", {}).get("semiring")
    return cache.setdefault("backends", {}).setdefault("semiring", {})


def from_networkx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                  preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                  graph_name=None, *, device=None, use_cache=True) -> SemiringGraph:
    """Convert a NetworkX graph (NetworkX's ``convert_from_nx`` protocol).

    Parameters
    ----------
    G : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph
    edge_attrs : dict or None
        ``{attribute: default}`` for each edge attribute to keep (NetworkX passes the
        ``weight=`` argument here, default 1).
    preserve_edge_attrs : bool
        Keep every edge attribute that holds numbers (NetworkX asks for it when an algorithm
        takes a callable weight; the backend refuses those anyway).
    device : {'cpu', 'gpu'}, optional
        Where the engine's matrices live (default: the default device).
    use_cache : bool or "reuse"
        ``True``: read and fill NetworkX's cache of converted graphs on ``G`` (see the module
        docstring; filled only for the default device, where NetworkX's dispatcher converts).
        ``"reuse"``: only reuse the structure of a cached conversion (what NetworkX's
        dispatcher asks for: it reads and fills the cache itself, and not at all while it runs
        NetworkX's tests). ``False``: convert afresh, leave the cache alone (benchmarks).

    Other parameters are NetworkX's and are accepted for the protocol; node attributes are not
    kept (no dispatched function reads them).

    Examples
    --------
    >>> import networkx as nx, nx_semiring
    >>> G = nx.DiGraph()
    >>> G.add_edge(0, 1, weight=2.5); G.add_edge(1, 2)
    >>> g = nx_semiring.from_networkx(G, edge_attrs={"weight": 1}, device="cpu")
    >>> g.weights("weight").tolist()
    [2.5, 1.0]

    On the default device, a second conversion of the same graph is the cached one (one with
    more attributes serves too), until the graph changes:

    >>> h = nx_semiring.from_networkx(G, edge_attrs={"weight": 1})
    >>> h is nx_semiring.from_networkx(G, edge_attrs={"weight": 1})
    True
    >>> nx_semiring.from_networkx(G) is h
    True
    >>> G.add_edge(2, 0)
    >>> nx_semiring.from_networkx(G) is h
    False
    """
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    if not isinstance(G, nx.Graph):
        raise TypeError(f"nx_semiring.from_networkx: G must be a networkx graph, got "
                        f"{type(G).__name__}")
    dev = device or sr.default_device()
    cache = _cache_of(G, nx, create=use_cache is True) if use_cache else None
    base = None
    if cache is not None:
        if use_cache is True:
            from networkx.utils.backends import (  # noqa: PLC0415  (networkx is an optional extra)
                _get_cache_key,
                _get_from_cache,
                _set_to_cache,
            )

            key = _get_cache_key(edge_attrs=edge_attrs, node_attrs=node_attrs,
                                 preserve_edge_attrs=preserve_edge_attrs,
                                 preserve_node_attrs=preserve_node_attrs,
                                 preserve_graph_attrs=preserve_graph_attrs)
            _, hit = _get_from_cache(cache, key)
            if isinstance(hit, SemiringGraph) and hit.device == dev and (
                    not preserve_graph_attrs or hit.graph == G.graph):
                return hit
        # another attribute's conversion: reuse its structure, read only what is missing
        base = next((g for g in cache.values() if isinstance(g, SemiringGraph)), None)
    multigraph = G.is_multigraph()
    adj_items = _neighbour_dicts(G)
    parallel = None
    if multigraph:  # one pass over the key dicts (the recognition tests read it)
        parallel = base.parallel if base is not None and base.parallel is not None else \
            any(len(keys) > 1 for nbrs in adj_items for keys in nbrs.values())
    if base is not None:
        nodes, index, indptr, adj = base.nodes, base._index, base.indptr, base.adj
        identity = base._identity
        m = int(adj.size)
    else:
        nodes = list(G)
        n = len(nodes)
        deg = np.fromiter(map(len, adj_items), dtype=np.int64, count=n)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(deg, out=indptr[1:])
        m = int(indptr[-1])
        adj, index = _columns(nodes, adj_items, m)
        identity = index is IDENTITY
        if identity:
            index = None
        if not G.is_directed() and hasattr(G, "_graph") and not _symmetric(indptr, adj):
            raise NotImplementedError(
                "nx_semiring: an undirected view whose adjacency is not symmetric (a "
                "subgraph_view filter_edge that keeps u-v from u but not from v): NetworkX's "
                "functions read it each their own way (G[u] or G.edges()); NetworkX runs it")
    attrs = dict(edge_attrs or {})
    if preserve_edge_attrs:  # every attribute name, in order of first appearance
        chain = itertools.chain.from_iterable
        data = chain(map(dict.values, adj_items))
        # (a multigraph view's key dicts are NetworkX's FilterAtlas, not dicts)
        values = operator.methodcaller("values")
        for k in dict.fromkeys(chain(chain(map(values, data)) if multigraph else data)):
            attrs.setdefault(k, 1)
    reads = {}
    for attr, default in attrs.items():
        if base is not None and attr in base.values and base.defaults.get(attr) == default:
            reads[attr] = _Read(base.values[attr], base.narrow.get(attr),
                                (MIXED if attr in base.mixed else attr in base.partial),
                                base.numpy_typed.get(attr, ""), attr in base.int_float,
                                attr in base.bools)
            continue
        try:
            reads[attr] = _values(adj_items, attr, default, multigraph, m)
        except NotImplementedError:
            if attr in (edge_attrs or {}):
                raise
    g = SemiringGraph(nodes, indptr, adj, {}, directed=G.is_directed(),
                      multigraph=multigraph,
                      graph_attrs=G.graph if preserve_graph_attrs else None, device=dev)
    g._index = index
    g.parallel = parallel
    g.nx_class = type(G)  # NetworkX's G.__class__() (a view's is its graph's class)
    if identity:
        g._identity = True
    for attr, read in reads.items():
        _record(g, attr, attrs[attr], read)
    if base is not None:
        g._order, g._sorted_adj, g._rows = base._order, base._sorted_adj, base._rows
        g._base = base if base.device == dev else None  # its structure's matrices, its order
    if preserve_edge_attrs:
        g.edge_data = [d for nbrs in adj_items for d in nbrs.values()]
    if preserve_node_attrs:
        g.node_data = [G._node[v] for v in nodes]
    if cache is not None and use_cache is True and dev == sr.default_device():
        _set_to_cache(cache, key, g)
    return g


def to_networkx(g: SemiringGraph):
    """A NetworkX graph of ``g`` (NetworkX's ``convert_to_nx``): its nodes, its edges in
    adjacency order, each with the converted edge attributes.

    Examples
    --------
    >>> import networkx as nx, nx_semiring
    >>> G = nx.path_graph(3)
    >>> H = nx_semiring.to_networkx(nx_semiring.from_networkx(G, device="cpu"))
    >>> sorted(H.edges()), type(H).__name__
    ([(0, 1), (1, 2)], 'Graph')
    """
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}[
        (g.directed, g.multigraph)]
    H = cls()
    H.graph.update(g.graph)
    if g.node_data is not None:
        H.add_nodes_from(zip(g.nodes, g.node_data))
    else:
        H.add_nodes_from(g.nodes)
    rows = g.rows()
    cols = g.adj
    keep = np.ones(cols.size, dtype=bool) if g.directed else rows <= cols  # each edge once
    nodes = g.nodes
    edges = np.flatnonzero(keep).tolist()
    if g.edge_data is not None:
        data = g.edge_data
        if g.multigraph:
            H.add_edges_from((nodes[rows[e]], nodes[cols[e]], k, d)
                             for e in edges for k, d in data[e].items())
        else:
            H.add_edges_from((nodes[rows[e]], nodes[cols[e]], data[e]) for e in edges)
        return H
    names = list(g.values)
    vals = [g.values[a].tolist() for a in names]
    r, c = rows.tolist(), cols.tolist()
    H.add_edges_from((nodes[r[e]], nodes[c[e]], {a: v[e] for a, v in zip(names, vals)})
                     for e in edges)
    return H
