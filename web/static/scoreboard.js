// The scoreboard: draws the table's public document (GET /api/state, then every event of
// /api/stream) exactly as the view says; it never asks which game it shows.
"use strict";

const body = document.body;
const SHOWDOWN_MS = Number(body.dataset.showdownMs || 6000);
const $ = (id) => document.getElementById(id);
const esc = (text) => String(text ?? "").replace(/[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
// a command the table's sentence quotes for its terminal (`dicetable doctor`), as code: escaped first
const code = (html) => html.replace(/`([^`]+)`/g, "<code>$1</code>");

// What the tests (and a curious person at the console) can read: every event id seen, in order.
const live = window.dicetable = { seq: null, seen: [], renders: 0, connected: false };
let shownResult = null;
let showdownTimer = null;

const capital = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);

// A fact that lists ("Matches won": "Ann 0, Bo 1") breaks a line only after a comma: each item's
// last word (its count) stays beside the word before it (a name); a phone showed "Eve" at the end
// of a line and her 0 under it, beside the next name
const unbroken = (value) => String(value).split(", ")
  .map((item) => item.replace(/ (\S+)$/, "\u00a0$1")).join(", ");

function holding(h) {
  return h.unit === "chips"
    ? `<span class="chips" title="${h.count} chips"><i class="chip"></i>${h.count}</span>`
    : `<span class="stones ${esc(h.unit)}" title="${h.count} ${esc(h.unit)} stones">` +
      `<i class="stone ${esc(h.unit)}"></i>${h.count}</span>`;
}

function holdings(list) {
  return (list || []).filter((h) => h.count > 0).map(holding).join(" ");
}

// a seat's stack: what it holds, or its first unit at 0 (a Tao Dice seat playing on with no
// stones, a hold'em seat all in), never an empty line that leaves the room guessing
function stack(list) {
  return holdings(list) || (list || []).slice(0, 1).map(holding).join("");
}

function dice(list, size) {
  return (list || []).map((die) => drawDie(die, size)).join("");
}

function seatName(state, seat) {
  const found = state.view.seats.find((s) => s.seat === seat);
  return found ? found.name : `Seat ${seat}`;
}

function renderSeat(seat, view, colours) {
  const prompt = view.awaited.prompt === seat.seat;
  const acting = (view.awaited.seats || []).includes(seat.seat);
  const colour = colours[seat.seat] ?
    ` style="--seat:${esc(colours[seat.seat])};--seat-edge:${edgeOf(colours[seat.seat])}"` : "";
  const marks = (seat.marks || []).map((m) => `<span class="mark">${esc(m)}</span>`).join("");
  const bet = seat.bet && seat.bet.length ? ` <span class="bet">bet ${holdings(seat.bet)}</span>` : "";
  return `<div class="seat status-${esc(seat.status)}${prompt ? " prompt" : ""}${acting ? " acting" : ""}"` +
    ` data-seat="${seat.seat}"${colour}>` +
    `<div class="name">${esc(seat.name)}</div>` +
    `<div class="seat-status">${esc(seat.status.replace("-", " "))} ${marks}</div>` +
    `<div class="stack">${stack(seat.stack)}${bet}</div>` +
    `<div class="seat-dice">${dice(seat.dice, 64)}</div></div>`;
}

function renderStatus(state) {
  const box = $("status");
  const words = {
    paused: ["Paused", state.problem],
    fault: ["Table fault", `${state.problem}${state.fix ? " — " + state.fix : ""}`],
    question: [state.question && state.question.players ? "Look at the tray"
      : "The dealer is checking the dice", state.question ? state.question.text : ""],
    over: ["Game over", ""],
  }[state.status];
  box.hidden = !words;
  box.className = `status-${state.status}`;
  box.innerHTML = words ? `<strong>${esc(words[0])}</strong> ${code(esc(words[1]))}` : "";
}

// a pot says what it holds as a stack does: at 0 before the first ante, not a bare "Pot"
function renderPots(view) {
  return (view.pots || []).map((pot) =>
    `<div class="pot"><span class="pot-name">${esc(pot.name)}</span> ${stack(pot.amount)}</div>`).join("");
}

function renderChart(chart) {
  $("chart-box").hidden = !chart.length;
  $("chart").innerHTML = chart.filter((row) => row.rolls > 0).map((row) =>
    `<tr><td>${esc(capital(row.hand))}</td><td class="num">${(100 * row.probability).toFixed(row.probability < 0.01 ? 3 : 1)}%</td>` +
    `<td class="one-in">1 in ${row.probability ? Math.round(1 / row.probability).toLocaleString() : "—"}</td></tr>`).join("");
}

function renderOdds(state, odds) {
  $("odds-box").hidden = !odds.length;
  $("odds").innerHTML = odds.map((o) =>
    `<li><span class="who">${esc(seatName(state, o.seat))}</span>` +
    `<span class="bar"><i style="width:${(100 * o.equity).toFixed(1)}%"></i></span>` +
    `<span class="num">${(100 * o.win).toFixed(1)}%${o.tie > 0.0005 ? ` <small>tie ${(100 * o.tie).toFixed(1)}%</small>` : ""}</span></li>`).join("");
}

// Nobody scrolls a TV: the showdown box goes under the header, then all it holds shrinks alike,
// a step at a time, only while some of it (last, the sentence saying who won what) is hidden;
// a few hands keep their full size, or nearly (four hands and five community dice: 0.75, in the
// box docked beside the seats). Below SMALLEST_FIT it would no longer read from across the room,
// so the box scrolls instead. A TV that changes resolution, or a window resized, fits it again
// (the box's height follows the screen, and so does all it holds, sized in rem). A phone, read
// in the hand, scrolls sooner: none of the box's words goes below PHONE_PX (ten hands fitted to
// its screen were 13.6 px, the closing sentence 12.7, where a thumb scrolls the box).
const SMALLEST_FIT = 0.5;
const PHONE_PX = 14;

function fitShowdown(box) {
  // under the header's lower edge on the screen, or at the screen's top where a phone has
  // scrolled the header away (under its edge, the box's headline lay above the screen)
  box.style.setProperty("--header", `${Math.max(0, $("top").getBoundingClientRect().bottom)}px`);
  let fit = 1;
  layHands(box, fit);
  const least = PHONE.matches ? Math.max(SMALLEST_FIT, PHONE_PX / smallestWords(box)) : SMALLEST_FIT;
  while (box.scrollHeight > box.clientHeight && fit > least) {
    fit = Math.max(least, Math.round(100 * fit - 5) / 100);
    layHands(box, fit);
  }
}

// The font size (CSS pixels) of the box's smallest words; all of them are sized in em of the
// box's font, so they shrink alike with it.
const smallestWords = (box) => Math.min(...[...box.querySelectorAll("h2, p, .who, .hand, .won")]
  .map((part) => parseFloat(getComputedStyle(part).fontSize)));

// The hands at size `fit`, in as many rows as they need, and those rows even (ten hands as 4, 3
// and 3, or 3, 4 and 3, never 4, 4 and 2; four as 2 and 2) where they fit: even rows never cost
// the dice a size, and may save one. They are as many as the fullest row of the cards that wrap
// as they came makes them, or as many as those rows: cards of their own widths pair unevenly
// (ten hands docked beside the board wrapped as 2, 2, 1, 2, 1, 1, 1, where five rows of two
// lay in columns). A winner's card is a line taller, so which rows take the extra hand
// matters: each way is tried.
function layHands(box, fit) {
  box.style.setProperty("--fit", fit);
  const hands = box.querySelector(".hands"), cards = [...hands.querySelectorAll(".shown")];
  rowsOf(hands, [cards]);
  const tops = cards.map((card) => card.offsetTop), count = new Set(tops).size;
  if (count < 2) return;
  const fullest = Math.max(...tops.map((top) => tops.filter((other) => other === top).length));
  for (const rows of new Set([Math.ceil(cards.length / fullest), count])) {
    for (const sizes of evenRows(cards.length, rows)) {
      rowsOf(hands, cut(cards, sizes), "even");
      if (fits(box)) return;
    }
  }
  rowsOf(hands, [cards]);
}

// All of the box in sight: nothing under its lower edge, no row of hands wider than the box.
const fits = (box) => box.scrollHeight <= box.clientHeight &&
  [...box.querySelectorAll(".row")].every((row) => row.scrollWidth <= row.clientWidth);

// Every way to put `count` hands in `rows` rows that differ by one hand at most, the longer
// rows first in the first way: 10 in 3 rows as 4 3 3, 3 4 3, then 3 3 4.
function evenRows(count, rows) {
  const short = Math.floor(count / rows), ways = [];
  for (let longer = 2 ** rows - 1; longer >= 0; longer -= 1) {
    const sizes = Array.from({ length: rows }, (_, row) => short + ((longer >> (rows - 1 - row)) & 1));
    if (sizes.reduce((sum, size) => sum + size) === count) ways.push(sizes);
  }
  return ways;
}

function cut(cards, sizes) {
  let end = 0;
  return sizes.map((size) => { end += size; return cards.slice(end - size, end); });
}

function rowsOf(hands, rows, kind = "") {
  hands.replaceChildren(...rows.map((cards) => {
    const row = document.createElement("div");
    row.className = `row ${kind}`.trim();
    row.append(...cards);
    return row;
  }));
}

// The board under the header (the dice on the table, the seats, the log) at full size when it
// fits a wide screen, else all of it shrunk alike, a step at a time, until its lower edge is in
// sight (six seats or more make more rows than a TV shows at full size); smaller seats also lie
// more to a row. Below SMALLEST_BOARD it would no longer read from across the room, so the page
// scrolls instead. A phone scrolls anyway: its board keeps its size.
const SMALLEST_BOARD = 0.6;
const PHONE = matchMedia("(max-width: 760px)");

function fitBoard() {
  const page = document.scrollingElement, root = document.documentElement.style;
  let board = 1;
  root.setProperty("--board", board);
  while (!PHONE.matches && page.scrollHeight > innerHeight && board > SMALLEST_BOARD) {
    board = Math.round(100 * board - 5) / 100;
    root.setProperty("--board", board);
  }
}

// A resize (a window dragged, a TV switching resolution) fits the board and an open box again,
// once a frame; so does a header that changes height under an open box, at once, before the
// frame is drawn: the box, measured only as it opened, lay over the header's new line when a fact
// wrapped to it (the next hand's bet, a long name), and a shorter box must fit its hands again.
function refit() {
  fitBoard();
  const box = $("showdown");
  if (!box.hidden) fitShowdown(box);
}

let refitting = 0;
addEventListener("resize", () => {
  cancelAnimationFrame(refitting);
  refitting = requestAnimationFrame(refit);
});
new ResizeObserver(refit).observe($("top"));

function renderShowdown(state) {
  const result = state.view.result;
  const key = result ? `${state.game_no}/${result.number}` : null;
  if (!result || key === shownResult) return;
  const first = shownResult === null && live.renders === 1;
  shownResult = key;
  if (first) return; // a result already over when the page opened is not news
  const hands = (result.shown || []).map((shown) =>
    `<div class="shown${result.winners.includes(shown.seat) ? " winner" : ""}">` +
    `<div class="who">${esc(seatName(state, shown.seat))}</div><div class="dice">${dice(shown.dice, 72)}</div>` +
    `<div class="hand">${esc(capital(shown.hand))}</div>${holdings(shown.won) ? `<div class="won">wins ${holdings(shown.won)}</div>` : ""}</div>`).join("");
  // the board the hands were made with (hold'em): by the time the box opens the table may be
  // clearing it for the next hand, and the room reads a full house from the hand and the board
  const board = (result.community || []).length ?
    `<div class="board"><span class="who">Board</span><div>${dice(result.community, 72)}</div></div>` : "";
  const box = $("showdown");
  box.innerHTML = `<h2>${esc(result.headline)}</h2>${board}` +
    `<div class="hands">${hands}</div><p>${esc(result.text)}</p>`;
  box.scrollTop = 0; // at its headline: the box kept the place a phone's reader scrolled the last one to
  opened(box, true);
  clearTimeout(showdownTimer);
  showdownTimer = setTimeout(() => opened(box, false), SHOWDOWN_MS);
}

// The box opens docked beside the board, which takes the rest of the screen (body.showdown): the
// board is fitted again to its new width, as the box opens and as it closes.
function opened(box, open) {
  box.hidden = !open;
  body.classList.toggle("showdown", open);
  fitBoard();
  if (open) fitShowdown(box);
  else fadeLog();
}

// A log longer than its box fades out, rather than end on half a line; one drawn while the
// showdown box had its place (no box to measure) is measured again as the box closes.
function fadeLog() {
  const log = $("log");
  log.classList.toggle("more", log.scrollHeight > log.clientHeight);
}

function render(doc) {
  const state = doc.state;
  const view = state.view;
  live.renders += 1;
  live.seq = doc.seq;
  live.state = doc;
  document.title = `${view.title} — dicetable`;
  $("title").textContent = view.title;
  $("number").textContent = `#${view.number} · ${view.phase.replace(/[-_]/g, " ")}`;
  $("facts").innerHTML = (view.facts || []).map((f) =>
    `<li><span class="label">${esc(f.label)}</span> ${esc(unbroken(f.value))}</li>`).join("");
  $("late").hidden = !doc.late;
  $("late").textContent = doc.late ? capital(doc.late) : "";
  renderStatus(state);
  $("awaited").textContent = view.awaited.text || "";
  $("community").innerHTML = dice(view.community, 96);
  $("pots").innerHTML = renderPots(view);
  $("seats").innerHTML = view.seats.map((seat) => renderSeat(seat, view, doc.colours || [])).join("");
  $("log").innerHTML = (state.log || []).slice().reverse().map((line) =>
    `<li data-seq="${line.seq}">${esc(line.text)}</li>`).join("");
  renderChart(doc.chart || []);
  renderOdds(state, doc.odds || []);
  fitBoard();
  fadeLog();
  renderShowdown(state);
}

function connect() {
  // EventSource reconnects by itself and sends Last-Event-ID; if it gives up (a 5xx while the
  // server restarts), open a new one that resumes after the last event seen.
  // The last event id, not the drawn state's seq: a caught-up event carries the state now.
  const last = live.seen.length ? live.seen[live.seen.length - 1] : null;
  const url = body.dataset.streamUrl + (last !== null ? `?after=${last}` : "");
  const source = new EventSource(url);
  const take = (event) => {
    live.connected = true;
    $("link").className = "on";
    if (event.lastEventId) live.seen.push(Number(event.lastEventId));
    render(JSON.parse(event.data));
  };
  source.addEventListener("state", take);
  source.addEventListener("update", take);
  source.onerror = () => {
    live.connected = false;
    $("link").className = "off";
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}

connect();
