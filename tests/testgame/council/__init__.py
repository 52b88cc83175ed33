"""Council: a test game installed through the ``playeval.games`` entry point (see ../conftest.py)."""

from council.rules import JUDGE, SEATS, TEAMS, Council, CouncilState

__all__ = ["JUDGE", "SEATS", "TEAMS", "Council", "CouncilState"]
