"""GPU timing (run from the repository root, PYTHONPATH=.) of the analytics2 functions on one Kronecker graph, in one process:
python bench/probes/analytics2_gpu.py SCALE what1,what2,... (core, modularity, lpa, truss3, truss8, louvain).
Each runs twice (cold: first call, kernels compiled; warm: second call); results print as
they come, so a timeout keeps the ones done."""
import sys, time
import numpy as np
import cupy as cp
import semiring as sr, algorithms as alg
from bench.generators import kronecker

scale, whats = int(sys.argv[1]), sys.argv[2].split(",")
t0 = time.perf_counter()
S = kronecker(scale, weighted=False, dtype=np.float32, xp=cp)
A = sr.Matrix.from_cupyx(S)
cp.cuda.runtime.deviceSynchronize()
print(f"kron-{scale}: n={A.nrows} entries={A.nvals} device={A.device} "
      f"({time.perf_counter() - t0:.1f} s to generate)", flush=True)
rand = cp.asarray(np.random.default_rng(0).integers(0, 1000, A.nrows))
fns = {
    "core": lambda: alg.core_number(A),
    "modularity": lambda: alg.modularity(A, rand),
    "lpa": lambda: alg.label_propagation(A),
    "truss3": lambda: alg.k_truss(A, 3),
    "truss8": lambda: alg.k_truss(A, 8),
    "louvain": lambda: alg.louvain(A, seed=0),
}
for what in whats:
    times = []
    for i in range(2):
        cp.cuda.runtime.deviceSynchronize()
        t = time.perf_counter()
        r = fns[what]()
        cp.cuda.runtime.deviceSynchronize()
        times.append(time.perf_counter() - t)
        print(f"  {what} run {i}: {times[-1]:.4f} s", flush=True)
    if what == "core":
        info = f"max core {int(r.max())}"
    elif what.startswith("truss"):
        info = f"{r.nvals // 2} edges"
    elif what in ("lpa", "louvain"):
        info = f"{int(r.max()) + 1} communities, Q={alg.modularity(A, r):.4f}"
    else:
        info = f"Q={r:.4f} (random labels)"
    print(f"GPU {what} kron-{scale}: cold {times[0]:.4f} s, warm {times[1]:.4f} s; {info}",
          flush=True)
