"""The exception hierarchy.

Every error raised by ``semiring`` derives from :class:`SemiringError` and also from the
built-in exception a Python user would catch for it, so ``except ValueError`` keeps working.
Messages name the operation, the argument, the expected and the actual value.
"""

from __future__ import annotations


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
