/* Shared helpers for the arena's pages. No framework, no build step: every page script uses
   window.Arena. Data from the server is only ever inserted as text (textContent), never as HTML. */
"use strict";

(function () {
  /** Create an element; `props` may hold className, text, attrs (object) and dataset (object). */
  function el(tag, props, children) {
    const node = document.createElement(tag);
    const p = props || {};
    if (p.className) node.className = p.className;
    if (p.text !== undefined && p.text !== null) node.textContent = String(p.text);
    if (p.attrs) {
      for (const [key, value] of Object.entries(p.attrs)) {
        if (value === false || value === null || value === undefined) continue;
        node.setAttribute(key, value === true ? "" : String(value));
      }
    }
    if (p.dataset) {
      for (const [key, value] of Object.entries(p.dataset)) node.dataset[key] = String(value);
    }
    for (const child of children || []) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function show(node, visible) {
    node.hidden = !visible;
  }

  /** The message of an API error body: FastAPI's {"detail": "..."} or its validation list. */
  function detailOf(data, status) {
    if (data && typeof data.detail === "string") return data.detail;
    if (data && Array.isArray(data.detail) && data.detail.length) {
      return data.detail
        .map((item) => {
          const where = Array.isArray(item.loc) ? item.loc.filter((p) => p !== "body").join(".") : "";
          return where ? `${where}: ${item.msg}` : String(item.msg);
        })
        .join("; ");
    }
    if (status === 429) return "Too many requests. Please wait a moment and try again.";
    if (status >= 500) return "The server ran into a problem. Please try again.";
    return `The request failed (HTTP ${status}).`;
  }

  /** Call the JSON API. Resolves to {ok, status, data, error}; never rejects. */
  async function api(method, path, body) {
    const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      return { ok: false, status: 0, data: null, error: "Could not reach the server. Check your connection." };
    }
    let data = null;
    const type = response.headers.get("Content-Type") || "";
    if (type.includes("json")) {
      try {
        data = await response.json();
      } catch (err) {
        data = null;
      }
    }
    return {
      ok: response.ok,
      status: response.status,
      data,
      error: response.ok ? null : detailOf(data, response.status),
    };
  }

  /** Fill a <select> with the configured models after its first (random) option. */
  async function fillModels(select, selected) {
    const result = await api("GET", "/api/models");
    if (!result.ok || !result.data || !Array.isArray(result.data.models)) return [];
    for (const address of result.data.models) {
      select.append(el("option", { text: address, attrs: { value: address } }));
    }
    if (selected && result.data.models.includes(selected)) select.value = selected;
    return result.data.models;
  }

  function percent(value, digits) {
    if (value === null || value === undefined || Number.isNaN(Number(value))) return "—";
    return `${(Number(value) * 100).toFixed(digits === undefined ? 0 : digits)}%`;
  }

  function number(value, digits) {
    if (value === null || value === undefined || Number.isNaN(Number(value))) return "—";
    return Number(value).toFixed(digits === undefined ? 1 : digits);
  }

  let gameNames = null;

  /** A game's name as the game presents itself: the server lists every game's name on the page's body. */
  function gameName(id) {
    if (gameNames === null) {
      try {
        gameNames = JSON.parse(document.body.dataset.gameNames || "{}");
      } catch (err) {
        gameNames = {};
      }
    }
    return gameNames[id] || id;
  }

  /** A seat's or role's name for people: "clue_giver" reads "Clue giver". */
  function seatName(name) {
    const text = String(name || "").replace(/_/g, " ");
    return text ? text[0].toUpperCase() + text.slice(1) : text;
  }

  /** A seat (or role) named in a sentence: a name with a number in it is a name ("player1 describes…"), any
      other is a part at the table ("the guesser asks…"; "The guesser" with `capital`, at a sentence's start). */
  function seatPhrase(name, capital) {
    const text = String(name || "").replace(/_/g, " ");
    if (/\d/.test(text)) return text;
    return `${capital ? "The" : "the"} ${text.toLowerCase()}`;
  }

  /** Names joined for a sentence: "a", "a and b", "a, b and c". */
  function listPhrase(names) {
    return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : (names[0] || "");
  }

  let gamesRequest = null;

  /** Every game as GET /api/games describes it (fetched once per page). */
  function games() {
    if (gamesRequest === null) {
      gamesRequest = api("GET", "/api/games").then((result) => (result.ok && Array.isArray(result.data) ? result.data : []));
    }
    return gamesRequest;
  }

  function formatTime(value) {
    if (!value) return "";
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) return String(value);
    return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }

  /** Level pickers show the chosen level's description under them. */
  function describeLevels() {
    for (const select of document.querySelectorAll("select.level-select")) {
      const help = document.getElementById(select.getAttribute("aria-describedby"));
      if (!help) continue;
      const update = () => {
        const option = select.selectedOptions[0];
        help.textContent = option ? option.dataset.description || "" : "";
      };
      select.addEventListener("change", update);
      update();
    }
  }

  /** A field for each of a game's options (GET /api/games), with its default, bounds and description. */
  function optionFields(game, box, prefix) {
    clear(box);
    for (const option of game.options) {
      const id = `${prefix || "option"}-${option.name}`;
      let field;
      if (Array.isArray(option.choices) && option.choices.length) {
        field = el("select", { attrs: { id } }, option.choices.map((choice) => el("option", { text: choice, attrs: { value: choice } })));
        field.value = String(option.default);
      } else if (typeof option.default === "boolean") {
        field = el("input", { attrs: { id, type: "checkbox", checked: option.default } });
      } else if (typeof option.default === "string") {
        field = el("input", { attrs: { id, type: "text", value: option.default, autocomplete: "off" } });
      } else {
        const whole = Number.isInteger(option.default);
        field = el("input", { attrs: { id, type: "number", value: option.default, min: option.minimum, max: option.maximum, step: whole ? 1 : "any" } });
      }
      field.dataset.option = option.name;
      box.append(el("div", { className: "field" }, [
        el("label", { text: seatName(option.name), attrs: { for: id } }), field,
        el("p", { className: "help", text: option.description }),
      ]));
    }
  }

  /** The values of the fields optionFields built, by option name. */
  function optionValues(box) {
    const chosen = {};
    for (const field of box.querySelectorAll("[data-option]")) {
      if (field.type === "checkbox") chosen[field.dataset.option] = field.checked;
      else if (field.type === "number") chosen[field.dataset.option] = Number(field.value);
      else chosen[field.dataset.option] = field.value;
    }
    return chosen;
  }

  /** The seats of a table of `game` with the options chosen in `box`: every declared seat, unless an option sets
      how many the table has (`seat_count`), then the first that many. */
  function tableSeats(game, box) {
    const sizing = game.options.find((option) => option.seat_count);
    if (!sizing) return game.seats;
    const field = box.querySelector(`[data-option="${CSS.escape(sizing.name)}"]`);
    const count = Number(field ? field.value : sizing.default);
    const fits = Number.isInteger(count) && count >= (sizing.minimum ?? 1) && count <= game.seats.length;
    return fits ? game.seats.slice(0, count) : game.seats.slice(0, Number(sizing.default));
  }

  document.addEventListener("DOMContentLoaded", describeLevels);

  window.Arena = {
    el, clear, show, api, detailOf, fillModels, percent, number, gameName, seatName, seatPhrase, listPhrase, games, formatTime, optionFields,
    optionValues, tableSeats,
  };
})();
