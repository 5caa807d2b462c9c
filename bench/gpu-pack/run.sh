#!/usr/bin/env bash
# Worldloom's GPU bench in one run (docs/models.md "GPU figures"): make a checkpoint with
# Qwen3.5-35B-A3B's per-layer sizes (8 layers in its pattern: three linear-attention layers, then
# one full-attention layer; random weights) with this machine's PyTorch and transformers, write it
# and its first 4 layers as GGUF f16, quantise those to q8_0 and Q4_K_M with the llama.cpp
# node-llama-cpp ships (worldloom quantize's code), and measure them through Worldloom's GGUF engine on the GPU
# (llama.cpp's Vulkan build) and on the CPU: prompt reading, decode at 1, 8 and 32 parallel
# sequences, memory, each decode rate against the bandwidth limit, and the 40-layer model's rates
# projected from the two depths. One JSON under $OUT (or --out), within 8 minutes.
#
# Three places it runs from, the same script in each:
#   beside the archive (dist/gpu-pack/run.sh): unpacks worldloom-gpu-pack.tar.xz, runs the copy inside;
#   inside the unpacked pack: its own Node, bundled bench, packages, Python sources, wheel and .debs;
#   in the repository (bench/gpu-pack/run.sh, `npm run bench:gpu`): tsx and native/.venv.
#
# Usage: run.sh [--device gpu|cpu|both] [--small] [--out DIR]
#   --device  gpu: llama.cpp's Vulkan build; cpu: its CPU build; both (default): the GPU first
#   --small   the tiny preset's layers instead of the real sizes: a proof on a small machine in minutes
#   --out     folder for gpu-bench.json (default $OUT, else ./gpu-bench-out)
# Environment: PYTHON (a python with torch and transformers; default python3, in the repository
# native/.venv/bin/python), WORK (scratch folder; default a new temporary one, removed at the end),
# BENCH_BUDGET_SECONDS (default 480).
set -euo pipefail

started=${WORLDLOOM_GPU_RUN_STARTED:-$(date +%s)}
export WORLDLOOM_GPU_RUN_STARTED=$started
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { echo "run.sh [$(($(date +%s) - started)) s] $*" >&2; }
fail() { echo "run.sh: $*" >&2; exit 2; }

archive=$(ls "$here"/worldloom-gpu-pack.tar.xz "$here"/worldloom-gpu-pack.tar.zst 2>/dev/null | head -n 1 || true)
if [ ! -x "$here/bin/node" ] && [ -n "$archive" ]; then
  dest="${UNPACK_DIR:-$(mktemp -d)}"
  mkdir -p "$dest"
  log "unpacking $archive into $dest"
  case "$archive" in
    *.xz) tar -xJf "$archive" -C "$dest" ;;
    *.zst) zstd -dc "$archive" | tar -xf - -C "$dest" ;;
  esac
  exec "$dest/worldloom-gpu-pack/run.sh" "$@"
fi

device=both
small=0
out="${OUT:-$PWD/gpu-bench-out}"
while [ $# -gt 0 ]; do
  case "$1" in
    --device) device="${2:-}"; shift 2 ;;
    --small) small=1; shift ;;
    --out) out="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) fail "unknown option $1 (see run.sh --help)" ;;
  esac
done
case "$device" in
  gpu) devices=(--device vulkan) ;;
  cpu) devices=(--device cpu) ;;
  both) devices=(--device vulkan --device cpu) ;;
  *) fail "--device takes gpu, cpu or both, not '$device'" ;;
esac
budget=${BENCH_BUDGET_SECONDS:-480}
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ -n "${WORK:-}" ]; then work="$WORK"; mkdir -p "$work"; else work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT; fi

# The engines' record of model files already opened once (src-main/engine/model-probe.ts) stays in the scratch folder.
export WORLDLOOM_CACHE_DIR="$work/cache"

if [ -x "$here/bin/node" ]; then
  bench=("$here/bin/node" "$here/bench-gpu.js")
  python="${PYTHON:-python3}"
  # The carried wheel is pure Python: unzipped onto the path, no pip needed.
  "$python" -m zipfile -e "$(ls "$here"/wheels/gguf-*.whl | head -n 1)" "$work/site"
  export PYTHONPATH="$work/site:$here/python${PYTHONPATH:+:$PYTHONPATH}"
elif [ -f "$here/../../package.json" ] && [ -f "$here/../gpu.ts" ]; then
  root="$(cd "$here/../.." && pwd)"
  bench=("$root/node_modules/.bin/tsx" "$root/bench/gpu.ts")
  python="${PYTHON:-$root/native/.venv/bin/python}"
  export PYTHONPATH="$root/native${PYTHONPATH:+:$PYTHONPATH}"
else
  fail "neither an unpacked pack (bin/node) nor the repository's bench/ is beside me, nor the archive: run npm run bench:gpu:pack"
fi
"$python" -c 'import torch, transformers, gguf; from transformers import Qwen3_5MoeForCausalLM' 2>"$work/python-check.txt" ||
  fail "$python cannot import torch, transformers with Qwen3.5-MoE, or gguf: $(tail -n 1 "$work/python-check.txt"). Set PYTHON to one that can."

if [ "$device" != cpu ]; then
  # llama.cpp's Vulkan build loads libvulkan.so.1; a bare image may not have it. Unpacked under the
  # scratch folder, never over /, and found through LD_LIBRARY_PATH (which node-llama-cpp also reads).
  if ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1' && [ -d "$here/debs" ]; then
    for deb in "$here"/debs/*.deb; do dpkg -x "$deb" "$work/vulkan-root"; done
    export LD_LIBRARY_PATH="$work/vulkan-root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    log "Vulkan loader from the carried .debs ($(ls "$here"/debs | tr '\n' ' '))"
  fi
  nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] && [ -f "$nvidia_icd" ] && ! ls /usr/share/vulkan/icd.d/nvidia* /etc/vulkan/icd.d/nvidia* >/dev/null 2>&1; then
    export VK_DRIVER_FILES="$nvidia_icd"
    log "NVIDIA's Vulkan driver from $nvidia_icd"
  fi
fi

if [ "$small" = 1 ]; then
  preset=(--preset tiny)
  what="the tiny preset's layers (--small), 8 and 4 layers in the real pattern, random weights"
else
  # bfloat16, as the real checkpoints are stored: half the bytes to write and read back.
  preset=(--preset real-dims --dtype bfloat16)
  what="Qwen3.5-35B-A3B's per-layer sizes (hidden 2048, 256 experts top-8 + shared expert), 8 and 4 layers in the real pattern, random weights, tiny vocabulary"
fi
log "qwen35 from $("$python" -c 'import os, qwen35; print(os.path.dirname(qwen35.__file__))'), gguf from $("$python" -c 'import os, gguf; print(os.path.dirname(gguf.__file__))')"
log "making the checkpoint with $python (torch $("$python" -c 'import torch; print(torch.__version__)'), transformers $("$python" -c 'import transformers; print(transformers.__version__)'))"
"$python" -m qwen35.make_checkpoint --out "$work/hf8" --seed 7 --layers 8 --full-attention-interval 4 --context-length 8448 "${preset[@]}" >&2
"$python" -m qwen35.first_layers --from "$work/hf8" --out "$work/hf4" --layers 4 >&2
for layers in 8 4; do
  log "writing $layers layers as GGUF f16"
  "$python" -m qwen35.convert --to gguf --from "$work/hf$layers" --out "$work/layers$layers-f16.gguf" --type f16 >&2
done
rm -rf "$work/hf8" "$work/hf4"

left=$((budget - ($(date +%s) - started) - 20))
[ "$left" -gt 30 ] || fail "only $left s of the ${budget} s budget left after making the models; nothing measured"
log "quantising and measuring (${left} s left)"
"${bench[@]}" --model "$work/layers8-f16.gguf" --model "$work/layers4-f16.gguf" --quantize q4_k_m,q8_0 --drop-inputs "${devices[@]}" \
  --out "$out/gpu-bench.json" --deadline-seconds "$left" --checkpoint "$what"
log "done: $out/gpu-bench.json"
