"""Hidden stays hidden: a judge's reason is written with the hidden part in view (the rule, the secret), so no
live output carries it -- not a seat's ask, not the arena's view for any seat or a watcher, not the terminal's
narration -- and it is revealed once the match is over (``core.held``). Played over every registered game with a
judge role, with a judge whose reason names what it was told (``held_kit``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from held_kit import MARK, SEAT_MODEL, NamingJudge, judged, play

from playeval.core import (
    Action,
    ActionApplied,
    Ask,
    MatchSpec,
    Message,
    PlayevalError,
    Reply,
    ReplyRejected,
    RoleAssignment,
    RoleInfo,
    SeatAssignment,
    default_registry,
    live_asks,
    live_state,
    panel_role,
    withhold,
)
from playeval.core.held import held_keys, withheld
from playeval.core.messages import user
from playeval.engine import build_players, play_match, state_from_events
from playeval.games.static_picnic import StaticPicnic
from playeval.guess_rule import GuessRuleGame, GuessState
from playeval.models import ModelHub
from playeval.store import Store

OPTIONS: dict[str, dict[str, Any]] = {"undercover": {"max_rounds": 2}}
"""Short matches: a rule game ends at max_turns (mock/player asks twice for more, then guesses vaguely)."""


def _judged_games() -> list[str]:
    registry = default_registry()
    return [game_id for game_id in registry.ids() if judged(registry.get(game_id))]


def test_every_built_in_judged_game_is_covered() -> None:
    assert {"akinator", "undercover", "static_picnic", "dynamic_picnic", "functions_picnic",
            "math"} <= set(_judged_games())


@pytest.mark.parametrize("game_id", _judged_games())
async def test_a_judge_s_reason_reaches_no_live_output_and_is_revealed_at_the_end(
        game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = default_registry().get(game_id)
    options = OPTIONS.get(game_id, {"max_turns": 5} if isinstance(game, GuessRuleGame) else {})
    played = await play(game, tmp_path, lambda: capsys.readouterr().out, options=options)
    try:
        seen = played.seen
        assert seen.asks and seen.views and seen.terminal  # the seats moved, and the terminal narrated
        for channel, texts in (("asks", seen.all_asks()), ("views", seen.all_views()), ("terminal", [seen.terminal])):
            assert not [text for text in texts if MARK in text], channel
        holding = bool(held_keys(game.roles))
        if not isinstance(game, GuessRuleGame):
            # A judge that answers from a fixed set reads no free text: its reason was refused and re-asked.
            assert not holding and played.judge_actions()
            assert all(MARK not in str(event.action) for event in played.judge_actions())
            assert [event for event in played.store.events(played.match_id)
                    if isinstance(event, ReplyRejected) and panel_role(event.party) == "judge"]
            return
        state = played.state()
        rule = game.statement(state.rule)
        refused = [guess for guess in state.guesses if guess.verdict == "no"]
        assert holding and refused and all(MARK in (guess.reason or "") for guess in refused)
        assert refused[0].turn < state.turns  # a move was asked after a refusal: the reason had a live view
        for seat in ("player", ""):
            assert not [text for text in seen.asks.get(seat, []) + seen.views[seat] if rule in text], seat
        assert rule not in seen.terminal and "  judge: no\n" in seen.terminal  # the verdict is shown, live
        public = played.final_view()
        assert MARK in public and rule in public  # the reason (and the rule) at the end
        assert MARK in played.final_view("player")
    finally:
        played.store.close()


def test_held_text_is_blanked_in_the_live_fold_only() -> None:
    """``withhold`` blanks the declared keys of a declaring role's move (a panel member's too) and nothing else;
    ``live_state`` folds the log so while the match is live and gives the full state once it is over."""
    keys = held_keys((RoleInfo(name="judge", does="rules", held=("reason",)), RoleInfo(name="other", does="x")))
    move = Action(role="judge#2", kind="verdict", text="no", data={"reason": "names the rule", "score": 1})
    assert withhold(move, keys).data == {"reason": "", "score": 1} and withhold(move, keys).text == "no"
    assert withhold(move.model_copy(update={"role": "other"}), keys).data["reason"] == "names the rule"
    seat_move = Action(seat="judge", kind="x", text="t", data={"reason": "kept"})
    assert withhold(seat_move, keys) is seat_move
    log = [ActionApplied(action=move), ActionApplied(action=seat_move)]
    assert [event.action.data.get("reason") for event in withheld(log, keys)] == ["", "kept"]  # type: ignore[union-attr]

    game = default_registry().get("static_picnic")
    assert isinstance(game, GuessRuleGame)
    spec: MatchSpec = game.new_spec(1, 1, random.Random(1))
    guess = Action(seat="player", kind="guess", text="something vague")
    judged_no = Action(role="judge", kind="verdict", text="no",
                       data={"reason": "the rule is " + spec.setup["statement"]})
    events = [ActionApplied(action=guess), ActionApplied(action=Action(seat="player", kind="apply", text="")),
              ActionApplied(action=judged_no)]
    live = live_state(game, spec, events, over=False)
    full = live_state(game, spec, events, over=True)
    assert live.guesses[-1].verdict == "no" and live.guesses[-1].reason == ""
    assert full.guesses[-1].reason == judged_no.data["reason"]
    assert game.next_asks(live) == game.next_asks(full)  # the rules do not depend on the held reason


class _Quoting(StaticPicnic):
    """Static Picnic whose player is told the judge's reasons after a refusal: the engine builds a seat's ask
    from the live state, so the player reads none of them while the match is played."""

    def conversation(self, state: GuessState) -> tuple[Message, ...]:
        messages = super().conversation(state)
        reasons = [guess.reason for guess in state.guesses if guess.reason]
        return (*messages, user("What the judge said: " + "; ".join(reasons))) if reasons else messages


async def test_a_seat_s_ask_is_built_without_held_text(tmp_path: Path) -> None:
    game = _Quoting()
    spec = game.new_spec(1, 3, random.Random(3), options={"max_turns": 5})
    seats = (SeatAssignment(seat="player", player_kind="llm", model=SEAT_MODEL, evaluated=True),)
    roles = (RoleAssignment(role="judge", player_kind="scripted"),)
    asked: list[Ask] = []
    with Store.open(f"sqlite:///{tmp_path / 'q.db'}") as store:
        match_id = store.create_match(spec=spec, seats=seats, roles=roles)
        async with ModelHub(use_cache=False) as hub:
            built = build_players(game, spec, seats, roles, hub.get, people={})
            player, judge = built["player"], built["judge"]
            assert player is not None and judge is not None

            class Asked:
                kind, model, max_retries = "llm", SEAT_MODEL, player.max_retries

                async def act(self, ask: Ask) -> Reply:
                    asked.append(ask)
                    return await player.act(ask)

            await play_match(game, spec, {"player": Asked(), "judge": NamingJudge(judge)}, store, match_id)
        state = state_from_events(game, spec, store.events(match_id))
    assert state.guesses and all(MARK in (guess.reason or "") for guess in state.guesses)
    kinds = [ask.kind for ask in asked]
    assert "move" in kinds[kinds.index("apply") + 1:]  # a move was asked after the first guess was judged
    assert not [ask for ask in asked if MARK in ask.display or any(MARK in m.content for m in ask.messages)]
    full = game.conversation(state)
    assert MARK in full[-1].content  # the game would quote it: the engine held it back


class _Dependent(StaticPicnic):
    """A game whose turn order reads the judge's reason: the player is asked nothing after a reasonless refusal."""

    def next_asks(self, state: GuessState) -> tuple[Ask, ...]:
        if any(guess.verdict == "no" and not guess.reason for guess in state.guesses):
            return ()
        return super().next_asks(state)


def test_a_game_whose_rules_read_held_text_is_an_error() -> None:
    game = _Dependent()
    spec = game.new_spec(1, 3, random.Random(3))
    events = [ActionApplied(action=Action(seat="player", kind="guess", text="something vague")),
              ActionApplied(action=Action(seat="player", kind="apply", text="")),
              ActionApplied(action=Action(role="judge", kind="verdict", text="no", data={"reason": "names it"}))]
    state = live_state(game, spec, events, over=True)
    with pytest.raises(PlayevalError, match="must not depend on held text"):
        live_asks(game, spec, events, state, game.next_asks(state))
    before = live_state(game, spec, events[:2], over=True)  # nothing held yet: the game's own asks
    assert live_asks(game, spec, events[:2], before, game.next_asks(before)) == game.next_asks(before)
