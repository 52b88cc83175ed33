"""Council's judge answers from a fixed set (fits / off-topic): the reason the kit's judge adds is refused and
re-asked, so no live output (a seat's ask, the arena's view for any seat or a watcher, the terminal) ever carries
it, and the game declares no held text (``core.held``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from council import Council
from held_kit import MARK, play

from playeval.core import ReplyRejected
from playeval.core.held import held_keys


async def test_council_s_judge_writes_nothing_a_live_output_shows(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    game = Council()
    played = await play(game, tmp_path, lambda: capsys.readouterr().out, seed=2)
    try:
        seen = played.seen
        assert not held_keys(game.roles) and played.judge_actions()
        refused = [event for event in played.store.events(played.match_id)
                   if isinstance(event, ReplyRejected) and event.party == "judge"]
        assert refused  # the judge's reason was offered, and refused
        for channel, texts in (("asks", seen.all_asks()), ("views", seen.all_views()), ("terminal", [seen.terminal])):
            assert texts and not [text for text in texts if MARK in text], channel
        assert MARK not in played.final_view()
    finally:
        played.store.close()
