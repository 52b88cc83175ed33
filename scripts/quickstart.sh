#!/usr/bin/env bash
# Set everything up, then serve the web arena on the embedded local model (extra arguments go to `playeval serve`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "==> starting the arena: people play Akinator, Taboo and Bluffing against local/qwen2.5-coder-1.5b"
exec .venv/bin/playeval serve --models local/qwen2.5-coder-1.5b "$@"
