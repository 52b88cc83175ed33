"""The arena's export: finished matches as JSON lines, with nothing about the people who played them.

Each line is one match: what was played (game, level, seed, spec with the setup, which is public once a
match is over), who sat where (models by address; a person's seat as ``human``, and ``people_seats``: the
seats people held at an arena table), who played each role, the outcome, the full event log (take-overs
included), the retrospective outputs and the survey. Left out: token hashes, join and leave times, leases
(host names and process ids), and anything about clients; the store keeps no addresses or cookies to begin
with.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from playeval.core.events import SCHEMA_VERSION
from playeval.store import MatchRecord, Store, WebMatchRecord
from playeval.web.board import Source, in_source


def _line(store: Store, match: MatchRecord, web: WebMatchRecord | None) -> dict[str, Any]:
    survey = store.get_survey(match.id)
    return {
        "type": "match",
        "schema_version": SCHEMA_VERSION,
        "id": match.id,
        "source": "arena" if web is not None else ("batch" if match.run_id is not None else "terminal"),
        "mode": web.mode if web is not None else None,
        "people_seats": list(web.person_seats) if web is not None else [],
        "run_id": match.run_id,
        "match_index": match.match_index,
        "game": match.game,
        "level": match.level,
        "seed": match.seed,
        "spec": match.spec.model_dump(mode="json"),
        "seats": [seat.model_dump(mode="json") for seat in match.seats],
        "roles": [role.model_dump(mode="json") for role in match.roles],
        "outcome": match.outcome.model_dump(mode="json") if match.outcome is not None else None,
        "created_at": match.created_at.isoformat(),
        "ended_at": match.ended_at.isoformat() if match.ended_at is not None else None,
        "events": [record.model_dump(mode="json") for record in store.event_records(match.id)],
        "retro": [record.model_dump(mode="json") for record in store.retro_outputs(match.id)],
        "survey": None if survey is None else survey.model_dump(mode="json", exclude={"match_id"}),
    }


def export_lines(store: Store, source: Source = "all") -> Iterator[str]:
    """One JSON line per finished match, oldest first (read lazily, one match at a time)."""
    arena = {web.match_id: web for web, _ in store.web_matches()}
    for match in store.list_matches(status="finished"):
        if in_source(match, source):
            yield json.dumps(_line(store, match, arena.get(match.id)), ensure_ascii=False,
                             separators=(",", ":")) + "\n"
