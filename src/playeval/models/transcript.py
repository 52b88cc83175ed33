"""Plain-text transcripts for base (not instruction-tuned) models, which have no chat template."""

from __future__ import annotations

from collections.abc import Sequence

from playeval.core.messages import Message

_SPEAKERS = {"system": "System", "user": "User", "assistant": "Assistant"}

TURN_MARKERS: tuple[str, ...] = ("\nUser:", "\nAssistant:", "\nSystem:")
"""Where a completion of a transcript must stop: the start of the next turn."""


def render_transcript(messages: Sequence[Message]) -> str:
    """Render a conversation as a dialogue the base model continues after ``Assistant:``.

    Leading system messages become a preamble paragraph; every later turn is a
    ``User: ...``, ``Assistant: ...`` or ``System: ...`` line.
    """
    index = 0
    preamble: list[str] = []
    while index < len(messages) and messages[index].role == "system":
        if messages[index].content.strip():
            preamble.append(messages[index].content.strip())
        index += 1
    turns = [f"{_SPEAKERS[m.role]}: {m.content.strip()}" for m in messages[index:]]
    body = "\n".join([*turns, "Assistant:"])
    head = "\n\n".join(preamble)
    return f"{head}\n\n{body}" if head else body
