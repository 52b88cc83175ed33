"""bench/peers.py's pure parts (ratios, table, calibration) and its TextArena driver's scripted players.

The benchmark itself is a script, not part of the test run; the one test that installs TextArena into a
virtualenv and plays a few games through the driver is marked slow.
"""

from __future__ import annotations

import random

import _peers_textarena as driver
import peers
import pytest
from akinator_throughput import Measured

WORDS = {"places": ["school", "hospital", "diving bell", "park"]}
PROMPT = (
    "[GAME] You are Player 0. You are playing 20 Questions (Basic).\n"
    "The gamemaster has chosen an object that can be one or two words. This object is related to places. "
    "You have to guess this object by asking yes-or-no questions."
)


def gm_prompt(word: str, history: list[tuple[str, str]], question: str) -> str:
    """A game-master prompt laid out as TextArena's TwentyQuestionsEnv.get_gamemaster_response builds it."""
    context = ("You are the gamemaster for the game of '20 Questions'.\nYou will provide responses to the players' "
               f"questions that guides them into guessing the target word: {word}\n")
    lines = "\n".join(f"Q: {q}\nA: {a}" for q, a in history)
    return (f"{context}\n{lines}\n\nQ: {question}\nOptions: 'Yes', 'No', 'I don't know'\n\n"
            "Please respond with the most appropriate option.")


def test_game_master_says_yes_only_when_the_last_question_names_the_word() -> None:
    assert driver.game_master_answer(gm_prompt("diving bell", [], "Is it a diving bell?")) == "Yes"
    assert driver.game_master_answer(gm_prompt("diving bell", [], "Is it a bell?")) == "No"
    assert driver.game_master_answer(gm_prompt("park", [("Is it a park?", "Yes")], "Is it a school?")) == "No"
    assert driver.ScriptedGameMaster(model_name="openai/gpt-4o")(gm_prompt("park", [], "A PARK?")) == "Yes"


def test_game_master_refuses_a_prompt_without_a_word() -> None:
    with pytest.raises(ValueError, match="no target word"):
        driver.game_master_answer("Q: Is it a park?\nOptions: 'Yes', 'No'")


def test_questioner_asks_distinct_words_of_the_theme_and_guesses_the_one_answered_yes() -> None:
    guesser = driver.ListQuestioner(WORDS, random.Random(1))
    observation = PROMPT
    asked: list[str] = []
    for _ in range(2):
        question = guesser(observation)
        assert question.startswith("Is it a ") and question.endswith("?")
        asked.append(question.removeprefix("Is it a ").removesuffix("?"))
        observation += f"\n[Player] {question}\n[GAME] No"
    assert len(set(asked)) == 2 and set(asked) <= set(WORDS["places"])
    third = guesser(observation)
    assert guesser(observation + f"\n[Player] {third}\n[GAME] Yes") == f"[{third.removeprefix('Is it a ')[:-1]}]"


def test_questioner_guesses_after_running_out_of_questions() -> None:
    many = {"places": [f"place{letter}" for letter in "abcdefghijklmnopqrstuvwxyz"]}
    guesser = driver.ListQuestioner(many, random.Random(2))
    observation = PROMPT
    for _ in range(driver.QUESTIONS):
        question = guesser(observation)
        assert question.startswith("Is it a ")
        observation += f"\n[Player] {question}\n[GAME] No"
    final = guesser(observation)
    assert final.startswith("[place") and final.endswith("]")


def test_questioner_refuses_an_unknown_theme() -> None:
    with pytest.raises(ValueError, match="unknown theme 'moons'"):
        driver.ListQuestioner(WORDS, random.Random(0))(PROMPT.replace("related to places", "related to moons"))


def test_taboo_clue_and_guess_round_trip_on_the_latest_word() -> None:
    observation = ("[GAME] The current word to guess is 'Airship'. Taboo words: hindenburg, helium, balloon.\n"
                   "[GAME] The next word to guess is The word to guess is 'Air brake'. Taboo words: car, PSI.")
    clue = driver.taboo_clue(observation)
    assert clue == "ekarb ria"
    assert driver.taboo_guess(f"[GAME] Team 0 scored\n[Clue Giver] [{clue}]") == "[air brake]"


def test_taboo_clue_is_blank_when_the_word_backwards_is_forbidden() -> None:
    assert driver.taboo_clue("[GAME] The current word to guess is 'Level'. Taboo words: flat.") == "no clue"
    assert driver.taboo_clue("[GAME] The current word to guess is 'Pots'. Taboo words: stop, pan.") == "no clue"
    with pytest.raises(ValueError, match="no word to guess"):
        driver.taboo_clue("[GAME] Team 1 has finished their turn.")


ROWS = [
    peers.Row(peers.PLAYEVAL, peers.IN_MEMORY, Measured(games=100, steps=4000, seconds=0.5)),
    peers.Row(peers.PLAYEVAL, peers.SQLITE, Measured(games=10, steps=400, seconds=0.2)),
    peers.Row(peers.PLAYEVAL, peers.POSTGRESQL, skipped="PostgreSQL server binaries not found"),
    peers.Row(peers.TWENTY_QUESTIONS, peers.IN_MEMORY, Measured(games=200, steps=3000, seconds=1.0), note="make 9%"),
    peers.Row(peers.CLEMCORE, peers.IN_MEMORY, quoted_steps_per_s=7508.0),
]


def test_ratios_divide_steps_per_second_and_skip_missing_sides() -> None:
    memory_vs_20q, sqlite_vs_memory, postgres_vs_memory, rules_vs_20q = peers.RATIOS
    assert peers.ratio(ROWS, memory_vs_20q) == pytest.approx(8000 / 3000)
    assert peers.ratio(ROWS, sqlite_vs_memory) == pytest.approx(2000 / 8000)
    assert peers.ratio(ROWS, postgres_vs_memory) is None
    assert peers.ratio(ROWS, rules_vs_20q) is None  # no rules-only row among ROWS


def test_ratio_table_says_whether_each_target_is_met() -> None:
    lines = peers.format_ratios(ROWS).splitlines()
    assert lines[1].split()[-4:] == ["2.67", ">=", "2", "met"]
    assert lines[2].split()[-5:] == ["0.25", ">=", "0.5", "NOT", "met"]
    assert lines[3].split()[-2:] == ["n/a", "-"]


def test_table_shows_measured_skipped_and_quoted_rows() -> None:
    lines = peers.format_table(ROWS).splitlines()
    assert lines[1].split()[-5:] == ["100", "0.50", "200.0", "8,000", "40.0"]
    assert lines[3].endswith("skipped: PostgreSQL server binaries not found")
    assert lines[4].endswith("15.0  make 9%")
    assert "QUOTED (not measured)" in lines[5] and lines[5].split()[-2:] == ["7,508", "-"]


def test_calibration_plays_enough_games_for_the_seconds_asked() -> None:
    played: list[int] = []

    def run(games: int) -> Measured:
        played.append(games)
        return Measured(games=games, steps=games * 10, seconds=games / 100)

    assert peers.calibrated(run, 20, 3.0).games == 300
    assert played == [20, 300]
    assert peers.calibrated(run, 20, 0.01).games == 20  # never fewer than the probe


def test_postgres_line_is_skipped_with_the_reason_when_the_server_binaries_are_absent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pg_server = peers.pg_server()
    monkeypatch.setattr(pg_server, "find_pg_bin", lambda: None)
    monkeypatch.setattr(peers, "pg_server", lambda: pg_server)
    with peers.postgres_databases() as databases:
        assert isinstance(databases, str)
        assert databases.startswith("PostgreSQL server binaries (initdb, pg_ctl) not found; install")


@pytest.mark.slow
def test_driver_plays_textarena_games_in_the_peers_virtualenv() -> None:
    python = peers.ensure_peers(peers.default_venv())  # under the test's own cache directory: a fresh install
    twenty, _ = peers.run_textarena(python, driver.TWENTY_QUESTIONS, 3)
    assert twenty.games == 3 and 3 <= twenty.steps <= 3 * 21
    taboo, make_seconds = peers.run_textarena(python, driver.TABOO, 2)
    assert taboo.games == 2 and taboo.steps >= 2 * 4 * 12  # four rounds of at least twelve turns
    assert 0 < make_seconds < taboo.seconds
