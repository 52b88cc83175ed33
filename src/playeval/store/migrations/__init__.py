"""Alembic migrations of the store (run by playeval.store.migrate; env.py is not imported directly)."""
