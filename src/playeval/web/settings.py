"""The arena's settings: one frozen pydantic model, built by the caller or read from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from playeval.core.info import binding_members
from playeval.engine.plan import LOCAL, SCRIPTED, SEAT_BINDING
from playeval.models import DEFAULT_MODEL

ENV_DB = "PLAYEVAL_DB"
ENV_MODELS = "PLAYEVAL_ARENA_MODELS"
ENV_NO_CACHE = "PLAYEVAL_ARENA_NO_CACHE"
ENV_JOIN_TIMEOUT = "PLAYEVAL_ARENA_JOIN_TIMEOUT_S"
ENV_TURN_TIMEOUT = "PLAYEVAL_ARENA_TURN_TIMEOUT_S"
ENV_ROLE_MODEL = "PLAYEVAL_ARENA_ROLE_MODEL"
ENV_SWEEP = "PLAYEVAL_ARENA_SWEEP_S"
ENV_ROLES = "PLAYEVAL_ARENA_ROLES"
ENV_NO_CALIBRATION = "PLAYEVAL_ARENA_NO_CALIBRATION"


class RateLimit(BaseModel):
    """A token bucket: ``burst`` requests at once, refilled at ``per_minute`` a minute."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    per_minute: float = Field(gt=0)
    burst: int = Field(ge=1)


class ArenaSettings(BaseModel):
    """Everything the arena needs to start.

    ``db``: database URL (``None``: the default SQLite file). ``models``: the models a person can meet; a seat's
    model is drawn from them unless the person who sets the table up picks one. ``role_model``: the model that
    plays the roles a game binds to ``local`` (a judge); default: playeval's local default model when it is
    among ``models``, else the first of ``models``. ``roles``: bindings of roles, as ``playeval run --role`` takes them:
    ``judge`` (that role in every game) or ``math.judge`` (one game's) to one of ``models``, ``local`` (the role
    model), ``seat:NAME`` (whoever holds that seat; a table is refused when the role is shown what that seat may
    not see: ``core.hidden.check_role_seat``) or ``scripted`` (the game's instant scripted player: a
    guess-the-rule judge that accepts only the rule's own words; for demonstrations and tests, never to measure
    anyone); a role not named keeps the game's default. ``writes``/``reads``: per-client rate limits for requests
    that change something (start, join, move, abandon, survey, watch) and for the rest of ``/api``; ``None``
    turns a limit off. ``lease_s``: how long a process may hold a match's model move before another may take
    it over (renewed while the model thinks). ``max_live_watches``: model-vs-model matches that may run at once.
    ``calibration``: a match's models decide their verdicts by the calibrated thresholds found for them when the
    table is set up (kept with the match); off, every verdict is the model's own word.

    People at one table: an invited person who has not joined within ``join_timeout_s`` of the start, and (at a
    table where two or more people still hold their seats) a person who has not moved within
    ``turn_timeout_s`` of their ask, is replaced by the table's stand-in model. ``sweep_s``: how often each
    server process checks these time-outs and picks up model moves that are due, without a request arriving.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    db: str | None = None
    models: tuple[str, ...] = (DEFAULT_MODEL,)
    use_cache: bool = True
    cache_path: Path | None = None
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_body_bytes: int = Field(default=16 * 1024, ge=256)
    writes: RateLimit | None = RateLimit(per_minute=60, burst=20)
    reads: RateLimit | None = RateLimit(per_minute=1200, burst=200)
    lease_s: float = Field(default=30.0, gt=0)
    poll_s: float = Field(default=0.3, gt=0)
    heartbeat_s: float = Field(default=15.0, gt=0)
    stream_max_s: float = Field(default=3600.0, gt=0)
    max_live_watches: int = Field(default=4, ge=1)
    join_timeout_s: float = Field(default=600.0, gt=0)
    turn_timeout_s: float = Field(default=300.0, gt=0)
    sweep_s: float = Field(default=5.0, gt=0)
    role_model: str | None = None
    roles: dict[str, str] = Field(default_factory=dict)
    list_limit: int = Field(default=50, ge=1, le=500)
    secure_cookies: bool = False
    calibration: bool = True

    @field_validator("models")
    @classmethod
    def _models(cls, models: tuple[str, ...]) -> tuple[str, ...]:
        cleaned = tuple(dict.fromkeys(model.strip() for model in models if model.strip()))
        if not cleaned:
            raise ValueError("the arena needs at least one model")
        return cleaned

    @model_validator(mode="after")
    def _timing(self) -> ArenaSettings:
        if self.poll_s >= self.lease_s:
            raise ValueError("poll_s must be shorter than lease_s")
        if self.role_model is not None and self.role_model not in self.models:
            raise ValueError(f"role_model {self.role_model!r} must be one of the models ({', '.join(self.models)})")
        for role, binding in self.roles.items():
            if not role or any(not part.isidentifier() for part in role.split(".")) or role.count(".") > 1:
                raise ValueError(f"roles: {role!r} is not ROLE or GAME.ROLE")
            bad = [member for member in binding_members(binding)
                   if member not in (SCRIPTED, LOCAL, *self.models) and not member.startswith(SEAT_BINDING)]
            if bad or not binding_members(binding):
                raise ValueError(f"roles: {role} is bound to {binding!r}; bind it to one of the models "
                                 f"({', '.join(self.models)}), '{LOCAL}', '{SCRIPTED}' or '{SEAT_BINDING}NAME'")
        return self

    @property
    def default_model(self) -> str:
        return self.models[0]

    @property
    def local_model(self) -> str:
        """The model that plays a role bound to ``local``: ``role_model``, else playeval's local default model
        when the arena serves it, else the arena's default model."""
        if self.role_model is not None:
            return self.role_model
        return DEFAULT_MODEL if DEFAULT_MODEL in self.models else self.default_model

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ArenaSettings:
        """Settings from ``PLAYEVAL_DB``, ``PLAYEVAL_ARENA_MODELS`` (comma-separated),
        ``PLAYEVAL_ARENA_NO_CACHE`` (``1`` turns the response cache off), ``PLAYEVAL_ARENA_NO_CALIBRATION`` (``1``
        lets every verdict be the model's own word), ``PLAYEVAL_ARENA_JOIN_TIMEOUT_S``,
        ``PLAYEVAL_ARENA_TURN_TIMEOUT_S``, ``PLAYEVAL_ARENA_SWEEP_S`` (seconds), ``PLAYEVAL_ARENA_ROLE_MODEL`` and
        ``PLAYEVAL_ARENA_ROLES`` (comma-separated ``ROLE=BINDING``, e.g. ``judge=scripted``); the rest keep their
        defaults."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        if env.get(ENV_DB, "").strip():
            values["db"] = env[ENV_DB].strip()
        if env.get(ENV_MODELS, "").strip():
            values["models"] = tuple(part for part in env[ENV_MODELS].split(","))
        if env.get(ENV_NO_CACHE, "").strip() in {"1", "true", "yes"}:
            values["use_cache"] = False
        if env.get(ENV_NO_CALIBRATION, "").strip() in {"1", "true", "yes"}:
            values["calibration"] = False
        for name, field in ((ENV_JOIN_TIMEOUT, "join_timeout_s"), (ENV_TURN_TIMEOUT, "turn_timeout_s"),
                            (ENV_SWEEP, "sweep_s"), (ENV_ROLE_MODEL, "role_model")):
            if env.get(name, "").strip():
                values[field] = env[name].strip()
        if env.get(ENV_ROLES, "").strip():
            values["roles"] = parse_roles(env[ENV_ROLES].split(","), ENV_ROLES)
        return cls.model_validate(values)


def parse_roles(items: Sequence[str], where: str) -> dict[str, str]:
    """``ROLE=BINDING`` items (blank ones skipped) as a mapping; a ``ValueError`` naming ``where`` for one that is
    not of that form. An item without ``=`` after one with it continues that binding: a panel's next member
    (``judge=A,B`` split on commas is ``judge=A`` and ``B``)."""
    found: dict[str, str] = {}
    last: str | None = None
    for item in items:
        if not item.strip():
            continue
        role, sep, binding = item.partition("=")
        if not sep and last is not None:
            found[last] = f"{found[last]},{item.strip()}"
            continue
        if not sep or not role.strip() or not binding.strip():
            raise ValueError(f"{where}: expected ROLE=BINDING, got {item.strip()!r}")
        last = role.strip()
        found[last] = binding.strip()
    return found
