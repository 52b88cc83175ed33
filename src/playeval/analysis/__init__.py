"""Analysis: reads only what was recorded."""

from playeval.analysis.outcomes import MatchRow, ModelResult, summarize

__all__ = ["MatchRow", "ModelResult", "summarize"]
