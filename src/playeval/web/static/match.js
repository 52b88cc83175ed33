/* The match page, part 5 of 5: one page for playing, watching and replaying a game, for any number of seats.

   State comes from GET /api/matches/{id} (the HttpOnly cookie carries this browser's seat token, so reloading
   or reopening the page resumes the game), then live from the server-sent event stream of the same match,
   each view built by the server for this viewer. Moves go to POST /api/matches/{id}/moves with the sequence
   number of the view they answer (match_turn.js). A finished match also loads its replay. */
"use strict";

(function () {
  const { el, clear, api } = window.Arena;
  const M = window.ArenaMatch;
  const { $, page, render } = M;

  function show(view) {
    const previous = page.view;
    if (previous && typeof view.seq === "number" && view.seq < previous.seq) return;
    const becameYourTurn = view.status === "your_turn" && (!previous || previous.status !== "your_turn");
    page.view = view;
    $("loading").hidden = true;
    $("load-error").hidden = true;
    $("match").hidden = false;
    render.header(view);
    render.secrets(view);
    M.panel.render(view);
    const grew = render.transcript(view);
    render.status(view);
    render.rejected(view);
    M.turn.render(view);
    if (becameYourTurn && previous) M.turn.focus();
    const ended = render.outcome(view) && previous && previous.status !== "finished";
    M.extras.invites(view);
    M.extras.abandon(view);
    M.extras.survey(view);
    if (ended) {
      $("outcome-heading").focus();
      $("outcome").scrollIntoView({ block: "nearest" });
    } else if (grew && !$("turn").hidden) {
      $("turn").scrollIntoView({ block: "nearest" });
    } else if (grew && $("transcript").lastElementChild) {
      const target = $("status").hidden ? $("transcript").lastElementChild : $("status");
      target.scrollIntoView({ block: "nearest" });
    }
    if (view.status === "finished") {
      closeStream();
      M.extras.replay();
    }
  }

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
      show(view);
    });
    stream.addEventListener("error", () => {
      const live = page.view && page.view.status !== "finished";
      if (stream.readyState === EventSource.CLOSED) {
        // The server refused or ended the stream: read the state once more, then listen again.
        closeStream();
        page.streamFailures += 1;
        if (live) {
          render.status(page.view, "Connection lost. Reconnecting…");
          window.setTimeout(() => load(true), Math.min(10000, 1000 * 2 ** Math.min(page.streamFailures, 4)));
        }
      } else if (live) {
        render.status(page.view, "Connection lost. Reconnecting…");
      }
    });
  }

  async function load(quiet) {
    const result = await api("GET", `/api/matches/${encodeURIComponent(page.id)}`);
    if (result.ok && result.data) {
      show(result.data);
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
      message = "There is no game at this address, or it is being played by other people and is not over yet.";
    } else if (result.status === 403) {
      message = "This game is being played by other people. You can watch it once it is over.";
    } else {
      message = result.error || "The game could not be loaded.";
    }
    box.append(el("p", { text: message }), el("p", {}, [el("a", { text: "Back to the games", attrs: { href: "/" } })]));
    box.hidden = false;
  }

  Object.assign(M, { show, load });

  document.addEventListener("DOMContentLoaded", () => {
    M.turn.wire();
    M.extras.wire();
    window.addEventListener("pagehide", closeStream);
    load(false);
  });
})();
