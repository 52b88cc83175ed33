#!/usr/bin/env bash
# Set everything up, then play a short Akinator benchmark on the embedded local model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "==> playing 3 Akinator games: local/qwen2.5-coder-1.5b guesses, the same model answers"
exec .venv/bin/playeval run akinator --models local/qwen2.5-coder-1.5b --opponent local/qwen2.5-coder-1.5b \
  --n 3 --seed 0 "$@"
