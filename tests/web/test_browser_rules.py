"""The guess-the-rule games in a real browser, through the arena's pages (Chromium and Playwright, ``browser_kit``).

For every registered guess-the-rule game a person plays one whole game as GuessTheRuleBench's web app has it
(Figure 1): the examples as lists, counters of turns, examples seen and the time (live), a number field for how
many more to show (bounded by what remains: one over the bound is refused on the page and never sent), a box
for the guess. A first guess is wrong: the person answers the rule-application check in its form and the judge
(the game's scripted judge, bound by the arena's ``roles`` setting) refuses it; a second guess states the rule
(read by the test from the store, never from the arena), the person skips the check, the judge accepts, and the
rule is revealed. A model plays one game on the watch page. The leaderboard and statistics list the games.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from arena_client import rule_games, stored_rule
from browser_kit import MODEL, TIMEOUT_MS, Session, arena, browser, match_id_of, session
from playwright.sync_api import Page, expect

from playeval.core.registry import default_registry

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
__all__ = ["arena", "browser", "session"]  # the fixtures this module uses, from browser_kit

INIT = 1
MAX_TURNS = 10
START_TRIES = 10
"""Games started until the drawn rule leaves examples to ask for and one more (a rule of Static Picnic's level 1 may
have two pairs in all)."""
WATCHED = "static_picnic"


def _counter(page: Page, key: str) -> str:
    return page.locator(f"#counter-{key}").inner_text().replace("\u00a0", " ").strip()


def _example_lists(page: Page) -> list[int]:
    """How many items each list of examples shows (the guesses' list aside)."""
    lists = page.locator("#panel-lists .panel-list:not([data-key=guesses])")
    return [lists.nth(index).locator("li").count() for index in range(lists.count())]


def _wait_for_lists(page: Page, size: int) -> None:
    """Until every list of examples shows ``size`` items (a game master may still be writing the next ones)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while set(_example_lists(page)) != {size}:
        assert time.monotonic() < deadline, f"the lists show {_example_lists(page)} items, not {size}"
        time.sleep(0.1)


def _wait_for_form(page: Page, kind: str) -> None:
    expect(page.locator("#status")).to_have_attribute("data-status", "your_turn", timeout=TIMEOUT_MS)
    action = "more" if kind == "move" else "apply"
    expect(page.locator(f"#panel-form form[data-action={'guess' if kind == 'move' else action}]")).to_be_visible()


def _fill_check(page: Page) -> int:
    """Answer every held-out item in the check's form (the first choice, or 0); how many there were."""
    form = page.locator("#panel-form form[data-action=apply]")
    choices = form.locator("fieldset.choice-field")
    numbers = form.locator("input[type=number]")
    for index in range(choices.count()):
        choices.nth(index).locator("input[type=radio]").first.check()
    for index in range(numbers.count()):
        numbers.nth(index).fill("0")
    return choices.count() + numbers.count()


def _clock_runs(page: Page) -> None:
    first = page.locator("#clock-value").inner_text()
    assert re.fullmatch(r"\d+:\d\d", first), first
    time.sleep(1.2)
    assert page.locator("#clock-value").inner_text() != first


@pytest.mark.parametrize("game_id", rule_games())
def test_a_person_plays_a_whole_rule_game(session: Session, game_id: str) -> None:
    page = session.page
    game = default_registry().get(game_id)
    for _ in range(START_TRIES):
        session.go(f"/play/{game_id}?level=1")
        initial = next(option for option in game.options if option.name == "num_init_examples")
        expect(page.locator("#option-num_init_examples")).to_have_value(str(initial.default))
        page.locator("#option-num_init_examples").fill(str(INIT))  # one pair (or value), so that some remain
        page.locator("#option-max_turns").fill(str(MAX_TURNS))
        page.locator("#start").click()
        page.wait_for_url(re.compile(r"/matches/"))
        match_id = match_id_of(page)
        _wait_for_form(page, "move")
        _, drawn, _ = stored_rule(session.arena.db, match_id)
        if drawn.total - drawn.shown >= 2:  # the arena draws the rule: some have too few examples to ask for more
            break

    # Figure 1: the examples as lists, the counters and the clock; no protocol to type
    expect(page.locator("#game-panel")).to_be_visible()
    _wait_for_lists(page, INIT)
    assert _counter(page, "turns") == f"1 / {MAX_TURNS}"
    _, state, rule = stored_rule(session.arena.db, match_id)
    assert _counter(page, "seen") == f"{game.seen(INIT)} / {game.seen(state.total)}"  # items (or values) seen
    expect(page.locator("#text-form")).to_be_hidden()
    expect(page.locator("#turn-display")).to_be_hidden()
    _clock_runs(page)
    expect(page.locator("#reveal")).to_be_hidden()
    assert rule.lower() not in page.content().lower()
    session.shot(f"70-{game_id}-start")

    # asking for one more than remains is refused on the page and never sent; then 3 more
    left = state.total - state.shown
    number = page.locator("#field-more-n")
    expect(number).to_have_attribute("max", str(left))
    number.fill(str(left + 1))
    page.locator("#panel-form form[data-action=more] button[type=submit]").click()
    expect(page.locator("#panel-form form[data-action=more] .alert")).to_contain_text(f"from 1 to {left}")
    assert session.watcher.moves == []
    wanted = min(3, left - 1)  # leave some, so that a refused guess does not end the game
    assert wanted >= 1, f"only {state.total} example units"
    number.fill(str(wanted))
    page.locator("#panel-form form[data-action=more] button[type=submit]").click()
    expect(page.locator("#counter-turns")).to_contain_text(f"2 / {MAX_TURNS}")
    expect(page.locator("#counter-seen")).to_contain_text(f"{game.seen(INIT + wanted)} / {game.seen(state.total)}")
    _wait_for_lists(page, INIT + wanted)
    assert json.loads(session.watcher.moves[-1])["text"] == f"MORE: {wanted}"

    # a wrong guess; the check, answered in its form; the judge refuses
    _wait_for_form(page, "move")
    page.locator("#field-guess-rule").fill("things I cannot name yet")
    page.locator("#panel-form form[data-action=guess] button[type=submit]").click()
    _wait_for_form(page, "apply")
    expect(page.locator("#panel-form .panel-form-note")).to_contain_text("you may skip it")
    assert _fill_check(page) == len(game.held_out(state.rule)) > 0
    session.shot(f"71-{game_id}-check")
    page.locator("#panel-form form[data-action=apply] button[type=submit]").click()
    _wait_for_form(page, "move")
    expect(page.locator(".panel-list[data-key=guesses]")).to_contain_text("not accepted")
    assert _counter(page, "turns") == f"3 / {MAX_TURNS}" and _counter(page, "guesses") == "1"
    assert rule.lower() not in page.content().lower()

    # the rule's own words, the check skipped, the judge accepts, and the rule is revealed
    page.locator("#field-guess-rule").fill(rule)
    page.locator("#field-guess-rule").press("Enter")
    _wait_for_form(page, "apply")
    page.locator("#panel-form form[data-action=skip] button[type=submit]").click()
    expect(page.locator("#outcome")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#outcome-heading")).to_have_text("You won!")
    expect(page.locator("#reveal-rule")).to_have_text(rule)
    expect(page.locator("#turn")).to_be_hidden()
    expect(page.locator(".panel-list[data-key=guesses]")).to_contain_text("accepted")
    assert _counter(page, "turns") == f"4 / {MAX_TURNS}"
    stopped = page.locator("#clock-value").inner_text()
    time.sleep(1.1)
    assert page.locator("#clock-value").inner_text() == stopped  # the clock stops at the end
    expect(page.locator("#transcript")).to_contain_text("the rule-application check was skipped")
    session.shot(f"72-{game_id}-outcome")
    page.locator("#survey-skip").click()


def test_a_model_plays_a_rule_game_on_the_watch_page(session: Session) -> None:
    page = session.page
    session.go("/watch")
    page.select_option("#watch-game", WATCHED)
    page.select_option("#seat-player", MODEL)
    page.locator("#watch-option-max_turns").fill("4")
    session.shot("80-watch-rule-form")
    page.locator("#watch-start").click()
    page.wait_for_url(re.compile(r"/matches/"))
    match_id = match_id_of(page)
    expect(page.locator("#match-mode")).to_contain_text("A model playing")
    expect(page.locator("#game-panel")).to_be_visible()
    expect(page.locator("#counter-turns")).to_contain_text("/ 4")
    session.shot("81-watch-rule-live")
    expect(page.locator("#outcome")).to_be_visible(timeout=30_000)
    expect(page.locator("#panel-form")).to_be_hidden()
    expect(page.locator("#outcome-heading")).to_have_text(re.compile(r"^The player \(mock/player\) (won|did not win)$"))
    _, state, rule = stored_rule(session.arena.db, match_id)
    expect(page.locator("#reveal-rule")).to_have_text(rule)
    expect(page.locator(".panel-list[data-key=guesses]")).to_contain_text("not accepted")
    assert state.guesses and _counter(page, "turns") == f"{state.turns} / 4"
    session.shot("82-watch-rule-finished")


def test_the_leaderboard_and_stats_list_the_rule_games(session: Session) -> None:
    page = session.page
    session.go(f"/leaderboard?game={WATCHED}&source=live")  # a watched game: the arena's, not a run's
    expect(page.locator(f"label:has(input[value={WATCHED}])")).to_have_count(1)
    expect(page.locator("#board-body")).to_contain_text(MODEL)
    expect(page.locator("#board-body")).to_contain_text("0%")
    expect(page.locator("#people-body")).to_contain_text("Player")
    session.shot("90-leaderboard-rule-game")
    session.go("/stats")
    for game_id in rule_games():
        expect(page.locator("#by-game-body")).to_contain_text(default_registry().get(game_id).presentation.name)
    session.shot("91-stats-rule-games")
