"""A pytest plugin for compute-sanitizer runs (tools/memcheck.sh): CuPy allocates every array
by its own cudaMalloc of its size rounded up to 16 bytes, instead of from its memory pool,
whose 512-byte blocks and reused chunks hide an access past an array's end from memcheck.
(16, not 1: the SpMV's aligned 16-byte loads read the last quad of an array whole,
semiring/kernels/spmv.cu.) Loaded by ``-p memcheck_alloc`` with tools/ on PYTHONPATH."""

import cupy


def _exact(size: int):
    return cupy.cuda.memory.MemoryPointer(cupy.cuda.memory.Memory(-(-size // 16) * 16), 0)


cupy.cuda.set_allocator(_exact)
