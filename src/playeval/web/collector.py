"""The garbage collector's settings for a process that serves the arena.

Under load (200 people, one SQLite worker) the collector's full collections stopped the whole server for
110-430 ms every 4-6 s, longer as the process's kept matches grew (``LoadCache``): they were most of the
requests' p99 (move p99 420 ms with them, 83 ms without, in 40 s runs side by side). A serving process's
objects are mostly long-lived (the imported code, the models, the kept matches) and freed by reference
counting when dropped; cycles are rare. So the objects alive once the server is set up are left out of
collections (``gc.freeze``), and collections run after more allocations: the youngest generation every
``YOUNG`` new objects (700 by default), the middle one every ``MIDDLE_AFTER`` of those, and a full collection
after ``FULL_AFTER`` of the middle one's (10 by default), which makes a full collection rare while serving.
"""

from __future__ import annotations

import gc

YOUNG = 10_000
MIDDLE_AFTER = 10
FULL_AFTER = 100


def tune_collector() -> None:
    """Freeze what is alive now and space the collections out (call once, before serving)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE_AFTER, FULL_AFTER)
