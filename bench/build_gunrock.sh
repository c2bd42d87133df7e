#!/usr/bin/env bash
# Build Gunrock essentials' bfs, sssp, pr and tc examples for bench/peers_gunrock.py, offline.
#
#   bash bench/build_gunrock.sh SRC OUT [ARCH]
#
# SRC holds the sources side by side (no network is used):
#   SRC/essentials   github.com/gunrock/essentials (tested: 70c92f6, 2022-09-18)
#   SRC/thrust       NVIDIA/thrust at tag 1.17.0, with NVIDIA/cub 1.17.0 in thrust/dependencies/cub
#   SRC/moderngpu    moderngpu/moderngpu (master)
#   SRC/cxxopts      jarro2783/cxxopts v3.0.0
#   SRC/rapidjson    Tencent/rapidjson (master)
#   SRC/json         nlohmann/json v3.10.5
# The two patches of bench/ are applied to SRC/essentials (once): gunrock-essentials-cuda13.patch
# (CUDA 13 removed cudaDeviceProp::clockRate / memoryClockRate; sm_89 / sm_90 launch-box flags)
# and gunrock-examples-bench.patch (the examples' GUNROCK_BENCH_* hooks: trials in one process,
# the result vector written out, pr's tolerance).
#
# Each example is one nvcc call (CMake's flags for Release: -O3, --use_fast_math,
# --expt-extended-lambda, --expt-relaxed-constexpr, -rdc=true, C++17), not CMake: essentials'
# CMake target links -lcuda -lcurand -lcusparse, which these four examples do not use (they
# link without them) and a toolkit without those libraries cannot give. The runtime is
# static (cudart_static, libstdc++ and libgcc static), so the binaries need only glibc and the
# NVIDIA driver at run time: `ldd OUT/bfs` lists libc only. ARCH: 90 (H100/H200) by default.
# About 15 s and 0.7 GB an example on one core; binaries stripped, ~3.7 MB each.
set -euo pipefail
SRC=$(cd "$1" && pwd)
OUT=$2
ARCH=${3:-90}
HERE=$(cd "$(dirname "$0")" && pwd)
E=$SRC/essentials
mkdir -p "$OUT"
if [[ ! -f $E/examples/algorithms/bench_io.hxx ]]; then
  (cd "$E" && patch -p1 --forward < "$HERE/gunrock-essentials-cuda13.patch" \
          && patch -p1 --forward < "$HERE/gunrock-examples-bench.patch")
fi
for ex in bfs sssp pr tc; do
  echo "building $ex (sm_$ARCH)" >&2
  nvcc -std=c++17 -gencode "arch=compute_$ARCH,code=sm_$ARCH" -O3 -Xcompiler -O3 \
    --expt-extended-lambda --expt-relaxed-constexpr --use_fast_math -rdc=true \
    -DSM_TARGET="$ARCH" -DESSENTIALS_VERSION=2.0.0 \
    -I"$E/include" -I"$SRC/cxxopts/include" -I"$SRC/thrust" -I"$SRC/thrust/dependencies/cub" \
    -I"$SRC/moderngpu/src" -I"$SRC/rapidjson/include" -I"$SRC/json/include" \
    -Xcompiler -Wno-unused-result,-Wno-unused-local-typedefs,-Wno-strict-aliasing \
    -Xcompiler -Wno-unused-function,-Wno-format-security,-Wno-deprecated-declarations \
    "$E/examples/algorithms/$ex/$ex.cu" "$E/include/gunrock/util/gitsha1make.c" \
    "$E/include/gunrock/io/detail/mmio.cpp" \
    -cudart static -Xcompiler -static-libstdc++,-static-libgcc -o "$OUT/$ex"
  strip "$OUT/$ex"
done
ldd "$OUT/bfs" >&2 || true
