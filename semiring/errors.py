"""The exception hierarchy.

Every error raised by ``semiring`` derives from :class:`SemiringError` and also from the
built-in exception a Python user would catch for it, so ``except ValueError`` keeps working.
Messages name the operation, the argument, the expected and the actual value.
"""

from __future__ import annotations

import numpy as np


class SemiringError(Exception):
    """Base class of every error raised by ``semiring`` and ``algorithms``."""


class DimensionMismatch(SemiringError, ValueError):
    """Shapes or sizes of the operands do not agree."""


class DomainMismatch(SemiringError, TypeError):
    """A value type (dtype) is not accepted by the operation or operator."""


class InvalidIndex(SemiringError, IndexError):
    """An index is out of range."""


class InvalidValue(SemiringError, ValueError):
    """An argument has the right type but a value the operation cannot accept."""


class DeviceMismatch(SemiringError, ValueError):
    """Operands live on different devices (CPU and GPU); move one explicitly."""


class DuplicateIndices(SemiringError, ValueError):
    """Duplicate coordinates were given and no ``dup_op`` says how to combine them."""


class NegativeCycleError(SemiringError, ValueError):
    """A negative-weight cycle makes shortest paths undefined."""

    def __init__(self, message: str = "", vertices=None):
        super().__init__(message)
        self.vertices = vertices


class OutOfMemory(SemiringError, MemoryError):
    """The device cannot hold what the operation needs.

    ``needed`` and ``free`` are in bytes.
    """

    def __init__(self, message: str, needed: int | None = None, free: int | None = None):
        super().__init__(message)
        self.needed = needed
        self.free = free


class BackendUnavailable(SemiringError, RuntimeError):
    """The requested backend (the GPU) cannot be used on this machine."""


def check_bool(op: str, arg: str, value) -> bool:
    """``value`` as a Python bool when it is one: ``True``, ``False`` or a ``numpy.bool_``.

    The flags of the API (``replace``, ``structure``, ``complement``, ``symmetric``, ...)
    take nothing merely truthy: ``replace="no"`` would otherwise act as ``replace=True``.

    Parameters
    ----------
    op, arg : str
        The caller's function and the argument's name, for the message.
    value : object

    Returns
    -------
    bool

    Raises
    ------
    DomainMismatch
        (a TypeError) for any other value, naming ``op``, ``arg``, the expected type and
        ``value``.

    Examples
    --------
    >>> from semiring.errors import check_bool
    >>> import numpy as np
    >>> check_bool("mxv", "replace", np.bool_(True))
    True
    >>> check_bool("mxv", "replace", "no")
    Traceback (most recent call last):
    ...
    semiring.errors.DomainMismatch: mxv: replace must be a bool (True or False), got 'no' (str)
    """
    if type(value) is bool:  # (first: the common case, ~30 ns)
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    raise DomainMismatch(f"{op}: {arg} must be a bool (True or False), got {shown} "
                         f"({type(value).__name__})")


def check_flags(op: str, **flags) -> tuple:
    """:func:`check_bool` of each keyword (name = value), in order; their bools as a tuple.

    Examples
    --------
    >>> from semiring.errors import check_flags
    >>> check_flags("mxv", replace=False, structure=True)
    (False, True)
    """
    return tuple(check_bool(op, arg, value) for arg, value in flags.items())
