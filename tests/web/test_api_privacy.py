"""Trust: only the people at a table read or move its match while it is live, and no response before the end
carries hidden information the client's seat may not see -- checked on every response of whole games."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import undercover_pair
from arena_client import (
    Seen,
    client_for,
    disclosed,
    make_settings,
    play,
    rule_game_roles,
    rule_games,
    running,
    sse_views,
    stored_rule,
    wait_view,
)

from playeval.core.normalize import normalize_name
from playeval.games.undercover import rules as undercover_rules
from playeval.store import MatchRecord, Store
from playeval.web import create_app


def _stored(tmp_path: Path, match_id: str) -> MatchRecord:
    with Store.open(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        return store.get_match(match_id)


def _mentions(text: str, secret: str) -> bool:
    """Whether ``text`` names the secret: its core words, whole and in any case (``a toaster`` -> ``toaster``)."""
    core = normalize_name(secret) or secret.lower()
    return re.search(rf"\b{re.escape(core)}\b", text.lower()) is not None


def _before_the_end(bodies: list[str]) -> list[str]:
    return [body for body in bodies if '"status":"finished"' not in body.replace(" ", "")]


async def test_another_client_can_neither_read_nor_move_a_live_match(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    app = create_app(settings)
    async with app.router.lifespan_context(app), client_for(app) as owner, client_for(app) as other:
        created = (await owner.post("/api/matches", json={"game": "akinator", "inputs": {"secret": "a cat"}})).json()
        match_id, token = created["id"], created["token"]
        await wait_view(owner, match_id, {"your_turn"})
        base = f"/api/matches/{match_id}"
        calls = [("GET", base, None), ("GET", f"{base}/stream", None), ("POST", f"{base}/moves", {"text": "Yes"}),
                 ("POST", f"{base}/check", {"text": "Yes"}),
                 ("POST", f"{base}/abandon", None),
                 ("POST", f"{base}/survey", {"enjoyment": 1, "satisfaction": 1, "frequency": 1}),
                 ("GET", f"{base}/replay", None)]
        for method, url, body in calls:
            missing = await other.request(method, url, json=body)
            assert missing.status_code == 404 and missing.json() == {"detail": "no such match"}, (url, missing.text)
            if url.endswith("/replay"):
                continue
            wrong = await other.request(method, url, json=body, headers={"X-Match-Token": "x" + token[1:]})
            assert wrong.status_code == 403, (url, wrong.text)
            assert "being played by other people" in wrong.json()["detail"]
            assert "a cat" not in missing.text + wrong.text
        unknown = await other.get("/api/matches/0123456789abcdef")
        assert unknown.status_code == 404 and unknown.json() == {"detail": "no such match"}
        assert match_id not in (await other.get("/api/matches")).text
        # the token in a header is enough for a script without the cookie
        scripted = await other.get(base, headers={"X-Match-Token": token})
        assert scripted.status_code == 200 and scripted.json()["you"] == "answerer"
        assert (await owner.get(base)).json()["status"] == "your_turn"  # nothing the others did counted

        await play(owner, match_id, lambda view: "No")
        public = (await other.get(base)).json()  # once over, a match is public to read, never to move
        assert public["you"] is None and disclosed(public) == {"secret": "a cat"} and public["survey_open"] is False
        assert public["disclosures"][0]["yours"] is False
        assert (await other.post(f"{base}/moves", json={"text": "Yes"})).status_code == 404
        assert (await other.post(f"{base}/survey", json={"enjoyment": 1, "satisfaction": 1,
                                                          "frequency": 1})).status_code == 404


@pytest.mark.parametrize("seat_game", ["akinator", "taboo", "bluffing"])
async def test_a_person_in_the_seat_without_the_secret_never_receives_it(tmp_path: Path, seat_game: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.02")
    seat = {"akinator": "guesser", "taboo": "guesser", "bluffing": "questioner"}[seat_game]
    move = {
        "akinator": lambda view: "Is it something you could carry?",
        "taboo": lambda view: "Hmm, I am not sure yet; tell me more.",
        "bluffing": lambda view: (
            "I believe your statement is: True" if view["turn"]["kind"] == "verdict" else "Where did it happen?"),
    }[seat_game]
    seen = Seen()
    async with running(make_settings(tmp_path)) as client:
        created = seen.keep(await client.post("/api/matches", json={"game": seat_game, "seat": seat}))
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        record = _stored(tmp_path, match_id)
        secret = record.spec.hidden("secret")
        assert secret
        stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
        end = await play(client, match_id, move, seen)
        streamed = await asyncio.wait_for(stream, timeout=60)
    views = sse_views(streamed.text)
    assert views[-1]["status"] == "finished" and len(views) > 2
    bodies = seen.bodies + [streamed.text.split("event: state")[i] for i in range(1, len(views))]
    live = _before_the_end(bodies)
    assert len(live) > 5
    for body in live:
        assert '"disclosures":[]' in body.replace(" ", "") or '"detail"' in body
        if seat_game == "bluffing":  # the truth is 'true'/'false': check what would give it away instead
            persona = str(record.spec.params["persona"])
            name = persona.split(",")[0]
            assert persona not in body and re.search(rf"\b{re.escape(name)}\b", body) is None
        else:
            assert not _mentions(body, secret), body
    assert disclosed(end) == {"secret": secret}  # revealed at the end
    assert end["you"] == seat and end["outcome"] is not None


async def _watch_to_the_end(client: httpx.AsyncClient, match_id: str, seen: Seen
                            ) -> tuple[httpx.Response, httpx.Response]:
    """Watch a match as the public does until it is over (its view, its replay, the live list, its stream): the
    finished view and the stream's whole response."""
    stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
    while True:
        view = seen.keep(await client.get(f"/api/matches/{match_id}"))
        seen.keep(await client.get(f"/api/matches/{match_id}/replay"))
        seen.keep(await client.get("/api/matches", params={"mode": "watch", "status": "live"}))
        if view.json()["status"] == "finished":
            break
        await asyncio.sleep(0.03)
    return view, await asyncio.wait_for(stream, timeout=60)


async def test_a_watcher_never_receives_the_secret_before_the_end(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.01")
    seen = Seen()
    async with running(make_settings(tmp_path)) as client:
        created = seen.keep(await client.post("/api/watch", json={"game": "akinator", "level": 1}))
        match_id = created.json()["id"]
        secret = _stored(tmp_path, match_id).spec.hidden("secret")
        assert secret
        _, streamed = await _watch_to_the_end(client, match_id, seen)
    events = streamed.text.split("event: state")[1:]
    live = _before_the_end(seen.bodies + events)
    assert len(live) > 5
    guessed = {"cat", "dog", "chair", "lamp", "apple"}  # mock/player's guesses are public moves
    for body in live:
        if normalize_name(secret) not in guessed:
            assert not _mentions(body, secret), body
        assert '"disclosures":[{' not in body.replace(" ", "")


async def test_nothing_secret_reaches_the_logs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    async with running(make_settings(tmp_path)) as client:
        inputs = {"statement": "I keep seventeen tortoises at home.", "secret": "true"}
        created = (await client.post("/api/matches", json={"game": "bluffing", "inputs": inputs})).json()
        await play(client, created["id"], lambda view: "Since I was a child, zzsecretanswerzz.")
    text = caplog.text
    assert created["id"] in text  # the arena does log what happens, by match id
    for secret in ("seventeen tortoises", "zzsecretanswerzz", created["token"]):
        assert secret not in text


# ---- the guess-the-rule games: the rule, the examples not yet shown and the check's answers stay hidden ----------


def _shown_items(body: str) -> set[str]:
    """Every item a response shows the player: list items, and the items of the example lines ("May come: a, b")
    of its transcript, turn and form labels."""
    try:
        view = json.loads(body)
    except json.JSONDecodeError:
        return set()
    if not isinstance(view, dict) or "transcript" not in view:
        return set()
    panel = view.get("panel") or {"lists": [], "forms": []}
    texts = [line["text"] for line in view["transcript"]] + [turn["display"] for turn in view["turns"]]
    texts += [field["label"] for form in panel["forms"] for action in form["actions"] for field in action["fields"]]
    found = {item for listed in panel["lists"] for item in listed["items"]}
    for text in texts:
        for line in text.splitlines():
            found.update(part.strip() for part in line.split(":", 1)[-1].split(","))
    return found


def _form_reply(view: dict[str, Any]) -> str:
    """What a person sends through the game's form: more examples twice, then a wrong guess, the check answered
    with the first choice (or 0) each time."""
    form = view["panel"]["forms"][0]
    actions = {action["key"]: action for action in form["actions"]}
    if form["kind"] == "apply":
        values = {field["key"]: (field["choices"] or ["0"])[0] for field in actions["apply"]["fields"]}
        return re.sub(r"\{(\w+)\}", lambda found: values[found.group(1)], actions["apply"]["template"])
    turns = next(counter["value"] for counter in view["panel"]["counters"] if counter["key"] == "turns")
    if "more" in actions and turns < 3:
        return actions["more"]["template"].replace("{n}", str(min(2, actions["more"]["fields"][0]["maximum"])))
    return actions["guess"]["template"].replace("{rule}", "nothing I can name yet")


@pytest.mark.parametrize("game_id", rule_games())
async def test_the_player_of_a_rule_game_never_receives_the_rule(tmp_path: Path, game_id: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.01")
    seen = Seen()
    async with running(make_settings(tmp_path, roles=rule_game_roles())) as client:
        created = seen.keep(await client.post("/api/matches", json={
            "game": game_id, "options": {"max_turns": 6, "num_init_examples": 2}}))
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))

        def answer(view: dict[str, Any]) -> str:
            return _form_reply(view)

        end = await play(client, match_id, answer, seen)
        for text in ("GUESS: probe", "MORE: 1", "1. yes"):  # the dry run, after the end, tells nothing either
            seen.keep(await client.post(f"/api/matches/{match_id}/check", json={"text": text}))
        streamed = await asyncio.wait_for(stream, timeout=60)
    game, state, statement = stored_rule(f"sqlite:///{tmp_path / 'arena.db'}", match_id)
    views = sse_views(streamed.text)
    assert views[-1]["status"] == "finished"
    live = _before_the_end(seen.bodies + streamed.text.split("event: state")[1:])
    assert len(live) > 5
    never_shown = [item for listed in game.panel_lists(state.rule, state.total)
                   for item in listed.items[state.shown:]] if hasattr(state.rule, "positives") else []
    answers = [f"{item.prompt}\\\\n{item.answer}" for item in game.held_out(state.rule)]
    for body in live:
        assert statement.lower() not in body.lower(), body
        assert '"disclosures":[]' in body.replace(" ", "") or '"detail"' in body
        shown = _shown_items(body)
        for item in never_shown:  # a list item, or in an example line, but never one not yet shown
            assert item not in shown, (item, body)
        assert not any(pair in body for pair in answers)
    assert statement and disclosed(end)["rule"] == statement  # revealed at the end
    assert end["panel"]["forms"] == [] and end["panel"]["clock"]["running"] is False
    assert end["outcome"]["results"][0]["seat"] == "player"


@pytest.mark.parametrize("game_id", rule_games())
async def test_a_watcher_of_a_rule_game_never_receives_the_rule(tmp_path: Path, game_id: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.005")
    seen = Seen()
    async with running(make_settings(tmp_path, roles=rule_game_roles())) as client:
        created = seen.keep(await client.post("/api/watch", json={"game": game_id, "options": {"max_turns": 4}}))
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        view = await wait_view(client, match_id, {"finished"}, seen)
        seen.keep(await client.get(f"/api/matches/{match_id}/replay"))
    _, state, statement = stored_rule(f"sqlite:///{tmp_path / 'arena.db'}", match_id)
    assert view["outcome"]["status"] == "finished" and state.guesses  # mock/player asked, guessed, was judged
    assert state.guesses[0].verdict == "no" and state.turns <= 4
    assert all(statement.lower() not in body.lower() for body in _before_the_end(seen.bodies))
    assert all(view_panel["forms"] == [] for view_panel in [json.loads(body)["panel"] for body in seen.bodies
                                                             if '"panel":{' in body.replace(" ", "")])
    assert statement and disclosed(view)["rule"] == statement


# ---- Undercover: a seat sees only its own word, a watcher none, until the end ------------------------------------


def _undercover_reply(view: dict[str, Any]) -> str:
    """A person's move through the panel's form: a new sentence (no word in it), or the first seat offered."""
    [form] = view["panel"]["forms"]
    field = form["actions"][0]["fields"][0]
    if field["kind"] == "choice":
        return str(field["choices"][0])
    return f"Something I would put my own way, take {view['seq']}"


@pytest.fixture
def _fixed_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """Undercover's matches draw the fixed pair (lion, tiger), and the models answer at once."""
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.005")
    monkeypatch.setattr(undercover_rules, "_load_pairs", undercover_pair.pairs)


@pytest.mark.usefixtures("_fixed_pair")
async def test_a_seat_at_undercover_never_receives_another_seat_s_word(tmp_path: Path) -> None:
    seen = Seen()
    async with running(make_settings(tmp_path, roles=undercover_pair.ROLES)) as client:
        created = seen.keep(await client.post("/api/matches", json={"game": "undercover", "seat": "player3",
                                                                      "options": {"max_rounds": 3}}))
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        words = _stored(tmp_path, match_id).spec.setup["words"]
        mine = words["player3"]
        other = ({undercover_pair.CIVILIAN_WORD, undercover_pair.UNDERCOVER_WORD} - {mine}).pop()
        stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
        end = await play(client, match_id, _undercover_reply, seen)
        streamed = await asyncio.wait_for(stream, timeout=60)
    live = _before_the_end(seen.bodies + streamed.text.split("event: state")[1:])
    assert len(live) > 5
    for body in live:
        assert not _mentions(body, other), body
    views = [json.loads(body) for body in seen.bodies if body.startswith("{") and '"panel":{' in body]
    assert any(view["panel"]["forms"] and view["panel"]["forms"][0]["kind"] == "vote" for view in views)
    panels = [view["panel"] for view in views if view["status"] != "finished"]
    assert all(next(li for li in panel["lists"] if li["key"] == "word")["items"] == [mine] for panel in panels)
    assert disclosed(end) == {f"{seat}_word": word for seat, word in words.items()}  # revealed at the end
    shown = next(li for li in end["panel"]["lists"] if li["key"] == "words")["items"]
    assert len(shown) == len(words) and any(line.startswith(f"player3: {mine} (") for line in shown)


@pytest.mark.usefixtures("_fixed_pair")
async def test_a_watcher_of_undercover_never_receives_a_word_before_the_end(tmp_path: Path) -> None:
    seen = Seen()
    async with running(make_settings(tmp_path, roles=undercover_pair.ROLES)) as client:
        created = seen.keep(await client.post("/api/watch", json={"game": "undercover",
                                                                    "options": {"max_rounds": 2}}))
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        view, streamed = await _watch_to_the_end(client, match_id, seen)
    live = _before_the_end(seen.bodies + streamed.text.split("event: state")[1:])
    assert len(live) > 5
    for body in live:
        for word in (undercover_pair.CIVILIAN_WORD, undercover_pair.UNDERCOVER_WORD):
            assert not _mentions(body, word), body
        assert '"disclosures":[{' not in body.replace(" ", "")
    end = view.json()
    assert end["panel"]["forms"] == [] and len(disclosed(end)) == 6


@pytest.mark.parametrize(("game", "body", "binding", "problem"), [
    ("undercover", {"seat": "player1"}, "seat:player1",
     ("undercover: the role judge cannot be bound to seat player1: its asks show the hidden player2_word, which "
     "player1 may not see")),
    ("akinator", {"seat": "answerer", "inputs": {"secret": "a cat"}}, "seat:guesser",
     ("akinator: the role judge cannot be bound to seat guesser: its asks show the hidden secret, which guesser may "
     "not see")),
])
async def test_a_role_bound_to_a_seat_that_may_not_see_its_asks_is_refused(
        tmp_path: Path, game: str, body: dict[str, Any], binding: str, problem: str) -> None:
    """The arena's role bindings (``seat:NAME``) are checked when a table is set up: nothing is stored, and the
    person is told why in one line."""
    settings = make_settings(tmp_path, roles={f"{game}.judge": binding})
    async with running(settings) as client:
        refused = await client.post("/api/matches", json={"game": game, "model": "mock/player", **body})
        watched = await client.post("/api/watch", json={"game": game})
        listed = (await client.get("/api/matches", params={"mode": "watch"})).json()
    assert refused.status_code == 422 and refused.json()["detail"] == problem
    assert watched.status_code == 422 and watched.json()["detail"].startswith(f"{game}: the role judge cannot be")
    assert listed == []
    with Store.open(settings.db) as store:
        assert store.web_matches(mode="play", status="running", limit=10) == []


async def test_akinators_judge_bound_to_the_answerers_seat_is_the_person(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, roles={"akinator.judge": "seat:answerer"})
    async with running(settings) as client:
        created = await client.post("/api/matches", json={"game": "akinator", "seat": "answerer",
                                                          "inputs": {"secret": "a cat"}})
    assert created.status_code == 201, created.text
    roles = _stored(tmp_path, created.json()["id"]).roles
    assert [(role.role, role.seat, role.player_kind) for role in roles] == [("judge", "answerer", "human")]
