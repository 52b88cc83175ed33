"""`playeval play undercover` in a real pseudo-terminal: a person at the sixth seat of a table of mock/player models,
with the game's scripted judge (``--role judge=scripted``) and two rounds (``--option max_rounds=2``)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pexpect
import sqlalchemy as sa
from test_play_pty import playeval_bin

from playeval.games.undercover import UNDERCOVER
from playeval.store import Store

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SENTENCES = ("It often turns up where people gather", "Most of us could recognise it at once")


def _plain(text: str | None) -> str:
    return ANSI.sub("", text or "")


def test_a_person_plays_undercover_to_the_end_in_a_terminal(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'play.db'}"
    env = {**os.environ, "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "200", "TERM": "xterm"}
    child = pexpect.spawn(playeval_bin(), ["play", "undercover", "--as", "player6", "--model", "mock/player",
                                           "--role", "judge=scripted", "--option", "max_rounds=2", "--seed", "3",
                                           "--db", db], env=env, encoding="utf-8", timeout=120)
    child.expect(r"Your word: (\S+) \(the model does not see it\)")
    mine = ANSI.sub("", child.match.group(1))
    before_end: list[str] = []
    said, votes, refused = 0, 0, False
    while True:
        index = child.expect([r"you> ", r"You (won|lost)\."])
        before_end.append(_plain(child.before))
        if index == 1:
            break
        shown = _plain(child.before)
        if "Vote for one of:" in shown:
            offered = shown.split("Vote for one of:")[1].split(")")[0].split(", ")
            assert "player6" not in [seat.strip() for seat in offered]
            if not refused:  # a vote for oneself is refused with its reason and asked again (the prompt only)
                child.sendline("player6")
                child.expect("Not accepted: you cannot vote for yourself.")
                child.expect(r"you> ")
                assert "Vote for one of:" not in _plain(child.before)
                refused = True
            child.sendline(offered[-1].strip())
            votes += 1
        else:
            assert f"Your word: {mine}." in shown
            child.sendline(SENTENCES[said % len(SENTENCES)])
            said += 1
    child.expect(pexpect.EOF)
    end = _plain(child.before)
    assert said >= 1 and votes >= 1 and refused
    with Store.open(db) as store:
        with store.engine.connect() as conn:
            [(match_id, status)] = conn.execute(sa.text("select id, status from matches")).all()
        match = store.get_match(match_id)
    words, sides = match.spec.setup["words"], match.spec.setup["sides"]
    assert words["player6"] == mine and status == "finished" and match.outcome is not None
    other = next(word for word in words.values() if word != mine)
    for text in before_end:  # only the person's own word while the game is played
        assert re.search(rf"\b{re.escape(other)}\b", text) is None, text
    for seat, word in words.items():  # every word and side revealed at the end
        assert f"{seat}'s word ({sides[seat]}): {word}" in end
    assert match.outcome.rounds >= 1 and {s.seat: s.player_kind for s in match.seats}["player6"] == "human"
    assert [(r.role, r.player_kind) for r in match.roles] == [("judge", "scripted")]
    assert any(r.team == UNDERCOVER for r in match.outcome.results)


def test_the_terminal_refuses_a_seat_or_option_the_table_lacks(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'play.db'}"
    for args, said in ((["--as", "player6", "--option", "players=5"], "--as player6 is not one of them"),
                       (["--option", "players=9"], "option players must be at most 8"),
                       (["--role", "oracle=scripted"], "undercover has no such role")):
        done = subprocess.run([playeval_bin(), "play", "undercover", "--model", "mock/player", "--db", db, *args],
                              capture_output=True, text=True, timeout=120, check=False,
                              env={**os.environ, "COLUMNS": "200"})
        assert done.returncode == 2 and said in done.stderr, done.stderr
