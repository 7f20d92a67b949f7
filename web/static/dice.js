// Dice drawn as they look on the table: pips on a d6; the d12 numerals, the Tauren d8 (pips 2-6,
// the Warrior, Chieftain and Shaman pictures) and the DiceHoldem letters as the printable face art
// draws them (vision.face_art, served as /faces.js); a sealed die (rolled, not revealed) as a
// closed cup. One entry per kind (KINDS); the page never asks which
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

const SQUARE = `rect x="6" y="6" width="88" height="88" rx="16"`;

// Each kind of die: its outline (an SVG element), its body's class and its face's ink; a sealed
// die (rolled, not revealed) is a closed dice cup seen from the side.
const KINDS = {
  "d6": { shape: SQUARE, body: "body d6", ink: (face) => pips(Number(face), 1, 50, 50, 8.5) },
  "d12": { shape: `polygon points="50,4 96,38 78,94 22,94 4,38"`, body: "body d12",
    ink: (face) => art("d12", face, 50, 55, 64) },
  "d8-tauren": { shape: `polygon points="50,4 97,92 3,92"`, body: "body d8",
    ink: (face) => art("d8-tauren", face, 50, 63, 60) },
  "letters": { shape: SQUARE, body: "body letters", ink: (face) => art("letters", face, 50, 50, 78) },
};
const CUP = { shape: `path d="M22 20 H78 L70 92 H30 Z"`, body: "cup",
  ink: () => `<ellipse cx="50" cy="20" rx="28" ry="7" class="cup-rim"/>` +
    `<text x="50" y="70" class="cup-mark">?</text>` };

// A die's state (DieView.state) as a mark in its top right corner, clear of the face: a disc in
// the state's colour with a sign in it, a tick (protected) or a turning arrow (to be thrown
// again). The state's colour on the die's edge was covered by a seat's band of colour: only the
// dashes of a reroll showed, and a green seat's die looked protected. The sign tells the two
// states apart without their colours, red and green, which many cannot.
const TURN = `<path d="M5 -2.5 A5.5 5.5 0 1 0 5.5 2.5" class="sign"/>` +
  `<path d="M1.5 -3.5 L6.5 -2 L7 -7.5 Z" class="sign-head"/>`;
const SIGNS = { "protect": `<path d="M-5.5 0 L-1.5 4 L5.5 -4" class="sign"/>`, "reroll": TURN,
  "reroll-due": TURN };

// over the die's corner, a quarter of the die across: clear of every pip a d6 has, and, half its
// size inside the corner, a blur on a phone's 39 px die
const mark = (state) => (SIGNS[state] ? `<g class="state-mark" transform="translate(92 8) scale(1.25)">` +
  `<circle r="11"/>${SIGNS[state]}</g>` : "");

// The shade a seat's colour stands out from most: the pips' near-black or the board's ink. A
// seat's dice are edged in it on both sides of their band of colour, as the seat's place is: a
// white band ran into the white die, a near-black one into the dark felt (contrast 1.1 and 1.3).
const SHADES = ["#1c1c1c", "#f4f1e8"];

function luminance(hex) {
  const linear = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = [1, 3, 5].map((at) => linear(parseInt(hex.slice(at, at + 2), 16) / 255));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(one, other) {
  const [dark, light] = [luminance(one), luminance(other)].sort((a, b) => a - b);
  return (light + 0.05) / (dark + 0.05);
}

const edgeOf = (colour) => SHADES.reduce((best, shade) =>
  (contrast(colour, shade) > contrast(colour, best) ? shade : best));

// One die as an SVG element's text; `size` in CSS pixels (the page's CSS may scale it).
function drawDie(die, size) {
  const sealed = die.face === null || die.face === undefined, draw = sealed ? CUP : KINDS[die.kind];
  const label = die.face === null ? `sealed ${die.kind}` : `${die.kind} ${die.face}`;
  const state = die.state ? ` state-${die.state}` : "";
  // a seat's own dice are edged in the seat's registered colour (only #rrggbb reaches here)
  const colour = /^#[0-9a-f]{6}$/i.test(die.colour || "") ? die.colour : "";
  const paint = colour ? ` coloured" style="--die:${colour};--die-edge:${edgeOf(colour)}` : "";
  const band = colour ? `<${draw.shape} class="band"/>` : "";
  return `<svg class="die${state}${paint}" viewBox="0 0 100 100" width="${size}" height="${size}" ` +
    `role="img" aria-label="${label}" data-kind="${die.kind}" data-face="${die.face ?? ""}" ` +
    `data-colour="${colour}">` +
    `<title>${label}${die.state ? " (" + die.state + ")" : ""}</title>` +
    `<${draw.shape} class="${draw.body}"/>${band}${draw.ink(die.face ?? "")}${mark(die.state)}</svg>`;
}

window.drawDie = drawDie;
