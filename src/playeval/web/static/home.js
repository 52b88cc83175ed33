/* Home page: the opponent picker applies to whichever game's Play button is pressed; under it, how long a
   model's move takes on this machine, from the durations the server measured (GET /api/models' timings: the one
   model's, or one figure for all when several are offered). */
"use strict";

/** "about 4.2 s (median of its last 50 moves here)", or "not yet measured". */
function speedText(timing) {
  if (timing.median_s === null || timing.median_s === undefined) return "not yet measured here";
  const seconds = timing.median_s;
  const shown = seconds < 0.1 ? "under 0.1 s" : seconds < 10 ? `about ${seconds.toFixed(1)} s` : `about ${Math.round(seconds)} s`;
  const moves = timing.moves === 1 ? "its one move" : `its last ${timing.moves} moves`;
  return `${shown} a move (median of ${moves} here)`;
}

async function showSpeeds() {
  const { el, clear, api } = window.Arena;
  const result = await api("GET", "/api/models");
  if (!result.ok || !result.data || !Array.isArray(result.data.timings) || !result.data.timings.length) return;
  const list = document.getElementById("speed-list");
  clear(list);
  for (const timing of result.data.timings) {
    list.append(el("li", { dataset: { model: timing.model } }, [
      el("strong", { text: timing.model }), `: ${speedText(timing)}`,
    ]));
  }
  document.getElementById("speed").hidden = false;
}

document.addEventListener("DOMContentLoaded", () => {
  const { fillModels } = window.Arena;
  showSpeeds();
  const picker = document.getElementById("opponent");
  const remembered = sessionStorage.getItem("arena.model") || "";
  fillModels(picker, remembered);
  picker.addEventListener("change", () => sessionStorage.setItem("arena.model", picker.value));
  for (const form of document.querySelectorAll("form.play-form")) {
    form.addEventListener("submit", () => {
      const hidden = form.querySelector('input[name="model"]');
      hidden.value = picker.value;
      // An empty model means "random": leave it out of the address.
      hidden.disabled = picker.value === "";
    });
  }
});
