// Seat colours from the Okabe-Ito palette (safe for the common colour-vision deficiencies),
// each paired with a letter and a shape so that no information depends on colour alone.

import { hasKey, message, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export const SEATS = [
  { letter: "A", colour: "#0072B2", name: "blue", shape: "circle", dash: "" },
  { letter: "B", colour: "#D55E00", name: "vermillion", shape: "triangle", dash: "6 3" },
  { letter: "C", colour: "#009E73", name: "bluish green", shape: "square", dash: "2 3" },
  { letter: "D", colour: "#CC79A7", name: "reddish purple", shape: "diamond", dash: "8 3 2 3" },
  { letter: "E", colour: "#E69F00", name: "orange", shape: "star", dash: "1 2" },
  { letter: "F", colour: "#56B4E9", name: "sky blue", shape: "cross", dash: "4 4" },
];

export const SHAPE_GLYPHS = { circle: "●", triangle: "▲", square: "■", diamond: "◆", star: "★", cross: "✚" };

export function seatStyle(seat) {
  return SEATS[((seat % SEATS.length) + SEATS.length) % SEATS.length];
}

export function svg(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(element);
  return element;
}

// The seat's shape centred on (x, y) with "radius" r, filled with its colour.
export function seatMarker(parent, seat, x, y, r, extra = {}) {
  const style = seatStyle(seat);
  const common = { fill: style.colour, stroke: "#000", "stroke-width": Math.max(1, r / 6), ...extra };
  switch (style.shape) {
    case "triangle":
      return svg("polygon", { points: `${x},${y - r} ${x + r * 0.94},${y + r * 0.7} ${x - r * 0.94},${y + r * 0.7}`, ...common }, parent);
    case "square":
      return svg("rect", { x: x - r * 0.8, y: y - r * 0.8, width: r * 1.6, height: r * 1.6, ...common }, parent);
    case "diamond":
      return svg("polygon", { points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`, ...common }, parent);
    case "star": {
      const points = [];
      for (let i = 0; i < 10; i += 1) {
        const radius = i % 2 ? r * 0.45 : r;
        const angle = (Math.PI / 5) * i - Math.PI / 2;
        points.push(`${x + radius * Math.cos(angle)},${y + radius * Math.sin(angle)}`);
      }
      return svg("polygon", { points: points.join(" "), ...common }, parent);
    }
    case "cross": {
      const a = r * 0.35;
      const pts = [[-a, -r], [a, -r], [a, -a], [r, -a], [r, a], [a, a], [a, r], [-a, r], [-a, a], [-r, a], [-r, -a], [-a, -a]];
      return svg("polygon", { points: pts.map(([dx, dy]) => `${x + dx},${y + dy}`).join(" "), ...common }, parent);
    }
    default:
      return svg("circle", { cx: x, cy: y, r: r * 0.9, ...common }, parent);
  }
}

// A small inline badge (HTML) for a seat: shape glyph + letter on the seat colour.
export function seatBadge(seat) {
  const style = seatStyle(seat);
  const badge = document.createElement("span");
  badge.className = `seat-badge seat-${seat}`;
  badge.title = t("seat.badge", { letter: style.letter, colour: t(`seat.colour.${style.letter}`), shape: t(`seat.shape.${style.shape}`) });
  badge.textContent = `${SHAPE_GLYPHS[style.shape]} ${style.letter}`;
  return badge;
}

// A bot seat under its default name ("Bot C"; "Bot C (<its spec>)" in games made before) is
// named by its level in the page's language: "Bot C (Strong)"; any other name is the player's.
const DEFAULT_BOT_NAME = /^Bot ([A-F])(?: \((.*)\))?$/;

export function seatName(seat) {
  if (!seat) return "";
  // the one automa there is, Barcelona's solo opponent, goes by its name in the page's language
  if (seat.kind === "automa" && hasKey("bcn.solo.assistant")) return t("bcn.solo.assistant");
  const found = seat.kind === "bot" ? DEFAULT_BOT_NAME.exec(seat.name || "") : null;
  if (!found || (found[2] !== undefined && found[2] !== seat.bot)) return seat.name;
  return t("seat.botName", { letter: found[1], level: botLevel(seat) });
}

// A bot's level in words: the game's level names, "random moves", else "custom" (its spec on hover).
export function botLevel(seat) {
  if (seat.level) return t(`lobby.levels.${seat.level}`);
  return seat.bot === "random" ? t("seat.levelRandom") : t("seat.levelCustom");
}

// The seats with the names the page shows (see seatName); the rest of each seat as it was.
export function namedSeats(seats) {
  if (!Array.isArray(seats)) return seats;
  return seats.map((seat) => (seat && !seat.named ? { ...seat, name: seatName(seat), named: true, letterInName: seatName(seat) !== seat.name } : seat));
}

// "Ana (A)"; a bot's default name has its letter already: "Bot B (Beginner)".
export function nameWithLetter(seat, index) {
  const letter = seatStyle(index).letter;
  if (!seat) return letter;
  return seat.letterInName ? seat.name : `${seat.name} (${letter})`;
}

// A seat's name in a box of its own: shortened with an ellipsis when long, whole on hover (title)
// and on a tap (it opens in place).
export function seatNameBox(seat, tag = "span") {
  const box = document.createElement(tag);
  box.className = "seat-name";
  box.textContent = seat.name;
  box.title = seat.name; // a bot's name already says its level in words; its settings are not for players
  box.addEventListener("click", () => box.classList.toggle("open"));
  return box;
}

// The arguments of engine entries that name seats ("P1", "P2"…). Other arguments may hold the
// same text for something else (The Rose of Fire's influence cards are P1…P9), so only these
// are given the players' names.
const SEAT_ARGUMENTS = new Set(["player", "players", "first", "best", "winners"]);

// An engine entry (or plain text) as words, with the players' names for the seats it names.
export function namedMessage(entry, seats) {
  if (entry && typeof entry === "object" && typeof entry.key === "string") return message(seatsNamed(entry, seats));
  return withNames(message(entry), seats);
}

function seatsNamed(entry, seats) {
  const args = {};
  for (const [name, value] of Object.entries(entry.args || {})) args[name] = argumentNamed(name, value, seats);
  return { ...entry, args };
}

function argumentNamed(name, value, seats) {
  if (Array.isArray(value)) return value.map((item) => argumentNamed(name, item, seats));
  if (value && typeof value === "object" && typeof value.key === "string") return seatsNamed(value, seats);
  return SEAT_ARGUMENTS.has(name) && typeof value === "string" ? withNames(value, seats) : value;
}

// Plain texts name seats "P1", "P2"…: the page shows the players' names instead.
export function withNames(text, seats) {
  return String(text).replace(/\bP([1-9])\b/g, (whole, number) => {
    const entry = (seats || []).find((seat) => seat && seat.seat === Number(number) - 1);
    return entry && entry.name ? entry.name : whole;
  });
}
