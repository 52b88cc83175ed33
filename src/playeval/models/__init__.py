"""The model layer: one ``Model`` wrapper over thin providers (local llama.cpp, OpenAI-compatible, Anthropic, mock).

Create a ``ModelHub`` and ask it for models by address::

    hub = ModelHub()
    model = hub.get("local/qwen2.5-coder-1.5b")
    response = await model.generate(ModelRequest(messages=(user("Hello"),)))
    await hub.aclose()

Models never touch the playeval store; their response cache is a separate file.
"""

from playeval.models.cache import ResponseCache, default_cache_path
from playeval.models.calibration import (
    Calibration,
    CalibrationEntry,
    CalibrationError,
    calibration_dirs,
    find_calibration,
    load_calibration,
    model_identity,
    save_calibration,
)
from playeval.models.catalog import DEFAULT_MODEL, KNOWN_LOCAL_MODELS
from playeval.models.errors import (
    MissingAPIKey,
    MissingExtra,
    MissingWeights,
    ModelError,
    TransientModelError,
    UnknownModel,
)
from playeval.models.model import MAX_TIMEOUT_S, Model, check_timeout, to_call_record
from playeval.models.providers.mock import MockScript
from playeval.models.registry import ModelHub
from playeval.models.types import GenerationConfig, ModelRequest, ModelResponse, Provider, ProviderResult
from playeval.models.usage import Usage

__all__ = [
    "DEFAULT_MODEL",
    "KNOWN_LOCAL_MODELS",
    "MAX_TIMEOUT_S",
    "Calibration",
    "CalibrationEntry",
    "CalibrationError",
    "GenerationConfig",
    "MissingAPIKey",
    "MissingExtra",
    "MissingWeights",
    "MockScript",
    "Model",
    "ModelError",
    "ModelHub",
    "ModelRequest",
    "ModelResponse",
    "Provider",
    "ProviderResult",
    "ResponseCache",
    "TransientModelError",
    "UnknownModel",
    "Usage",
    "calibration_dirs",
    "check_timeout",
    "default_cache_path",
    "find_calibration",
    "load_calibration",
    "model_identity",
    "save_calibration",
    "to_call_record",
]
