/* The match page: one page for playing, watching and replaying a game.

   State comes from GET /api/matches/{id} (the HttpOnly cookie carries the player's token, so reloading
   or reopening the page resumes the game), then live from the server-sent event stream of the same
   match. Moves go to POST /api/matches/{id}/moves with the sequence number of the view they answer.
   A finished match also loads its replay (seats with models, round-by-round analysis). */
"use strict";

(function () {
  const { el, clear, api, gameName } = window.Arena;

  const SECRET_LABELS = {
    akinator: { mine: "Your secret object", revealed: "The object" },
    taboo: { mine: "Your word", revealed: "The word" },
    bluffing: { mine: "Your statement is", revealed: "The statement was" },
  };
  const TEXT_LABELS = {
    clue: "Your clue",
    answer: "Your answer",
  };
  const ANSWER_CHARS = { bluffing: 500 };
  const HIDDEN_LABEL = "Model (hidden until the end)";

  const $ = (id) => document.getElementById(id);

  const page = {
    id: document.body.dataset.matchId,
    view: null,
    stream: null,
    streamFailures: 0,
    sending: false,
    transcriptShown: [],
    turnKey: null,
    replayLoaded: false,
    surveyDismissed: false,
    surveyBuilt: false,
  };

  // ---- small helpers ----------------------------------------------------------------------------------

  function roleName(seat) {
    const text = String(seat).replace(/_/g, " ");
    return text ? text[0].toUpperCase() + text.slice(1) : text;
  }

  function seatOf(view, name) {
    return (view.seats || []).find((seat) => seat.seat === name) || null;
  }

  function secretText(view, secret) {
    if (view.game === "bluffing") {
      const truth = String(secret).toLowerCase();
      if (truth === "true") return "true";
      if (truth === "false") return "a bluff (false)";
    }
    return String(secret);
  }

  function opponentText(view) {
    const others = view.you ? (view.seats || []).filter((seat) => !seat.is_you) : view.seats || [];
    if (others.length === 0) return "—";
    return others
      .map((seat) => {
        const who = seat.model || seat.label;
        return view.you ? who : `${roleName(seat.seat)}: ${who}`;
      })
      .join(", ");
  }

  function isPersonTurn(view) {
    return view.status === "your_turn" && view.turn !== null && view.turn !== undefined;
  }

  // ---- rendering ----------------------------------------------------------------------------------------

  function renderHeader(view) {
    $("match-title").textContent = view.title || gameName(view.game);
    let mode = view.mode === "watch" ? "Model vs model" : view.you ? "You are playing" : "Person vs model";
    if (view.status === "finished") mode = view.mode === "watch" ? "Model vs model · finished" : view.you ? "Your game · finished" : "Person vs model · finished";
    $("match-mode").textContent = mode;
    $("match-level").textContent = `Level ${view.level}`;
    const seats = $("seats");
    clear(seats);
    for (const seat of view.seats || []) {
      seats.append(
        el("li", { className: `seat${seat.is_you ? " you" : ""}`, dataset: { seat: seat.seat } }, [
          el("span", { className: "seat-role", text: roleName(seat.seat) }),
          el("span", { className: "seat-name", text: seat.is_you ? "You" : seat.model || seat.label }),
        ]),
      );
    }
    const turnNote = view.status === "your_turn" ? "Your turn · " : "";
    document.title = `${turnNote}${view.title || gameName(view.game)} — playeval arena`;
  }

  function renderSecret(view) {
    const box = $("secret-box");
    const labels = SECRET_LABELS[view.game] || { mine: "Your secret", revealed: "The secret" };
    if (view.secret && view.status !== "finished" && view.you) {
      $("secret-label").textContent = labels.mine;
      $("secret-value").textContent = secretText(view, view.secret);
      box.hidden = false;
    } else {
      box.hidden = true;
    }
  }

  function lineSide(view, line) {
    if (view.you) return line.seat === view.you ? "mine" : "theirs";
    const index = (view.seats || []).findIndex((seat) => seat.seat === line.seat);
    return index <= 0 ? "theirs" : "mine";
  }

  function speaker(view, line) {
    if (view.you && line.seat === view.you) return "You";
    const seat = seatOf(view, line.seat);
    if (seat && seat.model) return `${roleName(line.seat)} · ${seat.model}`;
    if (seat && !view.you && seat.label && seat.label !== HIDDEN_LABEL) return `${roleName(line.seat)} · ${seat.label}`;
    return roleName(line.seat);
  }

  function renderTranscript(view) {
    const list = $("transcript");
    const lines = view.transcript || [];
    const shown = page.transcriptShown;
    const same = shown.length <= lines.length && shown.every((text, i) => text === lines[i].seat + "\n" + lines[i].text);
    if (!same) {
      clear(list);
      page.transcriptShown = [];
    }
    // Names can change once (an anonymous opponent is named at the end): refresh the lines already shown.
    list.querySelectorAll(".msg-who").forEach((node, i) => {
      const who = speaker(view, lines[i]);
      if (node.textContent !== who) node.textContent = who;
    });
    for (let i = page.transcriptShown.length; i < lines.length; i += 1) {
      const line = lines[i];
      const side = lineSide(view, line);
      const who = speaker(view, line);
      list.append(
        el("li", { className: `msg ${side}`, dataset: { seat: line.seat } }, [
          el("span", { className: "msg-who", text: who }),
          el("p", { className: "msg-text", text: line.text }),
        ]),
      );
      page.transcriptShown.push(line.seat + "\n" + line.text);
    }
    $("empty-transcript").hidden = lines.length > 0 || view.status !== "watching";
    return lines.length > shown.length || !same;
  }

  function renderStatus(view, note) {
    const dots = $("status-dots");
    const text = $("status-text");
    const status = $("status");
    let message = "";
    let busy = false;
    if (note) {
      message = note;
    } else if (view.status === "your_turn") {
      message = "Your turn.";
    } else if (view.status === "thinking") {
      message = "The model is thinking…";
      busy = true;
    } else if (view.status === "watching") {
      message = "Live: the models are playing…";
      busy = true;
    } else if (view.status === "finished") {
      message = "";
    }
    // On the person's turn the turn panel says it; the status line stays for screen readers only.
    status.className = `status ${view.status}${view.status === "your_turn" && !note ? " visually-hidden" : ""}`;
    status.dataset.status = view.status;
    dots.hidden = !busy;
    if (text.textContent !== message) text.textContent = message;
    status.hidden = message === "";
  }

  function renderRejected(view) {
    const box = $("rejected");
    if (view.rejected && view.status !== "finished") {
      box.textContent = `Not accepted: ${view.rejected}`;
      box.hidden = false;
    } else if (!page.sending) {
      box.hidden = true;
    }
  }

  function focusTurn() {
    const choices = $("choices");
    if (!choices.hidden && choices.firstElementChild) {
      choices.firstElementChild.focus();
    } else if (!$("text-form").hidden) {
      $("move-text").focus();
    }
  }

  function renderTurn(view) {
    const section = $("turn");
    if (!isPersonTurn(view)) {
      section.hidden = true;
      page.turnKey = null;
      return;
    }
    const turn = view.turn;
    const key = `${view.seq}|${turn.kind}`;
    section.hidden = false;
    setBusy(page.sending);
    if (page.turnKey === key) return;
    const fresh = page.turnKey === null;
    page.turnKey = key;

    $("turn-heading").textContent = turn.kind === "confirm" ? "The model is guessing" : "Your turn";
    $("turn-display").textContent = turn.display || "";
    $("turn-instructions").textContent = turn.instructions || "";
    const choices = $("choices");
    const form = $("text-form");
    if (Array.isArray(turn.choices) && turn.choices.length > 0) {
      clear(choices);
      turn.choices.forEach((choice, index) => {
        const button = el("button", {
          className: "button choice-button",
          text: choice,
          attrs: { type: "button", "aria-keyshortcuts": String(index + 1) },
          dataset: { choice },
        });
        choices.append(button);
      });
      choices.hidden = false;
      form.hidden = true;
    } else {
      choices.hidden = true;
      form.hidden = false;
      $("text-label").textContent = TEXT_LABELS[turn.kind] || "Your reply";
      const oneLine = view.game === "taboo";
      $("newline-help").hidden = oneLine;
      $("move-text").rows = oneLine ? 2 : 3;
      updateCounter();
    }
    if (fresh || document.activeElement === document.body || !section.contains(document.activeElement)) {
      focusTurn();
    }
  }

  function setBusy(busy) {
    for (const button of $("choices").querySelectorAll("button")) button.disabled = busy;
    $("move-text").readOnly = busy;
    $("send").disabled = busy;
    $("send").textContent = busy ? "Sending…" : "Send";
  }

  function maxChars() {
    const view = page.view;
    if (!view || !view.turn) return null;
    if (view.turn.max_chars) return view.turn.max_chars;
    if (view.game === "taboo" && view.turn.kind === "clue") return window.TabooWords.MAX_CLUE_CHARS;
    return ANSWER_CHARS[view.game] || null;
  }

  /** The reason a text would be refused before sending it, or null. */
  function localProblem(text, forSubmit) {
    const view = page.view;
    if (!view || !view.turn) return null;
    if (view.game === "taboo" && view.turn.kind === "clue") {
      const problem = window.TabooWords.clueProblem(text, view.secret || "", maxChars());
      if (!forSubmit && problem === "the clue was empty.") return null;
      return problem;
    }
    if (forSubmit && !text.trim()) return "write something first.";
    const max = maxChars();
    const length = window.TabooWords.charCount(text.trim());
    if (max && length > max) return `the answer has ${length} characters; at most ${max} are allowed.`;
    return null;
  }

  function showLocalProblem(problem) {
    const box = $("local-error");
    const message = problem ? `Not sent: ${problem}` : "";
    if (box.textContent !== message) box.textContent = message;
    box.hidden = !problem;
    $("move-text").setAttribute("aria-invalid", problem ? "true" : "false");
  }

  function updateCounter() {
    const text = $("move-text").value;
    const max = maxChars();
    const counter = $("counter");
    const length = window.TabooWords.charCount(text);
    if (max) {
      counter.textContent = `${length} / ${max}`;
      counter.classList.toggle("over", length > max);
      counter.classList.toggle("near", length <= max && length > max * 0.85);
    } else {
      counter.textContent = length ? `${length} characters` : "";
    }
    showLocalProblem(localProblem(text, false));
  }

  function renderOutcome(view) {
    const section = $("outcome");
    if (view.status !== "finished" || !view.outcome) {
      section.hidden = true;
      return;
    }
    const wasHidden = section.hidden;
    const outcome = view.outcome;
    let headline;
    let tone;
    if (outcome.status !== "finished") {
      headline = outcome.status === "aborted" ? "The game was abandoned" : `The game ended (${outcome.status})`;
      tone = "neutral";
    } else if (outcome.you_won === true) {
      headline = "You won!";
      tone = "win";
    } else if (outcome.you_won === false) {
      const other = (view.seats || []).find((seat) => !seat.is_you);
      headline = other && other.model ? `${other.model} won this one` : "The model won this one";
      tone = "loss";
    } else if (outcome.winner) {
      const winner = seatOf(view, outcome.winner);
      const role = roleName(outcome.winner);
      const name = winner && (winner.model || winner.label) ? `The ${role.toLowerCase()} (${winner.model || winner.label})` : role;
      headline = `${name} won`;
      tone = "neutral";
    } else {
      headline = "Nobody won";
      tone = "neutral";
    }
    section.className = `outcome ${tone}`;
    $("outcome-heading").textContent = headline;
    $("outcome-reason").textContent = outcome.reason ? `How it ended: ${outcome.reason}.`.replace(/\.\.$/, ".") : "";
    const labels = SECRET_LABELS[view.game] || { revealed: "The secret" };
    $("reveal-secret-label").textContent = labels.revealed;
    $("reveal-secret").textContent = view.secret ? secretText(view, view.secret) : "not recorded";
    $("reveal-secret-row").hidden = !view.secret;
    $("reveal-opponent-label").textContent = view.you ? "Opponent" : "Players";
    $("reveal-opponent").textContent = opponentText(view);
    $("reveal-rounds").textContent = String(outcome.rounds);
    $("again").href = view.mode === "watch" ? "/watch" : `/play/${encodeURIComponent(view.game)}`;
    $("again").textContent = view.mode === "watch" ? "Watch another" : view.you ? "Play again" : `Play ${gameName(view.game)}`;
    section.hidden = false;
    return wasHidden;
  }

  function renderAbandon(view) {
    const live = view.mode === "play" && view.you && view.status !== "finished";
    $("abandon-row").hidden = !live;
    if (!live) $("abandon-confirm").hidden = true;
  }

  // ---- survey -------------------------------------------------------------------------------------------

  function buildSurvey() {
    if (page.surveyBuilt) return;
    page.surveyBuilt = true;
    for (const fieldset of document.querySelectorAll("#survey fieldset.scale")) {
      const question = fieldset.dataset.question;
      const row = fieldset.querySelector(".scale-row");
      row.append(el("span", { className: "scale-end", text: row.dataset.low, attrs: { "aria-hidden": "true" } }));
      for (let value = 1; value <= 5; value += 1) {
        const id = `survey-${question}-${value}`;
        const label = value === 1 ? `1, ${row.dataset.low}` : value === 5 ? `5, ${row.dataset.high}` : String(value);
        row.append(
          el("span", { className: "scale-option" }, [
            el("input", { attrs: { type: "radio", name: question, value: String(value), id, "aria-label": label } }),
            el("label", { text: String(value), attrs: { for: id, "aria-hidden": "true" } }),
          ]),
        );
      }
      row.append(el("span", { className: "scale-end", text: row.dataset.high, attrs: { "aria-hidden": "true" } }));
    }
  }

  function renderSurvey(view) {
    const open = Boolean(view.survey_open) && !page.surveyDismissed && view.you;
    if (open) buildSurvey();
    $("survey").hidden = !open;
  }

  async function submitSurvey(event) {
    event.preventDefault();
    const form = $("survey");
    const answers = {};
    for (const question of ["enjoyment", "satisfaction", "frequency"]) {
      const checked = form.querySelector(`input[name="${question}"]:checked`);
      if (!checked) {
        $("survey-error").textContent = "Please pick a number from 1 to 5 for each question, or choose “No thanks”.";
        $("survey-error").hidden = false;
        form.querySelector(`input[name="${question}"]`).focus();
        return;
      }
      answers[question] = Number(checked.value);
    }
    $("survey-error").hidden = true;
    const submit = form.querySelector('button[type="submit"]');
    submit.disabled = true;
    const result = await api("POST", `/api/matches/${encodeURIComponent(page.id)}/survey`, answers);
    submit.disabled = false;
    if (result.ok) {
      page.surveyDismissed = true;
      form.hidden = true;
      $("survey-done").textContent = "Thank you! Your answers are saved with this game.";
      $("survey-done").hidden = false;
      $("survey-done").focus();
      return;
    }
    $("survey-error").textContent = result.error;
    $("survey-error").hidden = false;
  }

  // ---- replay -------------------------------------------------------------------------------------------

  const RETRO_KINDS = { candidates: "Its best guesses", judgement: "Its judgement", split: "Yes/No split" };

  /** A stored retrospective output in words: a ranked list, a judgement with its reason, or a split. */
  function retroText(item) {
    if (item.error) return `no usable answer (${item.error})`;
    const output = item.output;
    if (output === null || output === undefined) return "no answer";
    if (Array.isArray(output)) {
      if (item.kind === "split") {
        const yes = output.filter((value) => String(value).toLowerCase() === "yes").length;
        return `${yes} of ${output.length} earlier candidates fit the question`;
      }
      return output.map((value, index) => `${index + 1}. ${String(value)}`).join("  ");
    }
    if (typeof output === "object") {
      if (output.level) return output.reason ? `${output.level}: ${output.reason}` : String(output.level);
      return Object.entries(output)
        .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
        .join("; ");
    }
    return String(output);
  }

  function renderRetro(items) {
    const list = $("retro-list");
    clear(list);
    const rounds = new Map();
    for (const item of items) {
      if (!rounds.has(item.round)) rounds.set(item.round, []);
      rounds.get(item.round).push(item);
    }
    for (const [round, outputs] of [...rounds.entries()].sort((a, b) => a[0] - b[0])) {
      const entries = outputs.map((item) =>
        el("span", { className: "retro-output" }, [
          el("span", { className: "retro-kind", text: `${RETRO_KINDS[item.kind] || item.kind}: ` }),
          retroText(item),
        ]),
      );
      const models = [...new Set(outputs.map((item) => item.model).filter(Boolean))];
      list.append(
        el("li", { className: "retro-item" }, [
          el("span", { className: "retro-round", text: `Round ${round}` }),
          ...entries,
          models.length ? el("span", { className: "retro-meta", text: models.join(", ") }) : null,
        ]),
      );
    }
    $("retro").hidden = items.length === 0;
  }

  async function loadReplay() {
    if (page.replayLoaded) return;
    page.replayLoaded = true;
    $("permalink").href = `/matches/${encodeURIComponent(page.id)}`;
    $("permalink").textContent = window.location.origin + `/matches/${page.id}`;
    $("replay").hidden = false;
    const result = await api("GET", `/api/matches/${encodeURIComponent(page.id)}/replay`);
    if (!result.ok || !result.data) return;
    const replay = result.data;
    // The live view was built for this viewer (who they are, whether they won, the survey); the replay adds
    // what the public record holds: every seat's model and the round-by-round analysis.
    const view = page.view;
    if (view && Array.isArray(replay.seats)) {
      const models = new Map(replay.seats.map((seat) => [seat.seat, seat.model]));
      const merged = Object.assign({}, view, {
        seats: (view.seats || []).map((seat) => Object.assign({}, seat, { model: seat.model || models.get(seat.seat) || null })),
        secret: view.secret || replay.secret || null,
      });
      page.view = merged;
      renderHeader(merged);
      renderOutcome(merged);
      renderTranscript(merged);
    }
    renderRetro(Array.isArray(replay.retro) ? replay.retro : []);
  }

  // ---- the whole view -----------------------------------------------------------------------------------

  function render(view) {
    const previous = page.view;
    if (previous && typeof view.seq === "number" && view.seq < previous.seq) return;
    const becameYourTurn = isPersonTurn(view) && (!previous || previous.status !== "your_turn");
    page.view = Object.assign({}, previous || {}, view);
    $("loading").hidden = true;
    $("load-error").hidden = true;
    $("match").hidden = false;
    renderHeader(view);
    renderSecret(view);
    const grew = renderTranscript(view);
    renderStatus(view);
    renderRejected(view);
    renderTurn(view);
    if (becameYourTurn && previous) focusTurn();
    const ended = renderOutcome(view) && previous && previous.status !== "finished";
    renderAbandon(view);
    renderSurvey(view);
    if (ended) {
      $("outcome-heading").focus();
      $("outcome").scrollIntoView({ block: "nearest" });
    } else if (grew && !$("turn").hidden) {
      $("turn").scrollIntoView({ block: "nearest" });
    } else if (grew && $("transcript").lastElementChild) {
      $("status").hidden
        ? $("transcript").lastElementChild.scrollIntoView({ block: "nearest" })
        : $("status").scrollIntoView({ block: "nearest" });
    }
    if (view.status === "finished") {
      closeStream();
      loadReplay();
    }
  }

  // ---- server communication -----------------------------------------------------------------------------

  function closeStream() {
    if (page.stream) {
      page.stream.close();
      page.stream = null;
    }
  }

  function openStream() {
    if (page.stream || (page.view && page.view.status === "finished")) return;
    const stream = new EventSource(`/api/matches/${encodeURIComponent(page.id)}/stream`);
    page.stream = stream;
    stream.addEventListener("state", (event) => {
      page.streamFailures = 0;
      let view;
      try {
        view = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      render(view);
    });
    stream.addEventListener("error", () => {
      if (stream.readyState === EventSource.CLOSED) {
        // The server refused or ended the stream: read the state once more, then listen again.
        closeStream();
        page.streamFailures += 1;
        if (page.view && page.view.status !== "finished") {
          renderStatus(page.view, "Connection lost. Reconnecting…");
          const wait = Math.min(10000, 1000 * 2 ** Math.min(page.streamFailures, 4));
          window.setTimeout(() => load(true), wait);
        }
      } else if (page.view && page.view.status !== "finished") {
        renderStatus(page.view, "Connection lost. Reconnecting…");
      }
    });
  }

  async function load(quiet) {
    const result = await api("GET", `/api/matches/${encodeURIComponent(page.id)}`);
    if (result.ok && result.data) {
      render(result.data);
      if (result.data.status !== "finished") openStream();
      return;
    }
    if (quiet && result.status === 0) {
      window.setTimeout(() => load(true), 3000);
      return;
    }
    $("loading").hidden = true;
    const box = $("load-error");
    clear(box);
    let message;
    if (result.status === 404) {
      message = "There is no game at this address, or it is being played in another browser and is not over yet.";
    } else if (result.status === 403) {
      message = "This game belongs to another browser. You can watch it once it is over.";
    } else {
      message = result.error || "The game could not be loaded.";
    }
    box.append(el("p", { text: message }), el("p", {}, [el("a", { text: "Back to the games", attrs: { href: "/" } })]));
    box.hidden = false;
  }

  async function sendMove(text) {
    const view = page.view;
    if (!view || page.sending || !isPersonTurn(view)) return;
    page.sending = true;
    setBusy(true);
    $("rejected").hidden = true;
    const result = await api("POST", `/api/matches/${encodeURIComponent(page.id)}/moves`, { text, seq: view.seq });
    page.sending = false;
    setBusy(false);
    if (result.ok && result.data) {
      $("move-text").value = "";
      updateCounter();
      render(result.data);
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
      load(true);
    } else {
      box.textContent = result.error;
    }
    box.hidden = false;
    focusTurn();
  }

  // ---- wiring -------------------------------------------------------------------------------------------

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
    textarea.addEventListener("input", updateCounter);
    textarea.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.isComposing) return;
      const oneLine = page.view && page.view.game === "taboo";
      if (event.shiftKey && !oneLine) return;
      event.preventDefault();
      $("text-form").requestSubmit();
    });
    $("text-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = textarea.value;
      const problem = localProblem(text, true);
      if (problem) {
        showLocalProblem(problem);
        textarea.focus();
        return;
      }
      sendMove(text.trim());
    });

    $("abandon").addEventListener("click", () => {
      $("abandon-confirm").hidden = false;
      $("abandon-no").focus();
    });
    $("abandon-no").addEventListener("click", () => {
      $("abandon-confirm").hidden = true;
      $("abandon").focus();
    });
    $("abandon-yes").addEventListener("click", async () => {
      $("abandon-yes").disabled = true;
      const result = await api("POST", `/api/matches/${encodeURIComponent(page.id)}/abandon`);
      $("abandon-yes").disabled = false;
      $("abandon-confirm").hidden = true;
      if (result.ok && result.data) {
        render(result.data);
      } else {
        $("rejected").textContent = result.error;
        $("rejected").hidden = false;
      }
    });

    $("survey").addEventListener("submit", submitSurvey);
    $("survey-skip").addEventListener("click", () => {
      page.surveyDismissed = true;
      $("survey").hidden = true;
      $("survey-done").textContent = "No problem. Thanks for playing!";
      $("survey-done").hidden = false;
    });
    $("survey-done").setAttribute("tabindex", "-1");
    window.addEventListener("pagehide", closeStream);
  }

  document.addEventListener("DOMContentLoaded", () => {
    wire();
    load(false);
  });
})();
