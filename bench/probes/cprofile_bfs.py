import cProfile, pstats, sys
import cupy as cp
import semiring as sr, algorithms
from bench import generators as gen
S = gen.make_graph(gen.parse_graph_spec(sys.argv[1]), xp=cp)
A = sr.Matrix.from_cupyx(S)
source = int(cp.argmax(cp.diff(A.indptr) > 0))
for _ in range(3): algorithms.bfs(A, source, symmetric=True)
cp.cuda.Device().synchronize()
pr = cProfile.Profile(); pr.enable()
for _ in range(20): algorithms.bfs(A, source, symmetric=True)
cp.cuda.Device().synchronize()
pr.disable()
st = pstats.Stats(pr); st.sort_stats("tottime").print_stats(35)
