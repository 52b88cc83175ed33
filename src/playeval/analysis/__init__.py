"""Analysis: reads only what was recorded."""

from playeval.analysis.load import match_rows
from playeval.analysis.outcomes import MatchRow, ModelResult, summarize

__all__ = ["MatchRow", "ModelResult", "match_rows", "summarize"]
