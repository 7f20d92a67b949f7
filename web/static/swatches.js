// The console's seat colours edged as the scoreboard edges them (edgeOf, dice.js): a white seat's
// swatch and colour picker read as empty on the console's white cards, as its band of colour ran
// into its white dice. A picker is edged again as the dealer picks another colour.
"use strict";

function edged(part, colour) {
  if (/^#[0-9a-f]{6}$/i.test(colour)) part.style.setProperty("--edge", edgeOf(colour));
}

// a swatch says its colour in its title (#rrggbb), the one place it is written beside its style
for (const swatch of document.querySelectorAll(".swatch:not(.none)")) edged(swatch, swatch.title);
for (const picker of document.querySelectorAll("input[type=color]")) {
  edged(picker, picker.value);
  picker.addEventListener("input", () => edged(picker, picker.value));
}
