#!/usr/bin/env bash
# Set everything up, then serve the web arena on the embedded local model (extra arguments go to `playeval serve`;
# --mock-player also offers mock/player, which replies at once, beside the local model).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
model="local/qwen2.5-coder-1.5b"
games="$(.venv/bin/python -c 'from playeval.core.registry import default_registry
from playeval.web.pages import offered_games
print(offered_games(default_registry()))')"
echo "==> starting the arena: people play ${games} against ${model}"
exec .venv/bin/playeval serve --models "$model" "$@"
