"""Players: LLMs, people at the terminal, scripted baselines."""

from playeval.players.base import Player
from playeval.players.llm import LLMPlayer
from playeval.players.terminal import TerminalPlayer

__all__ = ["LLMPlayer", "Player", "TerminalPlayer"]
