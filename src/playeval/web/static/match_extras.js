/* The match page, part 4 of 5: around the game. The invite links of guests who have not come yet (kept in this
   tab by the set-up page), leaving the game, the survey after it, and the replay with the round-by-round
   analysis once it is over. */
"use strict";

(function () {
  const { el, clear, api, seatName, seatPhrase } = window.Arena;
  const M = window.ArenaMatch;
  const { $, page } = M;

  // ---- invites ------------------------------------------------------------------------------------------

  function storedInvites() {
    try {
      const invites = JSON.parse(sessionStorage.getItem(`arena.invites.${page.id}`) || "[]");
      return Array.isArray(invites) ? invites : [];
    } catch (err) {
      return [];
    }
  }

  function renderInvites(view) {
    const waiting = new Set((view.seats || []).filter((seat) => seat.person && seat.joined === false).map((seat) => seat.seat));
    const invites = view.status === "finished" ? [] : storedInvites().filter((invite) => waiting.has(invite.seat));
    const list = $("invite-list");
    const shown = [...list.children].map((item) => item.dataset.seat).join(",");
    if (shown !== invites.map((invite) => invite.seat).join(",")) {
      clear(list);
      for (const invite of invites) {
        list.append(el("li", { className: "invite", dataset: { seat: invite.seat } }, [
          el("span", { className: "invite-seat", text: seatName(invite.seat) }),
          el("input", { className: "invite-url", attrs: { type: "text", readonly: true, value: window.location.origin + invite.url, "aria-label": `Link for ${seatPhrase(invite.seat)}` } }),
        ]));
      }
    }
    $("invites").hidden = invites.length === 0;
    if (!waiting.size || view.status === "finished") sessionStorage.removeItem(`arena.invites.${page.id}`);
  }

  // ---- leaving ------------------------------------------------------------------------------------------

  function renderAbandon(view) {
    const live = view.mode === "play" && view.you && !["finished", "left"].includes(view.status);
    $("abandon-row").hidden = !live;
    if (!live) {
      $("abandon-confirm").hidden = true;
      return;
    }
    const others = (view.seats || []).some((seat) => seat.person && !seat.is_you && seat.joined);
    $("abandon-question").textContent = others
      ? "Really leave? A model takes your seat and the others play on."
      : "Really leave? The game ends here.";
  }

  async function leave() {
    $("abandon-yes").disabled = true;
    const result = await api("POST", `/api/matches/${encodeURIComponent(page.id)}/abandon`);
    $("abandon-yes").disabled = false;
    $("abandon-confirm").hidden = true;
    if (result.ok && result.data) {
      M.show(result.data);
    } else {
      $("rejected").textContent = result.error;
      $("rejected").hidden = false;
    }
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
        row.append(el("span", { className: "scale-option" }, [
          el("input", { attrs: { type: "radio", name: question, value: String(value), id, "aria-label": label } }),
          el("label", { text: String(value), attrs: { for: id, "aria-hidden": "true" } }),
        ]));
      }
      row.append(el("span", { className: "scale-end", text: row.dataset.high, attrs: { "aria-hidden": "true" } }));
    }
  }

  function renderSurvey(view) {
    const open = Boolean(view.survey_open) && !page.surveyDismissed && Boolean(view.you);
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
      const models = [...new Set(outputs.map((item) => item.model).filter(Boolean))];
      list.append(el("li", { className: "retro-item" }, [
        el("span", { className: "retro-round", text: `Round ${round}` }),
        ...outputs.map((item) => el("span", { className: "retro-output" }, [
          el("span", { className: "retro-kind", text: `${RETRO_KINDS[item.kind] || item.kind}: ` }), retroText(item),
        ])),
        models.length ? el("span", { className: "retro-meta", text: models.join(", ") }) : null,
      ]));
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
    renderRetro(Array.isArray(result.data.retro) ? result.data.retro : []);
  }

  function wire() {
    $("abandon").addEventListener("click", () => {
      $("abandon-confirm").hidden = false;
      $("abandon-no").focus();
    });
    $("abandon-no").addEventListener("click", () => {
      $("abandon-confirm").hidden = true;
      $("abandon").focus();
    });
    $("abandon-yes").addEventListener("click", leave);
    $("survey").addEventListener("submit", submitSurvey);
    $("survey-skip").addEventListener("click", () => {
      page.surveyDismissed = true;
      $("survey").hidden = true;
      $("survey-done").textContent = "No problem. Thanks for playing!";
      $("survey-done").hidden = false;
    });
    $("survey-done").setAttribute("tabindex", "-1");
  }

  Object.assign(M, {
    extras: { invites: renderInvites, abandon: renderAbandon, survey: renderSurvey, replay: loadReplay, wire },
  });
})();
