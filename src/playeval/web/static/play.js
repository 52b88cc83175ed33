/* Set-up page: collect the private inputs, start the match through the API, then open its page. */
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const { api, fillModels } = window.Arena;
  const body = document.body;
  const game = body.dataset.game;
  const form = document.getElementById("setup-form");
  const error = document.getElementById("setup-error");
  const start = document.getElementById("start");
  const opponent = document.getElementById("opponent");

  fillModels(opponent, body.dataset.model || sessionStorage.getItem("arena.model") || "");
  opponent.addEventListener("change", () => sessionStorage.setItem("arena.model", opponent.value));

  const reveal = document.getElementById("reveal-secret");
  if (reveal) {
    const secret = document.getElementById("secret");
    reveal.addEventListener("click", () => {
      const showing = secret.type === "text";
      secret.type = showing ? "password" : "text";
      reveal.textContent = showing ? "Show" : "Hide";
      reveal.setAttribute("aria-pressed", showing ? "false" : "true");
    });
  }

  function fail(message, field) {
    error.textContent = message;
    error.hidden = false;
    if (field) field.focus();
  }

  /** The inputs the API expects for this game, or null after explaining what is missing. */
  function inputs() {
    if (game === "akinator") {
      const secret = document.getElementById("secret");
      const value = secret.value.trim();
      if (!value) return fail("Type the object you are thinking of first. The model will not see it.", secret);
      if (!/[\p{L}\p{N}]/u.test(value)) return fail("The object needs at least one letter or digit.", secret);
      return { secret: value };
    }
    if (game === "bluffing") {
      const statement = document.getElementById("statement");
      const value = statement.value.trim();
      if (!value) return fail("Write a statement about yourself first.", statement);
      const truth = form.querySelector('input[name="truth"]:checked');
      if (!truth) {
        return fail("Say, privately, whether your statement is true or a bluff.", form.querySelector('input[name="truth"]'));
      }
      return { statement: value, secret: truth.value };
    }
    return {};
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const given = inputs();
    if (!given) return;
    start.disabled = true;
    start.textContent = "Starting…";
    const payload = {
      game,
      level: Number(document.getElementById("level").value),
      model: opponent.value || null,
      inputs: given,
    };
    const result = await api("POST", "/api/matches", payload);
    if (result.ok && result.data && result.data.id) {
      // The token travels in the HttpOnly cookie the response set; the address carries only the id.
      window.location.assign(`/matches/${encodeURIComponent(result.data.id)}`);
      return;
    }
    start.disabled = false;
    start.textContent = "Start the game";
    fail(result.error || "The game could not be started.");
  });
});
