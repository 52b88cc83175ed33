"""What a game asks of one seat, and the seat's reply."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from playeval.core.messages import Message, assistant, user
from playeval.core.verdicts import VerdictQuestion, VerdictRecord
from playeval.core.work import WorkTotals


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


REFUSED = "Not accepted: "
"""How ``Ask.retry`` opens a re-ask's display, one line per refusal: this, then the reason (a person's terminal
reads the newest reason back from it)."""


class NumberedReply(BaseModel):
    """A reply of ``count`` numbered lines, ``<n>. <answer>`` (a check of items), each answer one of ``choices``
    when given; ``skip`` is a word that stands for the whole reply. The game's parser still reads the reply: this
    only lets a person's terminal take the answers one per line, or all on one line, and say at once what is
    wrong with a line."""

    model_config = ConfigDict(frozen=True)

    count: int = Field(ge=1)
    choices: tuple[str, ...] | None = None
    skip: str | None = None
    whole_numbers: bool = False
    """Each answer is a whole number (the Math Game's next values), where there are no ``choices``."""


class Ask(BaseModel):
    """A request for one move from one seat, or from one role (a judge, a game master).

    ``messages`` is the conversation as a model in this seat sees it (system
    prompt first). ``display`` and ``instructions`` are what a person in the
    seat is shown; ``max_chars`` is the longest reply the rules take from a
    person (``None`` when the reply is one of ``constraint.choices``), and
    ``one_line`` says that the reply must fit on one line, ``numbered`` that it is numbered lines of answers.
    ``attempt`` counts re-asks after rejected replies. ``verdict``: the ask is a judge's question, and this says
    where its reply holds the answer words and which accept (``core.verdicts``), so a model's probabilities for
    them are recorded and a calibrated threshold can decide.
    """

    model_config = ConfigDict(frozen=True)

    seat: str | None = None
    role: str | None = None
    kind: str
    messages: tuple[Message, ...]
    display: str
    instructions: str
    constraint: OutputConstraint | None = None
    max_tokens: int = 96
    max_chars: int | None = None
    one_line: bool = False
    numbered: NumberedReply | None = None
    attempt: int = 0
    verdict: VerdictQuestion | None = None

    @model_validator(mode="after")
    def _one_party(self) -> Ask:
        if (self.seat is None) == (self.role is None):
            raise ValueError("an ask goes to exactly one seat or one role")
        return self

    @property
    def party(self) -> str:
        """The seat or role asked."""
        return self.seat if self.seat is not None else str(self.role)

    def retry(self, rejected_text: str, reason: str) -> Ask:
        """The same ask again, with the rejected reply and the reason appended."""
        note = f"Your reply was not accepted: {reason} Please reply again, following the rules."
        return self.model_copy(
            update={
                "messages": (*self.messages, assistant(rejected_text), user(note)),
                "display": f"{REFUSED}{reason}\n{self.display}",
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
    cost_usd: float | None = None
    """The call's price from the price table: 0 for a cached call, ``None`` when the model has no known price."""
    output_path: str | None = None
    """How the reply's format was enforced: ``grammar``, ``json_schema``, ``llama_grammar``, ``guided`` or
    ``parse``; ``None`` when the request carried no constraint."""
    prompt_evaluated: int | None = None
    """Prompt tokens the backend computed (a reused cached prefix is not); ``None`` for a cached call and from a
    provider that cannot tell."""
    prompt_needed: int | None = None
    """Prompt tokens a perfect prefix cache would have computed (the prompt minus its longest common prefix with
    an earlier prompt and reply of the same model); ``None`` when not reported."""
    prompt_s: float | None = None
    """Seconds spent evaluating the prompt; ``None`` when not reported."""
    generation_s: float | None = None
    """Seconds spent generating the reply; ``None`` when not reported."""

    @property
    def work(self) -> WorkTotals:
        """The call's work figures, to sum with others'."""
        return WorkTotals.of(prompt_evaluated=self.prompt_evaluated, prompt_needed=self.prompt_needed,
                             prompt_s=self.prompt_s, generation_s=self.generation_s,
                             completion_tokens=self.completion_tokens)


class Reply(BaseModel):
    """What a player returns: the text of its move and the model calls behind it."""

    text: str
    calls: tuple[CallRecord, ...] = ()
    verdicts: tuple[VerdictRecord, ...] = ()
    """For a judge's ask (``Ask.verdict``) answered by a model: how each answer of ``text`` was decided (the
    engine keeps them with the action, ``core.verdicts.VERDICTS_KEY``)."""
