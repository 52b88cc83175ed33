"""bench/served_format.py end to end: llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with the smallest
packaged model, two Bluffing matches through ``openai/served`` (the grammar sent) and through
``openai/served?format=parse`` (nothing sent). Slow: it may install the server's extras and loads a model."""

from __future__ import annotations

from pathlib import Path

import pytest
import served_format


@pytest.mark.slow
@pytest.mark.llm
def test_the_grammar_reaches_a_real_server_and_no_reply_is_rejected(tmp_path: Path) -> None:
    with served_format.served("smollm2-135m", threads=2) as base_url:
        sent = served_format.play(base_url, "bluffing", "auto", 2, 0, tmp_path)
        parsed = served_format.play(base_url, "bluffing", "parse", 2, 0, tmp_path)
    assert sent.matches == parsed.matches == 2
    assert sent.replies > 0 and sent.rejected == 0 and sent.forfeits == 0
    assert sent.output_paths == {"llama_grammar": sent.replies}
    assert set(parsed.output_paths) == {"parse"} and sum(parsed.output_paths.values()) == parsed.replies
    assert "openai/served?format=parse" in served_format.table([sent, parsed])
