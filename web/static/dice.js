// Dice drawn as they look on the table: pips on a d6; the d12 numerals, the Tauren d8 (pips 2-6,
// the Warrior, Chieftain and Shaman pictures) and the DiceHoldem letters as the printable face art
// draws them (vision.face_art, served as /faces.js); a sealed die (rolled, not revealed) as a
// closed cup. One function per kind; the page never asks which
// game it shows, only which kind of die each die is.
"use strict";

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

function pips(count, scale, cx, cy, radius) {
  return (PIPS[count] || []).map(([x, y]) =>
    `<circle cx="${cx + (x - 50) * scale}" cy="${cy + (y - 50) * scale}" r="${radius}" class="pip"/>`
  ).join("");
}

function d6(face) {
  return `<rect x="6" y="6" width="88" height="88" rx="16" class="body d6"/>` +
    pips(Number(face), 1, 50, 50, 8.5);
}

// A face as the printable art draws it (window.FACE_ART, from /faces.js: SVG paths in a unit box
// centred at 0), centred at (cx, cy) and `size` wide; a face the art lacks is written as text.
function art(kind, face, cx, cy, size) {
  const path = ((window.FACE_ART || {})[kind] || {})[face];
  if (!path) {
    return `<text x="${cx}" y="${cy + size * 0.2}" class="face-text">${face}</text>`;
  }
  return `<path d="${path}" transform="translate(${cx} ${cy}) scale(${size})" ` +
    `fill-rule="evenodd" class="ink ${kind}"/>`;
}

function d12(face) {
  return `<polygon points="50,4 96,38 78,94 22,94 4,38" class="body d12"/>` + art("d12", face, 50, 55, 64);
}

function d8(face) {
  return `<polygon points="50,4 97,92 3,92" class="body d8"/>` + art("d8-tauren", face, 50, 63, 60);
}

function letter(face) {
  return `<rect x="6" y="6" width="88" height="88" rx="16" class="body letters"/>` +
    art("letters", face, 50, 50, 78);
}

function cup() {
  // a closed dice cup seen from the side: the die under it is rolled but not shown
  return `<path d="M22 20 H78 L70 92 H30 Z" class="cup"/>` +
    `<ellipse cx="50" cy="20" rx="28" ry="7" class="cup-rim"/>` +
    `<text x="50" y="70" class="cup-mark">?</text>`;
}

const KINDS = { "d6": d6, "d12": d12, "d8-tauren": d8, "letters": letter };

// One die as an SVG element's text; `size` in CSS pixels (the page's CSS may scale it).
function drawDie(die, size) {
  const draw = die.face === null || die.face === undefined ? cup : KINDS[die.kind];
  const label = die.face === null ? `sealed ${die.kind}` : `${die.kind} ${die.face}`;
  const state = die.state ? ` state-${die.state}` : "";
  // a seat's own dice are edged in the seat's registered colour (only #rrggbb reaches here)
  const colour = /^#[0-9a-f]{6}$/i.test(die.colour || "") ? die.colour : "";
  const paint = colour ? ` coloured" style="--die:${colour}` : "";
  return `<svg class="die${state}${paint}" viewBox="0 0 100 100" width="${size}" height="${size}" ` +
    `role="img" aria-label="${label}" data-kind="${die.kind}" data-face="${die.face ?? ""}" ` +
    `data-colour="${colour}">` +
    `<title>${label}${die.state ? " (" + die.state + ")" : ""}</title>${draw(die.face ?? "")}</svg>`;
}

window.drawDie = drawDie;
