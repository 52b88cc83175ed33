"""Where a real local-model run's time goes: whole playeval runs timed as a user starts them, and raw llama.cpp
generation beside them.

Each command (``playeval run ...``) runs in its own process, ``python -m playeval.cli.main run ... --no-cache
--db sqlite:///TMP/x.db``, so nothing is served from the response cache and nothing of one command's models
stays loaded for the next. The child's wall time and peak RSS (``ru_maxrss`` from ``os.wait4``) are measured from
outside; then the run's model calls are read from its database and summed per model: model-call time (the sum of
the calls' latencies), prompt tokens sent, evaluated and needed (what a perfect prefix cache would have computed;
recorded only by a playeval whose local backend reports them, else ``-``) and their ratio, completion tokens,
and tokens per second in (evaluated / prompt seconds) and out (completion tokens / generation seconds).

``--ref GITREF`` first runs the same commands from a detached git worktree of that ref (under /tmp, removed
afterwards; its ``src`` first on ``PYTHONPATH``), then from this checkout, and prints the two side by side with
the change in %.

``--raw MODEL`` measures llama.cpp itself through its C API alone (no playeval code but the weights' path): one
context, a short chat prompt decoded (once untimed first, to page the weights in), then 64 tokens generated one
at a time, greedily without a grammar and
with llama.cpp's grammar sampler in front of the greedy one (``root ::= [a-z ]{1,200}``, which does not force an
early end); tokens per second of each, the reference playeval's own generation rate compares with.

    python bench/real_model.py [--ref main] [--commands "run taboo --models local/smollm2-135m --n 1" ...]
    python bench/real_model.py --models local/smollm2-135m        # the default commands with other models
    python bench/real_model.py --raw local/smollm2-135m --commands  # raw llama.cpp only (no commands)
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import importlib.util
import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from playeval.core.work import WorkTotals

REPO = Path(__file__).resolve().parent.parent
DEFAULT_COMMANDS = (
    "run math --models local/qwen2.5-coder-1.5b --n 3 --seed 1",
    "run undercover --models local/qwen2.5-coder-1.5b,local/smollm2-135m --n 1 --seed 1",
)
RAW_TOKENS = 64
RAW_GRAMMAR = "root ::= [a-z ]{1,200}"
RAW_PROMPT = "Tell me a long story about a fox who lives in a forest, in plain lowercase words."
_WORK_COLUMNS = ("prompt_evaluated", "prompt_needed", "prompt_s", "generation_s")
"""Columns of ``model_calls`` (store migration 0006) a run recorded by an older playeval lacks."""


# -- whole runs -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelFigures:
    """One model's calls in one run, summed; the work figures (``core.work.WorkTotals``: ``None`` when no call
    reported them) are read through ``evaluated``, ``needed``, ``ratio`` and the rates."""

    model: str
    calls: int = 0
    cached: int = 0
    call_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    work: WorkTotals = field(default_factory=WorkTotals)

    @property
    def evaluated(self) -> int | None:
        return self.work.prompt_evaluated

    @property
    def needed(self) -> int | None:
        return self.work.prompt_needed

    @property
    def generation_s(self) -> float | None:
        return self.work.generation_s

    @property
    def ratio(self) -> float | None:
        """Prompt tokens evaluated per token needed (1.00: no prefix reuse missed)."""
        return self.work.excess

    @property
    def rate_in(self) -> float | None:
        return self.work.prompt_rate

    @property
    def rate_out(self) -> float | None:
        return self.work.generation_rate

    def __add__(self, other: ModelFigures) -> ModelFigures:
        return ModelFigures(
            model=self.model, calls=self.calls + other.calls, cached=self.cached + other.cached,
            call_s=self.call_s + other.call_s, prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens, work=self.work + other.work)


@dataclass(frozen=True)
class RunFigures:
    """One command as one checkout ran it: its exit code, wall time, the child's peak RSS, and its calls."""

    command: str
    side: str
    exit_code: int
    wall_s: float
    peak_rss_mb: float
    models: tuple[ModelFigures, ...] = field(default_factory=tuple)
    log: Path | None = None
    transcript: str = ""
    """A digest of the run's transcripts: every match's outcome and every call's prompt and reply, in order."""

    @property
    def total(self) -> ModelFigures:
        total = ModelFigures(model="total")
        for figures in self.models:
            total = total + figures
        return total


def read_calls(db_path: Path) -> tuple[ModelFigures, ...]:
    """Every stored model call of the database at ``db_path``, summed per model in order of first call. Reads
    plain SQL, so a database an older playeval wrote (without the work columns) reads too."""
    if not db_path.exists():
        return ()
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as connection:
        columns = {row[1] for row in connection.execute("PRAGMA table_info(model_calls)")}
        if not columns:
            return ()
        work = [f"SUM({name})" if name in columns else "NULL" for name in _WORK_COLUMNS]
        generated = ("SUM(CASE WHEN generation_s IS NOT NULL THEN completion_tokens ELSE 0 END)"
                     if "generation_s" in columns else "0")
        present = [f"{name} IS NOT NULL" for name in _WORK_COLUMNS if name in columns]
        reported = f"SUM(CASE WHEN {' OR '.join(present)} THEN 1 ELSE 0 END)" if present else "0"
        rows = connection.execute(
            f"SELECT model, COUNT(*), SUM(cached), SUM(latency_s), SUM(prompt_tokens), SUM(completion_tokens), "
            f"{', '.join(work)}, {generated}, {reported} FROM model_calls GROUP BY model ORDER BY MIN(id)").fetchall()
    return tuple(
        ModelFigures(model=model, calls=calls, cached=int(cached or 0), call_s=float(call_s or 0.0),
                     prompt_tokens=int(prompt or 0), completion_tokens=int(completion or 0),
                     work=WorkTotals(calls=int(reported or 0),
                                     prompt_evaluated=None if evaluated is None else int(evaluated),
                                     prompt_needed=None if needed is None else int(needed),
                                     prompt_s=None if prompt_s is None else float(prompt_s),
                                     generation_s=None if generation_s is None else float(generation_s),
                                     generated_tokens=int(tokens or 0)))
        for model, calls, cached, call_s, prompt, completion, evaluated, needed, prompt_s, generation_s, tokens,
        reported in rows)


def transcript_digest(db_path: Path) -> str:
    """SHA-256 over each match's game, level, seed, status and outcome and each of its calls' seat, role, model,
    messages and reply, matches in plan order, calls in the order made: equal digests, byte-identical transcripts
    (ids, times and token timings left out)."""
    if not db_path.exists():
        return ""
    digest = hashlib.sha256()
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as connection:
        for row in connection.execute("SELECT match_index, game, level, seed, status, outcome FROM matches "
                                      "ORDER BY match_index"):
            digest.update(repr(row).encode())
        for row in connection.execute(
                "SELECT m.match_index, c.seat, c.role, c.model, c.messages, c.raw_output FROM model_calls c "
                "JOIN matches m ON m.id = c.match_id ORDER BY m.match_index, c.id"):
            digest.update(repr(row).encode())
    return digest.hexdigest()


def command_argv(command: str, db_url: str) -> list[str]:
    """The child's argv: playeval's CLI module with the command, no response cache, and its own database."""
    words = shlex.split(command)
    return [sys.executable, "-m", "playeval.cli.main", *words, "--no-cache", "--db", db_url]


def check_command(command: str) -> str | None:
    """Why ``command`` cannot be benchmarked, or ``None``."""
    words = shlex.split(command)
    if not words or words[0] != "run":
        return f"{command!r}: a benchmarked command is a playeval run (starts with 'run')"
    if "--db" in words or "--no-cache" in words or "--resume" in words:
        return f"{command!r}: leave out --db, --no-cache and --resume (each run gets a fresh database, uncached)"
    return None


def with_models(command: str, models: str) -> str:
    """``command`` with its ``--models`` value replaced by ``models`` (added if it had none)."""
    words = shlex.split(command)
    for flag in ("--models", "-m"):
        if flag in words:
            at = words.index(flag)
            words[at + 1:at + 2] = [models]
            return shlex.join(words)
    return shlex.join([*words, "--models", models])


def run_command(command: str, src: Path, side: str, workdir: Path) -> RunFigures:
    """Run one command as a child with ``src`` first on ``PYTHONPATH``; its wall time and peak RSS come from
    ``os.wait4`` on that child alone."""
    db_path = workdir / "x.db"
    log = workdir / "output.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(src), os.environ.get("PYTHONPATH"))))}
    env.pop("PLAYEVAL_DB", None)
    argv = command_argv(command, f"sqlite:///{db_path}")
    print(f"[{side}] {command}", file=sys.stderr, flush=True)
    with log.open("wb") as out:
        started = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                 cwd=workdir)
        _, status, usage = os.wait4(child.pid, 0)
        wall_s = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return RunFigures(command=command, side=side, exit_code=child.returncode, wall_s=wall_s,
                      peak_rss_mb=usage.ru_maxrss / 1024, models=read_calls(db_path), log=log,
                      transcript=transcript_digest(db_path))


@contextmanager
def ref_checkout(ref: str) -> Iterator[Path]:
    """A detached git worktree of ``ref`` under /tmp, removed on the way out."""
    parent = Path(tempfile.mkdtemp(prefix="playeval-bench-ref-"))
    tree = parent / "tree"
    done = subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), ref],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        parent.rmdir()
        raise SystemExit(f"error: git worktree add {ref}: {done.stderr.strip().splitlines()[-1:]}")
    try:
        yield tree
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], capture_output=True,
                       check=False)
        subprocess.run(["git", "-C", str(REPO), "worktree", "prune"], capture_output=True, check=False)
        if parent.exists() and not any(parent.iterdir()):
            parent.rmdir()


def run_all(commands: Sequence[str], src: Path, side: str) -> list[RunFigures]:
    """Each command in a fresh temporary directory (its database and output), removed once its calls are read;
    a failed command's last lines of output are shown first."""
    results = []
    for command in commands:
        with tempfile.TemporaryDirectory(prefix="playeval-bench-run-") as workdir:
            result = run_command(command, src, side, Path(workdir))
            if result.exit_code != 0 and result.log is not None:
                tail = result.log.read_text(errors="replace").strip().splitlines()[-5:]
                print(f"[{side}] exit {result.exit_code}; the end of its output:", file=sys.stderr)
                for line in tail:
                    print(f"    {line}", file=sys.stderr)
        results.append(result)
    return results


# -- printing ------------------------------------------------------------------------------------------------


def _count(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _decimal(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


_HEADER = (f"{'model':<28} {'calls':>6} {'cached':>6} {'call s':>9} {'sent':>9} {'evaluated':>10} {'needed':>9} "
           f"{'ratio':>7} {'out':>8} {'tok/s in':>9} {'tok/s out':>9}")


def _row(figures: ModelFigures) -> str:
    return (f"{figures.model:<28} {figures.calls:>6} {figures.cached:>6} {figures.call_s:>9.1f} "
            f"{figures.prompt_tokens:>9,} {_count(figures.evaluated):>10} {_count(figures.needed):>9} "
            f"{_ratio(figures.ratio):>7} {figures.completion_tokens:>8,} {_decimal(figures.rate_in):>9} "
            f"{_decimal(figures.rate_out):>9}")


def format_run(result: RunFigures) -> str:
    """One command's figures: wall time and peak RSS, then a row per model and the total."""
    lines = [f"{result.command}  [{result.side}]",
             f"  wall {result.wall_s:.1f} s   peak RSS {result.peak_rss_mb:,.0f} MB   exit {result.exit_code}",
             f"  {_HEADER}"]
    lines += [f"  {_row(figures)}" for figures in (*result.models, result.total)]
    return "\n".join(lines)


def _figures(result: RunFigures) -> list[tuple[str, float | None]]:
    """The figures compared between two checkouts, labelled, run-wide first, then per model and in total."""
    found: list[tuple[str, float | None]] = [("wall s", result.wall_s), ("peak RSS MB", result.peak_rss_mb)]
    for figures in (*result.models, result.total):
        name = figures.model
        found += [(f"{name}: calls", figures.calls), (f"{name}: model-call s", figures.call_s),
                  (f"{name}: prompt tokens sent", figures.prompt_tokens),
                  (f"{name}: prompt evaluated", figures.evaluated), (f"{name}: prompt needed", figures.needed),
                  (f"{name}: evaluated / needed", figures.ratio),
                  (f"{name}: completion tokens", figures.completion_tokens),
                  (f"{name}: tok/s in", figures.rate_in), (f"{name}: tok/s out", figures.rate_out)]
    return found


def _value(label: str, value: float | None) -> str:
    if value is None:
        return "-"
    if label.endswith("/ needed"):  # before "needed" below, which this label also ends with
        return f"{value:.2f}x"
    if label.endswith(("calls", "tokens sent", "evaluated", "needed", "completion tokens")):
        return f"{value:,.0f}"
    return f"{value:,.1f}"


def change(before: float | None, after: float | None) -> str:
    """The change from ``before`` to ``after`` in %; ``-`` when either is unknown or ``before`` is 0."""
    if before is None or after is None or before == 0:
        return "-"
    return f"{(after - before) / before:+.1%}"


def format_compared(before: RunFigures, after: RunFigures) -> str:
    """One command as the ref and this checkout ran it, figure by figure, with the change in %."""
    lines = [before.command, f"  exit: {before.side} {before.exit_code}, {after.side} {after.exit_code}",
             f"  {'figure':<48} {before.side[:12]:>12} {after.side[:12]:>12} {'change':>8}"]
    old = dict(_figures(before))
    new = dict(_figures(after))
    for label in dict.fromkeys([*old, *new]):
        lines.append(f"  {label:<48} {_value(label, old.get(label)):>12} {_value(label, new.get(label)):>12} "
                     f"{change(old.get(label), new.get(label)):>8}")
    return "\n".join(lines)


# -- raw llama.cpp ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RawSpeed:
    label: str
    prompt_tokens: int
    prompt_s: float
    tokens: int
    generation_s: float
    text: str

    def line(self) -> str:
        return (f"  {self.label:<22} prompt {self.prompt_tokens:4d} tok {self.prompt_tokens / self.prompt_s:8.1f} tok/s"
                f"   generated {self.tokens:3d} tok {self.generation_s:6.2f} s "
                f"{self.tokens / self.generation_s if self.generation_s else 0.0:7.1f} tok/s   {self.text[:40]!r}")


def gguf_path(model: str) -> Path:
    """The GGUF file of a packaged local model (``local/NAME`` or ``NAME``), as playeval resolves it."""
    from playeval.models.catalog import LOCAL_MODELS
    from playeval.models.weights import default_model_dir, resolve_weights

    name = model.removeprefix("local/")
    if name not in LOCAL_MODELS:
        raise SystemExit(f"error: --raw: {model!r} is not a packaged local model ({', '.join(LOCAL_MODELS)})")
    return resolve_weights(LOCAL_MODELS[name].weights, default_model_dir())


def _threads() -> int:
    raw = os.environ.get("PLAYEVAL_THREADS", "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else os.cpu_count() or 2


def raw_speeds(path: Path, threads: int, tokens: int = RAW_TOKENS) -> list[RawSpeed]:
    """Greedy generation of ``tokens`` tokens through llama.cpp's C API, without and with a grammar sampler."""
    import llama_cpp as ll

    silent = ll.llama_log_callback(lambda level, text, data: None)
    ll.llama_log_set(silent, ctypes.c_void_p(0))
    ll.llama_backend_init()
    model_params = ll.llama_model_default_params()
    model_params.use_extra_bufts = False  # this machine's AMX kernels crash otherwise
    model = ll.llama_model_load_from_file(str(path).encode(), model_params)
    if not model:
        raise SystemExit(f"error: llama.cpp could not load {path}")
    context_params = ll.llama_context_default_params()
    context_params.n_ctx = 512
    context_params.n_batch = 512
    context_params.n_threads = threads
    context_params.n_threads_batch = threads
    context = ll.llama_init_from_model(model, context_params)
    if not context:
        ll.llama_model_free(model)
        raise SystemExit("error: llama.cpp could not create a context")
    vocab = ll.llama_model_get_vocab(model)
    try:
        prompt = _tokenize(ll, vocab, _chat_prompt(ll, model))
        _generate(ll, context, vocab, prompt, 4, grammar=None)  # untimed: the weights paged in, the graphs built
        return [_generate(ll, context, vocab, prompt, tokens, grammar=None),
                _generate(ll, context, vocab, prompt, tokens, grammar=RAW_GRAMMAR)]
    finally:
        ll.llama_free(context)
        ll.llama_model_free(model)
        ll.llama_log_set(ll.llama_log_callback(), ctypes.c_void_p(0))  # NULL: llama.cpp's own log (``silent`` dies)


def _chat_prompt(ll: ModuleType, model: object) -> bytes:
    """The prompt through the model's own chat template, or a plain transcript for a model without one."""
    template = ll.llama_model_chat_template(model, None)
    if not template:
        return f"User: {RAW_PROMPT}\nAssistant:".encode()
    messages = (ll.llama_chat_message * 1)(ll.llama_chat_message(b"user", RAW_PROMPT.encode()))
    size = ll.llama_chat_apply_template(template, messages, 1, True, None, 0)
    buffer = ctypes.create_string_buffer(size + 1)
    written = ll.llama_chat_apply_template(template, messages, 1, True, buffer, size + 1)
    return buffer.raw[:written]


def _tokenize(ll: ModuleType, vocab: object, text: bytes) -> Any:
    capacity = len(text) + 16
    tokens = (ll.llama_token * capacity)()
    count = ll.llama_tokenize(vocab, text, len(text), tokens, capacity, True, True)
    if count < 0:
        raise SystemExit("error: the prompt did not tokenize")
    return (ll.llama_token * count)(*tokens[:count])


def _generate(lib: ModuleType, context: object, vocab: object, prompt: Any, tokens: int, *,
              grammar: str | None) -> RawSpeed:
    """Decode the prompt in a cleared context, then sample and decode one token at a time (stopping early only
    at an end-of-generation token)."""
    lib.llama_memory_clear(lib.llama_get_memory(context), True)
    chain = lib.llama_sampler_chain_init(lib.llama_sampler_chain_default_params())
    if grammar is not None:
        constraint = lib.llama_sampler_init_grammar(vocab, grammar.encode(), b"root")
        if not constraint:
            raise SystemExit(f"error: llama.cpp refused the grammar {grammar!r}")
        lib.llama_sampler_chain_add(chain, constraint)
    lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_greedy())
    try:
        started = time.perf_counter()
        if lib.llama_decode(context, lib.llama_batch_get_one(prompt, len(prompt))) != 0:
            raise SystemExit("error: llama.cpp could not decode the prompt")
        lib.llama_synchronize(context)
        prompt_s = time.perf_counter() - started
        pieces: list[bytes] = []
        one = (lib.llama_token * 1)()
        piece = ctypes.create_string_buffer(64)
        started = time.perf_counter()
        for _ in range(tokens):
            token = lib.llama_sampler_sample(chain, context, -1)  # and accepts it: the grammar moves on
            if lib.llama_vocab_is_eog(vocab, token):
                break
            length = lib.llama_token_to_piece(vocab, token, piece, len(piece), 0, False)
            pieces.append(piece.raw[:max(length, 0)])
            one[0] = token
            if lib.llama_decode(context, lib.llama_batch_get_one(one, 1)) != 0:
                raise SystemExit("error: llama.cpp could not decode a generated token")
        lib.llama_synchronize(context)
        generation_s = time.perf_counter() - started
    finally:
        lib.llama_sampler_free(chain)
    label = "greedy" if grammar is None else "grammar + greedy"
    return RawSpeed(label=label, prompt_tokens=len(prompt), prompt_s=prompt_s, tokens=len(pieces),
                    generation_s=generation_s, text=b"".join(pieces).decode("utf-8", "replace"))


# -- main ------------------------------------------------------------------------------------------------------


def report_reruns(commands: Sequence[str], reruns: list[list[RunFigures]]) -> None:
    """Each command's wall times over the reruns and whether every rerun's transcript digest was the same."""
    for index, command in enumerate(commands):
        runs = [rerun[index] for rerun in reruns]
        digests = {run.transcript for run in runs}
        same = "identical" if len(digests) == 1 and "" not in digests else "DIFFERENT"
        walls = ", ".join(f"{run.wall_s:.1f}" for run in runs)
        print(f"{command}: {len(runs)} runs, wall s {walls}; transcripts {same} ({sorted(digests)[0][:12]})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", nargs="*", default=None, metavar="COMMAND",
                        help="playeval run commands, each one quoted argument (default: the two of the docstring); "
                             "given with none, no run is made (with --raw alone)")
    parser.add_argument("--models", help="the default commands (or --commands) with this --models value instead")
    parser.add_argument("--ref", metavar="GITREF", help="also run the commands from this git ref, first, and compare")
    parser.add_argument("--raw", metavar="MODEL", help="raw llama.cpp generation speed of this local model")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run this checkout's commands N times and say whether the transcripts were identical")
    parser.add_argument("--threads", type=int, default=None,
                        help="llama.cpp threads for --raw (default: $PLAYEVAL_THREADS, else the cores)")
    args = parser.parse_args(argv)
    commands = list(DEFAULT_COMMANDS if args.commands is None else args.commands)
    if args.models:
        commands = [with_models(command, args.models) for command in commands]
    for command in commands:
        problem = check_command(command)
        if problem:
            parser.error(problem)
    if args.threads is not None and args.threads < 1:
        parser.error("--threads must be at least 1")
    if args.raw and importlib.util.find_spec("llama_cpp") is None:
        parser.error("--raw needs the embedded model, playeval's [local] extra: pip install 'playeval[local]'")

    current_src = REPO / "src"
    if commands:
        if args.ref:
            with ref_checkout(args.ref) as tree:
                before = run_all(commands, tree / "src", args.ref)
            after = run_all(commands, current_src, "this checkout")
            for old, new in zip(before, after, strict=True):
                print(format_compared(old, new))
                print()
        else:
            after = run_all(commands, current_src, "this checkout")
            for result in after:
                print(format_run(result))
                print()
        if args.repeat > 1:
            reruns = [after, *(run_all(commands, current_src, f"this checkout, run {k + 1}")
                               for k in range(1, args.repeat))]
            report_reruns(commands, reruns)
        print("call s: the sum of the calls' latencies (model-call time); sent: prompt tokens of every call; "
              "evaluated / needed: prompt tokens the backend computed and what a perfect prefix cache would have "
              "(- where the playeval that ran recorded none); tok/s in: evaluated per prompt second; tok/s out: "
              "completion tokens per generation second; peak RSS: the run's process (ru_maxrss).")
    if args.raw:
        threads = args.threads or _threads()
        path = gguf_path(args.raw)
        print(f"raw llama.cpp, {args.raw} ({path.name}), {threads} threads, {RAW_TOKENS} tokens, "
              f"grammar {RAW_GRAMMAR!r}, extra buffer types off")
        for speed in raw_speeds(path, threads):
            print(speed.line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
