"""Host-side cost of a warm fused PageRank on urand-10-ef4 (GPU input): events vs host time, and a cProfile."""
import cProfile, pstats, io, time
import numpy as np, cupy as cp
import algorithms as alg, semiring as sr
from bench import generators as gen
H = gen.make_graph(gen.parse_graph_spec("urand-10-ef4"), xp=np)
A = sr.Matrix.from_scipy(H, device="gpu")
f = lambda: alg.pagerank(A, 0.85, tol=1e-4 / A.nrows, max_iter=100, weighted=False)
for _ in range(5): f()
cp.cuda.Device().synchronize()
s, e = cp.cuda.Event(), cp.cuda.Event()
ev, host = [], []
for _ in range(50):
    s.record(); t = time.perf_counter(); f(); host.append(time.perf_counter() - t); e.record(); e.synchronize()
    ev.append(cp.cuda.get_elapsed_time(s, e))
print(f"events median {np.median(ev)*1e3:.1f} us, host median {np.median(host)*1e6:.1f} us")
# the kernel alone: the launcher with everything kept
K = __import__("semiring.backend.gpu.centrality", fromlist=["x"])
AT = A.T
g = lambda: K.pagerank(A, AT, False, 0.85, None, None, None, True, 1e-4, 100)
for _ in range(5): g()
ev2 = []
for _ in range(50):
    s.record(); g(); e.record(); e.synchronize(); ev2.append(cp.cuda.get_elapsed_time(s, e))
print(f"launcher alone: events median {np.median(ev2)*1e3:.1f} us; sweeps {g()[1]}")
pr = cProfile.Profile(); pr.enable()
for _ in range(50): f()
pr.disable(); out = io.StringIO(); pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(18); print(out.getvalue()[:4000])
# a sweep's cost: the slope between 12 and 112 sweeps (a threshold no change meets)
for sweeps in (12, 112):
    h = lambda: K.pagerank(A, AT, False, 0.85, None, None, None, True, 1e-300, sweeps)
    h(); ev3 = []
    for _ in range(30):
        s.record(); h(); e.record(); e.synchronize(); ev3.append(cp.cuda.get_elapsed_time(s, e))
    print(f"{sweeps} sweeps: {np.median(ev3)*1e3:.1f} us")
