"""The arena's records: web matches, the model-move lease, conditional appends and surveys."""

from __future__ import annotations

import threading
import time

import pytest

from playeval.core.errors import NotFoundError
from playeval.core.events import AskIssued, ReplyReceived, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store import DuplicateSurvey, LogMoved, MatchClosed, Store

SPEC = MatchSpec(game="akinator", level=1, seed=5, secret="a kettle", variants={"guesser": 0, "answerer": 1})
SEATS = (SeatAssignment(seat="guesser", player_kind="llm", model="mock/player", prompt_variant=0),
         SeatAssignment(seat="answerer", player_kind="human", prompt_variant=1))


def _play(store: Store) -> str:
    return store.create_web_match(spec=SPEC, seats=SEATS, mode="play", people={"answerer": "ab" * 32},
                                  joined=("answerer",), anonymous=True, stand_in="mock/player")


def test_web_match_is_stored_with_its_match(store: Store) -> None:
    match_id = _play(store)
    web = store.get_web_match(match_id)
    assert (web.mode, web.person_seats, web.anonymous, web.stand_in) == ("play", ("answerer",), True, "mock/player")
    [person] = web.people
    assert person.token_sha256 == "ab" * 32 and person.joined_at is not None and person.left_at is None
    assert web.lease_owner is None and web.lease_until is None
    match = store.get_match(match_id)
    assert match.run_id is None and match.status == "running" and match.spec == SPEC
    assert [s.seat for s in match.seats] == ["guesser", "answerer"]
    assert store.last_seq(match_id) == 1
    with pytest.raises(NotFoundError):
        store.get_web_match("0" * 16)
    with pytest.raises(ValueError, match="not among"):
        store.create_web_match(spec=SPEC, seats=SEATS, mode="play", people={"judge": None}, anonymous=False)


def test_people_join_and_leave_their_seats_once(store: Store) -> None:
    seats = (SeatAssignment(seat="guesser", player_kind="human"), SeatAssignment(seat="answerer", player_kind="human"))
    match_id = store.create_web_match(spec=SPEC, seats=seats, mode="play", anonymous=False,
                                      people={"guesser": "aa" * 32, "answerer": "bb" * 32}, joined=("guesser",))
    people = {person.seat: person for person in store.get_web_match(match_id).people}
    assert people["guesser"].joined_at is not None and people["answerer"].joined_at is None
    assert store.join_seat(match_id, "answerer") and not store.join_seat(match_id, "answerer")
    assert not store.join_seat(match_id, "judge")
    assert store.leave_seat(match_id, "answerer") and not store.leave_seat(match_id, "answerer")
    people = {person.seat: person for person in store.get_web_match(match_id).people}
    assert people["answerer"].joined_at is not None and people["answerer"].left_at is not None


def test_web_matches_filter_by_mode_and_status(store: Store) -> None:
    played = _play(store)
    watched = store.create_web_match(spec=SPEC, seats=SEATS, mode="watch", people={}, anonymous=False)
    store.finish_match(played, Outcome(status="aborted", winner=None, reason="left", rounds=0))
    assert [web.match_id for web, _ in store.web_matches()] == [watched, played]
    assert [web.match_id for web, _ in store.web_matches(mode="watch")] == [watched]
    assert [m.id for _, m in store.web_matches(status="finished")] == [played]
    assert len(store.web_matches(limit=1)) == 1
    assert {m.id for m in store.list_matches()} == {played, watched}
    assert [m.id for m in store.list_matches(status="running")] == [watched]


def test_lease_is_exclusive_until_released_or_expired(store: Store) -> None:
    match_id = _play(store)
    assert store.take_lease(match_id, "a", 30)
    assert store.take_lease(match_id, "a", 30)  # the holder may take it again
    assert not store.take_lease(match_id, "b", 30)
    assert not store.renew_lease(match_id, "b", 30)
    assert store.renew_lease(match_id, "a", 30)
    store.release_lease(match_id, "b")  # not b's: nothing changes
    assert store.get_web_match(match_id).lease_owner == "a"
    store.release_lease(match_id, "a")
    assert store.get_web_match(match_id).lease_owner is None
    assert store.take_lease(match_id, "b", 0.05)
    time.sleep(0.1)
    assert store.take_lease(match_id, "a", 30)  # b's lease expired
    assert store.get_web_match(match_id).lease_owner == "a"


def test_only_one_of_many_racing_takers_gets_the_lease(store: Store) -> None:
    match_id = _play(store)
    won: list[str] = []
    barrier = threading.Barrier(6)

    def take(owner: str) -> None:
        barrier.wait()
        if store.take_lease(match_id, owner, 30):
            won.append(owner)

    threads = [threading.Thread(target=take, args=(f"p{n}",)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1


def test_conditional_append_refuses_a_stale_writer(store: Store) -> None:
    match_id = _play(store)
    assert store.append_event(match_id, AskIssued(seat="guesser", kind="move", attempt=0), after_seq=1) == 2
    with pytest.raises(LogMoved) as caught:
        store.append_event(match_id, ReplyReceived(seat="guesser", text="late"), after_seq=1)
    assert (caught.value.expected_seq, caught.value.found_seq) == (1, 2)
    assert store.last_seq(match_id) == 2
    outcome = Outcome(status="aborted", winner=None, reason="left", rounds=0)
    with pytest.raises(LogMoved):
        store.finish_match(match_id, outcome, after_seq=1)
    store.finish_match(match_id, outcome, after_seq=2)
    with pytest.raises(MatchClosed):
        store.append_event(match_id, AskIssued(seat="guesser", kind="move", attempt=0), after_seq=3)


def test_survey_is_stored_once(store: Store) -> None:
    match_id = _play(store)
    assert store.get_survey(match_id) is None
    survey = store.add_survey(match_id, enjoyment=5, satisfaction=4, frequency=2)
    assert (survey.enjoyment, survey.satisfaction, survey.frequency) == (5, 4, 2)
    with pytest.raises(DuplicateSurvey):
        store.add_survey(match_id, enjoyment=1, satisfaction=1, frequency=1)
    assert store.get_survey(match_id) == survey
    assert store.surveys() == [survey]
    with pytest.raises(ValueError, match="1 to 5"):
        store.add_survey(_play(store), enjoyment=6, satisfaction=1, frequency=1)
    with pytest.raises(NotFoundError):
        store.add_survey("f" * 16, enjoyment=1, satisfaction=1, frequency=1)
