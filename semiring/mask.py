"""Write masks: which entries of an output an operation may change."""

from __future__ import annotations

from .errors import DimensionMismatch, DomainMismatch


class Mask:
    """A vector used as a mask: structural (``v.S``: present) or by value (``v.V``: present
    and nonzero), optionally complemented (``~v.S``).

    Examples
    --------
    >>> import semiring as sr
    >>> v = sr.Vector.from_coo([1], [0], size=3)
    >>> (~v.S).allowed().tolist(), v.V.allowed().tolist()
    ([True, False, True], [False, False, False])
    """

    def __init__(self, vector, *, structure: bool, complement: bool = False):
        from .vector import Vector  # noqa: PLC0415

        if not isinstance(vector, Vector):
            raise DomainMismatch(f"Mask: vector must be a semiring.Vector, got {type(vector).__name__}")
        self.vector = vector
        self.structure = bool(structure)
        self.complement = bool(complement)

    @property
    def device(self):
        return self.vector.device

    @property
    def size(self):
        return self.vector.size

    def __invert__(self):
        return Mask(self.vector, structure=self.structure, complement=not self.complement)

    def __repr__(self):
        kind = "S" if self.structure else "V"
        return f"{'~' if self.complement else ''}Mask({kind}, {self.vector!r})"

    def allowed(self):
        """Dense bool array: True where the output may be written."""
        xp = self.vector.xp
        vals, pres = self.vector.bitmap()
        if self.structure:
            m = xp.ones(self.size, dtype=bool) if pres is None else pres.copy()
        else:
            nz = vals != 0
            m = nz if pres is None else (nz & pres)
        return ~m if self.complement else m


def as_mask(mask, *, structure: bool, complement: bool, op: str, size: int):
    """Normalize the ``mask=`` argument of an operation: None, a Vector or a Mask."""
    if mask is None:
        if complement:
            raise DomainMismatch(f"{op}: complement=True needs a mask")
        return None
    if not isinstance(mask, Mask):
        from .vector import Vector  # noqa: PLC0415

        if not isinstance(mask, Vector):
            raise DomainMismatch(f"{op}: mask must be a Vector or a mask such as v.S or ~v.V, got {type(mask).__name__}")
        mask = Mask(mask, structure=structure)
    elif structure:
        mask = Mask(mask.vector, structure=True, complement=mask.complement)
    if complement:
        mask = ~mask
    if mask.size != size:
        raise DimensionMismatch(f"{op}: mask.size (={mask.size}) must equal the output size (={size})")
    return mask
