"""Checking what people and runs give a game before a match starts: the one place both the terminal and the
web arena validate person inputs and game options."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from playeval.core.errors import ConfigError
from playeval.core.info import GameOption, PersonInput, Scalar


def inputs_for(person_inputs: Iterable[PersonInput], seats: Iterable[str]) -> tuple[PersonInput, ...]:
    """The inputs the people in ``seats`` provide."""
    held = set(seats)
    return tuple(item for item in person_inputs if item.seat in held)


def check_inputs(game_id: str, wanted: Iterable[PersonInput], given: Mapping[str, str]) -> dict[str, str]:
    """``given`` checked against ``wanted``: known keys only, required ones present, one line each, within
    ``max_chars``, one of ``choices`` (returned in the choice's own spelling). Raises ``ConfigError``."""
    items = {item.key: item for item in wanted}
    unknown = sorted(set(given) - set(items))
    if unknown:
        expected = ", ".join(items) if items else "none"
        raise ConfigError(f"unknown input(s) for {game_id}: {', '.join(unknown)}; expected: {expected}")
    values: dict[str, str] = {}
    for key, item in items.items():
        typed = str(given.get(key, "") or "").strip()
        if not typed:
            if item.required:
                raise ConfigError(f"inputs.{key} is required: {item.prompt}")
            continue
        if len(typed) > item.max_chars:
            raise ConfigError(f"inputs.{key} is too long: at most {item.max_chars} characters")
        if "\n" in typed or "\r" in typed:
            raise ConfigError(f"inputs.{key} must be on one line")
        if item.choices:
            chosen = next((choice for choice in item.choices if choice.lower() == typed.lower()), None)
            if chosen is None:
                raise ConfigError(f"inputs.{key} must be one of: {', '.join(item.choices)}")
            typed = chosen
        values[key] = typed
    return values


def _convert(option: GameOption, value: Any) -> Scalar:
    kind = type(option.default)
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return value  # type: ignore[no-any-return]
    text = str(value).strip()
    try:
        if kind is bool:
            lowered = text.lower()
            if lowered not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError(text)
            return lowered in ("true", "yes", "1")
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
    except ValueError:
        wanted = {bool: "true or false", int: "a whole number", float: "a number"}[kind]
        raise ConfigError(f"option {option.name} takes {wanted}, not {text!r}") from None
    return text


def check_options(game_id: str, declared: Iterable[GameOption], given: Mapping[str, Any]) -> dict[str, Scalar]:
    """Every declared option's value: ``given`` (converted to the default's type, within its bounds or
    choices) or the default. Raises ``ConfigError`` for an unknown option or a bad value."""
    options = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(options))
    if unknown:
        known = ", ".join(options) if options else "none"
        raise ConfigError(f"unknown option(s) for {game_id}: {', '.join(unknown)}; known: {known}")
    values: dict[str, Scalar] = {}
    for name, option in options.items():
        value = _convert(option, given[name]) if name in given else option.default
        if isinstance(value, int | float) and not isinstance(value, bool):
            if option.minimum is not None and value < option.minimum:
                raise ConfigError(f"option {name} must be at least {option.minimum:g}, not {value}")
            if option.maximum is not None and value > option.maximum:
                raise ConfigError(f"option {name} must be at most {option.maximum:g}, not {value}")
        if option.choices is not None and str(value) not in option.choices:
            raise ConfigError(f"option {name} must be one of: {', '.join(option.choices)}")
        values[name] = value
    return values
