/* The match page, part 3 of 5: the viewer's turn. The ask says how to answer: the game's form for it (view.panel,
   match_panel.js), its choices (buttons, keys 1-9), or a text with its limits (max_chars, one_line). While the person types, the reply is checked by the game's
   own rules on the server, without recording anything (POST /api/matches/{id}/check, debounced); a reply the
   rules would refuse is not sent, and the reason is shown. The server judges the move again when it is sent. */
"use strict";

(function () {
  const { el, clear, api, seatName, seatPhrase } = window.Arena;
  const M = window.ArenaMatch;
  const { $, page } = M;
  const CHECK_DELAY_MS = 300;
  const checks = { text: null, result: null, timer: null, pending: null, key: null };

  function currentTurn() {
    const view = page.view;
    return view && view.status === "your_turn" && view.turn ? view.turn : null;
  }

  function length(text) {
    return [...text].length;
  }

  function focusTurn() {
    if (!$("panel-form").hidden && M.panel.focusForm()) return;
    const choices = $("choices");
    if (!choices.hidden && choices.firstElementChild) {
      choices.firstElementChild.focus();
    } else if (!$("text-form").hidden) {
      $("move-text").focus();
    }
  }

  function setBusy(busy) {
    for (const button of $("choices").querySelectorAll("button")) button.disabled = busy;
    $("move-text").readOnly = busy;
    $("send").disabled = busy;
    $("send").textContent = busy ? "Sending…" : "Send";
    M.panel.setBusy(busy);
  }

  function renderTurn(view) {
    const section = $("turn");
    const turn = currentTurn();
    if (!turn) {
      section.hidden = true;
      page.turnKey = null;
      M.panel.hideForm();
      return;
    }
    const key = `${view.seq}|${turn.party}|${turn.kind}`;
    section.hidden = false;
    setBusy(page.sending);
    if (page.turnKey === key) return;
    const fresh = page.turnKey === null;
    page.turnKey = key;
    $("turn-heading").textContent = turn.role ? `Your turn, as ${seatPhrase(turn.role)}` : "Your turn";
    $("turn-display").textContent = turn.display || "";
    $("turn-instructions").textContent = turn.instructions || "";
    const choices = $("choices");
    const form = $("text-form");
    const gameForm = M.panel.formFor(view, turn);
    $("turn-display").hidden = Boolean(gameForm);
    $("turn-instructions").hidden = Boolean(gameForm);
    if (gameForm) {
      choices.hidden = true;
      form.hidden = true;
      M.panel.buildForm(gameForm, sendMove);
      M.panel.setBusy(page.sending);
    } else if (Array.isArray(turn.choices) && turn.choices.length > 0) {
      M.panel.hideForm();
      clear(choices);
      turn.choices.forEach((choice, index) => {
        choices.append(el("button", {
          className: "button choice-button",
          text: choice,
          attrs: { type: "button", "aria-keyshortcuts": index < 9 ? String(index + 1) : null },
          dataset: { choice },
        }));
      });
      choices.hidden = false;
      form.hidden = true;
    } else {
      M.panel.hideForm();
      choices.hidden = true;
      form.hidden = false;
      $("text-label").textContent = `Your ${String(turn.kind).replace(/_/g, " ")}`;
      $("newline-help").hidden = turn.one_line;
      $("move-text").rows = turn.one_line ? 2 : 3;
      checks.key = `${turn.party}|${turn.kind}`;
      checks.text = null;
      checks.result = null;
      updateCounter();
    }
    if (fresh || document.activeElement === document.body || !section.contains(document.activeElement)) focusTurn();
  }

  /** The reason a text would be refused, from its limits and the last dry run of this very text; or null. */
  function problem(text, forSubmit) {
    const turn = currentTurn();
    if (!turn) return null;
    if (!text.trim()) return forSubmit ? "write something first." : null;
    const count = length(text.trim());
    if (turn.max_chars && count > turn.max_chars) return `the reply has ${count} characters; at most ${turn.max_chars} are allowed.`;
    if (turn.one_line && /[\r\n]/.test(text.trim())) return "write it on one line.";
    if (checks.text === text.trim() && checks.result && !checks.result.ok) return checks.result.reason;
    return null;
  }

  function showProblem(reason) {
    const box = $("local-error");
    const message = reason ? `Not sent: ${reason}` : "";
    if (box.textContent !== message) box.textContent = message;
    box.hidden = !reason;
    $("move-text").setAttribute("aria-invalid", reason ? "true" : "false");
  }

  function updateCounter() {
    const text = $("move-text").value;
    const turn = currentTurn();
    const max = turn ? turn.max_chars : null;
    const counter = $("counter");
    const count = length(text);
    if (max) {
      counter.textContent = `${count} / ${max}`;
      counter.classList.toggle("over", count > max);
      counter.classList.toggle("near", count <= max && count > max * 0.85);
    } else {
      counter.textContent = count ? `${count} characters` : "";
    }
    showProblem(problem(text, false));
  }

  /** Ask the server whether the rules would take this text now; resolves to its verdict (null: no verdict). */
  async function check(text) {
    const turn = currentTurn();
    if (!turn || !text) return null;
    const key = checks.key;
    const result = await api("POST", `/api/matches/${encodeURIComponent(page.id)}/check`, { text, party: turn.party });
    if (!result.ok || !result.data || key !== checks.key) return null;
    checks.text = text;
    checks.result = result.data;
    if ($("move-text").value.trim() === text) showProblem(problem($("move-text").value, false));
    return result.data;
  }

  function scheduleCheck() {
    window.clearTimeout(checks.timer);
    const text = $("move-text").value.trim();
    if (!text || problem(text, false)) return;
    checks.timer = window.setTimeout(() => {
      checks.pending = check(text);
    }, CHECK_DELAY_MS);
  }

  async function sendMove(text) {
    const view = page.view;
    const turn = currentTurn();
    if (!view || page.sending || !turn) return;
    page.sending = true;
    setBusy(true);
    $("rejected").hidden = true;
    const result = await api("POST", `/api/matches/${encodeURIComponent(page.id)}/moves`, { text, seq: view.seq, party: turn.party });
    page.sending = false;
    setBusy(false);
    if (result.ok && result.data) {
      $("move-text").value = "";
      // The sent form comes down, and the turn is built again from the view shown next: the stream may already
      // have shown this response's view (same seq and ask, which renderTurn would otherwise leave as it is), or
      // a newer one (then show() ignores the response, and the newer view's turn is rendered again).
      M.panel.hideForm();
      page.turnKey = null;
      updateCounter();
      M.show(result.data);
      if (page.view !== result.data && page.view) M.turn.render(page.view);
      return;
    }
    const box = $("rejected");
    if (result.status === 422) {
      // The refusal is recorded in the match's log: the next move answers the view after it.
      if (result.data && typeof result.data.seq === "number" && page.view && result.data.seq > page.view.seq) {
        page.view = Object.assign({}, page.view, { seq: result.data.seq, rejected: result.error });
      }
      box.textContent = `Not accepted: ${result.error}`;
    } else if (result.status === 409) {
      box.textContent = `${result.error} The page has been brought up to date.`;
      M.load(true);
    } else {
      box.textContent = result.error;
    }
    box.hidden = false;
    focusTurn();
  }

  async function submitText(event) {
    event.preventDefault();
    const textarea = $("move-text");
    const text = textarea.value.trim();
    let reason = problem(textarea.value, true);
    if (!reason && checks.text !== text) {
      window.clearTimeout(checks.timer);
      await check(text);  // no verdict (the network, a stale page): the server judges the move itself
      reason = problem(textarea.value, true);
    }
    if (reason) {
      showProblem(reason);
      textarea.focus();
      return;
    }
    sendMove(text);
  }

  function wire() {
    $("choices").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-choice]");
      if (button && !button.disabled) sendMove(button.dataset.choice);
    });
    document.addEventListener("keydown", (event) => {
      const choices = $("choices");
      if (choices.hidden || $("turn").hidden || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target instanceof HTMLElement && target.closest("input, textarea, select")) return;
      const index = Number(event.key) - 1;
      const buttons = choices.querySelectorAll("button");
      if (Number.isInteger(index) && index >= 0 && index < buttons.length) {
        event.preventDefault();
        buttons[index].click();
      }
    });
    const textarea = $("move-text");
    textarea.addEventListener("input", () => {
      updateCounter();
      scheduleCheck();
    });
    textarea.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.isComposing) return;
      const turn = currentTurn();
      if (event.shiftKey && !(turn && turn.one_line)) return;
      event.preventDefault();
      $("text-form").requestSubmit();
    });
    $("text-form").addEventListener("submit", submitText);
  }

  Object.assign(M, { turn: { render: renderTurn, focus: focusTurn, wire } });
})();
