"""Panels of yes-or-no judges (``core.judge_panel``) in the guess-the-rule games and Akinator: each member asked
the same question in turn, the majority deciding, a tie broken by the members' mean probability of accepting when
every member recorded one (else refused), the panel's verdict deciding the game, the log replaying to the same
state, the members' reasons held from live views, and one judge playing exactly as before."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from playeval.core import Action, Ask, RuleViolation, live_state, parse_event
from playeval.core.events import ActionApplied, Event, RoleAssignment, SeatAssignment
from playeval.core.game import fold
from playeval.core.judge_panel import MemberVerdict, panel_verdict
from playeval.core.match import MatchSpec
from playeval.core.registry import default_registry
from playeval.core.verdicts import recorded_verdicts
from playeval.engine import MemoryRecorder, play_match
from playeval.engine.plan import RunConfig, plan_matches
from playeval.games.akinator import ANSWERER, GUESSER, Akinator, AkinatorState
from playeval.games.math import JUDGE, PLAYER, MathGame, held_out
from playeval.guess_rule import GuessState
from playeval.models import ModelHub, ModelRequest, ProviderResult
from playeval.players import LLMPlayer

math_game = MathGame()
akinator = Akinator()
MEMBERS = ("judge", "judge#2", "judge#3")


def member(name: str, accepted: bool, p: float | None = None) -> MemberVerdict:
    return MemberVerdict(member=name, word="yes" if accepted else "no", accepted=accepted, p_accept=p)


def test_the_majority_decides_and_a_tie_goes_to_the_mean_probability_only_when_every_member_gave_one() -> None:
    assert panel_verdict([member("a", True), member("b", False), member("c", True)]).accepted
    assert not panel_verdict([member("a", False), member("b", False), member("c", True, 0.99)]).accepted
    accepted = panel_verdict([member("a", True, 0.9), member("b", False, 0.2)])  # mean 0.55
    assert accepted.accepted and accepted.by == "probability" and accepted.mean_p_accept == pytest.approx(0.55)
    refused = panel_verdict([member("a", True, 0.6), member("b", False, 0.3)])  # mean 0.45
    assert not refused.accepted and refused.by == "probability"
    unbroken = panel_verdict([member("a", True, 0.99), member("b", False)])  # one member gave no probability
    assert not unbroken.accepted and unbroken.by == "refused tie" and unbroken.mean_p_accept is None
    assert panel_verdict([member("a", True)]).accepted  # one member: its own verdict
    assert panel_verdict([member(n, n != "b", 0.5) for n in "abcd"]).describe() == "3 of 4 accepted"
    with pytest.raises(ValueError):
        panel_verdict([])


# -- the math game, on the pure state machine ---------------------------------------------------------------------


def math_start(seed: int = 4, **options: int) -> GuessState:
    return math_game.initial_state(math_game.new_spec(1, seed, random.Random(seed), options=options or None))


def guessed(state: GuessState, text: str) -> GuessState:
    """``state`` after a guess of ``text`` and a right rule-application check: the judges' turn."""
    state = math_game.apply(state, Action(seat=PLAYER, kind="guess", text=text))
    values = [str(following) for _, _, following in held_out(state.rule) or []]
    return math_game.apply(state, Action(seat=PLAYER, kind="apply", text="\n".join(values)))


def judged(state: GuessState, verdicts: str) -> tuple[GuessState, list[Ask]]:
    """Each member in turn answers its open ask (``y``: yes, ``n``: no), with a reason naming the rule."""
    asks: list[Ask] = []
    for letter in verdicts:
        [ask] = math_game.next_asks(state)
        asks.append(ask)
        word = "yes" if letter == "y" else "no"
        action = math_game.parse(state, ask, f"Verdict: {word}\nReason: {ask.role} read the rule {word}.")
        state = math_game.apply(state, action)
    return state, asks


def test_a_math_panel_of_three_is_asked_in_turn_and_its_majority_accepts_a_guess_and_wins() -> None:
    state = guessed(math_start(judges=3), "add something")
    assert state.judges == 3
    first = math_game.next_asks(state)[0]
    with pytest.raises(RuleViolation, match="judge's"):  # out of turn: judge#2 before judge
        math_game.apply(state, Action(role="judge#2", kind="verdict", text="yes", data={"reason": ""}))
    state, asks = judged(state, "yny")
    assert [ask.role for ask in asks] == list(MEMBERS)
    for ask in asks:  # the same question to every member
        assert ask.model_copy(update={"role": first.role}) == first
    last = state.guesses[-1]
    assert [(m.member, m.word) for m in last.panel] == [("judge", "yes"), ("judge#2", "no"), ("judge#3", "yes")]
    assert last.verdict == "yes" and state.won
    outcome = math_game.outcome(state)
    assert outcome is not None and outcome.winners == (PLAYER,)
    assert "the judges: 2 of 3 accepted" in outcome.reason
    lines = math_game.transcript(state)
    assert ("judge#2", "no") in lines and ("game", "the judges' verdict: yes (2 of 3 accepted)") in lines
    assert ("judge#3", "why guess 1 got yes: judge#3 read the rule yes.") in lines  # the end reveals the reasons
    with pytest.raises(RuleViolation):  # the game is over: no fourth verdict
        math_game.apply(state, Action(role="judge#3", kind="verdict", text="no", data={"reason": ""}))


def test_a_math_panel_whose_majority_refuses_sends_the_player_on() -> None:
    state, _ = judged(guessed(math_start(judges=3), "add something"), "nny")
    assert state.guesses[-1].verdict == "no" and not state.won and math_game.outcome(state) is None
    [ask] = math_game.next_asks(state)
    assert ask.seat == PLAYER and "The judge did not accept your guess" in ask.messages[-1].content
    state, asks = judged(guessed(state, "add one more"), "yyy")  # the next guess: the panel again, from judge
    assert [ask.role for ask in asks] == list(MEMBERS) and state.won


def test_live_views_show_the_members_verdicts_and_hold_their_reasons_until_the_end() -> None:
    state = guessed(math_start(judges=3), "add something")
    spec = state.spec
    events: list[Event] = [ActionApplied(action=Action(seat=PLAYER, kind="guess", text="add something"))]
    events.append(ActionApplied(action=Action(seat=PLAYER, kind="apply", text="\n".join(
        str(following) for _, _, following in held_out(state.rule) or []))))
    for role, word in zip(MEMBERS[:2], ("yes", "no"), strict=True):
        events.append(ActionApplied(action=Action(role=role, kind="verdict", text=word,
                                                  data={"reason": f"the rule is {spec.setup['rule']}"})))
    live = live_state(math_game, spec, events, over=False)
    assert [m.reason for m in live.guesses[-1].panel] == ["", ""]
    assert ("judge#2", "no") in math_game.transcript(live)
    assert not any("rule is" in text for _, text in math_game.transcript(live))
    events.append(ActionApplied(action=Action(role="judge#3", kind="verdict", text="yes", data={"reason": "fine"})))
    full = fold(math_game, spec, events)
    shown = math_game.transcript(live_state(math_game, spec, events, over=False))
    final = math_game.transcript(full)
    assert final[:len(shown)] == shown and len(final) > len(shown)  # the transcript only grew
    assert any("rule is" in text for _, text in final)


def test_one_judge_plays_as_before_with_no_panel_in_its_spec_or_its_guess() -> None:
    rng_spec = math_game.new_spec(1, 4, random.Random(4))
    assert "judges" not in rng_spec.params
    assert math_game.new_spec(1, 4, random.Random(4), options={"judges": 1}) == rng_spec
    state, asks = judged(guessed(math_start(), "add something"), "y")
    assert [ask.role for ask in asks] == [JUDGE]
    assert state.guesses[-1].panel == () and state.guesses[-1].reason == "judge read the rule yes."
    assert ("judge", "yes: accepted by the judge") in math_game.transcript(state)
    assert "judges" not in akinator.new_spec(1, 4, random.Random(4)).params


def test_a_panel_binding_seats_one_member_per_model_in_the_rule_games_and_akinator() -> None:
    registry = default_registry()
    for game_id in ("static_picnic", "functions_picnic", "math", "dynamic_picnic", "akinator"):
        config = RunConfig(games=(game_id,), models=("mock/player",), opponent="mock/player", n=1,
                           roles={"judge": "mock/a,mock/b,scripted"})
        [planned] = plan_matches(config, registry, "mock/player")
        assert planned.spec.params["judges"] == 3, game_id
        judges = [(r.role, r.model) for r in planned.roles if r.role.startswith("judge")]
        assert judges == [("judge", "mock/a"), ("judge#2", "mock/b"), ("judge#3", None)], game_id
        game = registry.get(game_id)
        assert game.scripted_player("judge#3", planned.spec) is not None


# -- Akinator, on the pure state machine ----------------------------------------------------------------------------


def akinator_start(secret: str = "sofa", **options: int) -> AkinatorState:
    return akinator.initial_state(akinator.new_spec(1, 3, random.Random(3), inputs={"secret": secret},
                                                    options=options or None))


def confirmed(state: AkinatorState, answers: str) -> tuple[AkinatorState, list[Ask]]:
    asks: list[Ask] = []
    for letter in answers:
        ask = akinator.next_ask(state)
        asks.append(ask)
        state = akinator.apply(state, akinator.parse(state, ask, "Yes" if letter == "y" else "No"))
    return state, asks


def test_an_akinator_panel_of_three_confirms_a_guess_by_majority_and_shows_each_answer() -> None:
    state = akinator.apply(akinator_start(judges=3), Action(seat=GUESSER, kind="guess", text="a couch"))
    with pytest.raises(RuleViolation, match="judge's"):
        akinator.apply(state, Action(role="judge#2", kind="confirm", text="Yes"))
    refused, asks = confirmed(state, "nyn")
    assert [ask.role for ask in asks] == list(MEMBERS) and len({ask.messages for ask in asks}) == 1
    assert refused.turns[-1].answer == "No" and not refused.won and akinator.outcome(refused) is None
    assert akinator.next_ask(refused).seat == GUESSER
    assert akinator.transcript(refused)[-1] == (
        ANSWERER, "No (the judges: judge No, judge#2 Yes, judge#3 No; 1 of 3 accepted)")
    won, _ = confirmed(state, "yny")
    outcome = akinator.outcome(won)
    assert won.won and outcome is not None and outcome.winners == (GUESSER,)
    assert "confirmed by the judges: 2 of 3 accepted" in outcome.reason


# -- whole matches through the engine, with scripted judge models ---------------------------------------------------

Judge = Callable[[ModelRequest], ProviderResult]


def judge_model(word: str, p_accept: float | None, answers: tuple[str, str], lead: str = "") -> Judge:
    """A judge model that always gives ``word``, with the probability of accepting ``p_accept`` (``None``: it
    gives no probabilities, like a provider without them)."""
    accept, refuse = answers
    text = f"{lead}{word}" + ("\nReason: as scripted." if lead else "")

    def reply(request: ModelRequest) -> ProviderResult:
        probs = () if p_accept is None else ({accept: p_accept, refuse: 1 - p_accept},)
        return ProviderResult(text=text, answer_probs=probs)
    return reply


async def play(game: MathGame | Akinator, spec: MatchSpec, judges: dict[str, Judge], seats: dict[str, str],
               scripts: dict[str, Callable[[ModelRequest], str]] | None = None) -> tuple[object, list[Event]]:
    """A match with a panel of the scripted ``judges`` (``judge``, ``judge#2``, ... in order) and each of ``seats``
    held by a mock model (the others left to nobody: a game that asks them stalls)."""
    recorder = MemoryRecorder()
    members = [f"mock/{name}" for name in judges]
    roles = [RoleAssignment(role=MEMBERS[index], player_kind="llm", model=model) for index, model in
             enumerate(members)]
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=s, player_kind="llm", model=seats.get(s))
                                                       for s in spec.seats], roles=roles)
    async with ModelHub(use_cache=False, mock_scripts={**judges, **(scripts or {})}) as hub:
        players: dict[str, LLMPlayer | None] = {seat: None for seat in spec.seats}
        players.update({seat: LLMPlayer(hub.get(model), seed=0, max_retries=0) for seat, model in seats.items()})
        players.update({MEMBERS[index]: LLMPlayer(hub.get(model), seed=0, max_retries=0)
                        for index, model in enumerate(members)})
        outcome = await play_match(game, spec, players, recorder, match_id)  # type: ignore[arg-type]
    return outcome, recorder.events[match_id]


def replayed(game: MathGame | Akinator, spec: MatchSpec, events: list[Event]) -> object:
    """The match folded again from its log as stored (every event through its JSON)."""
    return fold(game, spec, [parse_event(json.loads(event.model_dump_json())) for event in events[1:]])


def member_actions(events: list[Event]) -> list[Action]:
    return [event.action for event in events if isinstance(event, ActionApplied) and event.action.role]


@pytest.mark.parametrize(("p_yes", "p_no", "won"), [
    (0.9, 0.3, True),     # a 1-1 tie, mean probability 0.6: accepted
    (0.6, 0.2, False),    # a 1-1 tie, mean 0.4: refused
    (None, 0.9, False),   # one member gave no probability: the tie is refused
])
async def test_a_tied_math_panel_goes_to_the_mean_probability_and_the_log_replays(
        p_yes: float | None, p_no: float, won: bool) -> None:
    spec = math_game.new_spec(1, 7, random.Random(7), options={"judges": 2, "max_turns": 4})
    question = ("yes", "no")
    scripts = {"accepting": judge_model("yes", p_yes, question, "Verdict: "),
               "refusing": judge_model("no", p_no, question, "Verdict: ")}
    # mock/player asks for more twice, then makes a vague guess each turn (never the rule's own words)
    outcome, events = await play(math_game, spec, scripts, {PLAYER: "mock/player"})
    assert getattr(outcome, "winners", None) == ((PLAYER,) if won else ())
    actions = member_actions(events)
    assert [a.role for a in actions][:2] == ["judge", "judge#2"] and len(actions) % 2 == 0
    probabilities = [record.p_accept for a in actions[:2] for record in recorded_verdicts(a.data)]
    assert probabilities == [p_yes, p_no]
    state = replayed(math_game, spec, events)
    assert isinstance(state, GuessState) and math_game.outcome(state) == outcome
    for guess in state.guesses:
        assert [m.word for m in guess.panel] == ["yes", "no"] and guess.verdict == ("yes" if won else "no")
    assert state == fold(math_game, spec, events[1:])


@pytest.mark.parametrize(("p_yes", "won"), [(0.8, True), (None, False)])
async def test_a_tied_akinator_panel_decides_the_match_and_the_log_replays(p_yes: float | None, won: bool) -> None:
    spec = akinator.new_spec(1, 5, random.Random(5), inputs={"secret": "sofa"}, options={"judges": 2})
    question = ("Yes", "No")
    scripts = {"accepting": judge_model("Yes", p_yes, question), "refusing": judge_model("No", 0.3, question)}
    guesser = {"couch": lambda request: "This is a guess -- are you thinking of a couch?"}
    outcome, events = await play(akinator, spec, scripts, {GUESSER: "mock/couch"}, guesser)
    state = replayed(akinator, spec, events)
    assert isinstance(state, AkinatorState) and akinator.outcome(state) == outcome
    assert state.won is won and getattr(outcome, "winners", None) == ((GUESSER,) if won else (ANSWERER,))
    assert len(state.turns) == (1 if won else state.limit)
    assert all([m.word for m in turn.panel] == ["Yes", "No"] for turn in state.turns)
    assert state == fold(akinator, spec, events[1:])
