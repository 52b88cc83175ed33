"""The matches a server process read last, served again while the store says nothing of them changed.

Most requests of a live match read it whole (``web.table.load``: its record, its arena row with the people's
seats, its log, in six queries with every event parsed), and most find it as the previous request left it, or
longer by an event or two. ``LoadCache.load`` first reads the match's version in one query: its status, the
seq of its last event, its lease, and how many of its people's seats were joined and left (the only things
about a match that change without an event, besides its status). The same version: the match as read last.
A longer log, a lease taken, renewed or given back (same status and seats): only the new events are read, and
the lease is taken from the version (a model step changes it twice, and a whole read after each was a fifth of
the server's time under load). Anything else, or a match not read before: read whole. A match is never served
older than its version says, so any process's writes
show on the next request, as without the cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import Integer, String, column, select, text
from sqlalchemy.orm import Session

from playeval.store import Store
from playeval.store.convert import event_record
from playeval.store.schema import EventRow, UTCDateTime
from playeval.web.errors import NO_SUCH_MATCH, NotFound
from playeval.web.table import Loaded, load

KEPT = 4096
"""How many matches a process keeps (the ones read longest ago are dropped first)."""


@dataclass(frozen=True)
class Version:
    status: str
    seq: int
    lease_owner: str | None
    lease_until: datetime | None
    joined: int
    left: int


class LoadCache:
    """Matches as last read by this process, checked against the store's version on every read."""

    def __init__(self, store: Store, kept: int = KEPT) -> None:
        self.store = store
        self.kept = kept
        self._lock = threading.Lock()
        self._items: OrderedDict[str, tuple[Version, Loaded]] = OrderedDict()

    def load(self, match_id: str, *, arena_only: bool = True) -> Loaded:
        """The match as stored now (``NotFound`` like ``web.table.load``)."""
        with Session(self.store.engine) as session:
            version = _version(session, match_id)
            with self._lock:
                kept = self._items.get(match_id)
            loaded: Loaded | None = None
            if version is not None and kept is not None:
                if kept[0] == version:
                    loaded = kept[1]
                elif version.status == kept[0].status and version.seq >= kept[0].seq:
                    loaded = _newer(session, kept[1], kept[0], version)
        if loaded is None:
            loaded = load(self.store, match_id, arena_only=False)
        if version is not None:
            with self._lock:
                self._items[match_id] = (version, loaded)
                self._items.move_to_end(match_id)
                while len(self._items) > self.kept:
                    self._items.popitem(last=False)
        if arena_only and loaded.web is None:
            raise NotFound(NO_SUCH_MATCH)
        return loaded


VERSION = text(
    "SELECT m.status, (SELECT coalesce(max(e.seq), 0) FROM events e WHERE e.match_id = :id), w.lease_owner, "
    "w.lease_until, (SELECT count(*) FROM web_seats j WHERE j.match_id = :id AND j.joined_at IS NOT NULL), "
    "(SELECT count(*) FROM web_seats l WHERE l.match_id = :id AND l.left_at IS NOT NULL) "
    "FROM matches m LEFT OUTER JOIN web_matches w ON w.match_id = m.id WHERE m.id = :id"
).columns(column("status", String()), column("seq", Integer()), column("lease_owner", String()),
          column("lease_until", UTCDateTime()), column("joined", Integer()), column("left", Integer()))
"""A match's version in one statement, as written: it runs on every read of a match, and building the same
statement from the ORM's columns (three scalar subqueries) each time was most of its cost."""


def _version(session: Session, match_id: str) -> Version | None:
    """The match's version now; ``None`` when there is no such match."""
    row = session.execute(VERSION, {"id": match_id}).first()
    if row is None:
        return None
    status, last, owner, until, joined_count, left_count = row
    return Version(status=status, seq=int(last), lease_owner=owner, lease_until=until, joined=int(joined_count),
                   left=int(left_count))


def _newer(session: Session, loaded: Loaded, old: Version, version: Version) -> Loaded | None:
    """``loaded`` (read at ``old``) brought to ``version`` of the same status: the new events read, the lease
    taken from the version, the people's seats read again if they changed; ``None``: left to a whole read."""
    if version.seq > old.seq:
        longer = _longer(session, loaded, version.seq)
        if longer is None:
            return None
        loaded = longer
    web = loaded.web
    if web is None or (version.joined, version.left) != (old.joined, old.left):
        return loaded if replace(old, seq=version.seq) == version else None
    if (version.lease_owner, version.lease_until) != (old.lease_owner, old.lease_until):
        loaded = replace(loaded, web=web.model_copy(update={"lease_owner": version.lease_owner,
                                                            "lease_until": version.lease_until}))
    return loaded


def _longer(session: Session, loaded: Loaded, seq: int) -> Loaded | None:
    """``loaded`` with the events after its last one, up to ``seq``; ``None`` if they are not all there (a
    write committed between the two reads is left to a whole read)."""
    rows = session.scalars(select(EventRow).where(EventRow.match_id == loaded.match.id, EventRow.seq > loaded.seq,
                                                  EventRow.seq <= seq).order_by(EventRow.seq)).all()
    if [row.seq for row in rows] != list(range(loaded.seq + 1, seq + 1)):
        return None
    return replace(loaded, records=loaded.records + tuple(event_record(row) for row in rows))
