"""How a model's reply format depends on how it is served: the same local model behind llama-cpp-python's
OpenAI-compatible server, played through ``openai/NAME`` (the game's constraint sent: the ``llama_grammar``
path, detected once) and through ``openai/NAME?format=parse`` (nothing sent: parse and re-ask).

Usage::

    .venv/bin/python bench/served_format.py [--model smollm2-135m] [--game bluffing] [--n 10] [--seed 0]

It serves ``local/MODEL``'s GGUF file with ``python -m llama_cpp.server`` on 127.0.0.1 (a free port), plays
``--n`` matches of ``--game`` with the served model in the evaluated seat and scripted opponents, once per
path, each run in its own SQLite store under a temporary directory, and prints per path: replies, rejected
replies (format or rule errors, re-asked), their share, forfeits, and the output paths the calls recorded.

The server needs the ``[server]`` extra of llama-cpp-python (sse-starlette, starlette-context,
pydantic-settings, python-dotenv). When the project's environment lacks them they are installed, without
their own dependencies and without rebuilding llama-cpp-python, into ``$PLAYEVAL_CACHE_DIR/served-deps``
(default ``~/.cache/playeval/served-deps``), which only the server process sees; one error line if that fails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from _support import free_port

from playeval.core.events import ReplyReceived, ReplyRejected
from playeval.models.catalog import LOCAL_MODELS
from playeval.models.weights import default_model_dir, resolve_weights
from playeval.store import Store

SERVER_EXTRAS = ("sse-starlette", "starlette-context", "pydantic-settings", "python-dotenv")
ALIAS = "served"
PATHS = ("auto", "parse")


class BenchError(Exception):
    """Something the benchmark needs is missing; the message is one line."""


@dataclass(frozen=True)
class PathFigures:
    fmt: str
    matches: int
    replies: int
    rejected: int
    forfeits: int
    output_paths: dict[str, int]

    @property
    def rejected_share(self) -> float:
        return self.rejected / self.replies if self.replies else 0.0


def deps_dir() -> Path:
    explicit = os.environ.get("PLAYEVAL_CACHE_DIR")
    base = Path(explicit).expanduser() if explicit else Path.home() / ".cache" / "playeval"
    return base / "served-deps"


def _server_env(extra: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(extra), env.get("PYTHONPATH", "")) if p)
    return env


def _imports_server(extra: Path) -> bool:
    probe = [sys.executable, "-c", "import llama_cpp.server.app"]
    return subprocess.run(probe, env=_server_env(extra), capture_output=True, check=False).returncode == 0


def ensure_server_deps() -> Path:
    """The directory holding the server's extra packages (installed there when the import fails)."""
    extra = deps_dir()
    if _imports_server(extra):
        return extra
    extra.mkdir(parents=True, exist_ok=True)
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(extra), *SERVER_EXTRAS]
    done = subprocess.run(install, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not _imports_server(extra):
        tail = (done.stderr.strip().splitlines() or ["import llama_cpp.server.app still fails"])[-1]
        raise BenchError(f"cannot install llama-cpp-python's server extras into {extra}: {tail}")
    return extra


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/v1/models", timeout=2) as response:
            return bool(response.status == 200 and json.loads(response.read()).get("data"))
    except (OSError, ValueError):
        return False


@contextmanager
def served(model: str, *, threads: int = 2, startup_s: float = 180.0) -> Iterator[str]:
    """``local/<model>``'s weights behind llama-cpp-python's server; yields its base URL (``.../v1``)."""
    spec = LOCAL_MODELS.get(model)
    if spec is None:
        raise BenchError(f"unknown local model {model!r}; known: {', '.join(LOCAL_MODELS)}")
    weights = resolve_weights(spec.weights, default_model_dir())
    extra = ensure_server_deps()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(weights), "--model_alias", ALIAS,
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", str(threads)]
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(command, env=_server_env(extra), stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + startup_s
            while not _ready(url):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    last = (log.read().decode(errors="replace").strip().splitlines() or ["no output"])[-1]
                    raise BenchError(f"llama-cpp-python's server did not start: {last}")
                time.sleep(0.5)
            yield f"{url}/v1"
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def play(base_url: str, game: str, fmt: str, n: int, seed: int, workdir: Path) -> PathFigures:
    """``n`` matches of ``game`` with ``openai/served`` (``?format=parse`` unless ``fmt`` is ``auto``)."""
    address = f"openai/{ALIAS}" if fmt == "auto" else f"openai/{ALIAS}?format={fmt}"
    db = f"sqlite:///{workdir / f'{fmt}.db'}"
    env = {**os.environ, "PLAYEVAL_DB": db, "PLAYEVAL_OPENAI_BASE_URL": base_url}
    env.pop("OPENAI_API_KEY", None)
    command = [str(Path(sys.executable).with_name("playeval")), "run", game, "--models", address,
               "--opponent", "scripted", "--n", str(n), "--seed", str(seed), "--no-cache"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"playeval run {game} --models {address} failed: {tail}")
    return figures(db, fmt)


def figures(db: str, fmt: str) -> PathFigures:
    """Replies, rejections, forfeits and output paths of the evaluated seats of the latest run in ``db``."""
    with Store.open(db) as store:
        run_id = store.latest_run_id()
        if run_id is None:
            raise BenchError(f"{db}: no run")
        replies = rejected = forfeits = 0
        paths: Counter[str] = Counter()
        matches = store.run_matches(run_id)
        for match in matches:
            seats = {s.seat for s in match.seats if s.player_kind == "llm"}
            for event in store.events(match.id):
                if isinstance(event, ReplyReceived) and event.seat in seats:
                    replies += 1
                elif isinstance(event, ReplyRejected) and event.seat in seats:
                    rejected += 1
            if match.outcome is not None and match.outcome.forfeit_seat in seats:
                forfeits += 1
            paths.update(str(call.output_path) for call in store.calls(match.id) if call.seat in seats)
    return PathFigures(fmt, len(matches), replies, rejected, forfeits, dict(paths))


def table(rows: Sequence[PathFigures]) -> str:
    heading = f"{'address':<28} {'matches':>7} {'replies':>7} {'rejected':>8} {'share':>6} {'forfeits':>8}"
    lines = [heading + "  output paths"]
    for row in rows:
        address = f"openai/{ALIAS}" + ("" if row.fmt == "auto" else f"?format={row.fmt}")
        paths = ", ".join(f"{path}: {count}" for path, count in sorted(row.output_paths.items()))
        lines.append(f"{address:<28} {row.matches:>7} {row.replies:>7} {row.rejected:>8} "
                     f"{row.rejected_share:>6.0%} {row.forfeits:>8}  {paths}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--model", default="smollm2-135m", help="a built-in local model (default: smollm2-135m)")
    parser.add_argument("--game", default="bluffing", help="game id (default: bluffing)")
    parser.add_argument("--n", type=int, default=10, help="matches per path (default: 10)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2, help="the server's CPU threads (default: 2)")
    args = parser.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory() as tmp, served(args.model, threads=args.threads) as base_url:
            print(f"serving local/{args.model} at {base_url} (llama-cpp-python); {args.n} {args.game} matches "
                  f"per path, scripted opponents, seed {args.seed}", flush=True)
            rows = []
            for fmt in PATHS:
                started = time.perf_counter()
                rows.append(play(base_url, args.game, fmt, args.n, args.seed, Path(tmp)))
                print(f"  {fmt}: {time.perf_counter() - started:.0f} s", flush=True)
            print(table(rows))
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
