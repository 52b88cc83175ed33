"""The live web arena: people play any registered game against models and each other at one table, watch models
play, and see the leaderboard.

``create_app(ArenaSettings(...))`` builds the FastAPI app; ``app_from_env`` builds it from the environment
(for ``uvicorn --factory playeval.web.app:app_from_env``).
"""

from playeval.web.app import app_from_env, create_app
from playeval.web.settings import ArenaSettings, RateLimit

__all__ = ["ArenaSettings", "RateLimit", "app_from_env", "create_app"]
