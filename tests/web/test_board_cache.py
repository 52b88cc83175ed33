"""The arena's leaderboard and statistics are kept, not recomputed: what changed in the store shows on the next
request (a match finished, a person left, a survey answered), and equals a computation from every match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena_client import MOCK, make_settings, play, running

from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.store import Store
from playeval.web.board import leaderboard, stats
from playeval.web.board_state import BoardState
from playeval.web.tallies import Source

SPEC = MatchSpec(game="akinator", level=1, seed=3, setup={"secret": "a lamp"}, variants={"guesser": 0, "answerer": 0})


def _row(board: dict[str, Any], model: str) -> dict[str, Any] | None:
    return next((row for row in board["rows"] if row["model"] == model), None)


def _seats(model: str, human: bool) -> list[SeatAssignment]:
    return [SeatAssignment(seat="guesser", player_kind="llm", model=model, prompt_variant=0, evaluated=True),
            SeatAssignment(seat="answerer", player_kind="human" if human else "scripted", prompt_variant=0,
                           evaluated=False)]


async def test_a_finished_match_shows_on_the_next_request(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    async with running(settings) as client:
        arena = {"source": "live"}
        before = (await client.get("/api/leaderboard", params=arena)).json()
        assert _row(before, MOCK) is None and before["people"] == []
        assert (await client.get("/api/stats")).json()["matches_started"] == 0

        created = await client.post("/api/matches", json={"game": "akinator", "level": 1, "model": MOCK,
                                                          "inputs": {"secret": "a cat"}})
        assert created.status_code == 201, created.text
        live = (await client.get("/api/stats")).json()
        assert (live["matches_started"], live["matches_finished"]) == (1, 0)
        assert _row((await client.get("/api/leaderboard", params=arena)).json(), MOCK) is None  # not over yet

        await play(client, created.json()["id"], lambda view: "No")
        after = (await client.get("/api/leaderboard", params=arena)).json()
        row = _row(after, MOCK)
        assert row is not None and (row["matches"], row["wins"]) == (1, 1)
        assert [(p["seat"], p["matches"], p["wins"]) for p in after["people"]] == [("answerer", 1, 0)]
        by_default = (await client.get("/api/leaderboard")).json()  # the runs' matches, as `playeval leaderboard`
        assert _row(by_default, MOCK) is None and by_default["people"] == after["people"]
        finished = (await client.get("/api/stats")).json()
        assert (finished["matches_started"], finished["matches_finished"]) == (1, 1)

        survey = await client.post(f"/api/matches/{created.json()['id']}/survey",
                                   json={"enjoyment": 5, "satisfaction": 2, "frequency": 1})
        assert survey.status_code == 201
        answered = (await client.get("/api/stats")).json()
        assert answered["surveys"] == 1 and answered["survey_distributions"]["satisfaction"]["2"] == 1

        with Store.open(settings.db) as store:  # written by another process: a batch run, a peer server
            run = store.create_run("akinator", 1, {})
            match_id = store.create_match(spec=SPEC, seats=_seats("mock/other", False), run_id=run, match_index=0)
            store.finish_match(match_id, Outcome(status="finished", winners=("answerer",), reason="t", rounds=20))
            fresh = leaderboard(store, default_registry()).model_dump(mode="json")
            fresh_stats = stats(store).model_dump(mode="json")
        served = (await client.get("/api/leaderboard")).json()
        other = _row(served, "mock/other")
        assert other is not None and (other["matches"], other["wins"]) == (1, 0)
        assert served == fresh
        assert (await client.get("/api/stats")).json() == fresh_stats


def test_kept_numbers_equal_a_fresh_computation_after_every_kind_of_change(tmp_path: Path) -> None:
    registry = default_registry()
    with Store.open(f"sqlite:///{tmp_path / 'board.db'}") as store:
        kept = BoardState(store, registry)

        def same() -> None:
            boards: tuple[tuple[str, Source], ...] = (("all", "all"), ("akinator", "live"), ("akinator", "batch"))
            for game, source in boards:
                assert kept.leaderboard(game, source) == leaderboard(store, registry, game=game, source=source)
            assert kept.stats() == stats(store, registry)

        same()
        web = store.create_web_match(spec=SPEC, seats=_seats("mock/a", True), mode="play",
                                     people={"answerer": "ab" * 32}, joined=("answerer",), anonymous=True)
        same()
        store.finish_match(web, Outcome(status="finished", winners=("guesser",), reason="t", rounds=4))
        same()
        assert kept.leaderboard().people[0].matches == 1
        store.leave_seat(web, "answerer")  # after the end, as abandoning does: the seat no longer counts
        same()
        assert kept.leaderboard().people == []
        store.add_survey(web, enjoyment=1, satisfaction=2, frequency=3)
        same()
        run = store.create_run("akinator", 1, {})
        for index in range(3):
            match_id = store.create_match(spec=SPEC, seats=_seats("mock/b", False), run_id=run, match_index=index)
            store.finish_match(match_id, Outcome(status="forfeit", reason="t", rounds=2, forfeit_seat="guesser"))
        same()
        assert kept.leaderboard("akinator", "batch").rows[0].forfeits == 3
