"""core.hidden: the live and revealed forms of a match's hidden parts, and the refusal to bind a role to a seat
that may not see what the role's asks carry (``RoleInfo.sees``), as every path binds roles
(``engine.plan.role_assignments``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from playeval.core import (
    ConfigError,
    Disclosure,
    GameBase,
    LiveDisclosure,
    MatchSpec,
    RoleInfo,
    SeatAssignment,
    SeatInfo,
    check_role_seat,
    default_registry,
    live_disclosures,
    revealed_disclosures,
    unseen_part,
)
from playeval.engine import RunConfig, role_assignments

REGISTRY = default_registry()


def _spec(game_id: str, **options: Any) -> MatchSpec:
    return REGISTRY.get(game_id).new_spec(1, 3, random.Random(3), options=options or None)


def _seats(game_id: str, spec: MatchSpec) -> dict[str, SeatAssignment]:
    return {info.name: SeatAssignment(seat=info.name, player_kind="llm", model="mock/player")
            for info in REGISTRY.get(game_id).table(spec)}


def _bind(game_id: str, spec: MatchSpec, roles: dict[str, str]) -> tuple[Any, ...]:
    config = RunConfig(games=(game_id,), models=("mock/player",), opponent="mock/player", n=1, roles=roles)
    return role_assignments(REGISTRY.get(game_id), config, _seats(game_id, spec), "mock/player", spec=spec)


def test_the_live_form_has_the_holders_label_only() -> None:
    game = REGISTRY.get("undercover")
    spec = _spec("undercover")
    [mine] = live_disclosures(game, spec, ["player2"])
    assert type(mine) is LiveDisclosure and set(mine.model_dump()) == {"key", "value", "label"}
    assert mine.label == "Your word" and mine.value == spec.setup["words"]["player2"]
    assert live_disclosures(game, spec, []) == []
    revealed = revealed_disclosures(game, spec)
    sides = spec.setup["sides"]
    assert [(item.revealed_label, item.seats) for item in revealed] == [
        (f"{seat}'s word ({sides[seat]})", (seat,)) for seat in spec.seats]
    assert revealed[1].live() == mine


def test_of_the_built_in_games_only_akinators_judge_may_sit_at_a_seat() -> None:
    """Every built-in role that is shown a hidden part is refused every seat but the one holding it: only
    Akinator's answerer holds all its role is shown. Each refusal names a part the role declares."""
    allowed = []
    for game_id in REGISTRY.ids():
        game = REGISTRY.get(game_id)
        spec = _spec(game_id, **({"rules": "generated"} if game_id in ("math", "functions_picnic") else {}))
        for info in game.roles:
            for seat in game.table(spec):
                key = unseen_part(game, spec, info.name, seat.name)
                if key is None:
                    allowed.append((game_id, info.name, seat.name))
                else:
                    assert key in info.sees
    assert allowed == [("akinator", "judge", "answerer")]


def test_undercovers_judge_is_bound_to_no_seat() -> None:
    spec = _spec("undercover")
    for seat in spec.seats:
        with pytest.raises(ConfigError) as err:
            _bind("undercover", spec, {"judge": f"seat:{seat}"})
        other = next(item for item in spec.seats if item != seat)
        message = str(err.value)
        assert message.startswith(f"undercover: the role judge cannot be bound to seat {seat}: its asks show the "
                                  "hidden ") and message.endswith(f", which {seat} may not see")
        assert f"{other}_word" in message and "\n" not in message
    panel = _bind("undercover", spec, {"judge": "mock/player,mock/yes"})  # models stay allowed
    assert [role.role for role in panel] == ["judge", "judge#2"]
    with pytest.raises(ConfigError, match="the role judge#2 cannot be bound to seat player3"):
        _bind("undercover", _spec("undercover", judges=2), {"judge": "mock/player,seat:player3"})


def test_akinators_judge_stays_with_the_answerer() -> None:
    spec = _spec("akinator")
    assert spec.setup["secret"]
    [judge] = _bind("akinator", spec, {})  # the game's default, seat:answerer
    assert (judge.role, judge.seat) == ("judge", "answerer")
    with pytest.raises(ConfigError) as err:
        _bind("akinator", spec, {"judge": "seat:guesser"})
    assert str(err.value) == ("akinator: the role judge cannot be bound to seat guesser: its asks show the hidden "
                              "secret, which guesser may not see")
    kept = REGISTRY.get("akinator").new_spec(1, 3, random.Random(3), inputs={})  # the object kept in mind
    assert kept.setup == {} and _bind("akinator", kept, {})[0].seat == "answerer"


def test_a_rule_made_during_play_is_seen_by_no_seat() -> None:
    """The rule games' roles: the rule (drawn, or written by the game master during play) is hidden from the
    player, so none of their roles may be bound to the player's seat."""
    for game_id, options in (("static_picnic", {}), ("math", {"rules": "generated"}), ("dynamic_picnic", {})):
        game = REGISTRY.get(game_id)
        spec = _spec(game_id, **options)
        for info in game.roles:
            assert unseen_part(game, spec, info.name, "player") in info.sees, (game_id, info.name)
    math = REGISTRY.get("math")
    generated = _spec("math", rules="generated")
    assert not [part for part in math.disclosures(generated) if part.key == "rule"]
    assert math.made_in_play(generated) == ("rule", "code")
    assert unseen_part(math, generated, "judge", "player") == "rule"


class _Open(GameBase):
    """A game whose judge is shown a part every seat may see: binding it to a seat is fine."""

    id = "open"
    seats = (SeatInfo(name="alpha", role="plays"), SeatInfo(name="beta", role="plays"))
    roles = (RoleInfo(name="judge", does="judges", sees=("topic",)),)

    def disclosures(self, spec: MatchSpec, state: Any = None) -> tuple[Disclosure, ...]:
        return (Disclosure(key="topic", value="rivers", seats=("alpha", "beta"), label="The topic",
                           revealed_label="The topic"),
                Disclosure(key="alpha_card", value="7", seats=("alpha",), label="Your card",
                           revealed_label="alpha's card"))


def test_a_role_may_be_bound_to_a_seat_that_sees_all_it_is_shown() -> None:
    game = _Open()
    spec = MatchSpec(game="open", level=1, seed=0)
    check_role_seat(game, spec, "judge", "beta")  # the judge never sees alpha's card
    assert unseen_part(game, spec, "judge", "alpha") is None
    with pytest.raises(ConfigError):
        check_role_seat(REGISTRY.get("undercover"), _spec("undercover"), "judge", "player1")
