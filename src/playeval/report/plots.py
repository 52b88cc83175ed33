"""The report's plots, drawn with matplotlib's object API on the Agg canvas (no pyplot, no global state).

Each ``*_figure`` function returns a ``Figure`` and draws a "no data" panel
instead of failing when it is given nothing to show; ``write_plots`` saves the
ones a report needs as 144 dpi PNGs. Models keep one colour (``tab10``) across
all plots.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Normalize
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator
from matplotlib.typing import RcKeyType

from playeval.analysis import ModelResult, Profile
from playeval.analysis.chance import player_label, split_baselines
from playeval.analysis.ratings import RatedModel
from playeval.core.baselines import is_baseline
from playeval.core.info import PlotKind
from playeval.report.data import RecallCurve, ReportData, Trajectory, game_label
from playeval.report.tables import skill_columns, skill_label

DPI = 144

LEVELS: tuple[str, ...] = ("True", "Possibly true", "Unknown", "Possibly false", "False")
"""The five judgement levels of the Bluffing retrospective analysis, 1 to 5."""

TRUE_COLOR = "#009E73"
"""Okabe-Ito bluish green: statements that were true."""
FALSE_COLOR = "#AA3377"
"""Tol's purple: statements that were false (told apart from the green by lightness too)."""

_STYLE: dict[RcKeyType, Any] = {
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.titleweight": "bold",
    "axes.labelsize": 10.5,
    "xtick.labelsize": 9.5,
    "ytick.labelsize": 9.5,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "figure.titlesize": 13,
    "figure.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": False,
    "grid.color": "#d0d0d0",
    "grid.linewidth": 0.7,
    "savefig.facecolor": "white",
}

_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")
_HATCHES = ("", "//", "..", "xx", "\\\\", "oo")
"""Bars of a game with teams: a model keeps its colour, each team has its hatching."""


@dataclass(frozen=True)
class Plot:
    path: Path
    rel: str
    """Path relative to the report directory, with forward slashes, for links."""
    title: str
    caption: str
    width: int = 0
    """Pixels, read back from the saved file (0 if unknown)."""
    height: int = 0


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from a PNG's header; (0, 0) when the file is not a PNG."""
    with path.open("rb") as handle:
        head = handle.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return 0, 0
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


@contextmanager
def _style() -> Iterator[None]:
    with matplotlib.rc_context(_STYLE):
        yield


def model_colors(models: Sequence[str]) -> dict[str, tuple[float, float, float, float]]:
    """One ``tab10`` colour per model, in the given order (cycling after ten)."""
    cmap = matplotlib.colormaps["tab10"]
    return {model: cmap(i % 10) for i, model in enumerate(models)}


def _marker(index: int) -> str:
    return _MARKERS[index % len(_MARKERS)]


def _new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def no_data_figure(title: str, message: str = "No data in this run.") -> Figure:
    with _style():
        fig = _new_figure(6.4, 2.6)
        ax = fig.add_subplot()
        ax.set_axis_off()
        ax.set_title(title)
        ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=12, color="#666666", transform=ax.transAxes)
    return fig


def save(fig: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with _style():
        fig.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.15, format="png")
    return path


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


# --------------------------------------------------------------------------- win rate


BASELINE_GREYS = ("#8c8c8c", "#bdbdbd", "#5e5e5e", "#d9d9d9")
"""Baseline players' bars: greys, told apart from the models' colours."""


def win_rate_figure(outcomes: Sequence[ModelResult], colors: Mapping[str, object] | None = None,
                    names: Mapping[str, str] | None = None) -> Figure:
    """Grouped bars: a group per game, a bar per model (and team, where a game has teams), then the baseline
    players' bars in grey; error bars are the 95% interval over matches (``ModelResult.win_low``/``win_high``). A
    row with nothing scored gets no bar, only "n/a" on the axis: its rate is unknown, not 0."""
    title = "Win rate by game"
    if not outcomes:
        return no_data_figure(title, "No matches were scored in this run.")
    games = _unique([r.game for r in outcomes])
    models, baselines = split_baselines(outcomes)
    series = list(dict.fromkeys((r.model, r.team) for r in [*models, *baselines]))
    teams = _unique([r.team for r in outcomes if r.team is not None])
    palette = dict(colors if colors is not None else model_colors(_unique([r.model for r in models])))
    for index, model in enumerate(_unique([r.model for r in baselines])):
        palette[model] = BASELINE_GREYS[index % len(BASELINE_GREYS)]
    by_key = {(r.game, r.model, r.team): r for r in outcomes}
    n = len(series)
    slot = 0.8 / n
    with _style():
        fig = _new_figure(max(6.4, 1.6 + len(games) * (0.55 + 0.5 * n)), 4.8)
        ax = fig.add_subplot()
        interval_handle: object | None = None
        for i, (model, team) in enumerate(series):
            rows = [(g - 0.4 + slot * (i + 0.5), by_key[(game, model, team)]) for g, game in enumerate(games)
                    if (game, model, team) in by_key]
            shown = [(x, row, row.win_rate) for x, row in rows if row.win_rate is not None]
            name = player_label(model) if is_baseline(model) else model
            label = (f"baseline: {name}" if is_baseline(model) else name) + ("" if team is None else f" ({team})")
            hatch = None if team is None else _HATCHES[teams.index(team) % len(_HATCHES)] or None
            ax.bar([x for x, _, _ in shown], [rate for _, _, rate in shown], width=slot * 0.9, color=palette[model],
                   label=label, edgecolor="white", linewidth=0.6, hatch=hatch, zorder=2)
            for x, row in rows:
                if row.win_rate is None:  # nothing scored: no bar, and say so where it would stand
                    ax.annotate("n/a", (x, 0), xytext=(0, 3), textcoords="offset points", ha="center",
                                va="bottom", fontsize=7.5, color="#666666", rotation=90, zorder=4)
                    continue
                rate, top = row.win_rate, row.win_rate
                if row.win_low is not None and row.win_high is not None:
                    interval_handle = ax.errorbar(x, rate, yerr=[[rate - row.win_low], [row.win_high - rate]],
                                                  color="#333333", capsize=3, elinewidth=1.1, capthick=1.1, zorder=3)
                    top = row.win_high
                if rate == 0:  # an empty bar: keep the model's colour visible on the axis
                    ax.hlines(0, x - slot * 0.45, x + slot * 0.45, color=palette[model], linewidth=3, zorder=3)
                ax.annotate(f"{rate:.2f}", (x, top), xytext=(0, 3), textcoords="offset points",
                            ha="center", va="bottom", fontsize=8.5 if n <= 4 else 7.5, zorder=4)
        ax.set_xticks(range(len(games)), [(names or {}).get(g) or game_label(g) for g in games])
        ax.set_xlim(-0.6, len(games) - 0.4)
        ax.set_ylim(0, 1.12)
        ax.set_yticks(np.linspace(0, 1, 6))
        ax.axhline(1.0, color="#bbbbbb", linewidth=0.8, zorder=1)
        ax.yaxis.grid(True, zorder=0)
        ax.set_axisbelow(True)
        ax.set_xlabel("Game")
        ax.set_ylabel("Win rate")
        ax.set_title(title)
        handles: list[Any] = [h for h in ax.containers if isinstance(h, BarContainer)]
        labels = [str(h.get_label()) for h in handles]
        if interval_handle is not None:
            handles.append(interval_handle)
            labels.append("95% interval over matches")
        fig.legend(handles, labels, loc="outside lower center", ncols=min(4, len(labels)))
    return fig


# --------------------------------------------------------------------------- recall by round


def recall_figure(game: str, curves: Sequence[RecallCurve], colors: Mapping[str, object] | None = None,
                  name: str | None = None) -> Figure:
    """Recall of the secret by round, a line per model; under it, how many matches reached each round."""
    title = f"{name or game_label(game)}: recall of the secret by round"
    curves = [c for c in curves if c.points]
    if not curves:
        return no_data_figure(title, "No retrospective candidate lists in this run.")
    palette = colors if colors is not None else model_colors(_unique([c.model for c in curves]))
    with _style():
        fig = _new_figure(7.6, 5.6)
        grid = fig.add_gridspec(2, 1, height_ratios=(3.2, 1))
        ax = fig.add_subplot(grid[0])
        ax_n = fig.add_subplot(grid[1], sharex=ax)
        slot = 0.8 / len(curves)
        for i, curve in enumerate(curves):
            points = sorted(curve.points, key=lambda p: p.round)
            rounds = [p.round for p in points]
            color = palette[curve.model]
            span = f"{points[0].matches}" if len(points) == 1 else f"{points[0].matches} → {points[-1].matches}"
            label = f"{curve.model} (n = {span})"
            ax.plot(rounds, [p.recall for p in points], color=color, marker=_marker(i), markersize=5.5,
                    linewidth=1.8, label=label, zorder=3)
            ax_n.bar([r - 0.4 + slot * (i + 0.5) for r in rounds], [p.matches for p in points], width=slot * 0.9,
                     color=color, zorder=2)
        ax.set_ylim(-0.03, 1.03)
        ax.set_yticks(np.linspace(0, 1, 6))
        ax.yaxis.grid(True)
        ax.set_ylabel("Recall (secret in the list)")
        ax.set_title(title)
        ax.tick_params(labelbottom=False)
        ax_n.set_ylabel("Matches (n)")
        ax_n.set_title("Matches that reached the round", fontsize=9.5, fontweight="normal", loc="left")
        ax_n.set_xlabel("Round")
        ax_n.set_ylim(bottom=0)
        ax_n.yaxis.grid(True, zorder=0)
        ax_n.set_axisbelow(True)
        ax_n.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax_n.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=4))
        all_rounds = [p.round for c in curves for p in c.points]
        ax.set_xlim(min(all_rounds) - 0.5, max(all_rounds) + 0.5)
        fig.legend(handles=ax.get_lines(), loc="outside lower center", ncols=min(2, len(curves)))
    return fig


# --------------------------------------------------------------------------- judgement trajectories


def trajectories_figure(trajectories: Sequence[Trajectory], models: Sequence[str] | None = None,
                        name: str | None = None) -> Figure:
    """Small multiples, a panel per model: each match's judgement level by round, coloured by the truth."""
    title = f"{name}: judgement by round" if name else "Judgement by round"
    trajectories = [t for t in trajectories if t.levels]
    if not trajectories:
        return no_data_figure(title, "No judgement trajectories in this run.")
    present = _unique([t.model for t in trajectories])
    order = [m for m in (models or []) if m in present] + [m for m in present if m not in (models or [])]
    ncols = min(3, len(order))
    nrows = math.ceil(len(order) / ncols)
    longest = max(len(t.levels) for t in trajectories)
    with _style():
        fig = _new_figure(max(6.4, 4.3 * ncols), 1.1 + 3.6 * nrows)
        axes = fig.subplots(nrows, ncols, squeeze=False, sharey=True)
        for index, model in enumerate(order):
            ax = axes[index // ncols][index % ncols]
            runs = [t for t in trajectories if t.model == model]
            rng = np.random.default_rng(index)
            ax.axhspan(0.5, 1.5, color=TRUE_COLOR, alpha=0.1, linewidth=0, zorder=0)
            ax.axhspan(4.5, 5.5, color=FALSE_COLOR, alpha=0.1, linewidth=0, zorder=0)
            for run in runs:
                color = TRUE_COLOR if run.truth else FALSE_COLOR
                xs = np.arange(1, len(run.levels) + 1) + rng.uniform(-0.06, 0.06)
                ys = np.asarray(run.levels, dtype=float) + rng.uniform(-0.14, 0.14)
                ax.plot(xs, ys, color=color, linewidth=1.4, alpha=0.7, marker="o", markersize=3, zorder=2)
                if run.won is not None:
                    ax.plot(xs[-1], ys[-1], linestyle="none", marker="o" if run.won else "X", markersize=8,
                            markerfacecolor=color if run.won else "white", markeredgecolor=color,
                            markeredgewidth=1.6, zorder=3)
            n_true = sum(1 for r in runs if r.truth)
            ax.set_title(f"{model}\n{n_true} true, {len(runs) - n_true} false statements", fontsize=10.5)
            ax.set_ylim(5.5, 0.5)
            ax.set_yticks(range(1, 6), [f"{i} {name}" for i, name in enumerate(LEVELS, start=1)])
            ticks = ax.get_yticklabels()
            if len(ticks) == len(LEVELS):
                for tick, color in ((ticks[0], TRUE_COLOR), (ticks[-1], FALSE_COLOR)):
                    tick.set_color(color)
                    tick.set_fontweight("bold")
            ax.set_xlim(0.6, longest + 0.4)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.grid(True, zorder=0)
            ax.set_axisbelow(True)
            ax.set_xlabel("Round")
        for index in range(len(order), nrows * ncols):
            axes[index // ncols][index % ncols].set_axis_off()
        handles = [
            Line2D([], [], color=TRUE_COLOR, linewidth=2, label="match with a true statement"),
            Line2D([], [], color=FALSE_COLOR, linewidth=2, label="match with a false statement"),
            Patch(facecolor=TRUE_COLOR, alpha=0.2, label="ground truth of a true statement"),
            Patch(facecolor=FALSE_COLOR, alpha=0.2, label="ground truth of a false statement"),
            Line2D([], [], color="#555555", linestyle="none", marker="o", markersize=7, label="final: won"),
            Line2D([], [], color="#555555", linestyle="none", marker="X", markersize=7, markerfacecolor="white",
                   label="final: lost"),
        ]
        if ncols == 1:  # two legend columns are filled top to bottom: true things left, false things right
            handles = [handles[0], handles[2], handles[4], handles[1], handles[3], handles[5]]
        fig.legend(handles=handles, loc="outside lower center", ncols=3 if ncols > 1 else 2)
        fig.suptitle(title)
    return fig


# --------------------------------------------------------------------------- team Elo


def team_elo_figure(name: str, rows: Sequence[RatedModel], colors: Mapping[str, object] | None = None) -> Figure:
    """A bar per model, best first: its team Elo, with its bootstrap interval as an error bar."""
    title = f"{name}: team Elo"
    if not rows:
        return no_data_figure(title, "No rated games in this run.")
    palette = colors if colors is not None else model_colors([row.model for row in rows])
    with _style():
        fig = _new_figure(6.4, max(2.6, 1.4 + 0.5 * len(rows)))
        ax = fig.add_subplot()
        ys = list(range(len(rows)))
        ax.barh(ys, [row.rating for row in rows], color=[palette.get(row.model, "#777777") for row in rows],
                height=0.6, zorder=2)
        ax.errorbar([row.rating for row in rows], ys, xerr=[[row.rating - row.low for row in rows],
                                                            [row.high - row.rating for row in rows]],
                    fmt="none", color="#333333", capsize=3, elinewidth=1.1, zorder=3)
        ax.set_yticks(ys, [f"{row.model} (n = {row.games})" for row in rows])
        ax.invert_yaxis()
        ax.axvline(0.0, color="#888888", linewidth=0.8, zorder=1)
        ax.xaxis.grid(True, zorder=0)
        ax.set_axisbelow(True)
        ax.set_xlabel("Elo (start 0); bar: 95% bootstrap interval")
        ax.set_title(title)
    return fig


# --------------------------------------------------------------------------- capability heatmap


def capability_figure(profiles: Sequence[Profile], skills: Sequence[str]) -> Figure:
    """A heatmap of models x skills (``skills`` in order, then any other a profile names): the mean rank
    (1 = best), annotated; missing cells hatched "n/a"."""
    title = "Capability profile: mean rank per skill"
    if not profiles:
        return no_data_figure(title, "No capability profile in this run.")
    extra = [s.skill for p in profiles for s in p.skills if s.skill not in skills]
    columns = [*skills, *_unique(extra)]
    models = [p.model for p in profiles]
    ranks = np.full((len(models), len(columns)), np.nan)
    for row, profile in enumerate(profiles):
        for score in profile.skills:
            if score.rank is not None:
                ranks[row, columns.index(score.skill)] = score.rank
    finite = ranks[np.isfinite(ranks)]
    worst = max(2.0, float(len(models)), float(finite.max()) if finite.size else 1.0)
    norm = Normalize(vmin=1.0, vmax=worst)
    cmap = matplotlib.colormaps["Blues_r"].with_extremes(bad="white")
    with _style():
        fig = _new_figure(max(6.4, 2.4 + 1.45 * len(columns)), max(2.8, 1.6 + 0.6 * len(models)))
        ax = fig.add_subplot()
        image = ax.imshow(np.ma.masked_invalid(ranks), cmap=cmap, norm=norm, aspect="auto")
        for row in range(len(models)):
            for col in range(len(columns)):
                value = ranks[row, col]
                if math.isnan(value):
                    ax.add_patch(Rectangle((col - 0.5, row - 0.5), 1, 1, facecolor="#f2f2f2", edgecolor="#b0b0b0",
                                           hatch="///", linewidth=0))
                    ax.text(col, row, "n/a", ha="center", va="center", fontsize=10, color="#555555",
                            bbox={"facecolor": "#f2f2f2", "edgecolor": "none", "pad": 1.5})
                    continue
                r, g, b, _ = cmap(norm(value))
                ink = "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.55 else "#1a1a1a"
                ax.text(col, row, f"{value:.2f}", ha="center", va="center", fontsize=11, color=ink,
                        fontweight="bold")
        ax.set_xticks(range(len(columns)), [skill_label(s).replace(" reasoning", "\nreasoning") for s in columns])
        ax.set_yticks(range(len(models)), models)
        ax.tick_params(length=0)
        ax.xaxis.tick_top()
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_xticks(np.arange(-0.5, len(columns)), minor=True)
        ax.set_yticks(np.arange(-0.5, len(models)), minor=True)
        ax.grid(which="minor", color="white", linewidth=2)
        ax.tick_params(which="minor", length=0)
        bar = fig.colorbar(image, ax=ax, shrink=0.9, pad=0.02)
        bar.set_label("Mean rank (1 = best)")
        bar.ax.invert_yaxis()
        bar.ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(title)
        if np.isnan(ranks).any():
            fig.legend(handles=[Patch(facecolor="#f2f2f2", edgecolor="#b0b0b0", hatch="///", label="n/a: no data")],
                       loc="outside lower right")
    return fig


# --------------------------------------------------------------------------- all plots of a report


def safe_name(text: str) -> str:
    """A file-name-safe form of a game id or match id (no path separators, no dots first)."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "_", text) or "_"
    return cleaned[:120]


def _wants(data: ReportData, game: str, kind: PlotKind) -> bool:
    """Whether the report draws plot ``kind`` for ``game``: the game asks for it (``Game.plots``); a game the
    report has no declarations of gets every plot its data allows."""
    facts = data.games.get(game)
    return facts is None or kind in facts.plots


def write_plots(data: ReportData, plot_dir: Path, models: Sequence[str], rel_dir: str = "plots") -> list[Plot]:
    """Draw and save every plot the report shows; returns them in display order."""
    colors = model_colors(models)
    plots: list[Plot] = []

    def add(fig: Figure, name: str, title: str, caption: str) -> None:
        path = save(fig, plot_dir / name)
        width, height = png_size(path)
        plots.append(Plot(path=path, rel=f"{rel_dir}/{name}", title=title, caption=caption, width=width,
                          height=height))

    names = {game: data.name_of(game) for game in _unique([r.game for r in data.outcomes])}
    add(win_rate_figure(data.outcomes, colors, names), "win_rate.png", "Win rate by game",
        "Bars: win rate per model and game (forfeits count as losses), the baseline players' in grey beside them. "
        "Error bars: the 95% interval over matches (Wilson's, or a bootstrap of the matches where a model held "
        "several seats of one table). n/a: nothing was scored, so no bar is drawn.")
    games = [game for game in _unique([c.game for c in data.recall_curves if c.points])
             if _wants(data, game, "recall_by_round")]
    used: set[str] = set()
    for game in games:
        name = f"recall_{safe_name(game)}.png"
        if name in used:
            name = f"recall_{safe_name(game)}_{len(used)}.png"
        used.add(name)
        add(recall_figure(game, [c for c in data.recall_curves if c.game == game], colors, data.name_of(game)), name,
            f"{data.name_of(game)}: recall by round",
            "Share of a model's matches whose retrospective candidate list at that round contains the secret. "
            "The lower panel shows how many matches reached each round (the denominator).")
    judged = [game for game in _unique([t.game for t in data.trajectories if t.levels])
              if _wants(data, game, "judgement_trajectories")]
    for game in judged:
        shown = [t for t in data.trajectories if t.game == game]
        add(trajectories_figure(shown, models, data.name_of(game) if game else None),
            f"{safe_name(game or 'judgement')}_trajectories.png",
            "Judgement trajectories" if len(judged) == 1 else f"{data.name_of(game)}: judgement trajectories",
            "Each line is one match: the model's retrospective judgement after each round, from 1 True (top) to "
            "5 False (bottom), coloured by whether the statement was true; dashed lines mark the level of each "
            "ground truth. Lines are jittered slightly so that overlapping matches stay visible.")
    for team in data.teams:
        if team.elo and _wants(data, team.game, "team_elo"):
            add(team_elo_figure(data.name_of(team.game), team.elo, colors), f"elo_{safe_name(team.game)}.png",
                f"{data.name_of(team.game)}: team Elo",
                "Each model's team Elo after the run's games in play order (every model starts at 0), with the 95% "
                "interval of the bootstrap resamples of the games.")
    add(capability_figure(data.profiles, skill_columns(data)), "capability.png", "Capability profile",
        "Mean rank of each model over the metrics the paper's Table 1 maps to each skill (1 = best); "
        "hatched cells have no data.")
    return plots
