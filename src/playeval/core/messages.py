"""Chat messages: the one shape every model, prompt and transcript shares."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["system", "user", "assistant"]


class Message(BaseModel):
    """One chat turn as a model sees it."""

    model_config = ConfigDict(frozen=True)

    role: Role
    content: str


def system(content: str) -> Message:
    return Message(role="system", content=content)


def user(content: str) -> Message:
    return Message(role="user", content=content)


def assistant(content: str) -> Message:
    return Message(role="assistant", content=content)
