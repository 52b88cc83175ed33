/* The match page, part 2 of 5: the game's own structured view (view.panel, from Game.panel): titled lists,
   counters, a live clock, and forms for the viewer's open asks. The widgets are generic: a list of items, a
   count with its limit, a clock, and a form whose actions fill a reply template from number, text and choice
   fields. The reply a form builds is sent like a typed one (match_turn.js) and the game's rules judge it. */
"use strict";

(function () {
  const { el, clear, api } = window.Arena;
  const M = window.ArenaMatch;
  const { $ } = M;
  const SLOT = /\{([a-z][a-z0-9_]*)\}/g;
  const PILL_CHARS = 32;
  const CHECK_DELAY_MS = 300;
  const clock = { base: 0, receivedAt: 0, running: false, timer: null };

  function formatDuration(seconds) {
    const total = Math.max(0, Math.floor(seconds));
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const secs = String(total % 60).padStart(2, "0");
    return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
  }

  function tick() {
    const node = $("clock-value");
    if (!node) return;
    const seconds = clock.base + (clock.running ? (performance.now() - clock.receivedAt) / 1000 : 0);
    const text = formatDuration(seconds);
    if (node.textContent !== text) node.textContent = text;
  }

  function tally(key, label, value, limit) {
    return el("div", { className: "tally", dataset: { counter: key } }, [
      el("dt", { className: "tally-label", text: label }),
      el("dd", { className: "tally-value", attrs: { id: `counter-${key}` } }, [
        String(value),
        limit === null || limit === undefined ? null : el("span", { className: "tally-limit", text: ` / ${limit}` }),
      ]),
    ]);
  }

  function renderCounters(panel) {
    const box = $("panel-counters");
    clear(box);
    for (const counter of panel.counters || []) box.append(tally(counter.key, counter.label, counter.value, counter.limit));
    if (panel.clock) {
      box.append(el("div", { className: "tally", dataset: { counter: "clock" } }, [
        el("dt", { className: "tally-label", text: panel.clock.label }),
        el("dd", { className: "tally-value", attrs: { id: "clock-value" } }),
      ]));
      clock.base = panel.clock.elapsed_s;
      clock.receivedAt = performance.now();
      clock.running = panel.clock.running;
      tick();
    } else {
      clock.running = false;
    }
    box.hidden = box.childElementCount === 0;
  }

  function renderLists(panel) {
    const box = $("panel-lists");
    const signature = JSON.stringify(panel.lists || []);
    if (box.dataset.signature === signature) return;
    box.dataset.signature = signature;
    clear(box);
    for (const list of panel.lists || []) {
      const items = list.items || [];
      // Short items are pills (one line; one too wide for its column ends in an ellipsis, its full text in the
      // tooltip); a list with a long item (a sentence) shows every item as a row of wrapped text instead.
      const rows = items.some((item) => [...String(item)].length > PILL_CHARS);
      box.append(el("section", { className: `panel-list tone-${list.tone}${rows ? " rows" : ""}`, dataset: { key: list.key } }, [
        el("h3", { className: "panel-list-title" }, [list.title, el("span", { className: "panel-list-count", text: ` (${items.length})` })]),
        items.length
          ? el("ul", { className: "panel-list-items" }, items.map((item) => el("li", { text: item, attrs: { title: rows ? null : item } })))
          : el("p", { className: "empty", text: list.empty }),
      ]));
    }
    box.hidden = box.childElementCount === 0;
  }

  function render(view) {
    const section = $("game-panel");
    const panel = view.panel;
    section.hidden = !panel;
    if (!panel) {
      clock.running = false;
      return;
    }
    renderCounters(panel);
    renderLists(panel);
    if (clock.timer === null) clock.timer = window.setInterval(tick, 1000);
  }

  /** The panel's form for this open ask, if the game gives one. */
  function formFor(view, turn) {
    if (!view.panel || !turn) return null;
    return (view.panel.forms || []).find((form) => form.party === turn.party && form.kind === turn.kind) || null;
  }

  // ---- forms ---------------------------------------------------------------------------------------------

  function fieldId(action, field) {
    return `field-${action.key}-${field.key}`;
  }

  function buildField(action, field) {
    const id = fieldId(action, field);
    if (field.kind === "choice") {
      const name = `${action.key}-${field.key}`;
      const options = field.choices.map((choice) => el("label", { className: "choice-option" }, [
        el("input", { attrs: { type: "radio", name, value: choice, checked: field.default === choice } }),
        ` ${choice}`,
      ]));
      return el("fieldset", { className: "form-field choice-field", dataset: { field: field.key }, attrs: { id } }, [
        el("legend", { text: field.label }),
        el("div", { className: "choice-options" }, options),
      ]);
    }
    const attrs = { id, name: field.key, autocomplete: "off" };
    if (field.kind === "integer") {
      Object.assign(attrs, { type: "number", step: 1, inputmode: "numeric", min: field.minimum, max: field.maximum });
    } else {
      Object.assign(attrs, { type: "text", maxlength: field.max_chars, minlength: field.min_chars || null });
    }
    const counter = field.kind === "text"
      ? el("span", { className: "counter field-counter", attrs: { id: `${id}-counter`, "aria-live": "polite" } }) : null;
    if (counter) attrs["aria-describedby"] = counter.id;
    const input = el("input", { attrs, dataset: { field: field.key } });
    if (field.default !== null && field.default !== undefined) input.value = field.default;
    const hint = field.kind === "integer" && field.maximum !== null && field.maximum !== undefined
      ? ` (${field.minimum ?? ""}–${field.maximum})` : "";
    return el("div", { className: `form-field ${field.kind}-field` }, [
      el("label", { text: `${field.label}${hint}`, attrs: { for: id } }), input, counter,
    ]);
  }

  /** A text field's live count, against its limit ("12 / 150") where it has one. */
  function count(node, field) {
    const input = node.querySelector(`input[data-field="${CSS.escape(field.key)}"]`);
    const counter = node.querySelector(`#${CSS.escape(input.id)}-counter`);
    const length = [...input.value.trim()].length;
    const max = field.max_chars;
    counter.textContent = max ? `${length} / ${max}` : (length ? `${length} characters` : "");
    counter.classList.toggle("over", Boolean(max) && length > max);
    counter.classList.toggle("near", Boolean(max) && length <= max && length > max * 0.85);
  }

  /** The value of one field, or an error message. */
  function valueOf(node, field) {
    if (field.kind === "choice") {
      const checked = node.querySelector(`[data-field="${CSS.escape(field.key)}"] input:checked`);
      return checked ? { value: checked.value } : { error: `choose an answer for “${field.label}”.`, focus: node.querySelector(`[data-field="${CSS.escape(field.key)}"] input`) };
    }
    const input = node.querySelector(`input[data-field="${CSS.escape(field.key)}"]`);
    const text = input.value.trim();
    if (field.kind === "integer") {
      if (!/^-?\d+$/.test(text)) return { error: `${field.label}: give a whole number.`, focus: input };
      const number = Number(text);
      if ((field.minimum !== null && field.minimum !== undefined && number < field.minimum)
        || (field.maximum !== null && field.maximum !== undefined && number > field.maximum)) {
        return { error: `${field.label}: give a number from ${field.minimum} to ${field.maximum}.`, focus: input };
      }
      return { value: String(number) };
    }
    if (/[\r\n]/.test(text)) return { error: `${field.label}: write it on one line.`, focus: input };
    if (text.length < (field.min_chars || 0) || !text) {
      return { error: `${field.label}: write at least ${Math.max(1, field.min_chars || 0)} characters.`, focus: input };
    }
    if (field.max_chars && text.length > field.max_chars) return { error: `${field.label}: at most ${field.max_chars} characters.`, focus: input };
    return { value: text };
  }

  /** The reply the action's fields make now, or the first field's error. */
  function replyOf(node, action) {
    const values = {};
    for (const field of action.fields || []) {
      const found = valueOf(node, field);
      if (found.error) return found;
      values[field.key] = found.value;
    }
    return { value: action.template.replace(SLOT, (_, key) => values[key]) };
  }

  function buildAction(action, send, party) {
    const error = el("p", { className: "alert error", attrs: { role: "alert" } });
    error.hidden = true;
    const button = el("button", {
      className: `button ${action.secondary ? "ghost" : "primary"}`,
      text: action.label,
      attrs: { type: "submit" },
    });
    const fields = action.fields || [];
    const grid = fields.length > 2 ? "form-fields grid" : "form-fields";
    const form = el("form", { className: `form-action${action.secondary ? " secondary" : ""}`, dataset: { action: action.key }, attrs: { novalidate: true } }, [
      fields.length ? el("div", { className: grid }, fields.map((field) => buildField(action, field))) : null,
      action.help ? el("p", { className: "help", text: action.help }) : null,
      error,
      el("div", { className: "form-action-buttons" }, [button]),
    ]);
    // A form with text fields is checked as the person types, by the game's own rules on the server (POST
    // .../check records nothing): a reply the rules would refuse says why before it is sent, and is not sent.
    const texts = fields.filter((field) => field.kind === "text");
    const checked = { reply: null, result: null, timer: null };
    function showVerdict(reply) {
      const refused = checked.reply === reply && checked.result && !checked.result.ok;
      error.textContent = refused ? `Not sent: ${checked.result.reason}` : "";
      error.hidden = !refused;
    }
    async function check(reply) {
      const result = await api("POST", `/api/matches/${encodeURIComponent(M.page.id)}/check`, { text: reply, party });
      if (!result.ok || !result.data) return;
      checked.reply = reply;
      checked.result = result.data;
      const now = replyOf(form, action);
      if (now.value === reply) showVerdict(reply);
    }
    if (texts.length) {
      form.addEventListener("input", () => {
        for (const field of texts) count(form, field);
        window.clearTimeout(checked.timer);
        const now = replyOf(form, action);
        if (now.error) {
          error.hidden = true;
          return;
        }
        showVerdict(now.value);
        if (checked.reply !== now.value) checked.timer = window.setTimeout(() => check(now.value), CHECK_DELAY_MS);
      });
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      window.clearTimeout(checked.timer);  // a check due after the move is sent would find no open ask
      const found = replyOf(form, action);
      if (found.error) {
        error.textContent = `Not sent: ${found.error}`;
        error.hidden = false;
        if (found.focus) found.focus.focus();
        return;
      }
      if (checked.reply === found.value && checked.result && !checked.result.ok) {
        showVerdict(found.value);
        return;
      }
      error.hidden = true;
      send(found.value);
    });
    if (texts.length) for (const field of texts) count(form, field);
    return form;
  }

  /** Build the form for an open ask into #panel-form (kept as it is, typed values too, while the same form is
      asked for); `send(text)` sends the reply. */
  function buildForm(form, send) {
    const box = $("panel-form");
    const key = JSON.stringify(form);
    box.hidden = false;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    clear(box);
    box.append(el("h3", { className: "panel-form-title", text: form.title }));
    if (form.note) box.append(el("p", { className: "help panel-form-note", text: form.note }));
    const actions = el("div", { className: "form-actions" }, form.actions.map((action) => buildAction(action, send, form.party)));
    box.append(actions);
  }

  function hideForm() {
    const box = $("panel-form");
    clear(box);
    delete box.dataset.key;
    box.hidden = true;
  }

  function setBusy(busy) {
    for (const control of $("panel-form").querySelectorAll("button, input")) control.disabled = busy;
  }

  function focusForm() {
    const first = $("panel-form").querySelector("input:not([type=radio]), input[type=radio]");
    if (first) first.focus();
    return Boolean(first);
  }

  window.addEventListener("pagehide", () => {
    if (clock.timer !== null) window.clearInterval(clock.timer);
  });

  Object.assign(M, { panel: { render, formFor, buildForm, hideForm, setBusy, focusForm } });
})();
