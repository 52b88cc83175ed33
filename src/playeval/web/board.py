"""The leaderboard and the statistics page, and their plot.

The leaderboard (``web.board_state``) shows each board's ratings (``analysis.leaderboard``: a game with its
configuration, Bradley-Terry with bootstrap intervals, the baselines and people beside the models) and the overall
rating, then rows per model and board (or all games): every evaluated seat the model held, whatever its team,
scored like the batch reports (``analysis.summarize``: a seat's own forfeit is a loss, seats of aborted matches
and of matches another seat forfeited are left out of the win rate), with the win rate's 95% interval over
matches as ``playeval results`` gives it (Wilson's, or a cluster bootstrap where the model held several seats of
one table) and the procedural metrics of the matches that have retrospective outputs. People's rows are the same
numbers per game and seat, for every seat people held.
``source`` says whose matches the models count: ``batch`` (the default) the matches of runs, as ``playeval
leaderboard``; ``live`` every match outside a batch run (the arena and the terminal); ``all`` both. People's rows
count every match people played, whatever the source.

Statistics are about the sessions people played in the arena: a session is useful when it ended with an
outcome (not abandoned); the surveys' answers are counted per question and value.

The numbers are kept by ``web.board_state.BoardState``: the arena holds one and reads only what changed in the
store since the last request; ``leaderboard`` and ``stats`` here compute them once from a fresh one.
"""

from __future__ import annotations

import io

from playeval.analysis.intervals import wilson_interval
from playeval.core.registry import GameRegistry, default_registry
from playeval.store import MatchRecord, Store
from playeval.web.board_state import PEOPLE, SURVEY_QUESTIONS, BoardState
from playeval.web.tallies import ALL_GAMES, COUNTED, DEFAULT_SOURCE, Source
from playeval.web.views import LeaderboardView, StatsView

__all__ = ["ALL_GAMES", "DEFAULT_SOURCE", "PEOPLE", "SURVEY_QUESTIONS", "BoardState", "Source", "in_source",
           "leaderboard", "plot_png", "stats", "wilson_interval"]


def in_source(match: MatchRecord, source: Source) -> bool:
    if source == "live":
        return match.run_id is None
    if source == "batch":
        return match.run_id is not None
    return True


def leaderboard(store: Store, registry: GameRegistry, *, game: str = ALL_GAMES,
                source: Source = DEFAULT_SOURCE) -> LeaderboardView:
    """The leaderboard computed from every stored match (a server keeps a ``BoardState`` instead)."""
    return BoardState(store, registry).leaderboard(game, source)


def stats(store: Store, registry: GameRegistry | None = None) -> StatsView:
    """The statistics computed from every stored session (a server keeps a ``BoardState`` instead)."""
    return BoardState(store, registry if registry is not None else default_registry()).stats()


# -- the plot -------------------------------------------------------------------------------------------------


def plot_png(board: LeaderboardView) -> bytes:
    """Win rates with their 95% intervals over matches, models then people, as a PNG."""
    from matplotlib.figure import Figure

    bars: list[tuple[str, float, float, float, str]] = []
    several = len({row.board for row in board.rows}) > 1
    for row in board.rows:
        if row.win_rate is not None and row.ci_low is not None and row.ci_high is not None:
            label = f"{row.model} ({row.board})" if several else row.model
            bars.append((label, row.win_rate, row.ci_low, row.ci_high, "#3b6ea8"))
    for person in board.people:
        if person.win_rate is not None and person.ci_low is not None and person.ci_high is not None:
            bars.append((f"people as {person.seat} ({person.board or person.game})", person.win_rate, person.ci_low,
                         person.ci_high, "#c0793a"))
    figure = Figure(figsize=(8, max(2.5, 0.45 * len(bars) + 1.2)), dpi=100)
    axes = figure.add_subplot()
    if bars:
        positions = list(range(len(bars)))
        rates = [bar[1] * 100 for bar in bars]
        errors = [[max(0.0, bar[1] - bar[2]) * 100 for bar in bars], [max(0.0, bar[3] - bar[1]) * 100 for bar in bars]]
        axes.barh(positions, rates, xerr=errors, color=[bar[4] for bar in bars], capsize=4)
        axes.set_yticks(positions, [bar[0] for bar in bars])
        axes.invert_yaxis()
        axes.set_xlim(0, 100)
        axes.set_xlabel("win rate (%), with its 95% interval over matches")
    else:
        axes.text(0.5, 0.5, "no finished matches yet", ha="center", va="center", transform=axes.transAxes)
        axes.set_axis_off()
    counted = COUNTED.get(board.source, f"{board.source} matches")
    axes.set_title(f"{board.game} - models: {counted}; people: arena matches")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
