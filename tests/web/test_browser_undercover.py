"""Undercover in a real browser, through the arena's pages (Chromium and Playwright, ``browser_kit``).

The arena serves ``mock/player`` and binds Undercover's judge to the game's scripted judge; its matches draw one
fixed concept pair (``undercover_pair``: lion and tiger), so the test can look for the other word anywhere on the
page. (a) One person at player1 with five models sets the table up from the set-up form (its seats follow the
``players`` option), writes a sentence (one with their own word is refused on the page, with the reason) and
votes through the game's forms (the vote offers exactly the living other seats); the page shows only their own
word while the game is played, the judges' verdicts, the vote's tally and who is out, and at the end every word
and side. (b) Person A takes player5, invites B to player6 by link, and both play to the end with four models.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import undercover_pair
from browser_kit import (
    MOCK_DELAY,
    MODEL,
    TIMEOUT_MS,
    Arena,
    Session,
    browser,
    match_id_of,
    open_session,
    serve,
    session,
)
from playwright.sync_api import Browser, Page, expect

from playeval.core.registry import default_registry
from playeval.engine.master import state_from_events
from playeval.games.undercover import UndercoverState
from playeval.store import Store

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
__all__ = ["browser", "session"]  # the fixtures this module uses, from browser_kit

WORDS = (undercover_pair.CIVILIAN_WORD, undercover_pair.UNDERCOVER_WORD)
GAME_S = 90.0
SENTENCES = {
    "player1": ("It often turns up where people gather", "Most of us could recognise it at once"),
    "player5": ("You would know it from quite far away", "It has a certain presence about it"),
    "player6": ("Stories have been told about it for ages", "It is hard to ignore once you notice it"),
}


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    yield from serve(tmp_path_factory.mktemp("arena"), undercover_pair.ROLES, setup=("undercover_pair",))


@pytest.fixture
def guest(browser: Browser, arena: Arena) -> Iterator[Session]:
    yield from open_session(browser, arena, viewport={"width": 1280, "height": 900})


@dataclass
class Person:
    """One person's page and what it showed them while the game was live."""

    session: Session
    seat: str
    live: list[str] = field(default_factory=list)
    said: int = 0
    votes: int = 0

    @property
    def page(self) -> Page:
        return self.session.page

    def status(self) -> str:
        return self.page.locator("#status").get_attribute("data-status") or ""

    def seq(self) -> int:
        return int(self.page.locator("#status").get_attribute("data-seq") or "0")

    def look(self, match_id: str) -> None:
        """Keep the page's text and the API's view for this person while the game is live."""
        text = self.page.locator("#match").inner_text()
        if self.status() != "finished":  # read after the text: the text was taken before the end
            self.live.append(text)
        view = self.page.evaluate("async (id) => (await fetch(`/api/matches/${id}`)).text()", match_id)
        if '"status":"finished"' not in view:
            self.live.append(view)


def _state(arena: Arena, match_id: str) -> UndercoverState:
    with Store.open(arena.db) as store:
        record = store.get_match(match_id)
        state = state_from_events(default_registry().get("undercover"), record.spec, store.events(match_id))
    assert isinstance(state, UndercoverState)
    return state


def _set_up(page: Page, seat: str, invite: str | None = None) -> None:
    """The set-up form: the seats follow the players option; two rounds; the models are mock/player."""
    expect(page.locator("#seat option")).to_have_count(6)
    expect(page.locator("#seat")).to_have_value("player1")
    expect(page.locator("#seat-help")).to_have_text(
        "player1 describes its secret word each round and votes a player out.")  # a seat's name is a name
    expect(page.locator("#roles-note")).to_contain_text("judge")
    page.locator("#option-players").fill("8")
    expect(page.locator("#seat option")).to_have_count(8)
    expect(page.locator("#others select")).to_have_count(7)
    page.locator("#option-players").fill("6")
    expect(page.locator("#seat option")).to_have_count(6)
    expect(page.locator("#others select")).to_have_count(5)
    page.select_option("#seat", seat)
    expect(page.locator("#seat-help")).to_contain_text(f"{seat} describes")
    expect(page.locator("#others select")).to_have_count(5)
    expect(page.locator(f"#other-{seat}")).to_have_count(0)
    if invite is not None:
        page.select_option(f"#other-{invite}", "person")
    page.locator("#option-max_rounds").fill("2")
    page.select_option("#opponent", MODEL)
    page.locator("#start").click()


def _act(person: Person, arena: Arena, match_id: str) -> None:
    """The person's move through the game's form: a new sentence, or a vote for the first living other seat."""
    page = person.page
    before = person.seq()
    vote = page.locator("#panel-form form[data-action=vote]")
    if vote.is_visible():
        radios = vote.locator("input[type=radio]")
        offered = [radios.nth(index).get_attribute("value") for index in range(radios.count())]
        state = _state(arena, match_id)
        assert offered == [seat for seat in state.alive() if seat != person.seat]  # only valid votes are offered
        radios.first.check()
        vote.locator("button[type=submit]").click()
        person.votes += 1
    else:
        say = page.locator("#panel-form form[data-action=say]")
        expect(say).to_be_visible()
        expect(page.locator("#panel-form .panel-form-note")).to_contain_text("Your word is")
        page.locator("#field-say-sentence").fill(SENTENCES[person.seat][person.said])
        say.locator("button[type=submit]").click()
        person.said += 1
    page.wait_for_function("(seq) => Number(document.querySelector('#status').dataset.seq) > seq", arg=before)


def _play(people: list[Person], arena: Arena, match_id: str, words: dict[str, str]) -> None:
    """Every person moves whenever it is their turn, until the game is over; what they see is kept and checked."""
    deadline = time.monotonic() + GAME_S
    while not all(person.status() == "finished" for person in people):
        assert time.monotonic() < deadline, "the game did not end"
        acted = False
        for person in people:
            person.look(match_id)
            if person.status() == "your_turn" and person.page.locator("#panel-form").is_visible():
                _act(person, arena, match_id)
                acted = True
        if not acted:
            people[0].page.wait_for_timeout(100)
    for person in people:
        mine = words[person.seat]
        other = next(word for word in WORDS if word != mine)
        assert person.live, person.seat
        pages = [shown for shown in person.live if not shown.startswith("{")]
        # after their vote, the person is told it is in and whom the table waits for, not that models think
        assert any(RECORDED.search(shown) for shown in pages), person.seat
        assert not any(re.search(r"\bthe player\d", shown, flags=re.IGNORECASE) for shown in pages)
        assert not any("The game is about to begin" in shown for shown in pages)
        for shown in person.live:
            assert re.search(rf"\b{other}\b", shown, flags=re.IGNORECASE) is None, f"{person.seat} saw:\n{shown}"
        assert any(re.search(rf"\b{mine}\b", shown) for shown in person.live)


RECORDED = re.compile(r"Your vote is recorded\. Still waiting for (player\d|the judge)(, player\d)*"
                      r"( and (player\d|the judge))?…")


def _fits(page: Page) -> None:
    """No panel item spills out of its box, and the end table fits its column (no sideways scroll)."""
    spilled = page.evaluate("""() => [...document.querySelectorAll('.panel-list-items li')]
        .filter((li) => li.scrollWidth > li.clientWidth + 1 || li.getBoundingClientRect().right
                        > li.closest('.panel-list').getBoundingClientRect().right + 1)
        .map((li) => li.textContent)""")
    assert spilled == [], spilled
    wrap = page.evaluate("""() => { const box = document.querySelector('#outcome .table-wrap');
        return [box.scrollWidth, box.clientWidth]; }""")
    assert wrap[0] <= wrap[1], wrap
    assert page.locator(".panel-list[data-key=round-1].rows").count() == 1  # sentences: rows of wrapped text


def _check_end(page: Page, words: dict[str, str], sides: dict[str, str]) -> None:
    expect(page.locator("#outcome")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#turn")).to_be_hidden()
    expect(page.locator("#secrets")).to_be_hidden()
    for seat, word in words.items():
        expect(page.locator(f"#reveal-{seat}_word")).to_have_text(word)
    shown = page.locator(".panel-list[data-key=words] li")
    expect(shown).to_have_count(len(words))
    for index, seat in enumerate(words):
        expect(shown.nth(index)).to_contain_text(f"{seat}: {words[seat]} ({sides[seat]})")
    expect(page.locator("#results-body tr")).to_have_count(len(words))
    expect(page.locator(".panel-list[data-key=round-1]")).to_contain_text(
        "judge: novelty 1.00, relevance 0.50, reasonableness 1.00")
    expect(page.locator(".panel-list[data-key=round-1]")).to_contain_text("Votes: ")
    _fits(page)
    assert re.search(r"\bthe player\d", page.locator("#match").inner_text(), flags=re.IGNORECASE) is None


def test_a_person_plays_undercover_with_five_models(session: Session) -> None:
    page = session.page
    session.go("/play/undercover")
    _set_up(page, "player1")
    page.wait_for_url(re.compile(r"/matches/[0-9a-f]+$"))
    match_id = match_id_of(page)
    spec = _state(session.arena, match_id).spec
    words, sides = spec.setup["words"], spec.setup["sides"]
    mine = words["player1"]
    expect(page.locator("#panel-form form[data-action=say]")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#secrets .secret-value")).to_have_text(mine)
    expect(page.locator(".panel-list[data-key=word] li")).to_have_text([mine])
    expect(page.locator("#counter-round")).to_contain_text("1 / 2")
    expect(page.locator("#empty-transcript")).to_be_hidden()  # play has started: the person speaks first
    counter = page.locator("#field-say-sentence-counter")
    expect(counter).to_have_text("0 / 150")
    session.shot("60-undercover-start")

    # as the person types, the rules judge the sentence live: one with the word itself says why, and is not sent
    page.locator("#field-say-sentence").fill(f"A {mine} is what I hold")
    expect(counter).to_have_text(f"{len(mine) + 17} / 150")
    say = page.locator("#panel-form form[data-action=say]")
    expect(say.locator(".alert.error")).to_have_text("Not sent: the sentence says your word itself.")
    sent = len(session.watcher.moves)
    say.locator("button[type=submit]").click()
    expect(say.locator(".alert.error")).to_have_text("Not sent: the sentence says your word itself.")
    assert len(session.watcher.moves) == sent
    page.locator("#field-say-sentence").fill("Something else entirely")
    expect(say.locator(".alert.error")).to_be_hidden()
    expect(counter).to_have_text("23 / 150")
    page.locator("#field-say-sentence").fill("")
    person = Person(session=session, seat="player1")
    _play([person], session.arena, match_id, words)
    assert person.said >= 1 and person.votes >= 1
    live = "\n".join(person.live)
    assert "judge: novelty 1.00" in live and "Result: " in live and "voted out with" in live  # shown during play
    _check_end(page, words, sides)
    expect(page.locator(".panel-list[data-key=out]")).to_contain_text("player1 \u2014 round 1: voted out with")
    session.shot("61-undercover-end")
    page.locator("#survey-skip").click()


def test_two_people_play_undercover_with_four_models(session: Session, guest: Session) -> None:
    page = session.page
    session.go("/play/undercover")
    _set_up(page, "player5", invite="player6")
    expect(page.locator("#invites")).to_be_visible()
    expect(page.locator("#invite-list .invite")).to_have_count(1)
    link = page.locator("#invite-list .invite-url").input_value()
    found = re.search(r"/matches/([0-9a-f]+)/join#token=[A-Za-z0-9_-]{43}$", link)
    assert found is not None, link
    match_id = found.group(1)
    page.locator("#go").click()
    page.wait_for_url(re.compile(rf"/matches/{match_id}$"))
    expect(page.locator("#seats li[data-seat=player6] .seat-name")).to_have_text("Person (invited)")
    expect(page.locator("#empty-transcript")).to_be_hidden()  # the models describe their words already

    guest.page.goto(link)
    guest.page.wait_for_url(re.compile(rf"/matches/{match_id}$"))
    assert "token" not in guest.page.url
    expect(guest.page.locator("#seats li[data-seat=player6] .seat-name")).to_have_text("You")
    spec = _state(session.arena, match_id).spec
    words, sides = spec.setup["words"], spec.setup["sides"]
    expect(page.locator("#secrets .secret-value")).to_have_text(words["player5"])
    expect(guest.page.locator("#secrets .secret-value")).to_have_text(words["player6"])
    people = [Person(session=session, seat="player5"), Person(session=guest, seat="player6")]
    _play(people, session.arena, match_id, words)
    for person in people:
        assert person.said >= 1 and person.votes >= 1, person
        _check_end(person.page, words, sides)
    session.shot("62-undercover-two-people-end")


def test_the_home_page_says_how_long_a_model_move_takes_here(session: Session) -> None:
    """From the server's measured figures (after this module's games, mock/player's median), never a constant."""
    page = session.page
    session.go("/")
    item = page.locator("#speed-list li[data-model='mock/player']")
    expect(item).to_be_visible()
    timings = page.evaluate("async () => (await (await fetch('/api/models')).json()).timings")
    [mine] = [timing for timing in timings if timing["model"] == MODEL]
    if mine["median_s"] is None:
        expect(item).to_have_text("mock/player: not yet measured here")
    else:
        expect(item).to_contain_text(f"a move (median of its last {mine['moves']} moves here)")
        assert mine["median_s"] >= float(MOCK_DELAY)  # the arena's mock delay is part of each move
