"""Brandes' dependencies, a source a pass: the fused form of betweenness centrality's sweeps for
graphs of many narrow levels.

:func:`algorithms.betweenness_centrality` states Brandes' algorithm in the algebra: one masked
SpMV (or SpMM) a BFS level forward, one a level backward. On a grid, a road network or a long
path, thousands of levels of a few hundred vertices each, that is a few launches and an O(n)
mask a level: the 1000² grid's 2 000 levels cost 0.7 s a source on an H200. Here one pass does
a source's whole search and both sweeps (Brandes 2001):

1. forward, level by level: the BFS (push over A's rows), then each vertex w of the new level
   pulls σ(w) = Σ σ(u) over its in-neighbours u one level up (Aᵀ's rows);
2. backward, deepest level first: each vertex v pulls δ(v) = σ(v) · Σ (1 + δ(w)) / σ(w) over
   its out-neighbours w one level down.

On the GPU a thread block runs a source (``kernels/brandes.cu``; a level costs two block
barriers, the blocks of a batch run side by side); on the CPU each level is a few NumPy passes
over its own vertices' rows (``backend/cpu/centrality.py``), O(n + m) a source. Where σ passes
float64's range the dependencies follow NetworkX's term-by-term arithmetic, as the algebra's
form does (``algorithms.centrality._dependency``).
"""

from __future__ import annotations

import numbers

import numpy as np

from .backend import backend_of
from .device import device_of_array
from .errors import DeviceMismatch, DimensionMismatch, DomainMismatch, InvalidIndex, InvalidValue
from .matrix import as_matrix
from .vector import Vector

__all__ = ["MAX_VERTICES", "WORKSPACE_BYTES", "brandes", "brandes_edges", "compiled",
           "power_iteration", "power_step"]

#: Vertices are 32-bit in the passes (the GPU kernel's queue and levels).
MAX_VERTICES = 2**31 - 1
#: Workspace bytes a vertex a source (levels, queue, level starts, σ, δ).
WORKSPACE_BYTES = 28


def compiled(device) -> bool:
    """Whether :func:`brandes` runs as one compiled pass a source on ``device``: on the GPU
    always (the kernel), on the CPU where Numba is installed (the ``cpu`` extra; else the
    level-by-level NumPy passes).

    >>> import semiring as sr
    >>> sr.centrality.compiled("gpu")
    True
    """
    return device == "gpu" or bool(backend_of("cpu").centrality.compiled.ENABLED)


def brandes(G, sources, *, GT=None):
    """Brandes' dependencies δ_s(v) of each source s, with the searches' levels.

    ``δ_s(v) = Σ_{w : v → w on a shortest path from s} σ_s(v) / σ_s(w) · (1 + δ_s(w))``, σ_s
    counting the shortest (fewest-edge) paths from s; the betweenness of v is the sum of
    δ_s(v) over the sources s ≠ v (rescaled as the caller's convention wants).

    Parameters
    ----------
    G : Matrix, square
        The graph, edges ``G(i, j)``: i → j; only its structure is read (explicit zeros are
        edges). Runs where G lives; vertices fewer than :data:`MAX_VERTICES`.
    sources : 1-D sequence of int
        The sources, each in ``[0, n)``; a batch of s sources holds s × n ×
        :data:`WORKSPACE_BYTES` bytes of workspace (the caller batches).
    GT : Matrix, optional
        Gᵀ, on G's device with G's index type (default: G itself, the promise that G is
        symmetric). On the CPU, G and GT have fewer than :data:`MAX_VERTICES` entries.

    Returns
    -------
    delta : float64 array, shape (s, n)
        ``delta[j, v] = δ_{sources[j]}(v)``; ``delta[j, sources[j]]`` is the source's own sum
        (not a betweenness: the caller drops it).
    level : int32 array, shape (s, n)
        The BFS levels from each source, -1 where unreached.
    depth : int32 array, shape (s,)
        Each search's deepest level.

    Raises
    ------
    DomainMismatch
        ``sources`` not integers, or ``GT`` not a Matrix.
    DimensionMismatch
        ``GT``'s shape is not G's transposed shape.
    DeviceMismatch
        ``GT`` on another device, or with another index type.
    InvalidIndex
        A source outside ``[0, n)``.
    InvalidValue
        G has :data:`MAX_VERTICES` vertices or more (on the CPU: or entries).

    Examples
    --------
    The path 0 - 1 - 2 - 3 from vertex 0: vertex 1 lies on the paths to 2 and 3, vertex 2 on
    the path to 3.

    >>> import semiring as sr
    >>> G = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 3]], undirected=True, device="cpu")
    >>> delta, level, depth = sr.centrality.brandes(G, [0])
    >>> delta.tolist(), level.tolist(), depth.tolist()
    ([[3.0, 2.0, 1.0, 0.0]], [[0, 1, 2, 3]], [3])
    """
    op = "brandes"
    G, GT, src = _checked(op, G, sources, GT)
    n = G.nrows
    xp = G.xp
    if src.size == 0:
        return (xp.zeros((0, n), dtype=np.float64), xp.zeros((0, n), dtype=np.int32),
                xp.zeros(0, dtype=np.int32))
    return backend_of(G.device).centrality.dependencies(G, GT, src)


def _checked(op, G, sources, GT):
    """(G, GT, sources as int64) for :func:`brandes` and :func:`brandes_edges`, or the
    error naming what is wrong."""
    G = as_matrix(G, op=op, arg="G", square=True)
    n = G.nrows
    if GT is None:
        GT = G
    else:
        if not hasattr(GT, "indptr") or not hasattr(GT, "nrows"):
            raise DomainMismatch(f"{op}: GT must be a Matrix, got {type(GT).__name__}")
        if GT.shape != (G.ncols, G.nrows):
            raise DimensionMismatch(f"{op}: GT must have shape {(G.ncols, G.nrows)} (G's "
                                    f"transposed), got {GT.shape}")
        if GT.device != G.device or np.dtype(GT.itype) != np.dtype(G.itype):
            raise DeviceMismatch(f"{op}: GT must be on G's device ({G.device}) with G's index "
                                 f"type ({np.dtype(G.itype)}), got {GT.device} and "
                                 f"{np.dtype(GT.itype)}")
    src = np.asarray(sources)
    if src.ndim != 1 or (src.size and (src.dtype == np.bool_ or src.dtype.kind not in "iu")):
        raise DomainMismatch(f"{op}: sources must be a 1-D sequence of integers, got "
                             f"{sources!r}")
    src = src.astype(np.int64)
    if src.size and (int(src.min()) < 0 or int(src.max()) >= n):
        bad = int(src.min()) if int(src.min()) < 0 else int(src.max())
        raise InvalidIndex(f"{op}: sources must lie in [0, {n}), got {bad}")
    if n >= MAX_VERTICES:
        raise InvalidValue(f"{op}: G must have fewer than {MAX_VERTICES} vertices, got {n}")
    if G.device == "cpu" and max(G.nvals, GT.nvals) >= MAX_VERTICES:
        raise InvalidValue(f"{op}: on the CPU G must have fewer than {MAX_VERTICES} entries "
                           f"(SciPy's int32 search), got {max(G.nvals, GT.nvals)}")
    return G, GT, src


def brandes_edges(G, sources, *, GT=None):
    """Σ over ``sources`` of Brandes' term of each stored entry (v, w) of G on a shortest
    path (``level(w) = level(v) + 1``): ``σ_s(v) · ((1 + δ_s(w)) / σ_s(w))``, the edge
    betweenness before its rescaling, a source a compiled pass (:func:`brandes`'s) on the
    CPU where Numba is installed (:func:`compiled`), in the operations and the order of
    ``algorithms.edge_betweenness``'s algebra form (the same bits). Its algebra form spends
    a masked SpMM over an n × s block a BFS level: a 50 × 50 grid (98 levels) 11.7 s for all
    2500 sources on the loaded 2-core host, this pass 0.05 s.

    Parameters
    ----------
    G : Matrix on the CPU, square
        The graph (only its structure is read).
    sources : 1-D sequence of int
        The sources (one batch: m × s float64 of workspace).
    GT : Matrix, optional
        Gᵀ (default: G itself, the promise that G is symmetric).

    Returns
    -------
    numpy.ndarray of float64, shape (G.nvals,), or None
        In G's stored order; None on the GPU or without Numba (the caller runs the algebra
        form).

    Raises
    ------
    As :func:`brandes`.

    Examples
    --------
    >>> import semiring as sr
    >>> G = sr.Matrix.from_edgelist([[0, 1], [1, 2]], undirected=True, device="cpu")
    >>> t = sr.centrality.brandes_edges(G, [0, 1, 2])
    >>> None if t is None else t.tolist()  # entries (0,1), (1,0), (1,2), (2,1)
    [2.0, 2.0, 2.0, 2.0]
    """
    G, GT, src = _checked("brandes_edges", G, sources, GT)
    if G.device != "cpu" or not compiled("cpu"):
        return None
    return backend_of("cpu").centrality.edge_terms(G, GT, src)


def power_step(t, x, u, p, inv, damping, s, dangling):
    """One power-iteration step's vector work after its product (PageRank's), fused on the
    GPU into one kernel and one host synchronization (``kernels/power.cu``).

    ``x' = d · (t + s · u) + p`` (t's missing entries 0), ``w' = x' ./ outdeg`` as
    ``x' · inv``, the change ``‖x' − x‖₁`` and ``s' = Σ x'(dangling)``. The dangling
    vertices are those with ``inv == 0``; ``dangling`` lists them (read on the CPU; the GPU
    kernel tests ``inv``).

    Parameters
    ----------
    t : Vector
        The product ``w ⊕.⊗ A``, float64, on the arrays' device.
    x, u, p, inv : float64 arrays, shape (n,)
        The iterate, the dangling rank's distribution, the teleport term ``(1 − d) · p`` and
        ``1 / outdeg`` (0 at dangling vertices), all on one device.
    damping, s : float
        d, and the rank held by dangling vertices in x (0 to drop it).
    dangling : int array
        The dangling vertices (``inv == 0``), on x's device.

    Returns
    -------
    (x', w', change, s') : (array, array, float, float)

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> t = sr.Vector.from_dense(np.array([0.5, 0.0]), device="cpu")  # NumPy arrays below
    >>> x, inv = np.array([0.5, 0.5]), np.array([1.0, 0.0])
    >>> xn, w, change, s = sr.centrality.power_step(t, x, x, 0.15 * x, inv, 0.85, 0.5,
    ...                                             np.array([1]))
    >>> np.round(xn, 12).tolist(), np.round(w, 12).tolist(), round(change, 12), round(s, 12)
    ([0.7125, 0.2875], [0.7125, 0.0], 0.425, 0.2875)
    """
    op = "power_step"
    if not isinstance(t, Vector):
        raise DomainMismatch(f"{op}: t must be a semiring.Vector (the product), got "
                             f"{type(t).__name__}")
    n = t.size
    # (the GPU kernel takes them as C doubles, the CPU's NumPy as Python objects: None was 0
    # on the CPU and NaN on the GPU)
    for arg, v in (("damping", damping), ("s", s)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real) or not np.isfinite(v):
            raise DomainMismatch(f"{op}: {arg} must be a finite real number, got "
                                 f"{type(v).__name__} {v!r}")
    if (not hasattr(dangling, "dtype") or dangling.ndim != 1
            or np.dtype(dangling.dtype).kind not in "iu"):
        raise DomainMismatch(f"{op}: dangling must be a 1-D integer array (the vertices where "
                             f"inv is 0), got " + (f"dtype {dangling.dtype}, shape {dangling.shape}"
                                                   if hasattr(dangling, "dtype")
                                                   else type(dangling).__name__))
    if device_of_array(dangling) != t.device:
        raise DeviceMismatch(f"{op}: dangling must be on the product's device ({t.device}), got "
                             f"{device_of_array(dangling)}")
    if t.device == "cpu" and dangling.size and not (0 <= int(dangling.min())
                                                    and int(dangling.max()) < n):
        raise InvalidIndex(f"{op}: dangling must hold vertices in [0, {n}), got "
                           f"[{int(dangling.min())}, {int(dangling.max())}]")
    # (a host array handed to the GPU kernel would be read as an address: checked first)
    for arg, a in (("x", x), ("u", u), ("p", p), ("inv", inv)):
        if not hasattr(a, "dtype") or a.dtype != np.float64:
            raise DomainMismatch(f"{op}: {arg} must be float64, got "
                                 f"{getattr(a, 'dtype', type(a).__name__)}")
        if a.shape != (n,):
            raise DimensionMismatch(f"{op}: {arg} must have shape ({n},) (t's size), got "
                                    f"{a.shape}")
        if device_of_array(a) != t.device:
            raise DeviceMismatch(f"{op}: {arg} must be on the product's device ({t.device}), "
                                 f"got {device_of_array(a)}")
    vals, pres = t.bitmap()
    if t.device == "gpu":
        return backend_of("gpu").centrality.power_update(
            vals.astype(np.float64, copy=False), pres, x, u, p, inv, damping, s)
    return backend_of("cpu").centrality.power_update(vals, pres, x, u, p, inv, damping, s,
                                                     dangling)


def power_iteration(A, damping, threshold, max_iter, *, p=None, u=None, x0=None,
                    weighted=True, spread=True):
    """PageRank's whole power iteration on the GPU in one cooperative launch
    (``kernels/pagerank.cu``): the fused form of :func:`algorithms.pagerank`'s loop of products
    and :func:`power_step`, for graphs whose sweeps cost less than the loop's launches and host
    synchronization (~90 µs a sweep on an H200 host).

    From ``x = x0``, with ``outdeg = A ⊕.⊗ 1`` (the row sums of A's values, or the stored
    entries when not ``weighted``) and ``inv = 1 ./ outdeg`` (0 at dangling vertices), each
    sweep computes ``t = (x .* inv) ⊕.⊗ A``, ``x' = d · (t + s · u) + (1 − d) · p`` with ``s``
    the rank held by dangling vertices (0 unless ``spread``), until ``‖x' − x‖₁ < threshold``
    or ``max_iter`` sweeps. The arithmetic of the vector step is :func:`power_step`'s; the
    products' sums run in a fixed order (a row's entries over a group of lanes, then a tree),
    so a run repeats bit for bit on one device, but t differs from the loop's products in
    the last bits.

    Parameters
    ----------
    A : Matrix, square, on the GPU
        The graph (i → j where A(i, j) is stored); its cached transpose is read (built on
        first use).
    damping : float
        d, in [0, 1).
    threshold : float
        Stop when the L1 change of a sweep is below it (positive, finite).
    max_iter : int
        At most this many sweeps (≥ 1).
    p, u, x0 : float64 CuPy arrays of n, or None
        The teleport distribution, the distribution of the dangling vertices' rank, and the
        start; None: uniform (1/n each). Each sums to 1 (the caller normalizes).
    weighted : bool
        Follow edges in proportion to A's values (real; they must be finite and
        non-negative: the kernel checks them), else count each stored entry once.
    spread : bool
        Hand the dangling vertices' rank out along u (NetworkX's definition), else drop it
        (GAP's).

    Returns
    -------
    (x, sweeps, change, status) or None
        None where A is on the CPU (the loop is the CPU's form). ``status``: ``'done'`` (the
        sweeps ran: converged where ``change < threshold``, else at ``max_iter``),
        ``'weights'`` (a weight is negative, infinite or NaN; nothing else ran) or
        ``'scale'`` (an out-degree lies beyond 2**±256: scale A's rows first, as
        :func:`algorithms.pagerank` does, and iterate by the loop); x is meaningful for
        ``'done'`` only.

    Raises
    ------
    BackendUnavailable
        Where the GPU cannot make the cooperative launch (nothing ran).

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_dense(np.array([[0, 1.0], [1.0, 0]]), device="cpu")
    >>> sr.centrality.power_iteration(A, 0.85, 1e-9, 100) is None  # the CPU runs the loop
    True
    """
    op = "power_iteration"
    A = as_matrix(A, op=op, arg="A", square=True)
    for arg, v in (("damping", damping), ("threshold", threshold)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real) or not np.isfinite(v):
            raise DomainMismatch(f"{op}: {arg} must be a finite real number, got "
                                 f"{type(v).__name__} {v!r}")
    if not 0.0 <= damping < 1.0:
        raise InvalidValue(f"{op}: damping must be in [0, 1), got {damping}")
    if not threshold > 0:
        raise InvalidValue(f"{op}: threshold must be positive, got {threshold}")
    if isinstance(max_iter, (bool, np.bool_)) or not isinstance(max_iter, numbers.Integral):
        raise DomainMismatch(f"{op}: max_iter must be an integer, got "
                             f"{type(max_iter).__name__} {max_iter!r}")
    if max_iter < 1:
        raise InvalidValue(f"{op}: max_iter must be >= 1, got {max_iter}")
    for arg, v in (("weighted", weighted), ("spread", spread)):
        if not isinstance(v, (bool, np.bool_)):
            raise DomainMismatch(f"{op}: {arg} must be a bool, got {type(v).__name__} {v!r}")
    n = A.nrows
    if n == 0:
        raise DimensionMismatch(f"{op}: A must have at least one vertex, got shape {A.shape}")
    weighted = bool(weighted) and not A.is_iso
    if weighted and A.dtype.kind not in "biuf":
        raise DomainMismatch(f"{op}: weighted=True needs real values, got dtype {A.dtype}")
    # (a host array handed to the kernel would be read as an address: checked first)
    for arg, a in (("p", p), ("u", u), ("x0", x0)):
        if a is None:
            continue
        if not hasattr(a, "dtype") or a.dtype != np.float64:
            raise DomainMismatch(f"{op}: {arg} must be a float64 array or None, got "
                                 f"{getattr(a, 'dtype', type(a).__name__)}")
        if a.shape != (n,):
            raise DimensionMismatch(f"{op}: {arg} must have shape ({n},), got {a.shape}")
        if device_of_array(a) != A.device:
            raise DeviceMismatch(f"{op}: {arg} must be on A's device ({A.device}), got "
                                 f"{device_of_array(a)}")
    if A.device != "gpu":
        return None
    xp = A.xp
    return backend_of("gpu").centrality.pagerank(
        A, A.T, weighted, float(damping), *(None if a is None else xp.ascontiguousarray(a)
                                            for a in (p, u, x0)),
        bool(spread), float(threshold), int(max_iter))
