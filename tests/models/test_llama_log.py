"""llama.cpp's log reaches Python logging as errors only, and its mislabelled notes do not reach the console."""

from __future__ import annotations

import ctypes
import logging

import pytest

from playeval.models.providers.llama_loader import _llama_log

NULL = ctypes.c_void_p(0)


def test_errors_are_logged_as_errors(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="playeval.llama"):
        _llama_log(3, b"llama_model_load: error loading model: bad magic\n", NULL)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.ERROR, "llama_model_load: error loading model: bad magic")]


def test_swa_note_is_debug_and_other_levels_are_dropped(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="playeval.llama"):
        _llama_log(3, b"llama_kv_cache_iswa: using full-size SWA cache (ref: ...)\n", NULL)
        _llama_log(2, b"llama_context: n_ctx = 512\n", NULL)
        _llama_log(4, b"debug chatter\n", NULL)
    assert [r.levelno for r in caplog.records] == [logging.DEBUG]
    assert "full-size SWA cache" in caplog.records[0].getMessage()


def test_qwen_vocabulary_note_is_debug(caplog: pytest.LogCaptureFixture) -> None:
    """Seen at every load of Qwen2.5-Coder's file, in the middle of a person's terminal game."""
    with caplog.at_level(logging.DEBUG, logger="playeval.llama"):
        _llama_log(3, b"load: control-looking token: 128247 '</s>' was not control-type; this is probably a bug "
                      b"in the model. its type will be overridden\n", NULL)
    assert [r.levelno for r in caplog.records] == [logging.DEBUG]
