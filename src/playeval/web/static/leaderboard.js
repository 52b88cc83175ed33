/* Leaderboard: per game or overall; the models' matches from batch runs (the default, as `playeval leaderboard`),
   the arena or both; people's rows always the arena's. Filters live in the address. */
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const { el, clear, api, percent, number, gameName } = window.Arena;
  const form = document.getElementById("filters");
  const plot = document.getElementById("plot");
  const GAMES = [...form.querySelectorAll('input[name="game"]')].map((input) => input.value);
  const SOURCES = ["batch", "live", "all"];
  const DEFAULT_SOURCE = "batch";
  let request = 0;

  function initial() {
    const params = new URLSearchParams(window.location.search);
    const game = GAMES.includes(params.get("game")) ? params.get("game") : "all";
    const source = SOURCES.includes(params.get("source")) ? params.get("source") : DEFAULT_SOURCE;
    form.querySelector(`input[name="game"][value="${game}"]`).checked = true;
    form.querySelector(`input[name="source"][value="${source}"]`).checked = true;
  }

  function filters() {
    return {
      game: form.querySelector('input[name="game"]:checked').value,
      source: form.querySelector('input[name="source"]:checked').value,
    };
  }

  /** "disparity_ratio" reads "Disparity ratio"; over all games a key is "<game>:<metric>". */
  function metricLabel(name) {
    const [game, metric] = name.includes(":") ? name.split(":", 2) : [null, name];
    const text = metric.replace(/_/g, " ");
    const label = text ? text[0].toUpperCase() + text.slice(1) : name;
    return game ? `${gameName(game)}: ${label.toLowerCase()}` : label;
  }

  function metricValue(value) {
    if (typeof value !== "number") return value === null || value === undefined ? "—" : String(value);
    return Math.abs(value) <= 1 && !Number.isInteger(value) ? number(value, 2) : number(value, Number.isInteger(value) ? 0 : 1);
  }

  /** The win rate, its interval drawn as a bar on a 0-100% track, and the numbers in words. */
  function rateCell(row) {
    const low = Number(row.ci_low);
    const high = Number(row.ci_high);
    const rate = Number(row.win_rate);
    const track = el("span", { className: "ci-track", attrs: { "aria-hidden": "true" } });
    if (Number.isFinite(low) && Number.isFinite(high)) {
      const band = el("span", { className: "ci-band" });
      band.style.left = `${Math.max(0, low) * 100}%`;
      band.style.width = `${Math.max(0, high - low) * 100}%`;
      track.append(band);
    }
    if (Number.isFinite(rate)) {
      const dot = el("span", { className: "ci-dot" });
      dot.style.left = `${rate * 100}%`;
      track.append(dot);
    }
    return el("td", { className: "rate" }, [
      el("span", { className: "rate-value", text: percent(row.win_rate) }),
      track,
      el("span", { className: "rate-ci", text: `${percent(row.ci_low)}–${percent(row.ci_high)}` }),
    ]);
  }

  /** The interval's n: the matches, and the seats in them where a player held several seats of one table. */
  function nText(matches, seats, clustered) {
    return clustered ? `${matches} (${seats} seats)` : String(matches);
  }

  function renderModels(rows, showGame) {
    const head = document.getElementById("board-head");
    const body = document.getElementById("board-body");
    clear(head);
    clear(body);
    const metricNames = [];
    for (const row of rows) {
      for (const name of Object.keys(row.metrics || {})) {
        if (!metricNames.includes(name)) metricNames.push(name);
      }
    }
    const columns = [["#", "num"], ["Model", ""]];
    if (showGame) columns.push(["Board", ""]);
    columns.push(["Games", "num"], ["Wins", "num"], ["Win rate (95% interval)", ""], ["n", "num"], ["Avg rounds", "num"],
      ["Forfeits", "num"], ...metricNames.map((name) => [metricLabel(name), "num"]));
    for (const [name, className] of columns) head.append(el("th", { text: name, className, attrs: { scope: "col" } }));
    rows.forEach((row, index) => {
      const metrics = row.metrics || {};
      const cells = [
        el("td", { className: "num", text: String(index + 1) }),
        el("th", { className: "model", text: row.model, attrs: { scope: "row" } }),
      ];
      if (showGame) cells.push(el("td", { text: row.board === "all" ? "All games" : row.board || gameName(row.game) }));
      cells.push(
        el("td", { className: "num", text: String(row.matches ?? "—") }),
        el("td", { className: "num", text: String(row.wins ?? "—") }),
        rateCell(row),
        el("td", { className: "num", text: nText(row.n ?? 0, row.scored, row.clustered) }),
        el("td", { className: "num", text: number(row.avg_rounds) }),
        el("td", { className: "num", text: String(row.forfeits ?? 0) }),
        ...metricNames.map((name) => el("td", { className: "num", text: metricValue(metrics[name]) })),
      );
      body.append(el("tr", {}, cells));
    });
    document.getElementById("board-empty").hidden = rows.length > 0;
    document.getElementById("board").hidden = rows.length === 0;
  }

  function seatName(seat) {
    const text = String(seat || "").replace(/_/g, " ");
    return text ? text[0].toUpperCase() + text.slice(1) : "—";
  }

  function renderPeople(rows) {
    const head = document.getElementById("people-head");
    const body = document.getElementById("people-body");
    clear(head);
    clear(body);
    const columns = [["Board", ""], ["As", ""], ["Games", "num"], ["People won", "num"], ["Win rate (95% interval)", ""],
      ["Avg rounds", "num"], ["Abandoned", "num"]];
    for (const [name, className] of columns) head.append(el("th", { text: name, className, attrs: { scope: "col" } }));
    for (const row of rows) {
      body.append(
        el("tr", {}, [
          el("th", { text: row.board || gameName(row.game), attrs: { scope: "row" } }),
          el("td", { text: seatName(row.seat) }),
          el("td", { className: "num", text: String(row.matches) }),
          el("td", { className: "num", text: String(row.wins) }),
          rateCell(row),
          el("td", { className: "num", text: number(row.avg_rounds) }),
          el("td", { className: "num", text: String(row.abandoned) }),
        ]),
      );
    }
    document.getElementById("people-empty").hidden = rows.length > 0;
    document.getElementById("people").hidden = rows.length === 0;
  }

  /** A rank, "=" when the model's interval overlaps another's (a tie). */
  function rankText(row) {
    return row.tied ? `${row.rank}=` : String(row.rank);
  }

  function interval(low, high, digits) {
    return `${number(low, digits)} – ${number(high, digits)}`;
  }

  function ratingCells(row) {
    return [
      el("td", { className: "num", text: number(row.rating, 0) }),
      el("td", { className: "num", text: interval(row.low, row.high, 0) }),
      el("td", { className: "num", text: String(row.matches) }),
    ];
  }

  function head(row, names) {
    clear(row);
    for (const [name, className] of names) row.append(el("th", { text: name, className, attrs: { scope: "col" } }));
  }

  function renderOverall(data) {
    const rows = [...(data.overall || []), ...(data.overall_baselines || [])];
    head(document.getElementById("overall-head"), [["#", "num"], ["Model", ""], ["Rating", "num"],
      ["95% interval", "num"], ["Games", "num"], ["", ""]]);
    const body = document.getElementById("overall-body");
    clear(body);
    const baselines = new Set((data.overall_baselines || []).map((row) => row.model));
    for (const row of rows) {
      const baseline = baselines.has(row.model);
      body.append(el("tr", {}, [
        el("td", { className: "num", text: baseline ? "—" : rankText(row) }),
        el("th", { className: "model", text: row.model, attrs: { scope: "row" } }),
        ...ratingCells(row),
        el("td", { text: baseline ? "baseline" : "" }),
      ]));
    }
    document.getElementById("overall").hidden = rows.length === 0;
    document.getElementById("ratings-empty").hidden = rows.length > 0;
  }

  /** One board: its models by rating, models with a win rate only, its baselines, then people; a team game's
   *  board (Undercover) has CK-Arena's team Elo as a column of its own. */
  function boardTable(board, counted) {
    const rates = new Map((board.rates || []).map((row) => [row.player, row]));
    const elo = new Map((board.team_elo || []).map((row) => [row.model, row]));
    const withElo = elo.size > 0;
    const table = el("table", { className: "table" });
    table.append(el("caption", { text: `${board.board} · ${board.matches} games · ${counted}` }));
    const headRow = el("tr");
    head(headRow, [["#", "num"], ["Player", ""], ["Rating", "num"], ["95% interval", "num"], ["Games", "num"],
      ["Win rate (95% interval)", ""], ["n", "num"], ...(withElo ? [["Team Elo (95% interval)", "num"]] : []),
      ["", ""]]);
    table.append(el("thead", {}, [headRow]));
    const body = el("tbody");
    const dash = () => el("td", { text: "—" });
    const rateOf = (player) => {
      const rate = rates.get(player);
      return rate ? rateCell({ win_rate: rate.rate, ci_low: rate.low, ci_high: rate.high }) : dash();
    };
    const nOf = (player) => {
      const rate = rates.get(player);
      return rate ? el("td", { className: "num", text: nText(rate.n, rate.seats, rate.clustered) }) : dash();
    };
    const eloOf = (player) => {
      if (!withElo) return [];
      const row = elo.get(player);
      return [row ? el("td", { className: "num team-elo", text: `${number(row.rating, 0)} (${interval(row.low, row.high, 0)})` })
        : dash()];
    };
    /* The verdict against the random baseline, as `playeval results` gives it: above, not above or below chance. */
    const mark = (player) => {
      const rate = rates.get(player);
      return el("td", { className: "chance", text: (rate && rate.chance) || "" });
    };
    const shown = new Set();
    for (const row of board.ratings || []) {
      shown.add(row.model);
      body.append(el("tr", {}, [el("td", { className: "num", text: rankText(row) }),
        el("th", { className: "model", text: row.model, attrs: { scope: "row" } }), ...ratingCells(row),
        rateOf(row.model), nOf(row.model), ...eloOf(row.model), mark(row.model)]));
    }
    const unrated = (board.rates || []).filter((row) => !row.baseline && !shown.has(row.player));
    for (const row of unrated) {
      body.append(el("tr", {}, [el("td", { className: "num", text: "—" }),
        el("th", { className: "model", text: row.player, attrs: { scope: "row" } }),
        dash(), dash(), dash(), rateOf(row.player), nOf(row.player), ...eloOf(row.player), mark(row.player)]));
    }
    const ratedBaselines = new Map((board.baselines || []).map((row) => [row.model, row]));
    const baselineNames = [...new Set([...ratedBaselines.keys(),
      ...(board.rates || []).filter((row) => row.baseline).map((row) => row.player)])];
    for (const name of baselineNames) {
      const rated = ratedBaselines.get(name);
      body.append(el("tr", { className: "baseline" }, [el("td", { className: "num", text: "—" }),
        el("th", { className: "model", text: name, attrs: { scope: "row" } }),
        ...(rated ? ratingCells(rated) : [dash(), dash(), dash()]),
        rateOf(name), nOf(name), ...eloOf(name), el("td", { text: "baseline" })]));
    }
    for (const person of board.people || []) {
      body.append(el("tr", { className: "people" }, [el("td", { className: "num", text: "—" }),
        el("th", { text: `${person.label} (as ${seatName(person.seat).toLowerCase()})`, attrs: { scope: "row" } }),
        dash(), dash(), dash(),
        rateCell({ win_rate: person.rate, ci_low: person.low, ci_high: person.high }),
        el("td", { className: "num", text: String(person.n) }), ...(withElo ? [dash()] : []),
        el("td", { text: "not rated" })]));
    }
    table.append(body);
    return el("div", { className: "table-wrap", attrs: { tabindex: "0", role: "region", "aria-label": board.board } },
      [table]);
  }

  function renderBoards(data) {
    const boards = document.getElementById("boards");
    clear(boards);
    const counted = data.counted ? `models: ${data.counted}` : "";
    for (const board of data.boards || []) boards.append(boardTable(board, counted));
    const source = document.getElementById("board-counted");
    source.textContent = data.counted ? `Models' ratings and win rates count ${data.counted}; people's rows, every `
      + "game people played in the arena." : "";
    source.hidden = !data.counted;
    const notes = document.getElementById("board-notes");
    clear(notes);
    for (const note of data.notes || []) notes.append(el("li", { text: note }));
    notes.hidden = !(data.boards || []).length;
  }

  async function load() {
    const { game, source } = filters();
    const query = new URLSearchParams({ game, source }).toString();
    window.history.replaceState(null, "", `/leaderboard?${query}`);
    plot.src = `/api/leaderboard/plot.png?${query}`;
    const mine = ++request;
    const result = await api("GET", `/api/leaderboard?${query}`);
    if (mine !== request) return;
    const error = document.getElementById("board-error");
    if (!result.ok) {
      error.textContent = result.error;
      error.hidden = false;
      return;
    }
    error.hidden = true;
    const rows = result.data.rows || [];
    renderOverall(result.data);
    renderBoards(result.data);
    renderModels(rows, rows.some((row) => row.board && row.board !== "all"));
    renderPeople(result.data.people || []);
  }

  initial();
  form.addEventListener("change", load);
  form.addEventListener("submit", (event) => event.preventDefault());
  load();
});
