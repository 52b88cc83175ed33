"""``playeval play`` as a person reads it, with scripted input (typer's runner, mock/player at the other seats):
the header names the table for one, two and six seats, and every block is printed once: a refused reply shows
its reason and the prompt, not the ask again, and the end shows only what came after the person's last turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.cli.main import app
from playeval.cli.play_cmd import shown_by, table_line
from playeval.core.ask import Ask
from playeval.core.events import RoleAssignment
from playeval.players import TerminalPlayer


def _play(tmp_path: Path, game: str, seat: str, lines: list[str], *extra: str) -> str:
    result = CliRunner().invoke(app, ["play", game, "--as", seat, "--model", "mock/player", "--seed", "1",
                                      "--db", f"sqlite:///{tmp_path / 'play.db'}", "--no-cache", *extra],
                                input="\n".join(lines) + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.output.replace("\n", " ").replace("  ", " ")


def test_the_header_reads_right_for_one_two_and_six_seats() -> None:
    judge = (RoleAssignment(role="judge", player_kind="llm", model="J"),)
    assert table_line("player", ["player"], "M", judge) == "you are the player; the judge is played by J."
    assert table_line("player", ["player"], "M", ()) == "you are the player."
    assert table_line("answerer", ["guesser", "answerer"], "M",
                      (RoleAssignment(role="judge", player_kind="human", seat="answerer"),)) == (
        "you are the answerer; the guesser is played by M; the judge is played by you.")
    seats = [f"player{n}" for n in range(1, 7)]
    scripted = (RoleAssignment(role="judge", player_kind="scripted"),)
    assert table_line("player3", seats, "M", scripted) == (
        "you are player3, one of 6 seats; the other 5 (player1, player2, player4, player5, player6) are played by "
        "M; the judge is played by scripted.")


async def test_a_re_ask_shows_the_reason_not_the_block_again() -> None:
    typed = iter(["nonsense", "MORE: 2", "GUESS: x"])
    shown: list[str] = []
    person = TerminalPlayer(read=lambda prompt: next(typed), write=shown.append)
    ask = Ask(seat="player", kind="turn", messages=(), display="May come: a, b\nTurn 2 of 20.",
              instructions="Reply MORE: <n> or GUESS: <rule>.")
    await person.act(ask)
    again = ask.retry("nonsense", "reply 'MORE: <n>' or 'GUESS: <the rule>'.")
    await person.act(again)
    text = "\n".join(shown)
    assert text.count("May come: a, b") == 1 and text.count("Reply MORE") == 1
    assert shown[-1] == "Not accepted: reply 'MORE: <n>' or 'GUESS: <the rule>'."
    await person.act(again.retry("x", "still not.").model_copy(update={"display": "Something else"}))
    assert shown[-2:] == ["Something else", "  (Reply MORE: <n> or GUESS: <rule>.)"]  # another ask: all of it


def test_undercover_in_the_terminal_prints_each_block_once(tmp_path: Path) -> None:
    out = _play(tmp_path, "undercover", "player3",
                ["It has a mane or stripes", "nobody", "player1", "It walks on four legs", "player1"],
                "--option", "max_rounds=2", "--role", "judge=scripted")
    assert "you are player3, one of 6 seats; the other 5 (player1, player2, player4, player5, player6)" in out
    assert "are played by" in out and "; are played by" not in out
    assert out.count("Round 1: vote a player out.") == 1  # the refused vote did not print the ask again
    assert "Not accepted: there is no player 'nobody'" in out
    said = [part for part in out.split("player1: ")[1:]]
    first = said[0].split(" judge:")[0].strip()
    assert out.count(f"player1: {first}") == 1  # not again at the end
    assert out.count("Round 1 votes:") == 1


def test_a_list_the_ask_shows_in_full_is_not_narrated_again() -> None:
    display = "May come: chalice, teaspoon, teacup, coffee cup\nMay not come: goat, vest, whiting, checker\nTurn 3."
    assert shown_by("May come: teacup, coffee cup\nMay not come: whiting, checker", display)
    assert not shown_by("May come: teacup, spoon\nMay not come: whiting, checker", display)  # spoon is new
    assert not shown_by("Pass: teacup", display)  # another list
    assert shown_by("Values of the sequence:\nposition 2: -18", "Values of the sequence:\nposition 2: -18\nTurn 3.")
    assert not shown_by("judge: not accepted", display)


@pytest.mark.parametrize("game", ["static_picnic", "math", "functions_picnic"])
def test_a_rule_game_s_examples_are_not_narrated_above_the_ask_that_shows_them(tmp_path: Path, game: str) -> None:
    out = _play(tmp_path, game, "player", ["MORE: 2", "nonsense", "skip"], "--role", "judge=scripted")
    assert out.count("Turn 2 of 20") == 1 and out.count("Turn 3 of 20") == 1, out
    assert " game: " not in out, out  # the examples MORE added are in the ask's lists, not narrated above them
