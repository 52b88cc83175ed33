"""The arena in a real browser: Debian's Chromium driven by Playwright against a real server.

One server (``browser_kit``: uvicorn in a subprocess, a fresh SQLite database, ``mock/player`` as the only model,
a small ``PLAYEVAL_MOCK_DELAY`` so the "thinking" state can be seen) serves the whole module. Each
game is played to the end through the pages the way a person would: typing the secret into the form the page
builds from the game's declared inputs, clicking answers, writing clues (one refused, before it is sent, by the
server's dry run of the game's rules, for saying the word), answering questions, reloading mid-game, filling in
the survey. The watch, replay, leaderboard and statistics pages are checked on the games just played. Every
page must load without a console error or an uncaught exception. Screenshots of the key moments go to a
temporary directory and, when ``PLAYEVAL_SCREENSHOT_DIR`` is set, there too.

No browser is downloaded: the test uses ``/usr/bin/chromium``. Without it the module is skipped, except under
CI (``CI`` set), where a missing browser is a failure.
"""

from __future__ import annotations

import json
import re

import pytest
from browser_kit import (
    MODEL,
    TIMEOUT_MS,
    Session,
    arena,
    browser,
    match_id_of,
    phone,
    see_thinking,
    session,
    transcript_of,
    wait_for_turn,
)
from playwright.sync_api import Page, expect

from playeval.core.registry import default_registry
from playeval.games.taboo.words import find_word, word_forms

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
__all__ = ["arena", "browser", "phone", "session"]  # the fixtures this module uses, from browser_kit


def _answer_survey(page: Page, enjoyment: int, satisfaction: int, frequency: int) -> None:
    survey = page.locator("#survey")
    expect(survey).to_be_visible()
    survey.locator("button[type=submit]").click()  # nothing picked yet: the page asks for all three
    expect(page.locator("#survey-error")).to_contain_text("each question")
    for question, value in (("enjoyment", enjoyment), ("satisfaction", satisfaction), ("frequency", frequency)):
        page.locator(f"#survey-{question}-{value}").check()
    survey.locator("button[type=submit]").click()
    expect(page.locator("#survey-done")).to_contain_text("Thank you")
    expect(survey).to_be_hidden()


def _check_outcome(page: Page, headline: str, secret: str) -> None:
    outcome = page.locator("#outcome")
    expect(outcome).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#outcome-heading")).to_have_text(headline)
    expect(page.locator("#reveal-secret")).to_have_text(secret)
    expect(page.locator("#results-body tr")).to_have_count(2)
    expect(page.locator("#results-body")).to_contain_text(MODEL)
    expect(page.locator("#seats")).to_contain_text(MODEL)
    expect(page.locator("#turn")).to_be_hidden()
    expect(page.locator("#abandon-row")).to_be_hidden()


# ---- the games ---------------------------------------------------------------------------------------------------


def test_akinator_whole_game(session: Session) -> None:
    page = session.page
    session.go("/")
    expect(page.locator(".game-card")).to_have_count(len(default_registry().ids()))  # every registered game
    expect(page.locator("#opponent option[value='mock/player']")).to_have_count(1)
    page.select_option("#opponent", MODEL)
    page.select_option("#level-akinator", "1")
    session.shot("00-home")
    page.locator("#game-akinator button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/play/akinator\?.*model=mock%2Fplayer"))

    # the form is the game's: its person seat, and the secret typed into a masked field (optional: the game lets
    # a person keep the object in their head)
    expect(page.locator("#seat")).to_have_value("answerer")
    secret = page.locator("#input-secret")
    expect(secret).to_have_attribute("type", "password")
    expect(page.locator("#inputs")).to_contain_text("keep it in your head")
    expect(page.locator("#others select")).to_have_count(1)
    secret.fill("a tabby cat")
    page.locator("#inputs button").click()  # the Show button unmasks it
    expect(secret).to_have_attribute("type", "text")
    expect(page.locator("#opponent")).to_have_value(MODEL)
    session.shot("01-akinator-setup")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/matches/"))
    match_id = match_id_of(page)

    see_thinking(page)
    session.shot("02-akinator-thinking")
    expect(page.locator("#secrets .secret-value")).to_have_text("a tabby cat")
    expect(page.locator("#secrets .secret-label")).to_have_text("Your secret object")
    wait_for_turn(page, 1)
    expect(page.locator("#choices button")).to_have_text(["Yes", "No", "Probably yes", "Probably no", "Don't know"])
    expect(page.locator("#turn-display")).to_contain_text("Question 1:")
    # focus moves to the first answer: Enter answers "Yes" without touching the mouse
    expect(page.locator("#choices button").first).to_be_focused()
    session.shot("03-akinator-question")
    page.keyboard.press("Enter")
    see_thinking(page)
    wait_for_turn(page, 3)
    expect(page.locator("#turn-display")).to_contain_text("Question 2:")
    page.get_by_role("button", name="Probably no", exact=True).click()
    wait_for_turn(page, 5)
    before = transcript_of(page)
    assert before[1] == "Yes" and before[3] == "Probably no" and before[4].startswith("Question 3:")

    # a reload mid-game resumes where it was: same transcript, same turn, secret still shown to its owner
    page.reload()
    wait_for_turn(page, 5)
    assert transcript_of(page) == before
    expect(page.locator("#secrets .secret-value")).to_have_text("a tabby cat")
    expect(page.locator("#turn-display")).to_contain_text("Question 3:")
    page.keyboard.press("2")  # the number keys pick an answer: 2 is "No"
    wait_for_turn(page, 7)
    assert transcript_of(page)[5] == "No"

    # turn 4 is a guess the rules cannot confirm: the game's judge role, bound to the person's seat, asks them
    expect(page.locator("#turn-heading")).to_have_text("Your turn, as the judge")
    expect(page.locator("#turn-display")).to_contain_text("are you thinking of cat?")
    expect(page.locator("#choices button")).to_have_text(["Yes", "No"])
    session.shot("04-akinator-guess")
    page.get_by_role("button", name="Yes", exact=True).click()

    _check_outcome(page, f"{MODEL} won this one", "a tabby cat")
    expect(page.locator("#outcome-reason")).to_contain_text("guessed 'cat'")
    expect(page.locator("#secrets")).to_be_hidden()
    expect(page.locator("#reveal")).to_contain_text("The object")
    session.shot("05-akinator-outcome")
    _answer_survey(page, 5, 4, 3)
    session.arena.surveys_sent += 1
    session.shot("06-akinator-survey-done")
    session.arena.played["akinator"] = match_id


def test_taboo_whole_game(phone: Session) -> None:
    page = phone.page
    phone.go("/play/taboo?level=1")
    expect(page.locator("h1")).to_have_text("Play Taboo")
    phone.shot("10-taboo-setup-phone")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/matches/"))
    match_id = match_id_of(page)
    wait_for_turn(page, 0)

    # a random opponent stays anonymous until the end
    expect(page.locator("#seats")).to_contain_text("Model (hidden until the end)")
    expect(page.locator("#seats")).not_to_contain_text(MODEL)
    word = page.locator("#secrets .secret-value").inner_text().strip()
    assert word, "the clue-giver sees the word"
    expect(page.locator("#secrets .secret-label")).to_have_text("Your word")
    textarea = page.locator("#move-text")
    expect(textarea).to_be_focused()
    expect(page.locator("#counter")).to_have_text("0 / 140")

    # a clue with a form of the word is refused on the page, with the reason, and never sent: the page asks the
    # server to judge it by the game's rules without recording it (a form the rules name, upper-cased)
    plural = max(sorted(word_forms(word)), key=len)
    assert plural != word.lower() and find_word(plural.upper(), word) is not None
    textarea.fill(f"Two {plural.upper()} walk into a bar")
    expect(page.locator("#local-error")).to_contain_text("contains the secret word")
    textarea.press("Enter")
    expect(page.locator("#local-error")).to_contain_text("Not sent")
    expect(textarea).to_have_attribute("aria-invalid", "true")
    phone.shot("11-taboo-refused-clue")
    assert phone.watcher.moves == []
    assert any(plural.upper() in json.loads(body)["text"] for body in phone.watcher.checks)

    # the counter follows the text and turns red past 140 characters; such a clue is refused too
    textarea.fill("x" * 141)
    expect(page.locator("#counter")).to_have_text("141 / 140")
    expect(page.locator("#counter")).to_have_class(re.compile(r"\bover\b"))
    textarea.press("Enter")
    expect(page.locator("#local-error")).to_contain_text("at most 140")
    assert phone.watcher.moves == []

    clues = [clue for clue in ("You can often find one near people.", "Picture books love to show it.",
                               "Think of a farm, a zoo or a backyard.", "It has a well-known sound.",
                               "Children learn its name early.") if find_word(clue, word) is None]
    assert len(clues) >= 3
    rounds = 0
    for clue in clues:
        textarea.fill(clue)
        expect(page.locator("#counter")).to_have_text(f"{len(clue)} / 140")
        expect(page.locator("#local-error")).to_be_hidden()
        textarea.press("Enter")
        rounds += 1
        if rounds == 1:
            see_thinking(page)
            phone.shot("12-taboo-thinking-phone")
        expect(page.locator("#transcript .msg")).to_have_count(2 * rounds, timeout=TIMEOUT_MS)
        expect(page.locator("#status")).to_have_attribute("data-status", re.compile(r"^(your_turn|finished)$"))
        if page.locator("#status").get_attribute("data-status") == "finished":
            break
        wait_for_turn(page, 2 * rounds)
        expect(textarea).to_be_focused()
        expect(textarea).to_have_value("")
    sent = [json.loads(move)["text"] for move in phone.watcher.moves]
    assert sent == clues[:rounds] and all(find_word(text, word) is None for text in sent)

    # mock/player guesses "dog" on the third clue: right if the word was dog, else the clue-giver wins
    expect(page.locator("#outcome")).to_be_visible()
    headline = f"{MODEL} won this one" if word.lower() == "dog" else "You won!"
    _check_outcome(page, headline, word)
    expect(page.locator("#transcript")).to_contain_text("My guess of the word is: dog")
    phone.shot("13-taboo-outcome-phone")
    page.locator("#survey-skip").click()
    expect(page.locator("#survey")).to_be_hidden()
    expect(page.locator("#survey-done")).to_contain_text("Thanks for playing")
    phone.arena.played["taboo"] = match_id


def test_bluffing_whole_game(session: Session) -> None:
    page = session.page
    session.go("/play/bluffing")
    statement = page.locator("#input-statement")
    statement.fill("I have climbed Mount Kilimanjaro twice.")
    page.locator("#start").click()
    expect(page.locator("#setup-error")).to_contain_text("Is your statement true or false?")
    page.locator("input[name=input-secret][value=false]").check()
    session.shot("20-bluffing-setup")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/matches/"))
    match_id = match_id_of(page)
    expect(page.locator("#secrets .secret-value")).to_have_text("false")
    expect(page.locator("#secrets .secret-label")).to_have_text("Your statement is")
    expect(page.locator("#transcript .msg-text").first).to_have_text("I have climbed Mount Kilimanjaro twice.")

    wait_for_turn(page, 2)
    textarea = page.locator("#move-text")
    expect(textarea).to_be_focused()
    expect(page.locator("#turn-display")).to_contain_text("Question 1:")
    # two paragraphs: the game's parser refuses them, and the page learns why from the dry run, before sending
    textarea.type("It was in 2019.")
    textarea.press("Shift+Enter")
    textarea.press("Shift+Enter")
    textarea.type("And again in 2021.")
    textarea.press("Enter")
    expect(page.locator("#local-error")).to_contain_text("single paragraph")
    expect(textarea).to_have_value("It was in 2019.\n\nAnd again in 2021.")
    assert session.watcher.moves == []
    session.shot("21-bluffing-rejected")
    textarea.fill("The first time was in 2019, with my cousin.")
    textarea.press("Enter")
    see_thinking(page)
    expect(page.locator("#local-error")).to_be_hidden()
    wait_for_turn(page, 4)
    expect(page.locator("#turn-display")).to_contain_text("Question 2:")
    textarea.fill("Just the two of us and a guide called Baraka.")
    session.shot("22-bluffing-answer")
    page.locator("#send").click()

    # mock/player believes the statement; it was a bluff, so the person wins
    _check_outcome(page, "You won!", "false")
    expect(page.locator("#reveal")).to_contain_text("The statement was")
    expect(page.locator("#transcript")).to_contain_text("True")
    session.shot("23-bluffing-outcome")
    _answer_survey(page, 4, 5, 2)
    session.arena.surveys_sent += 1
    session.arena.played["bluffing"] = match_id


def test_giving_up_and_unknown_games(session: Session) -> None:
    page = session.page
    session.watcher.allowed.append(re.compile(r"status of 404"))  # the unknown game below
    session.go("/play/akinator")
    page.locator("#input-secret").fill("a lighthouse")
    page.locator("#input-secret").press("Enter")  # Enter submits the set-up form
    page.wait_for_url(re.compile(r"/matches/"))
    match_id = match_id_of(page)
    wait_for_turn(page, 1)
    expect(page.locator("#abandon")).to_have_text("Leave this game")
    page.locator("#abandon").click()
    expect(page.locator("#abandon-question")).to_have_text("Really leave? The game ends here.")
    expect(page.locator("#abandon-no")).to_be_focused()
    page.locator("#abandon-no").click()
    expect(page.locator("#abandon-confirm")).to_be_hidden()
    page.locator("#abandon").click()
    page.locator("#abandon-yes").click()
    expect(page.locator("#outcome-heading")).to_have_text("The game was abandoned")
    expect(page.locator("#reveal-secret")).to_have_text("a lighthouse")
    expect(page.locator("#turn")).to_be_hidden()
    session.shot("60-akinator-abandoned")

    session.go("/matches/no-such-game")
    expect(page.locator("#load-error")).to_contain_text("no game at this address")
    expect(page.locator("#match")).to_be_hidden()
    assert match_id != "no-such-game"


# ---- watching, replays, leaderboard, statistics ---------------------------------------------------------------


def test_watch_a_model_match(session: Session) -> None:
    page = session.page
    session.go("/watch")
    page.select_option("#watch-game", "bluffing")
    expect(page.locator("#watch-level option")).to_have_count(1)
    expect(page.locator("#seat-questioner option[value='mock/player']")).to_have_count(1)
    session.shot("30-watch-form")
    page.locator("#watch-start").click()
    page.wait_for_url(re.compile(r"/matches/"))
    match_id = match_id_of(page)
    expect(page.locator("#match-mode")).to_contain_text("Model vs model")
    expect(page.locator("#status")).to_have_attribute("data-status", "watching")
    session.shot("31-watch-live")
    expect(page.locator("#outcome")).to_be_visible(timeout=30_000)
    expect(page.locator("#turn")).to_be_hidden()
    expect(page.locator("#survey")).to_be_hidden()
    expect(page.locator("#replay")).to_be_visible()
    assert len(transcript_of(page)) >= 5  # statement, two questions and answers, verdict
    session.shot("32-watch-finished")

    session.go("/watch")
    expect(page.locator(f"#recent-list a[href='/matches/{match_id}']")).to_have_count(1)


def test_replay_of_a_played_game_is_public(session: Session) -> None:
    """A fresh browser (no token) sees the finished game: transcript, seats with models, outcome, no controls."""
    page = session.page
    played = session.arena.played
    if "akinator" not in played:
        pytest.skip("needs the Akinator game of test_akinator_whole_game")
    session.go(f"/matches/{played['akinator']}")
    expect(page.locator("#outcome")).to_be_visible()
    expect(page.locator("#reveal-secret")).to_have_text("a tabby cat")
    expect(page.locator("#seats")).to_contain_text(MODEL)
    expect(page.locator("#transcript .msg")).to_have_count(8)
    expect(page.locator("#turn")).to_be_hidden()
    expect(page.locator("#survey")).to_be_hidden()
    expect(page.locator("#abandon-row")).to_be_hidden()
    expect(page.locator("#replay")).to_be_visible()
    session.shot("40-akinator-replay")


def test_leaderboard_and_stats(session: Session) -> None:
    page = session.page
    session.go("/leaderboard")
    plot = page.locator("#plot")
    # by default the models' numbers count the batch runs' games, as `playeval leaderboard`: none were run here
    expect(plot).to_have_attribute("src", re.compile(r"/api/leaderboard/plot\.png\?game=all&source=batch"))
    expect(page.locator("#board-empty")).to_be_visible()
    if session.arena.played:  # people's rows are the arena's, whichever games the models' numbers count
        expect(page.locator("#people-body tr").first).to_be_visible()
    page.locator("label:has(input[value=live])").click()
    expect(page).to_have_url(re.compile(r"game=all&source=live"))
    expect(page.locator("#board-counted")).to_contain_text("arena matches")
    expect(page.locator("#board-body tr").first).to_be_visible()
    expect(page.locator("#board-body")).to_contain_text(MODEL)
    expect(plot).to_have_attribute("src", re.compile(r"game=all&source=live"))
    expect(plot).to_have_js_property("complete", True)
    assert plot.evaluate("image => image.naturalWidth") > 0
    session.shot("50-leaderboard")
    page.locator("label:has(input[value=taboo])").click()
    expect(page).to_have_url(re.compile(r"game=taboo&source=live"))
    expect(plot).to_have_attribute("src", re.compile(r"game=taboo&source=live"))

    session.go("/stats")
    expect(page.locator("#useful-rate")).to_have_text(re.compile(r"^\d+%$"))
    expect(page.locator("#survey-charts figure")).to_have_count(3)
    if session.arena.surveys_sent:
        expect(page.locator("#surveys")).to_have_text(str(session.arena.surveys_sent))
        expect(page.locator("figure[data-question=enjoyment] .chart-meta")).to_contain_text(
            f"{session.arena.surveys_sent} answers")
    session.shot("51-stats")
