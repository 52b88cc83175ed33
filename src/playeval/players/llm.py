"""The LLM player: sends the ask's messages to a model and returns its text."""

from __future__ import annotations

from playeval.core.ask import Ask, Reply
from playeval.core.messages import Message, user
from playeval.core.rng import derive_seed
from playeval.core.scripted import MatchContext
from playeval.core.verdicts import Thresholds, judge_reply
from playeval.models import GenerationConfig, Model, ModelRequest, to_call_record

DEFAULT_MAX_RETRIES = 2


class LLMPlayer:
    """A model in a seat. Sampling seeds derive from the match seed and the turn, so reruns repeat.

    ``retry_temperature``, when given, makes re-asks after a rejected reply fresh tries: sampled at least at
    that temperature, and without the refused reply in the conversation (only the reason is added). A small
    model shown its refused reply copies it: the Qwen 1.5B clue-giver wrote "The meerkat is ..." again on two
    of three sampled re-asks and forfeited, even at 0.8. This is for a simulated person's seat; the evaluated
    seat keeps the run's temperature and sees its rejected reply, so its invalid moves are measured as they are.

    ``match``, when given, is the game and match the seat plays in: each request to a model that reads it (a mock;
    ``Model.reads_origin``) then says which ask it answers (``ModelRequest.origin``). No other model is handed it.

    A judge's ask (``Ask.verdict``) asks the model for its answers' probabilities; ``thresholds`` (a calibration
    of this model for this game) then decide each verdict from them where one is held for the ask's kind, and the
    reply says how every verdict was decided (``Reply.verdicts``). ``verdicts_only`` (measuring a judge on
    labelled cases) stops each judge's reply where it only goes on to explain its answers
    (``VerdictQuestion.explained_after``): the answers and their probabilities are those of the whole reply, since
    a model generates them before what follows, at a fraction of the time.
    """

    kind = "llm"

    def __init__(self, model: Model, *, seed: int, temperature: float = 0.0,
                 max_retries: int = DEFAULT_MAX_RETRIES, retry_temperature: float | None = None,
                 match: MatchContext | None = None, thresholds: Thresholds | None = None,
                 verdicts_only: bool = False) -> None:
        self._model = model
        self._verdicts_only = verdicts_only
        self._thresholds = thresholds
        self._match = match
        self._seed = seed
        self._temperature = temperature
        self._retry_temperature = retry_temperature
        self.max_retries = max_retries

    @property
    def model(self) -> str:
        return self._model.address

    async def act(self, ask: Ask) -> Reply:
        temperature = self._temperature
        messages = ask.messages
        if ask.attempt > 0 and self._retry_temperature is not None:
            temperature = max(temperature, self._retry_temperature)
            messages = _fresh_retry(ask)
        explained = ask.verdict.explained_after if ask.verdict is not None and self._verdicts_only else None
        config = GenerationConfig(
            temperature=temperature,
            max_tokens=ask.max_tokens,
            seed=derive_seed(self._seed, ask.party, len(ask.messages), ask.attempt),
            stop=(explained,) if explained else (),
        )
        origin = self._match.origin(ask) if self._match is not None and self._model.reads_origin else None
        # The conversation is this player's party: two matches played at once never share an embedded model's cache.
        request = ModelRequest(messages=messages, config=config, constraint=ask.constraint,
                               affinity=f"{ask.party}@{id(self):x}", origin=origin, answers=ask.verdict)
        response = await self._model.generate(request)
        calls = (to_call_record(response),)
        if ask.verdict is None:
            return Reply(text=response.text, calls=calls)
        held = self._thresholds
        threshold = held.by_kind.get(ask.kind) if held is not None else None
        text, verdicts = judge_reply(ask.verdict, response.text, response.answer_probs, threshold,
                                     held.label if held is not None and threshold is not None else None)
        return Reply(text=text, calls=calls, verdicts=verdicts)


def _fresh_retry(ask: Ask) -> tuple[Message, ...]:
    """The ask's first conversation with the latest refusal note joined to its last user message.

    ``Ask.retry`` appends (refused reply, note) for each re-ask; this drops every pair and keeps the newest note.
    """
    original = ask.messages[: max(1, len(ask.messages) - 2 * ask.attempt)]
    note = ask.messages[-1].content
    if original and original[-1].role == "user":
        return (*original[:-1], user(f"{original[-1].content}\n\n{note}"))
    return (*original, user(note))
