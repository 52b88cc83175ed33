"""The LLM player: sends the ask's messages to a model and returns its text."""

from __future__ import annotations

from playeval.core.ask import Ask, Reply
from playeval.core.rng import derive_seed
from playeval.models import GenerationConfig, Model, ModelRequest, to_call_record

DEFAULT_MAX_RETRIES = 2


class LLMPlayer:
    """A model in a seat. Sampling seeds derive from the match seed and the turn, so reruns repeat.

    ``retry_temperature``, when given, is the least temperature of a re-ask after a rejected reply. Greedy
    decoding answers a re-ask with the very reply that was refused (a clue-giver wrote "The meerkat is ..."
    three times and forfeited), so a simulated person's seat samples its re-asks instead; the evaluated seat
    keeps the run's temperature, so its invalid moves are measured as they are.
    """

    kind = "llm"

    def __init__(self, model: Model, *, seed: int, temperature: float = 0.0,
                 max_retries: int = DEFAULT_MAX_RETRIES, retry_temperature: float | None = None) -> None:
        self._model = model
        self._seed = seed
        self._temperature = temperature
        self._retry_temperature = retry_temperature
        self.max_retries = max_retries

    @property
    def model(self) -> str:
        return self._model.address

    async def act(self, ask: Ask) -> Reply:
        temperature = self._temperature
        if ask.attempt > 0 and self._retry_temperature is not None:
            temperature = max(temperature, self._retry_temperature)
        config = GenerationConfig(
            temperature=temperature,
            max_tokens=ask.max_tokens,
            seed=derive_seed(self._seed, ask.seat, len(ask.messages), ask.attempt),
        )
        request = ModelRequest(messages=ask.messages, config=config, constraint=ask.constraint, affinity=ask.seat)
        response = await self._model.generate(request)
        return Reply(text=response.text, calls=(to_call_record(response),))
