/* Join page: the invite link carries the seat's token in its fragment (#token=...), which the browser never
   sends to a server. This script takes it out of the address, posts it to the join endpoint (whose response sets
   the seat's cookie) and opens the match. */
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const { el, api } = window.Arena;
  const matchId = document.body.dataset.matchId;
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  // Drop the token from the address bar and the history entry before anything else happens.
  window.history.replaceState(null, "", window.location.pathname);
  const matchPath = `/matches/${encodeURIComponent(matchId)}`;

  function fail(message) {
    document.getElementById("joining").hidden = true;
    const box = document.getElementById("join-error");
    box.append(el("p", { text: message }), el("p", {}, [el("a", { text: "Back to the games", attrs: { href: "/" } })]));
    box.hidden = false;
  }

  if (!token) {
    fail("This link holds no invitation. Ask for the link again, and open it whole (with the part after #).");
    return;
  }
  const result = await api("POST", `/api/matches/${encodeURIComponent(matchId)}/join`, { token });
  if (result.ok) {
    window.location.replace(matchPath);
    return;
  }
  if (result.status === 404) fail("There is no game at this address.");
  else if (result.status === 403) fail(`This invitation does not open a seat of this game: ${result.error}`);
  else fail(result.error || "Your seat could not be taken.");
});
