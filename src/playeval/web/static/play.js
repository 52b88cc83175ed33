/* Set-up page: a form built from the game's own declarations (GET /api/games): the seats a person may take,
   what the chosen seat provides, the other seats (a model or an invited person), the levels and the options.
   Starting the match (POST /api/matches) opens its page, or first shows the invite links to pass on. */
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const { el, clear, api, fillModels, seatName, seatPhrase, optionFields, optionValues, tableSeats } = window.Arena;
  const body = document.body;
  const form = document.getElementById("setup-form");
  const error = document.getElementById("setup-error");
  const start = document.getElementById("start");
  const opponent = document.getElementById("opponent");
  const seatSelect = document.getElementById("seat");
  const inputsBox = document.getElementById("inputs");
  const others = document.getElementById("others");
  const optionsBox = document.getElementById("options");
  const levelSelect = document.getElementById("level");

  const games = await window.Arena.games();
  const game = games.find((item) => item.id === body.dataset.game);
  document.getElementById("setup-loading").hidden = true;
  if (!game) {
    fail("This game could not be loaded. Reload the page to try again.");
    return;
  }
  const models = await fillModels(opponent, body.dataset.model || sessionStorage.getItem("arena.model") || "");
  opponent.addEventListener("change", () => sessionStorage.setItem("arena.model", opponent.value));

  function fail(message, field) {
    error.textContent = message;
    error.hidden = false;
    if (field) field.focus();
    return null;
  }

  // ---- the form, from the game's declarations ------------------------------------------------------------

  function buildLevels() {
    for (const item of game.levels) {
      const option = el("option", { text: `Level ${item.level}`, attrs: { value: item.level } });
      option.dataset.description = item.description;
      levelSelect.append(option);
    }
    if (game.levels.some((item) => String(item.level) === body.dataset.level)) levelSelect.value = body.dataset.level;
    const describe = () => {
      const option = levelSelect.selectedOptions[0];
      document.getElementById("level-help").textContent = option ? option.dataset.description || "" : "";
    };
    levelSelect.addEventListener("change", describe);
    describe();
  }

  /** The seats a person may take at this table (an option may set how many seats it has), keeping the choice. */
  function fillSeats() {
    const chosen = seatSelect.value || game.person_seat;
    clear(seatSelect);
    const open = tableSeats(game, optionsBox).filter((seat) => seat.person);
    for (const seat of open) seatSelect.append(el("option", { text: seatName(seat.seat), attrs: { value: seat.seat } }));
    const keep = open.find((seat) => seat.seat === chosen) || open.find((seat) => seat.seat === game.person_seat);
    seatSelect.value = keep ? keep.seat : (open[0] ? open[0].seat : "");
  }

  function buildSeats() {
    fillSeats();
    document.getElementById("seat-field").hidden = false;
    seatSelect.addEventListener("change", () => {
      buildInputs();
      buildOthers();
    });
    if (game.options.some((option) => option.seat_count)) {
      optionsBox.addEventListener("input", () => {
        const before = seatSelect.value;
        fillSeats();
        if (seatSelect.value !== before) buildInputs();
        buildOthers();
      });
    }
    const roles = game.roles.map((role) => `${seatPhrase(role.role, true)} ${role.does}; it is not a player.`);
    const note = document.getElementById("roles-note");
    note.textContent = roles.join(" ");
    note.hidden = roles.length === 0;
  }

  function describeSeat() {
    const seat = game.seats.find((item) => item.seat === seatSelect.value);
    document.getElementById("seat-help").textContent = seat ? `${seatPhrase(seat.seat, true)} ${seat.role}.` : "";
  }

  /** One field per input the chosen seat provides: a choice, a masked secret, or a text. */
  function inputField(item) {
    const id = `input-${item.key}`;
    const optional = item.required ? "" : " (optional)";
    const hint = item.hidden ? el("span", { className: "private-tag", text: "private" }) : null;
    if (Array.isArray(item.choices) && item.choices.length) {
      const row = el("div", { className: "choice-row" });
      for (const choice of item.choices) {
        row.append(el("label", { className: "choice" }, [
          el("input", { attrs: { type: "radio", name: id, value: choice }, dataset: { key: item.key } }), ` ${choice}`,
        ]));
      }
      return el("fieldset", { className: "field input-field", dataset: { key: item.key, kind: "choice" } }, [
        el("legend", {}, [`${item.prompt}${optional} `, hint]), row,
      ]);
    }
    const attrs = { id, name: id, maxlength: item.max_chars, autocomplete: "off", spellcheck: "false" };
    const field = item.hidden
      ? el("input", { attrs: { ...attrs, type: "password", autocapitalize: "off" } })
      : el(item.max_chars > 120 ? "textarea" : "input", { attrs: item.max_chars > 120 ? { ...attrs, rows: 3 } : { ...attrs, type: "text" } });
    field.dataset.key = item.key;
    const parts = [el("label", { attrs: { for: id } }, [`${item.prompt}${optional} `, hint])];
    if (item.hidden) {
      const reveal = el("button", { className: "button ghost small", text: "Show", attrs: { type: "button", "aria-controls": id, "aria-pressed": "false" } });
      reveal.addEventListener("click", () => {
        const showing = field.type === "text";
        field.type = showing ? "password" : "text";
        reveal.textContent = showing ? "Show" : "Hide";
        reveal.setAttribute("aria-pressed", showing ? "false" : "true");
      });
      parts.push(el("div", { className: "secret-row" }, [field, reveal]));
    } else {
      parts.push(field);
    }
    if (!item.required) parts.push(el("p", { className: "help", text: "Leave it empty to keep it in your head." }));
    return el("div", { className: "field input-field", dataset: { key: item.key, kind: "text" } }, parts);
  }

  function buildInputs() {
    clear(inputsBox);
    describeSeat();
    const wanted = game.person_inputs.filter((item) => item.seat === seatSelect.value);
    for (const item of wanted) inputsBox.append(inputField(item));
    if (!wanted.length) {
      inputsBox.append(el("p", { className: "help", text: "Nothing to prepare for this seat: anything it keeps secret is drawn when the game starts and shown only to you." }));
    }
  }

  function buildOthers() {
    const picked = new Map([...others.querySelectorAll("select")].map((select) => [select.dataset.seat, select.value]));
    clear(others);
    for (const seat of tableSeats(game, optionsBox).filter((item) => item.seat !== seatSelect.value)) {
      const id = `other-${seat.seat}`;
      const select = el("select", { attrs: { id }, dataset: { seat: seat.seat } }, [
        el("option", { text: "The model above", attrs: { value: "" } }),
        el("option", { text: "Another random model", attrs: { value: "random" } }),
        ...models.map((address) => el("option", { text: address, attrs: { value: address } })),
      ]);
      if (seat.person) select.append(el("option", { text: "A person (send them a link)", attrs: { value: "person" } }));
      if ([...select.options].some((option) => option.value === picked.get(seat.seat))) select.value = picked.get(seat.seat);
      others.append(el("div", { className: "field" }, [
        el("label", { text: seatName(seat.seat), attrs: { for: id } }), select,
        el("p", { className: "help", text: `${seatName(seat.role)}.` }),
      ]));
    }
    document.getElementById("others-field").hidden = others.childElementCount === 0;
  }

  function buildOptions() {
    optionFields(game, optionsBox, "option");
  }

  // ---- what is sent ------------------------------------------------------------------------------------

  /** The chosen seat's inputs, or null after explaining what is missing. */
  function inputs() {
    const given = {};
    for (const item of game.person_inputs.filter((input) => input.seat === seatSelect.value)) {
      const box = inputsBox.querySelector(`[data-key="${CSS.escape(item.key)}"].input-field`);
      let value = "";
      let focus = box.querySelector("input, textarea");
      if (box.dataset.kind === "choice") {
        const checked = box.querySelector("input:checked");
        value = checked ? checked.value : "";
      } else {
        value = focus.value.trim();
      }
      if (!value && item.required) return fail(`${item.prompt}: this is needed to start.`, focus);
      if (value.length > item.max_chars) return fail(`${item.prompt}: at most ${item.max_chars} characters.`, focus);
      if (value) given[item.key] = value;
    }
    return given;
  }

  function seats() {
    const chosen = {};
    for (const select of others.querySelectorAll("select")) {
      if (select.value) chosen[select.dataset.seat] = select.value;
    }
    return chosen;
  }

  function showInvites(view) {
    const list = document.getElementById("invite-list");
    clear(list);
    for (const invite of view.invites) {
      const url = window.location.origin + invite.url;
      const copy = el("button", { className: "button ghost small", text: "Copy", attrs: { type: "button" } });
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(url);
          copy.textContent = "Copied";
        } catch (err) {
          copy.textContent = "Select and copy the link";
        }
      });
      list.append(el("li", { className: "invite", dataset: { seat: invite.seat } }, [
        el("span", { className: "invite-seat", text: seatName(invite.seat) }),
        el("input", { className: "invite-url", attrs: { type: "text", readonly: true, value: url, "aria-label": `Link for ${seatPhrase(invite.seat)}` } }),
        copy,
      ]));
    }
    // The match page lists them too while the guests have not come (this tab only).
    sessionStorage.setItem(`arena.invites.${view.id}`, JSON.stringify(view.invites));
    document.getElementById("go").href = `/matches/${encodeURIComponent(view.id)}`;
    form.hidden = true;
    document.getElementById("invites").hidden = false;
    document.getElementById("go").focus();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const given = inputs();
    if (!given) return;
    start.disabled = true;
    start.textContent = "Starting…";
    const payload = {
      game: game.id,
      level: Number(levelSelect.value),
      model: opponent.value || null,
      seat: seatSelect.value,
      inputs: given,
      seats: seats(),
      options: optionValues(optionsBox),
    };
    const result = await api("POST", "/api/matches", payload);
    if (result.ok && result.data && result.data.id) {
      if (Array.isArray(result.data.invites) && result.data.invites.length) {
        showInvites(result.data);
        return;
      }
      // The token travels in the HttpOnly cookie the response set; the address carries only the id.
      window.location.assign(`/matches/${encodeURIComponent(result.data.id)}`);
      return;
    }
    start.disabled = false;
    start.textContent = "Start the game";
    fail(result.error || "The game could not be started.");
  });

  buildLevels();
  buildOptions();  // first: an option may set how many seats the table has
  buildSeats();
  buildInputs();
  buildOthers();
  start.disabled = false;
});
