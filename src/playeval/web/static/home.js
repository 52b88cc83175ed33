/* Home page: the opponent picker applies to whichever game's Play button is pressed. */
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const { fillModels } = window.Arena;
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
