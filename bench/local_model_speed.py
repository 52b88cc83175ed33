"""Prompt and generation speed of a local model through llama.cpp, as playeval loads it.

    python bench/local_model_speed.py [--model qwen2.5-coder-1.5b] [--prompt-tokens 1000] [--gen-tokens 96]

Prints tokens/s for reading a fresh prompt (no prefix reuse) and for
generating, plus whether the AMX guard is in force.
"""

from __future__ import annotations

import argparse
import os
import time

from playeval.models.catalog import LOCAL_MODELS
from playeval.models.errors import ModelError
from playeval.models.providers.local import require_llama_cpp
from playeval.models.weights import default_model_dir, resolve_weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--prompt-tokens", type=int, default=1000)
    parser.add_argument("--gen-tokens", type=int, default=96)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    try:
        require_llama_cpp(f"local/{args.model}")
    except ModelError as err:
        raise SystemExit(f"error: {err}") from None
    from playeval.models.providers.llama_loader import amx_compiled, load_llama, use_extra_buffers

    path = resolve_weights(LOCAL_MODELS[args.model].weights, default_model_dir())
    extra = use_extra_buffers(None)
    started = time.perf_counter()
    llm = load_llama(path, n_ctx=args.prompt_tokens + args.gen_tokens + 64, n_threads=args.threads, seed=1,
                     extra_buffers=extra)
    load_s = time.perf_counter() - started

    words = " ".join(f"item{i}" for i in range(args.prompt_tokens))
    prompt = llm.tokenize(words.encode())[: args.prompt_tokens]
    started = time.perf_counter()
    llm.eval(prompt)
    prompt_s = time.perf_counter() - started

    llm.reset()
    started = time.perf_counter()
    out = llm.create_completion("Once upon a time", max_tokens=args.gen_tokens, temperature=0.0, stop=[])
    gen_s = time.perf_counter() - started
    generated = out["usage"]["completion_tokens"]  # type: ignore[index]

    print(f"model {args.model}  threads {args.threads}  AMX build {amx_compiled()}  extra buffers {extra}  "
          f"load {load_s:.1f} s")
    print(f"prompt     {len(prompt):5d} tokens {prompt_s:7.2f} s {len(prompt) / prompt_s:8.1f} tok/s")
    print(f"generation {generated:5d} tokens {gen_s:7.2f} s {generated / gen_s:8.1f} tok/s")


if __name__ == "__main__":
    main()
