"""Write masks: which entries of an output an operation may change.

A mask is a Vector (for vector outputs) or a Matrix (for matrix outputs) read structurally
(``.S``: an entry allows) or by value (``.V``: an entry that is nonzero allows), possibly
complemented (``~``). A vector mask gives a dense allowed array (vectors are O(n) anyway); a
matrix mask never densifies: its allowed positions are a sorted list of linearized keys
``row * ncols + col`` (int64), and membership of candidate keys is a ``searchsorted``, so a
complemented mask over a large sparse matrix costs O(nnz), not O(n²).
"""

from __future__ import annotations

from . import _operand
from ._mfinalize import matrix_from_keys, matrix_keys
from .errors import DimensionMismatch, DomainMismatch, check_flags
from .matrix import Matrix
from .vector import Vector


class Mask:
    """A vector or matrix used as a mask: structural (``v.S``: present) or by value
    (``v.V``: present and nonzero), optionally complemented (``~v.S``).

    Examples
    --------
    >>> import semiring as sr
    >>> v = sr.Vector.from_coo([1], [0], size=3)
    >>> (~v.S).allowed().tolist(), v.V.allowed().tolist()
    ([True, False, True], [False, False, False])
    >>> M = sr.Matrix.from_coo([0, 1], [1, 0], [1, 0], nrows=2, ncols=2)
    >>> M.V.keys().tolist(), (~M.S).allowed_at([0, 1, 2, 3]).tolist()
    ([1], [True, False, False, True])
    """

    def __init__(self, container, *, structure: bool, complement: bool = False):
        if not isinstance(container, (Vector, Matrix)):
            raise DomainMismatch(f"Mask: the mask must be a semiring.Vector or semiring.Matrix, got {type(container).__name__}")
        self.container = container
        self.is_matrix = isinstance(container, Matrix)
        self.structure, self.complement = check_flags("Mask", structure=structure,
                                                      complement=complement)

    @property
    def vector(self):
        """The vector of a vector mask (the container; kept for the vector operations)."""
        return self.container

    @property
    def matrix(self):
        """The matrix of a matrix mask."""
        return self.container

    @property
    def device(self):
        return self.container.device

    @property
    def size(self):
        return self.container.size if not self.is_matrix else self.container.nrows * self.container.ncols

    @property
    def shape(self):
        return self.container.shape

    def __invert__(self):
        return Mask(self.container, structure=self.structure, complement=not self.complement)

    def __repr__(self):
        kind = "S" if self.structure else "V"
        return f"{'~' if self.complement else ''}Mask({kind}, {self.container!r})"

    # ------------------------------------------------------------------ vector masks
    def allowed(self):
        """Dense bool array: True where the output may be written (vector masks only)."""
        if self.is_matrix:
            raise DomainMismatch("Mask.allowed: a matrix mask is never densified; use keys() / allowed_at()")
        xp = self.container.xp
        vals, pres = self.container.bitmap()
        if self.structure:
            m = xp.ones(self.size, dtype=bool) if pres is None else pres.copy()
        else:
            nz = vals != 0
            m = nz if pres is None else (nz & pres)
        return ~m if self.complement else m

    # ------------------------------------------------------------------ both kinds
    def keys(self):
        """Sorted int64 keys of the mask's *true* entries, ignoring ``complement``: vector
        indices, or ``row * ncols + col`` for a matrix."""
        c = self.container
        if self.is_matrix:

            keys = matrix_keys(c)
            if self.structure:
                return keys
            if c.is_iso:
                return keys if bool(c.iso_value != 0) else keys[:0]
            return keys[c.values != 0]
        idx, vals = c.sparse()
        return idx if self.structure else idx[vals != 0]

    def pattern(self):
        """The mask's true entries (ignoring ``complement``) as a structure-only Matrix in CSR
        form (matrix masks): what a masked SpGEMM computes (or skips when complemented)."""
        if not self.is_matrix:
            raise DomainMismatch("Mask.pattern: only a matrix mask has a CSR pattern")
        c = self.container
        if self.structure:  # the same CSR arrays, values dropped: no copy
            return Matrix(c.indptr, c.indices, None, c.shape, iso_value=True, dtype=bool)
        return matrix_from_keys(self.keys(), None, c.shape, bool)

    def allowed_at(self, keys):
        """Bool array: whether the output may be written at each of ``keys`` (int64 keys as in
        :meth:`keys`; any order, duplicates allowed)."""
        xp = self.container.xp
        keys = xp.asarray(keys, dtype=xp.int64)
        mk = self.keys()
        if mk.size == 0:
            hit = xp.zeros(keys.shape, dtype=bool)
        else:
            pos = xp.minimum(xp.searchsorted(mk, keys), mk.size - 1)
            hit = mk[pos] == keys
        return ~hit if self.complement else hit


def _normalize(mask, structure, complement, op, kinds):
    structure, complement = check_flags(op, structure=structure, complement=complement)
    if mask is None:
        if complement:
            raise DomainMismatch(f"{op}: complement=True needs a mask")
        return None
    if not isinstance(mask, Mask):
        if not isinstance(mask, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise DomainMismatch(f"{op}: mask must be a {names} or a mask such as m.S or ~m.V, got {type(mask).__name__}")
        mask = Mask(mask, structure=structure)
    elif not isinstance(mask.container, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise DomainMismatch(f"{op}: mask must be over a {names}, got a mask over a {type(mask.container).__name__}")
    elif structure:
        mask = Mask(mask.container, structure=True, complement=mask.complement)
    if complement:
        mask = ~mask
    return mask


def as_mask(mask, *, structure: bool, complement: bool, op: str, size: int):
    """Normalize the ``mask=`` argument of a vector operation: None, a Vector or a Mask."""
    mask = _normalize(mask, structure, complement, op, (Vector,))
    if mask is not None and mask.size != size:
        raise DimensionMismatch(f"{op}: mask.size (={mask.size}) must equal the output size (={size})")
    return mask


def as_matrix_mask(mask, *, structure: bool, complement: bool, op: str, shape):
    """Normalize the ``mask=`` argument of a matrix operation: None, a Matrix or a Mask over
    one (``M.S``, ``~M.V``); its shape must equal the output's.

    Examples
    --------
    >>> import semiring as sr
    >>> M = sr.Matrix.from_coo([0], [1], True, nrows=2, ncols=2)
    >>> m = sr.as_matrix_mask(M, structure=True, complement=True, op="demo", shape=(2, 2))
    >>> m.structure, m.complement, m.allowed_at([0, 1]).tolist()
    (True, True, [True, False])
    """

    mask = _normalize(mask, structure, complement, op, (Matrix,))
    if mask is not None and tuple(mask.shape) != tuple(shape):
        raise DimensionMismatch(f"{op}: mask.shape (={tuple(mask.shape)}) must equal the output shape (={tuple(shape)})")
    return mask


_operand._sugar["mask"] = Mask  # x.S, x.V
