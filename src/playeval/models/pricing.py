"""What model calls cost: a price table per model address, shipped with playeval and overridable by the user.

The packaged table (``models/data/prices.toml``) holds USD per million input and output tokens for known
OpenAI and Anthropic models, and 0 for ``local/*`` and ``mock/*``; it names its sources and the date they were
read. A user file of the same form (``$PLAYEVAL_PRICES``, else ``$XDG_CONFIG_HOME/playeval/prices.toml`` or
``~/.config/playeval/prices.toml``) overrides or adds entries::

    [prices]
    "openai/my-served-qwen" = { input = 0.0, output = 0.0 }
    "anthropic/claude-haiku-4-5" = { input = 1.0, output = 5.0 }

A key ending in ``*`` covers every address starting with the rest (the longest such key wins); a dated snapshot
(``...-20251001``, ``...-2024-08-06``) falls back to its undated name; an address's ``?option`` suffix is ignored.
A model with no price has an unknown cost (``None``), never 0.

A baseline player (``baseline/NAME``, ``core.baselines``) is no model: it costs nothing whatever a table says, so a
run with ``--baselines`` keeps the cost it would have without them.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType

from playeval.core.baselines import is_baseline
from playeval.core.errors import PlayevalError

PRICES_ENV = "PLAYEVAL_PRICES"
_DATED = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2})$")
_PER = 1_000_000


class PriceTableError(PlayevalError):
    """A price file that cannot be read or has a malformed entry."""


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """The USD cost of one call with these token counts."""
        return (prompt_tokens * self.input + completion_tokens * self.output) / _PER


_NOTHING = Price(input=0.0, output=0.0)


class PriceTable:
    """Prices by model address (exact keys and ``prefix*`` keys)."""

    def __init__(self, prices: Mapping[str, Price]) -> None:
        self._exact: Mapping[str, Price] = MappingProxyType({k: v for k, v in prices.items() if not k.endswith("*")})
        wild = sorted(((k[:-1], v) for k, v in prices.items() if k.endswith("*")), key=lambda kv: -len(kv[0]))
        self._prefixes: tuple[tuple[str, Price], ...] = tuple(wild)

    @property
    def entries(self) -> dict[str, Price]:
        """Every entry, wildcards with their ``*``."""
        return {**self._exact, **{prefix + "*": price for prefix, price in self._prefixes}}

    def price(self, address: str) -> Price | None:
        """The price of ``address`` (``provider/name``, an ``?option`` suffix ignored), or ``None`` if unknown; a
        baseline's is nothing, never looked up."""
        if is_baseline(address):
            return _NOTHING
        base = address.split("?", 1)[0]
        for candidate in (base, _DATED.sub("", base)):
            found = self._exact.get(candidate)
            if found is not None:
                return found
        for prefix, price in self._prefixes:
            if base.startswith(prefix):
                return price
        return None

    def cost(self, address: str, prompt_tokens: int, completion_tokens: int) -> float | None:
        """The USD cost of one call, or ``None`` when ``address`` has no known price."""
        price = self.price(address)
        return price.cost(prompt_tokens, completion_tokens) if price is not None else None

    def merged(self, overrides: Mapping[str, Price]) -> PriceTable:
        """This table with ``overrides`` replacing or adding entries."""
        return PriceTable({**self.entries, **overrides})


def _entry(source: str, key: object, value: object) -> Price:
    if not isinstance(key, str) or "/" not in key:
        raise PriceTableError(f"{source}: price key {key!r} is not a model address like openai/gpt-4o")
    if not isinstance(value, dict) or set(value) != {"input", "output"}:
        raise PriceTableError(f"{source}: price of {key!r} must be {{ input = USD, output = USD }} per million tokens")
    numbers = [value["input"], value["output"]]
    if not all(isinstance(n, int | float) and not isinstance(n, bool) and n >= 0 for n in numbers):
        raise PriceTableError(f"{source}: price of {key!r} must be two non-negative numbers (USD per million tokens)")
    return Price(input=float(numbers[0]), output=float(numbers[1]))


def parse_prices(text: str, source: str) -> dict[str, Price]:
    """The ``[prices]`` entries of a TOML price file; ``source`` names the file in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PriceTableError(f"{source}: not valid TOML ({exc})") from exc
    unknown = set(data) - {"prices", "meta"}
    if unknown:
        raise PriceTableError(f"{source}: unknown section(s) {', '.join(sorted(unknown))}; expected [prices]")
    section = data.get("prices", {})
    if not isinstance(section, dict):
        raise PriceTableError(f"{source}: [prices] must be a table of model address = {{ input, output }}")
    return {key: _entry(source, key, value) for key, value in section.items()}


def packaged_prices() -> PriceTable:
    """The table shipped with playeval."""
    text = resources.files("playeval.models").joinpath("data/prices.toml").read_text(encoding="utf-8")
    return PriceTable(parse_prices(text, "playeval's prices.toml"))


def user_prices_path() -> Path | None:
    """``$PLAYEVAL_PRICES`` (which must exist), else the user's config file if there is one."""
    explicit = os.environ.get(PRICES_ENV, "").strip()
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise PriceTableError(f"{PRICES_ENV}={explicit}: no such file")
        return path
    xdg = os.environ.get("XDG_CONFIG_HOME", "").strip()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".config"
    path = base / "playeval" / "prices.toml"
    return path if path.is_file() else None


def load_prices(user_file: Path | None = None) -> PriceTable:
    """The packaged table with the user's file (``user_file``, else ``user_prices_path()``) applied over it."""
    table = packaged_prices()
    path = user_file if user_file is not None else user_prices_path()
    if path is None:
        return table
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PriceTableError(f"{path}: cannot read the price file ({exc})") from exc
    return table.merged(parse_prices(text, str(path)))


def format_usd(value: float | None) -> str:
    """A cost for people: ``unknown`` for ``None`` (never 0), ``$0`` for nothing, else dollars with enough
    decimals to show small sums (``$0.000412``, ``$0.0734``, ``$12.31``)."""
    if value is None:
        return "unknown"
    if value == 0:
        return "$0"
    if value < 0.01:
        return f"${value:.6f}"
    if value < 1:
        return f"${value:.4f}"
    return f"${value:,.2f}"
