// Dice drawn as they look on the table: pips on a d6 and on the Tauren d8's 2-6, numerals on a
// d12, the Tauren Warrior, Chieftain and Shaman as symbols, the DiceHoldem letters, and a sealed
// die (rolled, not revealed) as a closed cup. One function per kind; the page never asks which
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

function d12(face) {
  const mark = face === "6" || face === "9" ? `<line x1="38" y1="80" x2="62" y2="80" class="ink-line"/>` : "";
  return `<polygon points="50,4 96,38 78,94 22,94 4,38" class="body d12"/>` +
    `<text x="50" y="70" class="numeral${face.length > 1 ? " two" : ""}">${face}</text>` + mark;
}

const TAUREN = {
  // Warrior: two crossed swords
  W: `<g class="symbol"><line x1="32" y1="44" x2="68" y2="84"/><line x1="68" y1="44" x2="32" y2="84"/>` +
     `<line x1="36" y1="72" x2="46" y2="62"/><line x1="64" y1="72" x2="54" y2="62"/></g>`,
  // Chieftain: a crown
  C: `<polygon points="30,82 30,52 40,64 50,46 60,64 70,52 70,82" class="symbol-fill"/>`,
  // Shaman: a crescent moon and a star
  S: `<path d="M58 46 A20 20 0 1 0 58 84 A15 15 0 1 1 58 46 Z" class="symbol-fill"/>` +
     `<circle cx="64" cy="58" r="4" class="symbol-fill"/>`,
};

function d8(face) {
  const body = `<polygon points="50,4 97,92 3,92" class="body d8"/>`;
  return body + (TAUREN[face] || pips(Number(face), 0.42, 50, 66, 5.2));
}

function letter(face) {
  return `<rect x="6" y="6" width="88" height="88" rx="16" class="body letters"/>` +
    `<text x="50" y="72" class="letter">${face}</text>`;
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
