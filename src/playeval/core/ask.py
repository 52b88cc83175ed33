"""What a game asks of one seat, and the seat's reply."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from playeval.core.messages import Message, assistant, user


class OutputConstraint(BaseModel):
    """The shape a reply must take, for backends that can enforce it.

    ``choices``: the reply is exactly one of these strings.
    ``grammar``: a GBNF grammar (llama.cpp) the reply must match.
    Backends that cannot enforce a constraint ignore it; the game's parser
    still checks the reply and the engine re-asks on a format error.
    """

    model_config = ConfigDict(frozen=True)

    choices: tuple[str, ...] | None = None
    grammar: str | None = None


class Ask(BaseModel):
    """A request for one move from one seat.

    ``messages`` is the conversation as a model in this seat sees it (system
    prompt first). ``display`` and ``instructions`` are what a person in the
    seat is shown. ``attempt`` counts re-asks after rejected replies.
    """

    model_config = ConfigDict(frozen=True)

    seat: str
    kind: str
    messages: tuple[Message, ...]
    display: str
    instructions: str
    constraint: OutputConstraint | None = None
    max_tokens: int = 96
    attempt: int = 0

    def retry(self, rejected_text: str, reason: str) -> Ask:
        """The same ask again, with the rejected reply and the reason appended."""
        note = f"Your reply was not accepted: {reason} Please reply again, following the rules."
        return self.model_copy(
            update={
                "messages": (*self.messages, assistant(rejected_text), user(note)),
                "display": f"Not accepted: {reason}\n{self.display}",
                "attempt": self.attempt + 1,
            }
        )


class CallRecord(BaseModel):
    """One model call behind a reply, as the store records it."""

    model: str
    messages: tuple[Message, ...]
    params: dict[str, object] = Field(default_factory=dict)
    raw_output: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    attempts: int = 1


class Reply(BaseModel):
    """What a player returns: the text of its move and the model calls behind it."""

    text: str
    calls: tuple[CallRecord, ...] = ()
