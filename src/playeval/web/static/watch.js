/* Watch page: start a model-vs-model match (POST /api/watch) and list the ones running or just finished. */
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const { el, clear, api, gameName, seatName, formatTime, optionFields, optionValues, tableSeats } = window.Arena;
  const games = await window.Arena.games();
  if (!games.length) return;
  const gameSelect = document.getElementById("watch-game");
  const levelSelect = document.getElementById("watch-level");
  const pickers = document.getElementById("seat-pickers");
  const optionsBox = document.getElementById("watch-options");
  const form = document.getElementById("watch-form");
  const error = document.getElementById("watch-error");
  const start = document.getElementById("watch-start");
  let models = [];

  function currentGame() {
    return games.find((game) => game.id === gameSelect.value) || games[0];
  }

  function buildForm() {
    buildLevels();
    optionFields(currentGame(), optionsBox, "watch-option");  // first: an option may set how many seats there are
    buildSeats();
  }

  function buildLevels() {
    const game = currentGame();
    clear(levelSelect);
    for (const level of game.levels) {
      levelSelect.append(el("option", { text: `Level ${level.level}`, attrs: { value: level.level } }));
    }
    describeLevel();
  }

  function buildSeats() {
    const game = currentGame();
    const picked = new Map([...pickers.querySelectorAll("select")].map((select) => [select.dataset.seat, select.value]));
    clear(pickers);
    for (const seat of tableSeats(game, optionsBox)) {
      const id = `seat-${seat.seat}`;
      const select = el("select", { attrs: { id, name: seat.seat }, dataset: { seat: seat.seat } }, [
        el("option", { text: "A random model", attrs: { value: "" } }),
      ]);
      for (const address of models) select.append(el("option", { text: address, attrs: { value: address } }));
      if (models.includes(picked.get(seat.seat))) select.value = picked.get(seat.seat);
      pickers.append(
        el("div", { className: "field" }, [
          el("label", { text: seatName(seat.seat), attrs: { for: id } }),
          select,
          el("p", { className: "help", text: seatName(seat.role) + "." }),
        ]),
      );
    }
  }

  async function loadModels() {
    const result = await api("GET", "/api/models");
    if (result.ok && result.data) {
      models = Array.isArray(result.data.models) ? result.data.models : [];
      buildSeats();
    }
  }

  function describeLevel() {
    const game = currentGame();
    const level = game.levels.find((item) => String(item.level) === levelSelect.value);
    document.getElementById("watch-level-help").textContent = level ? level.description : "";
  }

  gameSelect.addEventListener("change", buildForm);
  optionsBox.addEventListener("input", () => {
    if (currentGame().options.some((option) => option.seat_count)) buildSeats();
  });
  levelSelect.addEventListener("change", describeLevel);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const chosen = {};
    let any = false;
    for (const select of pickers.querySelectorAll("select")) {
      // A seat left out gets a model drawn at random.
      if (select.value) {
        any = true;
        chosen[select.dataset.seat] = select.value;
      }
    }
    start.disabled = true;
    start.textContent = "Starting…";
    const result = await api("POST", "/api/watch", {
      game: gameSelect.value,
      level: Number(levelSelect.value),
      models: any ? chosen : null,
      options: optionValues(optionsBox),
    });
    if (result.ok && result.data && result.data.id) {
      window.location.assign(`/matches/${encodeURIComponent(result.data.id)}`);
      return;
    }
    start.disabled = false;
    start.textContent = "Start watching";
    error.textContent = result.error || "The match could not be started.";
    error.hidden = false;
  });

  function summaryItem(match) {
    const title = match.title || gameName(match.game);
    const details = [`Level ${match.level}`];
    if (Array.isArray(match.seats)) {
      const names = match.seats.map((seat) => seat.model || (seat.label === "Person" ? "a person" : seat.label));
      if (names.length) details.push(names.join(" vs "));
    }
    if (match.outcome && match.outcome.reason) details.push(match.outcome.reason);
    const when = formatTime(match.created_at || match.started_at);
    return el("li", { className: "match-item" }, [
      el("a", { text: title, attrs: { href: `/matches/${encodeURIComponent(match.id)}` } }),
      el("span", { className: "match-meta", text: details.join(" · ") }),
      when ? el("time", { className: "match-time", text: when, attrs: { datetime: match.created_at || match.started_at } }) : null,
    ]);
  }

  function listOf(data) {
    if (Array.isArray(data)) return data;
    if (data && Array.isArray(data.matches)) return data.matches;
    return [];
  }

  async function refreshList(query, listId, emptyId, limit) {
    const result = await api("GET", `/api/matches?${query}`);
    const list = document.getElementById(listId);
    if (!result.ok) return;
    const matches = listOf(result.data).slice(0, limit);
    const signature = JSON.stringify(matches.map((match) => [match.id, match.status]));
    if (list.dataset.signature === signature) return;
    list.dataset.signature = signature;
    clear(list);
    for (const match of matches) list.append(summaryItem(match));
    document.getElementById(emptyId).hidden = matches.length > 0;
  }

  function refresh() {
    refreshList("mode=watch&status=live", "live-list", "live-empty", 20);
    refreshList("status=finished", "recent-list", "recent-empty", 10);
  }

  buildForm();
  loadModels();
  refresh();
  const timer = window.setInterval(() => {
    if (!document.hidden) refresh();
  }, 4000);
  window.addEventListener("pagehide", () => window.clearInterval(timer));
});
