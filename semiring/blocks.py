"""BFS levels on one rank's vertex block of a distributed graph, fused as the one-device
levels are (:mod:`semiring.traversal`), and the frontier's bitmap that the ranks exchange.

A rank owns the vertices ``lo:hi`` of an n-vertex graph and holds the column block
``B = A(:, lo:hi)`` (n × (hi − lo), local column ids) and its transpose ``Bᵀ`` (the rank's
vertices' in-edges, global source ids). A level is

    q_p⟨¬v_p⟩ = q any.secondi B ;  v_p⟨q_p⟩ = depth ;  π_p⟨q_p⟩ = q_p

in one launch: a pull (:func:`bfs_pull`: each unreached vertex of the block scans its
in-edges for one in the frontier bitmap, stopping at the first) or a push (:func:`bfs_push`:
the frontier's vertices scatter along their rows of B), writing the new frontier ``q_p`` as
bits of the rank's **send buffer** (:func:`send_buffer`) with its size and out-edges in the
buffer's header, so that one all-gather of the buffers carries the frontier and the counts
Beamer's push/pull rule needs. :func:`join_bits` makes the all-gathered buffers the global
frontier bitmap (the pull's input), :func:`bits_list` its vertex list (the push's), and
:func:`heads` reads the counts (the level's one host read).

The same buffers carry SSSP's rounds: :func:`relax_pull` / :func:`relax_push` (a Bellman–Ford
round on the block: the lowered vertices' bits and count), :func:`pack_changed` /
:func:`unpack_changed` (their distances, to every rank), and for the near–far search
:func:`near_split` (the rank's pending vertices split at the threshold: the near pile as the
next frontier, the least pending distance in a :func:`split_buffer`'s tail, read by
:func:`split_heads`).

On the GPU the kernels of ``kernels/blocks.cu``; on the CPU their NumPy twins.

Examples
--------
>>> import numpy as np, scipy.sparse as sp, semiring as sr
>>> from semiring import blocks
>>> S = sp.csr_matrix(np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]]))
>>> B = sr.Matrix.from_scipy(S[:, 1:3], device="cpu")        # the rank of vertices 1, 2
>>> level = np.full(2, -1, dtype=np.int64)
>>> deg = np.array([1, 0], dtype=np.int64)                   # out-degrees of 1, 2
>>> out = blocks.send_buffer(1, 3, "cpu")
>>> blocks.bfs_push(B, np.array([0]), level, 1, deg=deg, out=out, lo=1)
>>> level.tolist(), blocks.heads(out[None]).tolist()
([1, 1], [[2, 1]])
>>> fbits = blocks.join_bits(out[None], (1, 3), 3)
>>> blocks.bits_list(B, fbits, 2)[0].tolist()
[1, 2]
"""

from __future__ import annotations

import numpy as np

from . import kernels
from .backend import backend_of
from .device import is_cupy_array, xp_of as array_module
from .errors import DomainMismatch, InvalidValue
from .matrix import as_matrix

__all__ = ["HEAD", "bfs_pull", "bfs_push", "bits_list", "component_roots", "heads",
           "join_bits", "mirrored_edges", "near_split", "pack_changed", "relax_pull", "relax_push",
           "pairs_list", "send_buffer", "split_buffer", "split_heads", "split_layout",
           "unpack_changed", "unpack_pairs", "word_range"]

#: Distance types of the relaxation rounds.
DISTANCE_TYPES = tuple(np.dtype(t) for t in (np.int64, np.float32, np.float64))

#: uint32 words of a send buffer's header: the new frontier's size and out-edges (two u64).
HEAD = 4
#: u64 words of a :func:`split_buffer`'s tail: the far pile's least key, the near pile's size
#: below the threshold, the pairs' slots taken.
TAIL = 3


def word_range(lo: int, hi: int) -> tuple:
    """(first, count): the global bitmap words that vertices ``lo:hi`` fall in."""
    if hi <= lo:
        return lo >> 5, 0
    return lo >> 5, ((hi - 1) >> 5) - (lo >> 5) + 1


def send_buffer(lo: int, hi: int, device: str, words: int | None = None):
    """A zeroed send buffer (uint32) of the block ``lo:hi``: the header, then its bitmap
    words, padded to ``words`` (every rank's buffer the same length for the all-gather)."""
    k = word_range(lo, hi)[1]
    words = k if words is None else words
    if words < k:
        raise InvalidValue(f"send_buffer: words (={words}) must be at least the block's "
                           f"{k} words")
    return array_module(device).zeros(HEAD + words, dtype=np.uint32)


def heads(got):
    """The counts of all-gathered send buffers ``got`` (P × words): an int64 array (P, 2) of
    (size, out-edges) per rank, on the host (a host read of P × 16 bytes)."""
    h = _read_spans(got, [(0, HEAD)])
    return h.view(np.uint64).astype(np.int64)


def _read_spans(got, spans):
    """Columns ``spans`` of every row of ``got`` (P × words uint32, C-ordered), on the host."""
    if not is_cupy_array(got):
        return backend_of("cpu").blocks.read_spans(np.asarray(got), spans)
    if not got.flags.c_contiguous:
        got = array_module("gpu").ascontiguousarray(got)
    return backend_of("gpu").blocks.read_spans(got, spans)


def _mode(parent, deterministic):
    return 0 if parent is None else (2 if deterministic else 1)


def _check_block(op, level, deg, out, parent, xp, np_, lo):
    for arg, a in (("level", level), ("deg", deg)) + ((("parent", parent),) if parent is not None else ()):
        if not isinstance(a, xp.ndarray) or a.shape != (np_,) or a.dtype != np.int64:
            raise DomainMismatch(f"{op}: {arg} must be an int64 {xp.__name__} array of shape "
                                 f"({np_},), got {getattr(a, 'dtype', type(a))} "
                                 f"{getattr(a, 'shape', '')}")
    if lo < 0:
        raise InvalidValue(f"{op}: lo must be >= 0, got {lo}")
    _check_send_buffer(op, out, xp, np_, lo)


def bfs_pull(BT, fbits, level, depth, *, deg, out, lo, parent=None, deterministic=False):
    """One pull level on the block: every unreached vertex j of ``lo:hi`` (``level[j] < 0``)
    scans its in-edges (row j of ``BT``) for a vertex of the frontier bitmap ``fbits``:

        q_p⟨¬v_p⟩ = Bᵀ any.secondi f ;  level⟨q_p⟩ = depth ;  parent⟨q_p⟩ = q_p

    and adds q_p's bits, size and out-edges (``deg``) to the send buffer ``out``.

    Parameters
    ----------
    BT : Matrix
        (hi − lo) × n: the block's vertices' in-edges, each row's sources in ascending order
        (as a Matrix's transpose has them: the first hit is the smallest).
    fbits : uint32 array of ⌈n / 32⌉ words
        The frontier (vertex u is bit u % 32 of word u // 32).
    level, deg : int64 arrays of hi − lo
        The block's levels (−1 where unreached; updated) and global out-degrees.
    depth : int
    out : uint32 array
        The block's send buffer (:func:`send_buffer`; updated).
    lo : int
        The block's first vertex.
    parent : int64 array of hi − lo, optional
        Updated with each reached vertex's in-neighbour on the frontier (the smallest: the
        first in its row, whether or not ``deterministic``).
    deterministic : bool

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> from semiring import blocks
    >>> S = sp.csr_matrix(np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]]))
    >>> BT = sr.Matrix.from_scipy(S[:, 1:3].T.tocsr(), device="cpu")  # in-edges of 1, 2
    >>> level, parent = np.full(2, -1), np.full(2, -1)
    >>> out = blocks.send_buffer(1, 3, "cpu")
    >>> f = np.array([0b011], dtype=np.uint32)                  # the frontier {0, 1}
    >>> blocks.bfs_pull(BT, f, level, 1, deg=np.array([1, 0]), out=out, lo=1, parent=parent)
    >>> level.tolist(), parent.tolist(), blocks.heads(out[None]).tolist()
    ([1, 1], [0, 0], [[2, 1]])
    """
    op = "bfs_pull"
    BT = as_matrix(BT, op=op, arg="BT")
    xp, np_, n = BT.xp, BT.nrows, BT.ncols
    _check_block(op, level, deg, out, parent, xp, np_, lo)
    if not isinstance(fbits, xp.ndarray) or fbits.dtype != np.uint32 or fbits.shape != ((n + 31) // 32,):
        raise DomainMismatch(f"{op}: fbits must be a uint32 {xp.__name__} array of "
                             f"{(n + 31) // 32} words, got {fbits!r:.80}")
    backend_of(BT.device).blocks.bfs_pull(BT, fbits, level, int(depth), deg, out, lo & 31,
                                          parent, _mode(parent, deterministic))


def bfs_push(B, frontier, level, depth, *, deg, out, lo, lens=None, parent=None,
             deterministic=False):
    """One push level on the block: the frontier's vertices (global ids) scatter along their
    rows of ``B`` (their out-edges into ``lo:hi``):

        q_p⟨¬v_p⟩ = f any.secondi B ;  level⟨q_p⟩ = depth ;  parent⟨q_p⟩ = q_p

    and adds q_p's bits, size and out-edges to ``out``, as :func:`bfs_pull` does.

    Parameters
    ----------
    B : Matrix
        n × (hi − lo): the column block, local column ids.
    frontier : int64 array
        Distinct vertices, any order.
    lens : int64 array, optional
        Their rows' lengths in B (:func:`bits_list` gives them; computed when absent).
    parent : int64 array, optional
        Any in-neighbour on the frontier, the smallest with ``deterministic``.

    The other arguments are :func:`bfs_pull`'s.
    """
    op = "bfs_push"
    B = as_matrix(B, op=op, arg="B")
    xp, np_ = B.xp, B.ncols
    _check_block(op, level, deg, out, parent, xp, np_, lo)
    if not isinstance(frontier, xp.ndarray) or frontier.ndim != 1 or frontier.dtype != np.int64:
        raise DomainMismatch(f"{op}: frontier must be a 1-D int64 {xp.__name__} array, got "
                             f"{frontier!r:.80}")
    if lens is None:
        ip = B.indptr
        lens = (ip[frontier + 1] - ip[frontier]).astype(np.int64)
    elif not isinstance(lens, xp.ndarray) or lens.shape != frontier.shape:
        raise DomainMismatch(f"{op}: lens must be a {xp.__name__} array of the frontier's "
                             f"shape {frontier.shape}")
    backend_of(B.device).blocks.bfs_push(B, frontier, lens, level, int(depth), deg, out,
                                         lo & 31, parent, _mode(parent, deterministic))


def join_bits(got, bounds, n: int):
    """The global frontier bitmap (uint32, ⌈n / 32⌉ words) from the ranks' all-gathered send
    buffers ``got`` (P × words, rank order; rank p owns ``bounds[p]:bounds[p + 1]``)."""
    dev = "gpu" if is_cupy_array(got) else "cpu"
    b = [int(x) for x in bounds]
    if got.ndim != 2 or got.shape[0] != len(b) - 1 or b[-1] != n:
        raise DomainMismatch(f"join_bits: got must be (P, words) for P = len(bounds) - 1 "
                             f"(= {len(b) - 1}) ranks, got shape {got.shape}")
    wlo, wn = _word_ranges(tuple(b), dev)
    return backend_of(dev).blocks.join_bits(got, wlo, wn, (n + 31) // 32)


def _word_ranges(bounds: tuple, device: str):
    """(first words, word counts) of the ranks' blocks, on ``device``: made once per cut and
    device (a level would otherwise copy them to the GPU every time)."""
    def build():
        rng = [word_range(bounds[p], bounds[p + 1]) for p in range(len(bounds) - 1)]
        xp = array_module(device)
        return (xp.asarray([r[0] for r in rng], dtype=np.int64),
                xp.asarray([r[1] for r in rng], dtype=np.int64))
    if device == "cpu":
        return build()
    return kernels.memo(("blocks.word_ranges", bounds), build)


def bits_list(B, fbits, size: int):
    """(vertices, lens): the ``size`` vertices of the bitmap ``fbits`` (int64, any order) and
    their rows' lengths in ``B``: :func:`bfs_push`'s frontier."""
    B = as_matrix(B, op="bits_list", arg="B")
    return backend_of(B.device).blocks.bits_list(B, fbits, int(size))


def component_roots(labels):
    """Each vertex's component's least vertex (int64), from component labels: ``labels[v]``
    any id in ``[0, n)`` shared by exactly the vertices of v's component (as
    :func:`semiring.connectivity.weak_components` numbers them).

    >>> import numpy as np
    >>> from semiring import blocks
    >>> blocks.component_roots(np.array([1, 0, 1, 2], dtype=np.int32)).tolist()
    [0, 1, 0, 3]
    """
    xp = array_module("gpu" if is_cupy_array(labels) else "cpu")
    n = labels.size if hasattr(labels, "size") else 0
    if (not isinstance(labels, xp.ndarray) or labels.ndim != 1
            or labels.dtype not in (np.dtype(np.int32), np.dtype(np.int64))):
        raise DomainMismatch(f"component_roots: labels must be a 1-D int32 or int64 array, got "
                             f"{labels!r:.80}")
    if n and (int(labels.min()) < 0 or int(labels.max()) >= n):
        raise InvalidValue(f"component_roots: labels must lie in [0, n) (n = {n})")
    return backend_of("gpu" if xp is not np else "cpu").blocks.component_roots(labels)


def mirrored_edges(B, lo: int):
    """A rank's edges stored both ways: the n × n pattern ``E_p ∪ E_pᵀ`` of the column block
    ``B = A(:, lo:hi)`` (row i: B's row i with global column ids, then, for ``lo <= i < hi``,
    the sources of i's in-edges), a symmetric pattern on which Afforest may skip the rows of
    the largest component (:func:`semiring.connectivity.weak_components`, ``symmetric=True``).
    Rows are not sorted and may repeat an entry (an edge with both ends in ``lo:hi``, stored
    both ways in A): a pattern for the components only.

    >>> import numpy as np, semiring as sr
    >>> from semiring import blocks
    >>> B = sr.Matrix.from_coo([0, 2], [0, 0], None, nrows=3, ncols=1, device="cpu")  # 0→1, 2→1
    >>> G = blocks.mirrored_edges(B, 1)
    >>> G.to_scipy().toarray().astype(int).tolist()
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    """
    op = "mirrored_edges"
    B = as_matrix(B, op=op, arg="B")
    n, np_ = B.nrows, B.ncols
    if not 0 <= lo <= n - np_:
        raise InvalidValue(f"{op}: the block lo:hi = {lo}:{lo + np_} must lie in 0:{n}")
    ptr, idx = backend_of(B.device).blocks.mirrored(B, B.T, int(lo), int(lo) + np_)
    from .matrix import Matrix  # noqa: PLC0415 (the class, beside as_matrix)

    return Matrix.from_csr(ptr, idx, None, (n, n), check=False)


def _check_d(op, d, xp, n):
    if (not isinstance(d, xp.ndarray) or d.shape != (n,)
            or np.dtype(d.dtype) not in DISTANCE_TYPES):
        raise DomainMismatch(f"{op}: d must be a {xp.__name__} array of shape ({n},) and one "
                             f"of the types {[str(t) for t in DISTANCE_TYPES]}, got "
                             f"{getattr(d, 'dtype', type(d))} {getattr(d, 'shape', '')}")


def relax_pull(BT, fbits, d, *, lo, out):
    """One Bellman–Ford round on the block, pulled: every vertex j of ``lo:hi`` takes the
    least ``d(u) + w(u, j)`` over its in-edges from the frontier bitmap ``fbits``:

        t_p = f min.+ B ;  improved = t_p < d_p ;  d_p⟨improved⟩ = t_p

    and the improved vertices' bits and count go to the send buffer ``out``.

    Parameters
    ----------
    BT : Matrix
        (hi − lo) × n: the block's vertices' in-edges, values the weights (cast to d's type).
    fbits : uint32 array of ⌈n / 32⌉ words
    d : int64, float32 or float64 array of n
        The distances, whole (every rank holds them); only ``d[lo:hi]`` is written. The
        type's maximum or inf is "unreached"; sums must not overflow (the caller checks).
    lo : int
    out : uint32 array
        The block's send buffer (:func:`send_buffer`).
    """
    op = "relax_pull"
    BT = as_matrix(BT, op=op, arg="BT")
    xp, np_, n = BT.xp, BT.nrows, BT.ncols
    _check_d(op, d, xp, n)
    _check_out(op, out, xp, np_, lo, n)
    if not isinstance(fbits, xp.ndarray) or fbits.dtype != np.uint32 or fbits.shape != ((n + 31) // 32,):
        raise DomainMismatch(f"{op}: fbits must be a uint32 {xp.__name__} array of "
                             f"{(n + 31) // 32} words, got {fbits!r:.80}")
    w, ws = BT.values_for(d.dtype)
    backend_of(BT.device).blocks.relax_pull(BT, w, ws, fbits, d, lo, out, lo & 31)


def relax_push(B, frontier, d, *, lo, out, lens=None):
    """One Bellman–Ford round on the block, pushed: the frontier's vertices (global ids)
    relax their rows of ``B`` (an atomic min on ``d[lo:hi]``); the lowered vertices' bits and
    count go to ``out``. ``B``: n × (hi − lo), values the weights; the rest as
    :func:`relax_pull` and :func:`bfs_push`.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> from semiring import blocks
    >>> B = sr.Matrix.from_coo([0, 0, 2], [0, 1, 0], [4.0, 1.0, 2.0], nrows=3, ncols=2, device="cpu")
    >>> d = np.array([0.0, np.inf, np.inf])                      # the block: vertices 1, 2
    >>> out = blocks.send_buffer(1, 3, "cpu")
    >>> blocks.relax_push(B, np.array([0]), d, lo=1, out=out)
    >>> d.tolist(), blocks.heads(out[None])[:, 0].tolist()
    ([0.0, 4.0, 1.0], [2])
    """
    op = "relax_push"
    B = as_matrix(B, op=op, arg="B")
    xp, np_, n = B.xp, B.ncols, B.nrows
    _check_d(op, d, xp, n)
    _check_out(op, out, xp, np_, lo, n)
    if not isinstance(frontier, xp.ndarray) or frontier.ndim != 1 or frontier.dtype != np.int64:
        raise DomainMismatch(f"{op}: frontier must be a 1-D int64 {xp.__name__} array, got "
                             f"{frontier!r:.80}")
    if lens is None:
        ip = B.indptr
        lens = (ip[frontier + 1] - ip[frontier]).astype(np.int64)
    w, ws = B.values_for(d.dtype)
    backend_of(B.device).blocks.relax_push(B, w, ws, frontier, lens, d, lo, out, lo & 31)


def _check_out(op, out, xp, np_, lo, n):
    if not 0 <= lo <= n - np_:
        raise InvalidValue(f"{op}: the block lo:hi = {lo}:{lo + np_} must lie in 0:{n}")
    _check_send_buffer(op, out, xp, np_, lo)


def _check_send_buffer(op, out, xp, np_, lo):
    """``out``: a send buffer (:func:`send_buffer`) for the block lo:lo + np_."""
    k = word_range(lo, lo + np_)[1]
    if (not isinstance(out, xp.ndarray) or out.dtype != np.uint32 or out.ndim != 1
            or out.size < HEAD + k):
        raise DomainMismatch(f"{op}: out must be a uint32 {xp.__name__} send buffer of at least "
                             f"{HEAD + k} words (send_buffer), got {out!r:.80}")


def pack_changed(out, d, lo: int, hi: int, kmax: int):
    """The distances ``d[lo + j]`` of the vertices whose bits ``out`` holds, in bitmap order,
    padded with zeros to ``kmax`` (every rank's the same length: the all-gather's)."""
    xp = array_module("gpu" if is_cupy_array(out) else "cpu")
    nw = word_range(lo, hi)[1]
    _check_out("pack_changed", out, xp, hi - lo, lo, d.size)
    return backend_of("gpu" if xp is not np else "cpu").blocks.pack(out, nw, d, lo, lo & 31,
                                                                    int(kmax))


def unpack_changed(got, vals, bounds, d):
    """``d`` at every rank's changed vertices (the bits of its buffer, row p of ``got``) from
    its packed distances (row p of ``vals``): the inverse of :func:`pack_changed` on every
    rank's buffer. ``bounds``: the P + 1 cut points."""
    b = [int(x) for x in bounds]
    P = len(b) - 1
    if got.ndim != 2 or got.shape[0] != P or vals.ndim != 2 or vals.shape[0] != P:
        raise DomainMismatch(f"unpack_changed: got and vals must have P = {P} rows, got "
                             f"{got.shape} and {vals.shape}")
    nw = max(word_range(b[p], b[p + 1])[1] for p in range(P))
    dev = "gpu" if is_cupy_array(got) else "cpu"
    backend_of(dev).blocks.unpack(got, nw, vals, b, d)


def split_layout(size: int, pairs: int, dtype) -> tuple:
    """(tail, ids, vals): the uint32 word offsets of a :func:`split_buffer`'s parts, counted
    back from its ``size``: the tail (TAIL u64), the pairs' local ids (``pairs`` words, padded
    to even), their distances (``pairs`` values of ``dtype``, padded to 8 bytes)."""
    w = np.dtype(dtype).itemsize // 4
    vw = pairs * w + (pairs * w & 1)
    kb = pairs + (pairs & 1)
    vals = size - vw
    ids = vals - kb
    return ids - 2 * TAIL, ids, vals


def split_buffer(lo: int, hi: int, device: str, words: int | None = None, *, pairs: int = 0,
                 dtype=np.float64):
    """A zeroed send buffer of the block ``lo:hi`` for :func:`near_split`: a
    :func:`send_buffer` of ``words`` bitmap words (one more where odd), then its tail (TAIL
    u64, 8-byte aligned: the GPU's atomics): the least pending distance's key, the near pile's
    size below the threshold, the pairs' slots taken; then room for ``pairs`` pairs (local id,
    distance of ``dtype``) of the near pile (:func:`split_layout`). Every rank's the same
    length."""
    words = word_range(lo, hi)[1] if words is None else words
    if not isinstance(pairs, (int, np.integer)) or pairs < 0:
        raise InvalidValue(f"split_buffer: pairs must be an int >= 0, got {pairs!r}")
    w = np.dtype(dtype).itemsize // 4
    extra = 2 * TAIL + pairs + (pairs & 1) + pairs * w + (pairs * w & 1)
    return send_buffer(lo, hi, device, words + (words & 1) + extra)


def near_split(changed, pending, d, tau, *, deg, lo: int, out, pairs: int = 0, ahead=None):
    """The near–far piles of the rank's block ``lo:hi`` after a round (Davidson, Baxter,
    Garland & Owens 2014): the vertices the round lowered (the bits of ``changed``, the send
    buffer :func:`relax_pull` / :func:`relax_push` wrote; its bits cleared here, so that it
    serves the next round) join the rank's pending vertices, and those below the threshold
    ``tau`` leave them for the near pile:

        p_p = p_p ∪ c_p ;  near_p = {v ∈ p_p : d(v) < τ} ;  p_p = p_p \\ near_p

    near_p goes to ``out`` (:func:`split_buffer`) as bits, with its size and out-edges in the
    header (as a BFS level's frontier) and, in the buffer's tail, the least distance f_p
    still pending (the far pile's) and near_p's size: one all-gather of the buffers carries
    the next round's frontier, the counts (the stop and the direction) and the next
    threshold's base (:func:`split_heads` reads them); and the first ``pairs`` of near_p's
    vertices (any order) as pairs (local id, distance), so that the same all-gather carries
    the frontier's distances where no rank's near pile is larger (:func:`unpack_pairs`,
    :func:`pairs_list`). With ``ahead`` = Δ, a block whose
    near_p is empty while some vertex is pending takes its own next bucket at once,

        near_p = {v ∈ p_p : d(v) < f_p + Δ} ;  p_p = p_p \\ near_p

    (in the header; the tail keeps the empty near_p's size, 0): the rounds then need no
    exchange of their own between two buckets.

    Parameters
    ----------
    changed : uint32 array
        A send buffer of the block (:func:`send_buffer`), its bits the vertices lowered.
    pending : uint32 array of ``word_range(lo, hi)[1]`` words
        The rank's pending vertices, bits as a send buffer's words without the header
        (updated).
    d : int64, float32 or float64 array of n
        The distances, whole; read at the block's pending vertices only.
    tau : number
        The threshold: ``d(v) < tau`` is near (cast to d's type; for integers its ceiling).
    deg : int64 array of hi − lo
        The block's vertices' out-degrees (counted for the near pile); its size sets hi.
    lo : int
    out : uint32 array
        A zeroed :func:`split_buffer` of the block, made with ``pairs`` and d's type.
    pairs : int
        Its room for pairs.
    ahead : positive number, optional
        Δ of the block's own next bucket (cast to d's type; for integers its ceiling).

    Examples
    --------
    >>> import numpy as np
    >>> from semiring import blocks
    >>> d = np.array([0.0, 3.0, 9.0, 5.0])                  # the block: vertices 1..3
    >>> chg = blocks.send_buffer(1, 4, "cpu")
    >>> chg[blocks.HEAD] = 0b1110                          # the round lowered 1, 2, 3
    >>> pending = np.zeros(1, dtype=np.uint32)
    >>> out = blocks.split_buffer(1, 4, "cpu")
    >>> deg = np.array([2, 1, 4], dtype=np.int64)
    >>> blocks.near_split(chg, pending, d, 6.0, deg=deg, lo=1, out=out)
    >>> hex(int(out[blocks.HEAD])), hex(int(pending[0])), int(chg[blocks.HEAD])
    ('0xa', '0x4', 0)
    >>> [a.tolist() for a in blocks.split_heads(out[None], d.dtype)]
    [[2], [6], [9.0], [2]]
    >>> out = blocks.split_buffer(1, 4, "cpu", pairs=4, dtype=d.dtype)
    >>> blocks.near_split(chg, pending, d, 6.0, deg=deg, lo=1, out=out, pairs=4, ahead=4.0)
    >>> [a.tolist() for a in blocks.split_heads(out[None], d.dtype, pairs=4)]  # 2 ahead
    [[1], [1], [9.0], [0]]
    """
    op = "near_split"
    dev = "gpu" if is_cupy_array(out) else "cpu"
    xp = array_module(dev)
    n = getattr(d, "size", 0)
    _check_d(op, d, xp, n)
    if not 0 <= lo <= n:
        raise InvalidValue(f"{op}: lo must lie in [0, {n}], got {lo}")
    if not isinstance(deg, xp.ndarray) or deg.dtype != np.int64 or deg.ndim != 1 \
            or lo + deg.size > n:
        raise DomainMismatch(f"{op}: deg must be an int64 {xp.__name__} array of the block's "
                             f"out-degrees (lo + its size at most n = {n}), got {deg!r:.80}")
    nw = word_range(lo, lo + deg.size)[1]
    if (not isinstance(pending, xp.ndarray) or pending.dtype != np.uint32
            or pending.shape != (nw,)):
        raise DomainMismatch(f"{op}: pending must be a uint32 {xp.__name__} array of the "
                             f"block's {nw} words, got {pending!r:.80}")
    if not isinstance(pairs, (int, np.integer)) or isinstance(pairs, bool) or pairs < 0:
        raise InvalidValue(f"{op}: pairs must be an int >= 0, got {pairs!r}")
    t = np.dtype(d.dtype)
    for arg, a, is_split in (("changed", changed, False), ("out", out, True)):
        if (not isinstance(a, xp.ndarray) or a.dtype != np.uint32 or a.ndim != 1
                or a.size % 2 * is_split
                or (split_layout(a.size, pairs, t)[0] if is_split else a.size) < HEAD + nw):
            raise DomainMismatch(f"{op}: {arg} must be a uint32 {xp.__name__} "
                                 f"{'split_buffer' if is_split else 'send_buffer'} of the "
                                 f"block's {nw} words" + (f" with {pairs} pairs of {t}"
                                                          if is_split else "")
                                 + f", got {a!r:.80}")
    if isinstance(tau, (bool, np.bool_)) or not isinstance(tau, (int, float, np.number)):
        raise DomainMismatch(f"{op}: tau must be a real number, got {type(tau).__name__}")
    if tau != tau:
        raise InvalidValue(f"{op}: tau must not be NaN")
    tau = _in_type(tau, t)
    if ahead is not None:
        if (isinstance(ahead, (bool, np.bool_)) or not isinstance(ahead, (int, float, np.number))
                or not ahead > 0):
            raise InvalidValue(f"{op}: ahead must be a positive number or None, got {ahead!r}")
        ahead = _in_type(ahead, t)
    at, ids_at, vals_at = split_layout(out.size, int(pairs), t)
    tail = out[at:at + 2 * TAIL].view(np.uint64)
    ids = out[ids_at:ids_at + pairs]
    vals = out[vals_at:vals_at + pairs * t.itemsize // 4].view(t)
    b = backend_of(dev).blocks
    b.split(changed, pending, int(nw), d, deg, int(lo), lo & 31, tau, out, tail, ids, vals)
    if ahead is not None:
        b.split_ahead(pending, int(nw), d, deg, int(lo), lo & 31, ahead, out, tail, ids, vals)


def _in_type(x, t):
    """The threshold (or width) x in the distances' type t: for integers its ceiling, within
    t's range (``d < x`` for an integer d is ``d < ceil(x)``)."""
    if t.kind == "f":
        return t.type(x)
    info = np.iinfo(t)
    return t.type(info.max if x >= info.max else (info.min if x <= info.min else
                                                  int(np.ceil(x))))


def split_heads(got, dtype, pairs: int = 0):
    """(sizes, out-edges, far minima, sizes below τ) of all-gathered :func:`near_split`
    buffers ``got`` (P × words, made with ``pairs``), on the host (one read): each rank's
    near pile's size and out-edges (int64), its least pending distance before any bucket
    ahead (``dtype``; inf, or the type's maximum, where none was pending) and its near
    pile's size below the threshold (int64; 0 where it took its bucket ahead)."""
    dtype = np.dtype(dtype)
    at = split_layout(got.shape[1], pairs, dtype)[0]
    u = _read_spans(got, [(0, HEAD), (at, 2 * TAIL)]).view(np.uint64)   # one host read
    sizes, edges, key = u[:, 0].astype(np.int64), u[:, 1].astype(np.int64), ~u[:, 2]
    below = u[:, 3].astype(np.int64)
    none = u[:, 2] == 0
    if dtype.kind == "f":
        bits = 8 * dtype.itemsize
        full, sign = np.uint64((1 << bits) - 1), np.uint64(1 << (bits - 1))
        key = key & full
        raw = np.where(key & sign, key ^ sign, ~key & full)
        far = raw.astype(np.uint32 if bits == 32 else np.uint64).view(dtype)
        far = np.where(none, np.inf, far).astype(dtype)
    else:
        far = (key ^ np.uint64(1 << 63)).view(np.int64)
        far = np.where(none, np.iinfo(dtype).max, far).astype(dtype)
    return sizes, edges, far, below


def _check_got(op, got, bounds, pairs, dtype):
    b = [int(x) for x in bounds]
    if getattr(got, "ndim", 0) != 2 or got.shape[0] != len(b) - 1 or got.dtype != np.uint32:
        raise DomainMismatch(f"{op}: got must be the (P, words) uint32 split buffers of P = "
                             f"len(bounds) - 1 (= {len(b) - 1}) ranks, got {got!r:.80}")
    if not isinstance(pairs, (int, np.integer)) or pairs < 0 or \
            split_layout(got.shape[1], pairs, dtype)[0] < HEAD:
        raise InvalidValue(f"{op}: pairs (={pairs!r}) does not fit buffers of "
                           f"{got.shape[1]} words")
    return b


def unpack_pairs(got, bounds, d, pairs: int):
    """``d`` at every rank's near pile from its pairs (row p of the all-gathered
    :func:`near_split` buffers ``got``, made with ``pairs``; rank p owns ``bounds[p]:
    bounds[p + 1]``): d[bounds[p] + id] = distance. Only where every rank's pile fit its
    pairs (:func:`split_heads`' sizes at most ``pairs``; else :func:`pack_changed` /
    :func:`unpack_changed` on the bits)."""
    op = "unpack_pairs"
    dev = "gpu" if is_cupy_array(got) else "cpu"
    _check_d(op, d, array_module(dev), getattr(d, "size", -1))
    b = _check_got(op, got, bounds, pairs, d.dtype)
    if b[-1] != d.size:
        raise DomainMismatch(f"{op}: bounds end at {b[-1]}, d holds {d.size}")
    lay = split_layout(got.shape[1], pairs, d.dtype)
    backend_of(dev).blocks.unpack_pairs(got, lay, int(pairs), tuple(b), d)


def pairs_list(B, got, bounds, pairs: int, size: int, dtype):
    """(vertices, lens): the near piles' vertices of every rank's pairs (global ids, any
    order) and their rows' lengths in ``B``: :func:`relax_push`'s frontier, as
    :func:`bits_list` gives it from the bitmap. ``size``: the piles' total (every pile at
    most ``pairs``); ``dtype``: the distances' type the buffers were made with."""
    op = "pairs_list"
    B = as_matrix(B, op=op, arg="B")
    if np.dtype(dtype) not in DISTANCE_TYPES:
        raise DomainMismatch(f"{op}: dtype must be one of {[str(t) for t in DISTANCE_TYPES]}, "
                             f"got {dtype}")
    b = _check_got(op, got, bounds, pairs, dtype)
    if not isinstance(size, (int, np.integer)) or not 0 <= size <= (len(b) - 1) * pairs:
        raise InvalidValue(f"{op}: size must be the piles' total, at most P * pairs = "
                           f"{(len(b) - 1) * pairs}, got {size!r}")
    if b[-1] != B.nrows:
        raise DomainMismatch(f"{op}: bounds end at {b[-1]}, B has {B.nrows} rows")
    lay = split_layout(got.shape[1], pairs, dtype)
    return backend_of(B.device).blocks.pairs_list(B, got, lay, int(pairs), tuple(b), int(size))
