/* The match page, part 1 of 5: drawing a view (header and seats, what only the viewer sees, transcript, status,
   outcome). Everything comes from the view the server built for this viewer; labels of hidden information are
   the game's own: while the match is played a disclosure is one the viewer holds, with its holder's label only;
   once it is over every disclosure comes with the label meant for the end and who held it. Data is only ever inserted
   as text. Shared state and helpers live on window.ArenaMatch. */
"use strict";

(function () {
  const { el, clear, gameName, seatName, seatPhrase, listPhrase } = window.Arena;
  const $ = (id) => document.getElementById(id);
  const HIDDEN_LABEL = "Model (hidden until the end)";

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

  function seatOf(view, name) {
    return (view.seats || []).find((seat) => seat.seat === name) || null;
  }

  /** Who holds a seat, in a word: "You", "Person", a model, or the hidden label. */
  function holder(seat) {
    if (!seat) return "";
    if (seat.is_you && !seat.taken_over) return "You";
    return seat.model || seat.label;
  }

  function renderHeader(view) {
    $("match-title").textContent = view.title || gameName(view.game);
    const finished = view.status === "finished";
    const watched = (view.seats || []).length === 1 ? "A model playing" : "Model vs model";
    let mode = view.mode === "watch" ? watched : view.you ? "You are playing" : "People and models";
    if (finished) mode = view.mode === "watch" ? `${watched} · finished` : view.you ? "Your game · finished" : "Finished game";
    $("match-mode").textContent = mode;
    $("match-level").textContent = `Level ${view.level}`;
    const seats = $("seats");
    clear(seats);
    for (const seat of view.seats || []) {
      let name = holder(seat);
      if (seat.person && !seat.is_you && seat.joined === false) name = "Person (invited)";
      if (seat.taken_over) name = `${name} (took over)`;
      seats.append(
        el("li", { className: `seat${seat.is_you ? " you" : ""}`, dataset: { seat: seat.seat } }, [
          el("span", { className: "seat-role", text: seatName(seat.seat) }),
          el("span", { className: "seat-name", text: name }),
        ]),
      );
    }
    const turnNote = view.status === "your_turn" ? "Your turn · " : "";
    document.title = `${turnNote}${view.title || gameName(view.game)} — playeval arena`;
  }

  /** The hidden information only this viewer's seat sees while the match is played. */
  function renderSecrets(view) {
    const list = $("secrets");
    clear(list);
    const mine = view.status === "finished" ? [] : (view.disclosures || []);
    for (const item of mine) {
      list.append(
        el("li", { className: "secret-box", dataset: { key: item.key } }, [
          el("span", { className: "secret-label", text: item.label }),
          el("strong", { className: "secret-value", text: item.value }),
          el("span", { className: "private-tag", text: "hidden from the others until the end" }),
        ]),
      );
    }
    list.hidden = mine.length === 0;
  }

  function lineSide(view, line) {
    const seats = view.seats || [];
    const index = seats.findIndex((seat) => seat.seat === line.seat);
    if (index < 0) return "system";
    if (view.you) return line.seat === view.you ? "mine" : "theirs";
    return index % 2 === 0 ? "theirs" : "mine";
  }

  function speaker(view, line) {
    const seat = seatOf(view, line.seat);
    if (!seat) return line.label;
    if (seat.is_you && !seat.taken_over) return "You";
    const name = holder(seat);
    return name && name !== HIDDEN_LABEL ? `${seatName(line.seat)} · ${name}` : seatName(line.seat);
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
    // Names can change once (anonymous models are named at the end): refresh the lines already shown.
    list.querySelectorAll(".msg-who").forEach((node, i) => {
      const who = speaker(view, lines[i]);
      if (node.textContent !== who) node.textContent = who;
    });
    for (let i = page.transcriptShown.length; i < lines.length; i += 1) {
      const line = lines[i];
      list.append(
        el("li", { className: `msg ${lineSide(view, line)}`, dataset: { seat: line.seat } }, [
          el("span", { className: "msg-who", text: speaker(view, line) }),
          el("p", { className: "msg-text", text: line.text }),
        ]),
      );
      page.transcriptShown.push(line.seat + "\n" + line.text);
    }
    // Before the first line, the note says the game has not begun only until someone is asked to move: from
    // then on the status line says who is moving (a model may think a while before the first line comes).
    const started = view.status === "your_turn" || (view.awaited || []).length > 0;
    $("empty-transcript").hidden = lines.length > 0 || view.status === "finished" || started;
    return lines.length > shown.length || !same;
  }

  function waitingText(view) {
    const names = (view.waiting_for || []).map((name) => seatPhrase(name));
    if (!names.length) return "Waiting for the other players…";
    const missing = (view.seats || []).filter((seat) => seat.person && !seat.is_you && seat.joined === false);
    const who = listPhrase(names);
    return missing.length ? `Waiting for ${who} (invited players may not have joined yet)…` : `Waiting for ${who}…`;
  }

  /** After the viewer's move in a phase the others still answer (a secret vote): it is in, and who is awaited. */
  function recordedText(view) {
    const kind = String(view.recorded).replace(/_/g, " ");
    const who = listPhrase((view.awaited || []).map((name) => seatPhrase(name)));
    return who ? `Your ${kind} is recorded. Still waiting for ${who}…` : `Your ${kind} is recorded.`;
  }

  function renderStatus(view, note) {
    const models = (view.seats || []).filter((seat) => !seat.person).length;
    const messages = {
      your_turn: "Your turn.",
      thinking: view.recorded ? recordedText(view) : models > 1 ? "The models are thinking…" : "The model is thinking…",
      waiting: view.recorded ? recordedText(view) : waitingText(view),
      left: "A model plays your seat now. You can follow the game to its end.",
      watching: "Live: the models are playing…",
      finished: "",
    };
    const busy = ["thinking", "waiting", "watching"].includes(view.status) && !note;
    const message = note || messages[view.status] || "";
    const status = $("status");
    // On the person's turn the turn panel says it; the status line stays for screen readers only.
    status.className = `status ${view.status}${view.status === "your_turn" && !note ? " visually-hidden" : ""}`;
    status.dataset.status = view.status;
    status.dataset.seq = String(view.seq);
    $("status-dots").hidden = !busy;
    if ($("status-text").textContent !== message) $("status-text").textContent = message;
    status.hidden = message === "";
  }

  function renderRejected(view) {
    const box = $("rejected");
    if (view.rejected && view.status === "your_turn") {
      box.textContent = `Not accepted: ${view.rejected}`;
      box.hidden = false;
    } else if (!page.sending) {
      box.hidden = true;
    }
  }

  /** "the guesser …" at a sentence's start; a seat's own name ("player1") stays as it is. */
  function capital(text) {
    return text.startsWith("the ") ? `T${text.slice(1)}` : text;
  }

  function names(view, seats) {
    return seats.map((name) => holder(seatOf(view, name)) || seatName(name)).join(", ");
  }

  function headline(view, outcome) {
    if (outcome.status === "aborted") return ["The game was abandoned", "neutral"];
    if (outcome.status === "forfeit") {
      const out = (outcome.results || []).filter((result) => result.forfeited).map((result) => seatPhrase(result.seat));
      return [out.length ? `${capital(listPhrase(out))} forfeited` : "The game ended with a forfeit", "neutral"];
    }
    const team = outcome.winning_team;
    const results = outcome.results || [];
    if (!team && !outcome.winners.length && results.length === 1) {  // a game of one seat, not won: no draw
      if (outcome.you_won === false) return ["Not this time", "loss"];
      return [`${seatPhrase(results[0].seat, true)} (${holder(seatOf(view, results[0].seat))}) did not win`, "neutral"];
    }
    if (!team && !outcome.winners.length) return ["Nobody won: a draw", "neutral"];
    if (outcome.you_won === true) return [team ? "Your team won!" : "You won!", "win"];
    if (outcome.you_won === false) {
      return [team ? `The ${team} team won` : `${names(view, outcome.winners)} won this one`, "loss"];
    }
    if (team) return [`The ${team} team won`, "neutral"];
    const who = outcome.winners.map((seat) => `${seatPhrase(seat)} (${holder(seatOf(view, seat))})`);
    return [`${capital(listPhrase(who))} won`, "neutral"];
  }

  function resultText(result) {
    if (result.won === null || result.won === undefined) return result.forfeited ? "Forfeited" : "Not scored";
    let text = result.won ? "Won" : "Lost";
    if (result.placement) text += ` (place ${result.placement})`;
    if (result.elimination) text += `; out in round ${result.eliminated_round}: ${result.elimination}`;
    if (result.score_text) text += `; ${result.score_text}`;
    return text;
  }

  /** The outcome, what was hidden (with the game's labels) and every seat's result; true when newly shown. */
  function renderOutcome(view) {
    const section = $("outcome");
    if (view.status !== "finished" || !view.outcome) {
      section.hidden = true;
      return false;
    }
    const wasHidden = section.hidden;
    const outcome = view.outcome;
    const [title, tone] = headline(view, outcome);
    section.className = `outcome ${tone}`;
    $("outcome-heading").textContent = title;
    $("outcome-reason").textContent = outcome.reason ? `How it ended: ${outcome.reason}.`.replace(/\.\.$/, ".") : "";
    const reveal = $("reveal");
    clear(reveal);
    for (const item of view.disclosures || []) {
      reveal.append(el("div", {}, [el("dt", { text: item.revealed_label }), el("dd", { text: item.value, attrs: { id: `reveal-${item.key}` } })]));
    }
    reveal.append(el("div", {}, [el("dt", { text: "Rounds" }), el("dd", { text: String(outcome.rounds), attrs: { id: "reveal-rounds" } })]));
    const rows = $("results-body");
    clear(rows);
    for (const result of outcome.results || []) {
      rows.append(el("tr", { className: result.won ? "won" : "", dataset: { seat: result.seat } }, [
        el("th", { text: seatName(result.seat), attrs: { scope: "row" } }),
        el("td", { text: result.label }),
        el("td", { text: result.team || "—" }),
        el("td", { text: resultText(result) }),
      ]));
    }
    $("again").href = view.mode === "watch" ? "/watch" : `/play/${encodeURIComponent(view.game)}`;
    $("again").textContent = view.mode === "watch" ? "Watch another" : view.you ? "Play again" : `Play ${gameName(view.game)}`;
    section.hidden = false;
    return wasHidden;
  }

  window.ArenaMatch = Object.assign(window.ArenaMatch || {}, {
    $, page, seatOf, holder,
    render: { header: renderHeader, secrets: renderSecrets, transcript: renderTranscript, status: renderStatus,
      rejected: renderRejected, outcome: renderOutcome },
  });
})();
