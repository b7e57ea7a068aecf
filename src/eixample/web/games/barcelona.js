// Board renderer for Barcelona. One SVG holds the whole table: the city (streets, crossings,
// blocks, trams, passengers, Building Bonus tiles and the Action tiles at the street ends), the
// information strip (round, scores, bag), the Cerdà track and Cerdà Scoring tiles, the side board
// (Modernisme offer, Public Services, Sidewalk, Sagrada Família offer), the three Citizen tracks
// and every player board; in a solo game also a panel for Gaudí's Assistant (its card, meeple, score
// with the difficulty multiplier and, at the end, the result) and its meeple in the city.
//
// Everything comes from the view: tiles named only by id (on the player boards) from its catalogue
// `tiles`, the printed VP rows of the player boards (what the next cobblestone or passenger would
// score) from `player_board`, and the crossing or building space the pending decision is about,
// ringed, from `decision_target`. `resultSummary(view, {seat, seats})` words a finished solo game's
// result for the page shell.
//
// Legal actions whose target is on the table are drawn as clickable elements carrying
// data-action="<action text>": crossings (place, intersection), street spaces (street, tram),
// Sidewalk spaces (cobble), building spaces (build), Modernisme offer tiles and project spaces
// (take, improve), Public Services (service), Sagrada Família tiles (sagrada) and the Action tiles
// at the street ends (act). Two of them take two clicks: a Modernisme tile, then the project space
// ("take MT07 into 2"); a building space allowing several Building types opens a small panel with
// one button per type. Everything else is left to the page's buttons.
//
// Colours: players use the shared Okabe-Ito seat colours with their shape and letter; citizens are
// yellow W, sky-blue M and black U discs, always lettered.

import { hasKey, t } from "../js/i18n.js";
import { actionTarget, activate, beginDrawing, boardFrame, boardOrder, group, inkFor, seatNames, stepTarget, text, tip, TwoStepChoice, viewerOf } from "../js/draw.js";
import { seatMarker, seatStyle, svg } from "../js/players.js";
import { actionWords, decisionHelp as helpFor, groupWords } from "./barcelona-words.js";

// -- geometry ------------------------------------------------------------------------------------

const W = 1000;
const PITCH = 104; // distance between two crossings
const X0 = 58; // x of column 0 of crossings
const Y0 = 84; // y of row 0 of crossings
const CROSS_R = 19; // "radius" of a crossing octagon
const RIGHT = 604; // left edge of the right-hand column
const TRACKS_Y = 600;
const BOARDS_Y = 752;
const BOARD_W = 490;
const BOARD_H = 300;
const cx = (c) => X0 + c * PITCH;
const cy = (r) => Y0 + r * PITCH;

// -- names and colours ---------------------------------------------------------------------------

const CITIZEN_STYLE = {
  W: { fill: "#F0E442", ink: "#000" },
  M: { fill: "#56B4E9", ink: "#000" },
  U: { fill: "#262626", ink: "#fff" },
};

// A citizen kind's colours and name (CITIZENS[kind].name, .track), in the page's language.
const CITIZENS = new Proxy(CITIZEN_STYLE, {
  get(styles, kind) {
    if (typeof kind !== "string" || !styles[kind]) return undefined;
    return { ...styles[kind], name: t(`bcn.citizen.${kind}`), track: t(`bcn.citizenTrack.${kind}`) };
  },
});

const ACTION_FILLS = {
  cloth_or_coins: "#f6e7b0",
  cobblestone: "#d9d6cf",
  streets: "#e8d5bd",
  intersection: "#f3cfc3",
  improve_modernisme: "#dcd0ee",
  take_modernisme: "#e9d5ea",
  public_service: "#cfe4d6",
  tram: "#cfe0ef",
};

// An action kind's label and short label, in the page's language.
function actionInfo(kind) {
  if (!ACTION_FILLS[kind]) return { label: kind, short: kind, fill: "#eee" };
  return { label: t(`bcn.action.${kind}`), short: t(`bcn.actionShort.${kind}`), fill: ACTION_FILLS[kind] };
}

const BUILDING_STYLE = {
  corner: { fill: "#c58c5c", ink: "#000" },
  L1: { fill: "#ecd2a2", ink: "#000" },
  L2: { fill: "#d99660", ink: "#000" },
  L3: { fill: "#8f4a2e", ink: "#fff" },
};

// A Building type's label and short label, in the page's language (BUILDINGS[type] as before).
const BUILDINGS = new Proxy(BUILDING_STYLE, {
  get(styles, type) {
    if (typeof type !== "string" || !styles[type]) return undefined;
    return { ...styles[type], label: t(`bcn.building.${type}`), short: t(`bcn.buildingShort.${type}`) };
  },
});

const SECTIONS = new Proxy([], {
  get(_, index) {
    return ["0", "1", "2"].includes(String(index)) ? t(`bcn.section.${index}`) : undefined;
  },
});

// Short wordings of the scoring conditions for the small tile faces; a tile's full text (from the
// view) is in its tooltip, and a condition missing here shows that text.
const CONDITIONS = new Proxy({}, {
  get(_, condition) {
    const key = `bcn.condition.${String(condition)}`;
    return hasKey(key) ? t(key) : undefined;
  },
});


const SERVICE_SHORT = new Proxy({}, {
  get(_, id) {
    const key = `bcn.serviceShort.${String(id)}`;
    return hasKey(key) ? t(key) : undefined;
  },
});

const SERVICE_EFFECTS = new Proxy({}, {
  get(_, effect) {
    const key = `bcn.serviceEffect.${String(effect)}`;
    return hasKey(key) ? t(key) : undefined;
  },
});

// A Modernisme or Cerdà tile's words: "<vp> VP <condition>" from the catalog, else the view's text.
function tileText(tile) {
  const condition = CONDITIONS[tile.condition];
  return condition ? `${tile.vp} ${t("bcn.vp")} ${condition}` : tile.text || "";
}

const tr = t; // for functions that name a local `t` (a tile's group)

// -- state kept between redraws -------------------------------------------------------------------

// a Modernisme tile picked before its project space, a building space before its Building type
const choice = new TwoStepChoice({
  take: { legal: "take", selected: /^take (\S+) into \d+$/, evenForOne: true },
  buildSpace: { legal: "build", selected: /^build \S+ (\S+)$/ },
}, new URL("../css/barcelona.css", import.meta.url).href, (...call) => render(...call));
const local = choice.local;

// -- small drawing helpers ------------------------------------------------------------------------

function octagon(x, y, r) {
  const points = [];
  for (let i = 0; i < 8; i += 1) {
    const angle = (Math.PI / 4) * i + Math.PI / 8;
    points.push(`${(x + r * Math.cos(angle)).toFixed(1)},${(y + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function tint(seat, alpha = "26") {
  return `${seatStyle(seat).colour}${alpha}`;
}

// A player's piece: their shape in their colour, with their letter on it.
function seatToken(parent, seat, x, y, r, extra = {}) {
  const g = group(parent, { class: "seat-token" });
  seatMarker(g, seat, x, y, r, extra);
  const style = seatStyle(seat);
  const lift = style.shape === "triangle" ? r * 0.18 : 0;
  text(g, x, y + lift + r * 0.38, style.letter, {
    class: "tok-letter",
    "font-size": (r * 1.05).toFixed(1),
    fill: inkFor(seat),
  });
  return g;
}

function citizenDisc(parent, kind, x, y, r) {
  const info = CITIZENS[kind] || { fill: "#999", ink: "#000", name: kind };
  const g = group(parent, { class: `citizen citizen-${kind}` });
  svg("circle", { cx: x, cy: y, r, fill: info.fill, stroke: "#000", "stroke-width": 1.2 }, g);
  text(g, x, y + r * 0.4, kind, { class: "tok-letter", "font-size": (r * 1.1).toFixed(1), fill: info.ink });
  return g;
}

function coin(parent, x, y, r, n) {
  const g = group(parent, { class: "coin" });
  svg("circle", { cx: x, cy: y, r, fill: "#f3c13a", stroke: "#7a5a00", "stroke-width": 1 }, g);
  text(g, x, y + r * 0.4, n, { class: "chip-text", "font-size": (r * 1.15).toFixed(1) });
  return g;
}

function cloth(parent, x, y, r, n) {
  const g = group(parent, { class: "cloth" });
  svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: r * 0.25, fill: "#b99ddd", stroke: "#4d3a73", "stroke-width": 1 }, g);
  text(g, x, y + r * 0.4, n, { class: "chip-text", "font-size": (r * 1.15).toFixed(1) });
  return g;
}

// -- benefits -------------------------------------------------------------------------------------

function benefitParts(benefit) {
  if (!benefit) return [];
  const parts = [];
  if (benefit.coin) parts.push(["coin", benefit.coin]);
  if (benefit.cloth) parts.push(["cloth", benefit.cloth]);
  if (benefit.resource) parts.push(["resource", benefit.resource]);
  if (benefit.vp) parts.push(["vp", benefit.vp]);
  if (benefit.cerda) parts.push(["cerda", benefit.cerda]);
  if (benefit.sagrada) parts.push(["sagrada", benefit.sagrada]);
  if (benefit.action) parts.push(["action", benefit.action]);
  return parts;
}

function benefitText(benefit) {
  if (!benefit) return t("bcn.benefit.nothing");
  return benefitParts(benefit)
    .map(([kind, n]) => (kind === "action" ? t("bcn.benefit.action", { action: actionInfo(n).label }) : t(`bcn.benefit.${kind}`, { count: n })))
    .join(", ");
}

// What something costs, in words with their plural forms: "1 coin", "2 coins and 1 cloth", "free".
export function priceText(coin, cloth = 0) {
  const coins = t("bcn.price.coin", { count: coin });
  const clothes = t("bcn.price.cloth", { count: cloth });
  if (coin && cloth) return t("bcn.price.both", { coin: coins, cloth: clothes });
  return coin ? coins : cloth ? clothes : t("bcn.tip.free");
}

function partWidth(kind, s) {
  if (kind === "coin" || kind === "cloth") return 14 * s;
  if (kind === "resource") return 16 * s;
  if (kind === "vp") return 24 * s;
  if (kind === "cerda" || kind === "sagrada") return 24 * s;
  return 32 * s;
}

// The printed benefit as a row of chips centred on (x, y); s scales it. Returns its width.
function drawBenefit(parent, x, y, benefit, s = 1) {
  const parts = benefitParts(benefit);
  if (!parts.length) return 0;
  const gap = 2 * s;
  const total = parts.reduce((sum, [kind]) => sum + partWidth(kind, s), 0) + gap * (parts.length - 1);
  const g = tip(group(parent, { class: "benefit" }), benefitText(benefit));
  let left = x - total / 2;
  for (const [kind, n] of parts) {
    const w = partWidth(kind, s);
    const mid = left + w / 2;
    const h = 14 * s;
    if (kind === "coin") coin(g, mid, y, 7 * s, n);
    else if (kind === "cloth") cloth(g, mid, y, 6.5 * s, n);
    else if (kind === "resource") {
      svg("rect", { x: left, y: y - h / 2, width: w, height: h, rx: 3 * s, fill: "url(#bcn-resource)", stroke: "#4d3a73", "stroke-width": 1 }, g);
      text(g, mid, y + 4 * s, n, { class: "chip-text", "font-size": 10 * s });
    } else if (kind === "vp") {
      svg("rect", { x: left, y: y - h / 2, width: w, height: h, rx: 3 * s, fill: "#263238" }, g);
      text(g, mid, y + 3.6 * s, t("bcn.vpChip", { vp: n }), { class: "chip-text light", "font-size": 8.5 * s });
    } else if (kind === "cerda") {
      svg("rect", { x: left, y: y - h / 2, width: w, height: h, rx: 7 * s, fill: "#dbe8f5", stroke: "#1f4e79", "stroke-width": 1 }, g);
      text(g, mid, y + 3.6 * s, `C+${n}`, { class: "chip-text", "font-size": 8.5 * s, fill: "#1f4e79" });
    } else if (kind === "sagrada") {
      svg("rect", { x: left, y: y - h / 2, width: w, height: h, rx: 7 * s, fill: "#f1e2bd", stroke: "#7a5a1e", "stroke-width": 1 }, g);
      text(g, mid, y + 3.6 * s, `SF+${n}`, { class: "chip-text", "font-size": 8 * s, fill: "#5a4010" });
    } else {
      const info = actionInfo(n);
      svg("rect", { x: left, y: y - h / 2, width: w, height: h, rx: 2 * s, fill: info.fill, stroke: "#555", "stroke-width": 1 }, g);
      text(g, mid, y + 3.3 * s, info.short, { class: "chip-text", "font-size": 8.6 * s });
    }
    left += w + gap;
  }
  return total;
}

// -- legal actions ---------------------------------------------------------------------------------

const TARGETS = {
  sets: ["place", "intersection", "street", "tram", "cobble", "improve", "service", "sagrada"],
  maps: {
    build: (words) => words.length === 3 && [words[2], words[1]], // space -> [types]
    take: (words) => words.length === 4 && words[2] === "into" && [words[1], Number(words[3])], // tile -> [space numbers]
    act: (words, action) => words.length === 3 && [words[1], action], // street -> [action text]
  },
};

// A clickable element playing `action` (only if it is legal now).
function target(ctx, parent, action, tag, attrs, label) {
  const words = actionLabel(action);
  return actionTarget(ctx, parent, action, tag, attrs, label ? `${words}: ${label}` : words, label ? `${words} — ${label}` : words);
}

// -- entry point ----------------------------------------------------------------------------------

export function render(root, view, options = {}) {
  const ctx = beginDrawing(choice, root, view, options, { prefix: "bcn", targets: TARGETS });
  const { viewer, buildSpace } = ctx;
  const players = view.player_list || [];
  const rows = Math.ceil(players.length / 2);
  const boardsY = BOARDS_Y + (view.solo ? 78 : 0);
  const height = boardsY + rows * (BOARD_H + 8) + 4;
  boardFrame(root, choice, { prefix: "bcn", width: W, height, label: describe(view, ctx.names), defs: drawDefs });
  drawCity(ctx, group(root, { class: "bcn-city" }));
  drawInfo(ctx, group(root, { class: "bcn-info" }));
  drawCerdaTrack(ctx, group(root, { class: "bcn-cerda" }));
  drawCerdaTiles(ctx, group(root, { class: "bcn-cerda-tiles" }));
  drawOffer(ctx, group(root, { class: "bcn-modernisme-offer" }));
  drawServices(ctx, group(root, { class: "bcn-services" }));
  drawSidewalk(ctx, group(root, { class: "bcn-sidewalk" }));
  drawSagradaOffer(ctx, group(root, { class: "bcn-sagrada-offer" }));
  drawTracks(ctx, group(root, { class: "bcn-tracks" }));
  if (view.solo) drawSolo(ctx, group(root, { class: "bcn-solo" }), BOARDS_Y);
  const order = boardOrder(players.length, viewer);
  order.forEach((index, k) => {
    const x = 6 + (k % 2) * (BOARD_W + 8);
    const y = boardsY + Math.floor(k / 2) * (BOARD_H + 8);
    drawPlayerBoard(ctx, players[index], x, y);
  });
  if (buildSpace) drawBuildChoice(ctx, group(root, { class: "bcn-choice" }), buildSpace);
  return Array.from(ctx.handled);
}

// The parts of the table a small screen shows one at a time (js/viewport.js): the city, the side
// board, the Citizen tracks and each player board, the viewer's first.
export function regions(view, { seat = null, seats = [] } = {}) {
  const players = view.player_list || [];
  const viewer = viewerOf(view, seat);
  const boardsY = BOARDS_Y + (view.solo ? 78 : 0);
  const names = seatNames(view, seats);
  const list = [
    { id: "city", label: t("barcelona.region.city"), box: [0, 0, RIGHT, TRACKS_Y] },
    { id: "side", label: t("barcelona.region.side"), box: [RIGHT - 4, 0, W - RIGHT + 4, TRACKS_Y] },
    { id: "tracks", label: t("barcelona.region.tracks"), box: [0, TRACKS_Y - 4, W, boardsY - TRACKS_Y + 4] },
  ];
  boardOrder(players.length, viewer).forEach((index, k) => {
    const x = 6 + (k % 2) * (BOARD_W + 8);
    const y = boardsY + Math.floor(k / 2) * (BOARD_H + 8);
    list.push({ id: `board-${index}`, label: t("barcelona.region.board", { name: names[index] }), box: [x - 4, y - 4, BOARD_W + 8, BOARD_H + 8] });
  });
  return list;
}

// The page's words for an action text, a group of buttons and the pending decision.
export function actionLabel(action, context = {}) {
  return benefitsLabel(action, context) || actionWords(action) || action;
}

// "benefits 1+3" names the chooser's Intersection slots: said with the benefits printed there.
function benefitsLabel(action, { view = null, seat = null } = {}) {
  const match = /^benefits ([\d+]+)$/.exec(action);
  if (!match || !view) return null;
  const viewer = viewerOf(view, seat);
  const slots = viewer === null ? null : ((view.player_list || [])[viewer] || {}).intersections;
  if (!Array.isArray(slots)) return null;
  const numbers = match[1].split("+");
  const benefits = numbers.map((n) => slots[Number(n) - 1]).filter(Boolean).map((slot) => benefitText(slot.benefit));
  if (benefits.length !== numbers.length) return null;
  return t("bcn.do.benefitsOf", { benefits: benefits.join("; "), list: numbers.join(", ") });
}

export function groupLabel(word) {
  return groupWords(word);
}

export function decisionHelp(view) {
  return helpFor(view && view.decision_kind);
}

// A tile named only by its id (on a player board), from the view's catalogue of the game's tiles.
function catalogueTile(view, kind, id) {
  const tiles = (view.tiles && view.tiles[kind]) || {};
  return Object.prototype.hasOwnProperty.call(tiles, id) ? tiles[id] : null;
}

function describe(view, names) {
  const scores = (view.scores || []).map((vp, seat) => `${names[seat] || seatStyle(seat).letter} (${seatStyle(seat).letter}) ${vp} ${t("bcn.vp")}`);
  // the decision itself is read from the page (#decision), in the page's language: the view's
  // own text of it is the engine's English
  return t("bcn.describe", { round: view.round, scores: scores.join(", "), decision: "" }).trim();
}

function drawDefs(root) {
  const defs = svg("defs", {}, root);
  const gradient = svg("linearGradient", { id: "bcn-resource", x1: 0, x2: 1, y1: 0, y2: 0 }, defs);
  svg("stop", { offset: "50%", "stop-color": "#f3c13a" }, gradient);
  svg("stop", { offset: "50%", "stop-color": "#b99ddd" }, gradient);
  const park = svg("pattern", { id: "bcn-park", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, defs);
  svg("rect", { width: 8, height: 8, fill: "#d5e6c3" }, park);
  svg("circle", { cx: 2, cy: 2, r: 1.1, fill: "#b7d19c" }, park);
  svg("circle", { cx: 6, cy: 6, r: 1.1, fill: "#b7d19c" }, park);
  const stone = svg("pattern", { id: "bcn-stone", width: 10, height: 10, patternUnits: "userSpaceOnUse" }, defs);
  svg("rect", { width: 10, height: 10, fill: "#a8a39a" }, stone);
  svg("path", { d: "M0 5 H10 M5 0 V5 M2 5 V10", stroke: "#8b867d", "stroke-width": 1 }, stone);
}

// About how wide a text of `size` px is drawn: CJK characters are square, others about 0.62 em
// (a text that must not run over is then squeezed to its room, measured: `data-fit`).
function textWidth(content, size) {
  let width = 0;
  for (const character of String(content)) width += character.codePointAt(0) >= 0x2e80 ? size : size * 0.62;
  return width;
}

function panel(parent, x, y, w, h, title, note = "") {
  svg("rect", { x, y, width: w, height: h, rx: 7, class: "bcn-panel" }, parent);
  if (title) text(parent, x + 8, y + 14, title, { class: "panel-title" });
  if (!note) return;
  const room = w - 16 - (title ? textWidth(title, 11.5) + 10 : 0);
  text(parent, x + w - 8, y + 14, note, { class: "panel-note", "text-anchor": "end", "data-fit": Math.round(room) });
}

// -- the city ----------------------------------------------------------------------------------------

function streetWidth(city, id) {
  const street = (city.streets || []).find((s) => s.id === id);
  return street && street.width === "wide" ? 24 : 14;
}

// Centre, direction and length of a street space.
function spaceGeometry(id) {
  let match = /^V(\d)\.(\d)$/.exec(id);
  if (match) {
    const c = Number(match[1]);
    const r = Number(match[2]);
    return { x: cx(c), y: (cy(r) + cy(r + 1)) / 2, angle: 90, length: PITCH - 2 * CROSS_R - 4 };
  }
  match = /^H(\d)\.(\d)$/.exec(id);
  if (match) {
    const r = Number(match[1]);
    const c = Number(match[2]);
    return { x: (cx(c) + cx(c + 1)) / 2, y: cy(r), angle: 0, length: PITCH - 2 * CROSS_R - 4 };
  }
  match = /^D\.(\d)$/.exec(id);
  if (match) {
    const i = Number(match[1]);
    return { x: (cx(i) + cx(i + 1)) / 2, y: (cy(i) + cy(i + 1)) / 2, angle: 45, length: PITCH * Math.SQRT2 - 2 * CROSS_R - 6 };
  }
  return null;
}

function along(geometry, distance) {
  const a = (geometry.angle * Math.PI) / 180;
  return [geometry.x + distance * Math.cos(a), geometry.y + distance * Math.sin(a)];
}

function crossingPoint(id) {
  const match = /^C(\d)(\d)$/.exec(id || "");
  return match ? [cx(Number(match[2])), cy(Number(match[1]))] : null;
}

// The end of each street, where its Action tile lies.
function streetEnd(id) {
  if (id === "D") return { x: cx(4) + 58, y: cy(4) + 52, w: 92, h: 30 };
  const match = /^([VH])(\d)$/.exec(id);
  if (!match) return null;
  const k = Number(match[2]);
  if (match[1] === "V") return { x: cx(k), y: Y0 - 58, w: 96, h: 30 };
  return { x: cx(4) + 70, y: cy(k), w: 92, h: 30 };
}

function blockPolygons(city, r, c) {
  const half = (id) => streetWidth(city, id) / 2 + 3;
  const L = cx(c) + half(`V${c}`);
  const R = cx(c + 1) - half(`V${c + 1}`);
  const T = cy(r) + half(`H${r}`);
  const B = cy(r + 1) - half(`H${r + 1}`);
  const k = 18; // the chamfer of the Eixample's octagonal blocks
  if (r !== c) {
    return {
      [`B${r}${c}`]: [[L + k, T], [R - k, T], [R, T + k], [R, B - k], [R - k, B], [L + k, B], [L, B - k], [L, T + k]],
    };
  }
  const d = (streetWidth(city, "D") / 2 + 3) * Math.SQRT2;
  const x0 = cx(c);
  const y0 = cy(r);
  return {
    [`B${r}${c}U`]: [[x0 + (T - y0) + d, T], [R - k, T], [R, T + k], [R, y0 + (R - x0) - d]],
    [`B${r}${c}L`]: [[L, y0 + (L - x0) + d], [L, B - k], [L + k, B], [x0 + (B - y0) - d, B]],
  };
}

function centroid(points) {
  const n = points.length;
  return [points.reduce((s, p) => s + p[0], 0) / n, points.reduce((s, p) => s + p[1], 0) / n];
}

function drawCity(ctx, g) {
  const { view, legal } = ctx;
  const city = view.city || {};
  panel(g, 4, 4, RIGHT - 10, 590, "");
  const streets = group(g, { class: "streets" });
  // street bands, from the Action tile at their end across the city
  for (const street of city.streets || []) {
    const w = streetWidth(city, street.id);
    const cls = `street-band ${street.width === "wide" ? "wide" : "narrow"}`;
    let match;
    if ((match = /^V(\d)$/.exec(street.id))) {
      const x = cx(Number(match[1]));
      svg("rect", { x: x - w / 2, y: Y0 - 44, width: w, height: cy(4) - Y0 + 44 + 14, class: cls }, streets);
    } else if ((match = /^H(\d)$/.exec(street.id))) {
      const y = cy(Number(match[1]));
      svg("rect", { x: X0 - 14, y: y - w / 2, width: cx(4) - X0 + 14 + 26, height: w, class: cls }, streets);
    } else if (street.id === "D") {
      const length = (cy(4) - Y0) * Math.SQRT2 + 50;
      svg("rect", { x: cx(0), y: cy(0) - w / 2, width: length, height: w, class: cls, transform: `rotate(45 ${cx(0)} ${cy(0)})` }, streets);
    }
  }
  // row Building Bonus tiles, at the left of each row of blocks
  (city.row_bonus || []).forEach((vp, r) => {
    const y = (cy(r) + cy(r + 1)) / 2;
    const tile = tip(group(g, { class: "row-bonus" }), vp ? t("bcn.tip.rowBonus", { row: r + 1, vp }) : t("bcn.tip.rowBonusTaken", { row: r + 1 }));
    svg("rect", { x: 7, y: y - 16, width: 24, height: 32, rx: 4, class: vp ? "bonus-tile" : "bonus-tile taken" }, tile);
    if (vp) {
      text(tile, 19, y - 1, vp, { class: "bonus-vp" });
      text(tile, 19, y + 10, t("bcn.vp"), { class: "bonus-label" });
    } else text(tile, 19, y + 4, "✓", { class: "bonus-label" });
  });
  // blocks and buildings
  const buildings = new Map((city.buildings || []).map((b) => [b.id, b]));
  const blocks = group(g, { class: "blocks" });
  const blockShapes = new Map();
  for (let r = 0; r < 4; r += 1) {
    for (let c = 0; c < 4; c += 1) {
      for (const [id, points] of Object.entries(blockPolygons(city, r, c))) {
        blockShapes.set(id, points);
        drawBuilding(blocks, id, points, buildings.get(id));
      }
    }
  }
  const decided = view.decision_target || {};
  if (decided.building && blockShapes.has(decided.building)) {
    const type = BUILDINGS[decided.type] ? BUILDINGS[decided.type].label : decided.type;
    const ring = svg("polygon", {
      points: blockShapes.get(decided.building).map((p) => p.join(",")).join(" "),
      class: "decision-target",
      "data-decision-target": decided.building,
    }, blocks);
    tip(ring, t("bcn.tip.decisionBuilding", { type: type || "", space: decided.building }));
  }
  // street spaces: printed benefits, Street tiles, passengers
  const spaces = group(g, { class: "spaces" });
  for (const space of city.spaces || []) drawSpace(spaces, space, city);
  // trams
  (city.trams || []).forEach((spaceId, seat) => {
    if (!spaceId) return;
    const geometry = spaceGeometry(spaceId);
    if (!geometry) return;
    const [x, y] = along(geometry, geometry.angle === 90 ? 20 : -22);
    drawTram(spaces, seat, x, y, t("bcn.tip.tram", { name: ctx.names[seat], letter: seatStyle(seat).letter, space: spaceId }));
  });
  // crossings
  const crossings = group(g, { class: "crossings" });
  for (const crossing of city.crossings || []) drawCrossing(crossings, crossing, ctx);
  if (view.solo && view.solo.meeple) drawMeeple(crossings, view.solo.meeple);
  const point = decided.crossing ? crossingPoint(decided.crossing) : null;
  if (point) {
    const ring = svg("polygon", {
      points: octagon(point[0], point[1], CROSS_R + 5),
      class: "decision-target",
      "data-decision-target": decided.crossing,
    }, crossings);
    tip(ring, t("bcn.tip.decisionCrossing", { crossing: decided.crossing }));
  }
  // Action tiles at the street ends
  const ends = group(g, { class: "street-ends" });
  for (const street of city.streets || []) drawStreetEnd(ctx, ends, street);
  // legend
  const legend = group(g, { class: "legend" });
  text(legend, 14, 582, t("bcn.legend.cost"), { class: "legend-text" });
  coin(legend, 88, 578, 6, 1);
  text(legend, 102, 582, t("bcn.legend.citizens"), { class: "legend-text" });
  citizenDisc(legend, "W", 152, 578, 6);
  citizenDisc(legend, "M", 166, 578, 6);
  citizenDisc(legend, "U", 180, 578, 6);
  text(legend, 194, 582, t("bcn.legend.benefits"), { class: "legend-text" });
  drawBenefit(legend, 250, 578, { coin: 1, cloth: 1, vp: 1 }, 0.85);
  drawBenefit(legend, 312, 578, { resource: 1, cerda: 1, sagrada: 1 }, 0.85);
  text(legend, 352, 582, t("bcn.legend.streets"), { class: "legend-text" });

  // targets on top of everything in the city
  const targets = group(g, { class: "targets" });
  for (const crossing of city.crossings || []) {
    const point = crossingPoint(crossing.id);
    for (const verb of ["place", "intersection"]) {
      if (legal[verb].has(crossing.id)) {
        target(ctx, targets, `${verb} ${crossing.id}`, "circle", { cx: point[0], cy: point[1], r: CROSS_R + 4 }, crossingLabel(crossing, ctx));
      }
    }
  }
  for (const space of city.spaces || []) {
    const geometry = spaceGeometry(space.id);
    for (const verb of ["street", "tram"]) {
      if (!legal[verb].has(space.id)) continue;
      const w = Math.max(streetWidth(city, space.street), 18) + 8;
      target(ctx, targets, `${verb} ${space.id}`, "rect", {
        x: geometry.x - geometry.length / 2,
        y: geometry.y - w / 2,
        width: geometry.length,
        height: w,
        rx: 5,
        transform: `rotate(${geometry.angle} ${geometry.x} ${geometry.y})`,
      }, `${t(space.wide ? "bcn.tip.wideSpace" : "bcn.tip.narrowSpace", { space: space.id })}, ${t("bcn.tip.printedBenefit", { benefit: benefitText(space.benefit) })}`);
    }
  }
  for (const [space, types] of legal.build) {
    const points = blockShapes.get(space);
    if (!points) continue;
    const pointList = points.map((p) => p.join(",")).join(" ");
    if (types.length === 1) {
      target(ctx, targets, `build ${types[0]} ${space}`, "polygon", { points: pointList }, t("bcn.tip.building", { space, type: buildingLabel(types[0]) }));
    } else {
      for (const type of types) ctx.handled.add(`build ${type} ${space}`);
      const node = stepTarget(ctx, targets, "polygon", { points: pointList, "data-build-space": space }, `${t("bcn.buildOn", { space })} ${types.map(buildingLabel).join(", ")}`, ctx.buildSpace === space, () => {
        choice.choose("buildSpace", local.buildSpace === space ? null : space, ".bcn-choice .bcn-target");
      });
      node.dataset.buildTypes = types.join(" ");
    }
  }
}

function crossingLabel(crossing, ctx) {
  const parts = [t("bcn.tip.crossing", { crossing: crossing.id })];
  parts.push(crossing.cost ? t("bcn.tip.crossingCost", { price: priceText(crossing.cost) }) : priceText(0));
  if (crossing.citizens && crossing.citizens.length) {
    parts.push(t("bcn.tip.crossingCitizens", { citizens: crossing.citizens.join("/"), top: crossing.citizens[crossing.citizens.length - 1] }));
  }
  if (crossing.intersection !== null && crossing.intersection !== undefined) {
    parts.push(t("bcn.tip.intersectionOf", { name: ctx.names[crossing.intersection], letter: seatStyle(crossing.intersection).letter }));
  }
  return parts.join(", ");
}

function drawBuilding(parent, id, points, building) {
  const g = group(parent, { class: "block", "data-space": id });
  const type = building && building.type;
  const info = type ? BUILDINGS[type] || { label: type, short: type, fill: "#ccc", ink: "#000" } : null;
  svg("polygon", {
    points: points.map((p) => p.join(",")).join(" "),
    fill: info ? info.fill : "url(#bcn-park)",
    stroke: info ? "#3b2a1a" : "#9ab68a",
    "stroke-width": info ? 1.6 : 1,
  }, g);
  const [mx, my] = centroid(points);
  const corner = /[UL]$/.test(id);
  const nudge = corner ? (id.endsWith("U") ? [6, -6] : [-6, 6]) : [0, 0];
  const x = mx + nudge[0];
  const y = my + nudge[1];
  const markers = (building && building.markers) || [];
  if (info) {
    tip(g, markers.length ? t("bcn.tip.buildingMarkers", { space: id, type: info.label, markers: markers.map((s) => seatStyle(s).letter).join(", ") }) : t("bcn.tip.building", { space: id, type: info.label }));
    text(g, x, y - (markers.length ? 3 : -5), info.short, { class: "building-type", fill: info.ink });
    const r = corner ? 6 : 7;
    const step = r * 1.9;
    const left = x - ((markers.length - 1) * step) / 2;
    markers.forEach((seat, k) => seatToken(g, seat, left + k * step, y + 12, r));
  } else {
    tip(g, t("bcn.tip.emptySpace", { space: id }));
    text(g, x, y + 4, id, { class: "block-id" });
  }
}

function drawSpace(parent, space, city) {
  const geometry = spaceGeometry(space.id);
  if (!geometry) return;
  const g = group(parent, { class: "space", "data-space": space.id });
  const w = streetWidth(city, space.street);
  const hasTile = space.tile !== null && space.tile !== undefined;
  const label = [t(space.wide ? "bcn.tip.wideSpace" : "bcn.tip.narrowSpace", { space: space.id })];
  if (hasTile) {
    label.push(t("bcn.tip.streetTile", { letter: seatStyle(space.tile).letter }));
    svg("rect", {
      x: geometry.x - geometry.length / 2,
      y: geometry.y - w / 2 + 1,
      width: geometry.length,
      height: w - 2,
      rx: 3,
      fill: seatStyle(space.tile).colour,
      stroke: "#000",
      "stroke-width": 1,
      transform: `rotate(${geometry.angle} ${geometry.x} ${geometry.y})`,
    }, g);
    seatToken(g, space.tile, geometry.x, geometry.y, space.wide ? 8 : 6, { stroke: "#fff" });
  } else if (space.benefit) {
    label.push(t("bcn.tip.printedBenefit", { benefit: benefitText(space.benefit) }));
    drawBenefit(g, geometry.x, geometry.y, space.benefit, geometry.angle === 90 && !space.wide ? 0.85 : 0.95);
  }
  if (space.passenger !== null && space.passenger !== undefined) {
    label.push(t("bcn.tip.passengerOf", { letter: seatStyle(space.passenger).letter }));
    const [x, y] = along(geometry, geometry.angle === 90 ? -21 : 22);
    drawPassenger(g, space.passenger, x, y);
  }
  tip(g, label.join(", "));
}

function drawPassenger(parent, seat, x, y) {
  const g = group(parent, { class: "passenger" });
  svg("rect", { x: x - 7, y: y - 7, width: 14, height: 14, rx: 2, fill: "#fff", stroke: "#000", "stroke-width": 1 }, g);
  seatToken(g, seat, x, y, 5.5);
  return g;
}

function drawTram(parent, seat, x, y, label) {
  const g = tip(group(parent, { class: "tram" }), label);
  svg("rect", { x: x - 13, y: y - 8, width: 26, height: 16, rx: 5, fill: seatStyle(seat).colour, stroke: "#000", "stroke-width": 1.5 }, g);
  svg("rect", { x: x - 10, y: y - 5, width: 7, height: 5, fill: "#fff", opacity: 0.85 }, g);
  svg("rect", { x: x + 3, y: y - 5, width: 7, height: 5, fill: "#fff", opacity: 0.85 }, g);
  text(g, x, y + 6.5, seatStyle(seat).letter, { class: "tok-letter", "font-size": 7.5, fill: inkFor(seat) });
  return g;
}

function drawCrossing(parent, crossing, ctx) {
  const point = crossingPoint(crossing.id);
  if (!point) return;
  const [x, y] = point;
  const g = tip(group(parent, { class: "crossing", "data-crossing": crossing.id }), crossingLabel(crossing, ctx));
  const owner = crossing.intersection;
  const owned = owner !== null && owner !== undefined;
  svg("polygon", {
    points: octagon(x, y, CROSS_R),
    fill: owned ? seatStyle(owner).colour : "#f5f0e6",
    stroke: owned ? "#000" : "#8f8674",
    "stroke-width": owned ? 2 : 1.2,
  }, g);
  if (owned) seatToken(g, owner, x + 13, y + 13, 6.5, { stroke: "#fff" });
  if (crossing.cost) coin(g, x - 14, y - 14, 6.5, crossing.cost);
  const citizens = crossing.citizens || [];
  const offsets = citizens.length === 1 ? [[0, 0]] : citizens.map((_, k) => [-5 + (10 * k) / Math.max(1, citizens.length - 1), 5 - (10 * k) / Math.max(1, citizens.length - 1)]);
  citizens.forEach((kind, k) => citizenDisc(g, kind, x + offsets[k][0], y + offsets[k][1], 8.5));
}

function drawMeeple(parent, crossingId) {
  const point = crossingPoint(crossingId);
  if (!point) return;
  const [x0, y0] = point;
  const x = x0 + 16;
  const y = y0 - 16;
  const g = tip(group(parent, { class: "meeple", "data-meeple": crossingId }), t("bcn.tip.meeple", { crossing: crossingId }));
  const d = `M${x} ${y - 10} a3.6 3.6 0 1 1 0.01 0 M${x - 3} ${y - 5} L${x - 9} ${y - 2} L${x - 8} ${y + 1} L${x - 3} ${y} L${x - 6} ${y + 9} L${x - 1} ${y + 9} L${x} ${y + 4} L${x + 1} ${y + 9} L${x + 6} ${y + 9} L${x + 3} ${y} L${x + 8} ${y + 1} L${x + 9} ${y - 2} L${x + 3} ${y - 5} Z`;
  svg("path", { d, fill: "#555", stroke: "#fff", "stroke-width": 1.2 }, g);
}

function drawStreetEnd(ctx, parent, street) {
  const end = streetEnd(street.id);
  if (!end) return;
  const info = actionInfo(street.action);
  const g = tip(group(parent, { class: "street-end", "data-street": street.id }), t("bcn.tip.streetEnd", { street: street.id, width: t(`bcn.width.${street.width}`), action: info.label }));
  svg("rect", { x: end.x - end.w / 2, y: end.y - end.h / 2, width: end.w, height: end.h, rx: 5, fill: info.fill, stroke: "#333", "stroke-width": 1.2 }, g);
  text(g, end.x, end.y - 3, street.id === "D" ? t("bcn.diagonal") : `${street.id} · ${t(`bcn.width.${street.width}`)}`, { class: "end-id" });
  const size = Math.min(10.5, (end.w - 8) / (info.label.length * 0.62));
  text(g, end.x, end.y + 10, info.label, { class: "end-action", "font-size": size.toFixed(1) });
  const [action] = ctx.legal.act.get(street.id) || [];
  if (action) {
    target(ctx, parent, action, "rect", { x: end.x - end.w / 2 - 2, y: end.y - end.h / 2 - 2, width: end.w + 4, height: end.h + 4, rx: 6 }, t("bcn.tip.actOf", { action: info.label, street: street.id }));
  }
}

// -- the information strip and the Cerdà track ---------------------------------------------------------

function drawInfo(ctx, g) {
  const { view } = ctx;
  const x = RIGHT;
  panel(g, x, 4, 392, 46, "");
  const turn = view.turn_player;
  text(g, x + 10, 20, t("bcn.round", { round: view.round }), { class: "info-strong" });
  if (Number.isInteger(turn) && turn >= 0 && !view.terminal) {
    text(g, x + 82, 20, t("bcn.turn"), { class: "info-text" });
    seatToken(g, turn, x + 116, 16, 7);
  }
  if (Number.isInteger(view.first_player)) {
    text(g, x + 132, 20, t("bcn.first"), { class: "info-text" });
    seatToken(g, view.first_player, x + 168, 16, 7);
  }
  // the alert keeps to the room left of the bag's title
  const alertRoom = Math.round(294 - textWidth(t("bcn.bag"), 10) - 8 - 184);
  if (view.terminal) text(g, x + 184, 20, t("bcn.gameOver"), { class: "info-alert", "data-fit": alertRoom });
  else if (view.end_triggered) text(g, x + 184, 20, t("bcn.lastRound"), { class: "info-alert", "data-fit": alertRoom });
  // bag
  const bag = view.bag || {};
  text(g, x + 294, 20, t("bcn.bag"), { class: "info-text bag-title", "text-anchor": "end", "data-fit": 90 });
  ["W", "M", "U"].forEach((kind, k) => {
    citizenDisc(g, kind, x + 305 + k * 30, 16, 6.5);
    text(g, x + 314 + k * 30, 20, bag[kind] ?? 0, { class: "info-text" });
  });
  // scores
  const scores = view.scores || [];
  text(g, x + 10, 40, t("bcn.vp"), { class: "info-strong" });
  const step = Math.min(170, 352 / Math.max(1, scores.length));
  const chars = Math.max(3, Math.floor((step - 46) / 6.6));
  scores.forEach((vp, seat) => {
    const sx = x + 36 + seat * step;
    seatToken(g, seat, sx, 36, 7);
    const name = ctx.names[seat] || "";
    text(g, sx + 11, 40, `${clip(name, chars)} ${vp}`, { class: "info-score" });
  });
}

function clip(value, n) {
  const s = String(value);
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function drawCerdaTrack(ctx, g) {
  const track = ctx.view.cerda_track;
  if (!track) return;
  const x = RIGHT;
  const y = 54;
  panel(g, x, y, 392, 66, t("bcn.panel.cerdaTrack"), t("bcn.panel.cerdaTrackNote"));
  const n = track.top + 1;
  const cell = Math.min(28, 372 / n);
  const left = x + 10;
  const top = y + 30;
  const shades = ["#eeeeee", "#dde9f4", "#bfd5ea", "#9fc0e0", "#7faad6"];
  const byPosition = new Map();
  (track.positions || []).forEach((pos, seat) => {
    if (!byPosition.has(pos)) byPosition.set(pos, []);
    byPosition.get(pos).push(seat);
  });
  for (let i = 0; i < n; i += 1) {
    const m = track.multipliers[i];
    const gx = left + i * cell;
    const c = tip(group(g, { class: "cerda-space", "data-cerda": i }), t(i === track.start ? "bcn.tip.cerdaStart" : "bcn.tip.cerdaSpace", { space: i, multiplier: m }));
    svg("rect", { x: gx, y: top, width: cell - 2, height: 30, rx: 3, fill: shades[Math.min(m, 4)], stroke: i === track.start ? "#000" : "#8898a8", "stroke-width": i === track.start ? 2.2 : 1 }, c);
    if (i === 0 || track.multipliers[i - 1] !== m) {
      text(c, gx + 1, top - 3, `×${m}`, { class: "cerda-mult" });
    } else if (i === track.start) text(c, gx + (cell - 2) / 2, top - 3, t("bcn.start"), { class: "tiny-text", "text-anchor": "middle" });
    const here = byPosition.get(i) || [];
    here.forEach((seat, k) => {
      const tx = gx + (cell - 2) / 2 + (here.length > 1 ? (k % 2 ? 6 : -6) : 0);
      const ty = top + 15 + (here.length > 2 ? (k < 2 ? -7 : 7) : 0);
      seatToken(c, seat, tx, ty, here.length > 1 ? 5.5 : 7);
    });
  }
}

function drawCerdaTiles(ctx, g) {
  const tiles = ctx.view.cerda_scoring || [];
  const x = RIGHT;
  const y = 124;
  panel(g, x, y, 392, 74, t("bcn.panel.cerdaScoring"), t("bcn.panel.cerdaScoringNote"));
  tiles.forEach((tile, k) => {
    const tx = x + 8 + k * 127;
    const ty = y + 20;
    const face = tip(group(g, { class: `cerda-tile${tile.scored ? " scored" : ""}`, "data-tile": tile.id }), `${SECTIONS[k] || k + 1}: ${CONDITIONS[tile.condition] ? `${tile.vp} ${t("bcn.vp")} ${CONDITIONS[tile.condition]}` : tile.text}${tile.scored ? ` (${t("bcn.scored")})` : ""}`);
    svg("rect", { x: tx, y: ty, width: 122, height: 50, rx: 5, fill: tile.scored ? "#e4e1da" : "#fff8e6", stroke: "#7a6a4a", "stroke-width": 1.2 }, face);
    text(face, tx + 5, ty + 12, `${k + 1} · ${SECTIONS[k] || ""}`, { class: "tile-head", "data-fit": 84 });
    text(face, tx + 117, ty + 12, tile.id, { class: "tile-id", "text-anchor": "end" });
    wrapText(face, tx + 5, ty + 25, `${tile.vp} ${t("bcn.vp")} ${CONDITIONS[tile.condition] || tile.text}`, 26, 2, "tile-text", 10, 112);
    if (tile.scored) text(face, tx + 117, ty + 46, t("bcn.scored"), { class: "scored-label", "text-anchor": "end" });
  });
}

// Up to `lines` lines of about `width` characters, each kept within `fit` drawing units if given.
function wrapText(parent, x, y, content, width, lines, cls, lineHeight = 10, fit = null) {
  const words = String(content).split(/\s+/);
  const out = [];
  let line = "";
  for (const word of words) {
    if (line && (line + " " + word).length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  if (out.length > lines) {
    out.length = lines;
    out[lines - 1] = `${out[lines - 1].slice(0, width - 1)}…`;
  }
  out.forEach((row, k) => text(parent, x, y + k * lineHeight, row, { class: cls, "data-fit": fit }));
}

// -- the side board ---------------------------------------------------------------------------------

function drawOffer(ctx, g) {
  const modernisme = ctx.view.modernisme || { offer: [], stack: 0, discard: [] };
  const x = RIGHT;
  const y = 202;
  const choosing = ctx.take ? t("bcn.panel.chooseProject") : "";
  panel(g, x, y, 392, 84, t("bcn.panel.offer"), choosing || t("bcn.panel.offerNote", { stack: modernisme.stack, discard: (modernisme.discard || []).length }));
  (modernisme.offer || []).forEach((tile, k) => {
    const tx = x + 8 + k * 96;
    const ty = y + 20;
    if (!tile) {
      svg("rect", { x: tx, y: ty, width: 92, height: 58, rx: 5, fill: "none", stroke: "#bbb", "stroke-dasharray": "4 3" }, g);
      return;
    }
    const face = tip(group(g, { class: "mod-tile", "data-tile": tile.id }), `${tile.id}: ${tileText(tile)}`);
    drawModernismeTile(face, tx, ty, 92, 58, tile);
    const spaces = ctx.legal.take.get(tile.id);
    if (spaces) {
      for (const n of spaces) ctx.handled.add(`take ${tile.id} into ${n}`);
      const attrs = { x: tx - 2, y: ty - 2, width: 96, height: 62, rx: 6, "data-take": tile.id };
      if (spaces.length === 1) {
        target(ctx, g, `take ${tile.id} into ${spaces[0]}`, "rect", attrs, tr("bcn.tip.takeInto", { tile: tileText(tile), space: spaces[0] }));
      } else {
        stepTarget(ctx, g, "rect", attrs, tr("bcn.tip.takeThen", { tile: tile.id, spaces: spaces.join(", ") }), ctx.take === tile.id, () => {
          choice.choose("take", local.take === tile.id ? null : tile.id, `.bcn-target[data-action^="take ${tile.id} into"]`);
        });
      }
    }
  });
}

function drawModernismeTile(parent, x, y, w, h, tile) {
  svg("rect", { x, y, width: w, height: h, rx: 5, fill: "#fbf1dc", stroke: "#8a6a3a", "stroke-width": 1.2 }, parent);
  svg("rect", { x, y, width: w, height: 14, rx: 5, fill: "#e9cf9f" }, parent);
  text(parent, x + 5, y + 11, `${tile.vp} ${t("bcn.vp")}`, { class: "tile-head" });
  text(parent, x + w - 4, y + 11, tile.id, { class: "tile-id", "text-anchor": "end" });
  const chars = Math.floor(w / 4.6);
  wrapText(parent, x + 4, y + 24, CONDITIONS[tile.condition] || tile.text || "", chars, Math.floor((h - 16) / 10), "tile-text", 10, w - 8);
}

// A Building type's name in words ("L1" stays "L1" where the catalog has none).
function buildingLabel(type) {
  return BUILDINGS[type] ? BUILDINGS[type].label : type;
}

// A Public Service's name in the page's language (the printed name where the catalog has none).
function serviceTitle(service) {
  const key = `bcn.service.${service.id}`;
  return hasKey(key) ? t(key) : String(service.name || service.id);
}

// The name on two lines, for the service's tile.
function serviceName(service) {
  const words = serviceTitle(service).split(" ");
  const half = Math.ceil(words.length / 2);
  return [words.slice(0, half).join(" "), words.slice(half).join(" ")];
}

function drawServices(ctx, g) {
  const services = ctx.view.public_services || [];
  const x = RIGHT;
  const y = 290;
  panel(g, x, y, 392, 92, t("bcn.panel.services"), t("bcn.panel.servicesNote"));
  services.forEach((service, k) => {
    const sx = x + 8 + k * 77;
    const sy = y + 18;
    const s = tip(group(g, { class: "service", "data-service": service.id }), [
      `${serviceTitle(service)}: ${SERVICE_EFFECTS[service.effect] || service.effect}`,
      t("bcn.tip.serviceLeft", { count: service.left }),
      service.left ? t("bcn.tip.serviceNext", { price: priceText(service.next_cost), vp: service.next_vp }) : "",
      service.built_by && service.built_by.length ? t("bcn.tip.builtBy", { letters: service.built_by.map((p) => seatStyle(p).letter).join(", ") }) : "",
    ].filter(Boolean).join("; "));
    svg("rect", { x: sx, y: sy, width: 73, height: 70, rx: 5, fill: service.left ? "#eef6f0" : "#e2e2e2", stroke: "#4f7a5c", "stroke-width": 1.2 }, s);
    const [line1, line2] = serviceName(service);
    text(s, sx + 36.5, sy + 11, clip(line1, 15), { class: "service-name" });
    text(s, sx + 36.5, sy + 21, clip(line2, 15), { class: "service-name" });
    wrapText(s, sx + 36.5, sy + 31, SERVICE_EFFECTS[service.effect] || service.effect, 15, 2, "service-effect", 8.5, 69);
    if (service.left) {
      coin(s, sx + 11, sy + 50, 7, service.next_cost);
      text(s, sx + 22, sy + 53.5, "→", { class: "tiny-text", "text-anchor": "start" });
      svg("rect", { x: sx + 31, y: sy + 43, width: 26, height: 14, rx: 3, fill: "#263238" }, s);
      text(s, sx + 44, sy + 53.5, t("bcn.vpChip", { vp: service.next_vp }), { class: "chip-text light", "font-size": 8.5 });
      text(s, sx + 70, sy + 54, `×${service.left}`, { class: "tiny-text", "text-anchor": "end" });
    } else {
      text(s, sx + 36.5, sy + 54, t("bcn.noneLeft"), { class: "tiny-text", "text-anchor": "middle" });
    }
    (service.built_by || []).forEach((seat, j) => seatToken(s, seat, sx + 9 + j * 15, sy + 64, 5));
    target(ctx, g, `service ${service.id}`, "rect", { x: sx - 2, y: sy - 2, width: 77, height: 74, rx: 6 }, t("bcn.tip.serviceBuy", { service: serviceTitle(service), price: priceText(service.next_cost), vp: service.next_vp }));
  });
}

function drawSidewalk(ctx, g) {
  const sidewalk = ctx.view.sidewalk || [];
  const x = RIGHT;
  const y = 386;
  const cell = 36;
  panel(g, x, y, 198, 204, t("bcn.panel.sidewalk"), t("bcn.panel.sidewalkNote"));
  const left = x + 10;
  const top = y + 20;
  for (const space of sidewalk) {
    const match = /^S(\d)(\d)$/.exec(space.id);
    if (!match) continue;
    const r = Number(match[1]);
    const c = Number(match[2]);
    const sx = left + c * cell;
    const sy = top + r * cell;
    const s = group(g, { class: "sidewalk-space", "data-sidewalk": space.id });
    const stone = space.cobblestone;
    svg("rect", { x: sx, y: sy, width: cell - 2, height: cell - 2, rx: 3, fill: stone === null || stone === undefined ? "#f4f1ea" : "url(#bcn-stone)", stroke: "#8d877b", "stroke-width": 1 }, s);
    if (stone === null || stone === undefined) {
      drawBenefit(s, sx + (cell - 2) / 2, sy + (cell - 2) / 2, space.benefit, benefitParts(space.benefit).length > 1 ? 0.74 : 1);
      tip(s, `${space.id}: ${benefitText(space.benefit)}`);
    } else if (stone === "start") {
      tip(s, t("bcn.tip.startCobble", { space: space.id }));
      text(s, sx + (cell - 2) / 2, sy + 20, t("bcn.start"), { class: "tiny-text", "text-anchor": "middle" });
    } else {
      tip(s, t("bcn.tip.cobbleOf", { space: space.id, letter: seatStyle(stone).letter, benefit: benefitText(space.benefit) }));
      seatToken(s, stone, sx + (cell - 2) / 2, sy + (cell - 2) / 2, 8);
    }
    target(ctx, g, `cobble ${space.id}`, "rect", { x: sx - 1, y: sy - 1, width: cell, height: cell, rx: 4 }, t("bcn.tip.gain", { benefit: benefitText(space.benefit) }));
  }
}

function drawSagradaOffer(ctx, g) {
  const offer = ctx.view.sagrada_offer || [];
  const x = RIGHT + 204;
  const y = 386;
  panel(g, x, y, 188, 130, t("bcn.panel.sagrada"), "");
  for (let level = 1; level <= 4; level += 1) {
    const ly = y + 22 + (level - 1) * 26;
    text(g, x + 8, ly + 16, `L${level}`, { class: "tile-head" });
    offer.filter((tile) => tile.level === level).forEach((tile, k) => {
      const tx = x + 24 + k * 41;
      const face = tip(group(g, { class: "sagrada-tile", "data-tile": tile.id }), t("bcn.tip.sagradaTile", { tile: tile.id, level, benefit: benefitText(tile.benefit) }));
      svg("rect", { x: tx, y: ly, width: 40, height: 23, rx: 4, fill: "#f6ecd2", stroke: "#7a5a1e", "stroke-width": 1 }, face);
      const parts = benefitParts(tile.benefit).length;
      drawBenefit(face, tx + 20, ly + 11.5, tile.benefit, parts > 1 ? 0.72 : 0.85);
      target(ctx, g, `sagrada ${tile.id}`, "rect", { x: tx - 2, y: ly - 2, width: 44, height: 27, rx: 5 }, benefitText(tile.benefit));
    });
  }
  // building stock and citizen reminder below
  const stock = ctx.view.building_stock || {};
  const sy = y + 134;
  panel(g, x, sy, 188, 70, t("bcn.panel.stock"), "");
  ["corner", "L1", "L2", "L3"].forEach((type, k) => {
    const info = BUILDINGS[type];
    const bx = x + 6 + k * 45;
    const b = tip(group(g, { class: "stock" }), t("bcn.tip.stock", { type: info.label, count: stock[type] ?? 0 }));
    svg("rect", { x: bx, y: sy + 20, width: 41, height: 20, rx: 3, fill: info.fill, stroke: "#3b2a1a" }, b);
    text(b, bx + 20.5, sy + 34, `${info.short} ×${stock[type] ?? 0}`, { class: "stock-text", fill: info.ink });
  });
  text(g, x + 8, sy + 53, t("bcn.needs1"), { class: "tiny-text", "text-anchor": "start" });
  text(g, x + 8, sy + 64, t("bcn.needs2"), { class: "tiny-text", "text-anchor": "start" });
}

// -- the Citizen tracks ---------------------------------------------------------------------------------

function drawTracks(ctx, g) {
  const { view } = ctx;
  const tracks = view.tracks || {};
  const x = 4;
  const y = TRACKS_Y;
  panel(g, x, y, W - 8, 146, t("bcn.panel.tracks"), "");
  const labelW = 88;
  const left = x + labelW;
  const sample = tracks.W || tracks.M || tracks.U;
  if (!sample) return;
  const n = sample.values.length;
  const cell = (W - 8 - labelW - 34) / n;
  const lowest = view.lowest_visible;
  // the note goes between the panel's title and the legend, whose lengths depend on the language
  const legend = t("bcn.panel.tracksLegend");
  const noteX = x + 8 + textWidth(t("bcn.panel.tracks"), 11.5) + 10;
  const room = W - 14 - textWidth(legend, 9.5) - 12 - noteX;
  text(g, noteX, y + 14, t("bcn.panel.tracksNote", { vp: lowest ?? "—" }), { class: "panel-note", "data-fit": Math.round(room) });
  text(g, W - 14, y + 14, legend, { class: "panel-note", "text-anchor": "end" });
  // section headings, with the Cerdà Scoring tile each section scores
  const sections = sample.sections;
  for (let s = 0; s < 3; s += 1) {
    const first = sections.indexOf(s);
    const last = sections.lastIndexOf(s);
    if (first < 0) continue;
    const tile = (view.cerda_scoring || [])[s];
    const mid = left + ((first + last + 1) / 2) * cell;
    text(g, mid, y + 29, `${SECTIONS[s]}${tile ? ` · ${tile.id}${tile.scored ? ` ${t("bcn.scored")}` : ""}` : ""}`, { class: "section-head" });
  }
  ["W", "M", "U"].forEach((kind, k) => {
    const track = tracks[kind];
    if (!track) return;
    const ty = y + 34 + k * 37;
    const row = group(g, { class: "citizen-track", "data-track": kind });
    citizenDisc(row, kind, x + 16, ty + 16, 9);
    text(row, x + 29, ty + 20, CITIZENS[kind].track, { class: "track-name" });
    track.values.forEach((value, i) => {
      const sx = left + i * cell;
      const filled = track.filled[i];
      const section = track.sections[i];
      const c = group(row, { class: `track-space${filled ? " filled" : ""}`, "data-index": i });
      const trigger = (track.triggers || []).includes(i);
      const isLowest = !filled && value === lowest;
      svg("rect", {
        x: sx + 1,
        y: ty,
        width: cell - 2,
        height: 32,
        rx: 3,
        fill: ["#fbf4e4", "#f2e6cb", "#e8d6ad"][section] || "#fff",
        stroke: trigger ? "#a3200b" : isLowest ? "#000" : "#a89b80",
        "stroke-width": trigger ? 2.4 : isLowest ? 2.4 : 1,
      }, c);
      if (trigger) {
        svg("polygon", { points: `${sx + cell - 13},${ty} ${sx + cell - 1},${ty} ${sx + cell - 1},${ty + 12}`, fill: "#a3200b" }, c);
      }
      if (filled) citizenDisc(c, kind, sx + cell / 2, ty + 16, 11);
      else text(c, sx + cell / 2, ty + 21, value, { class: isLowest ? "track-value lowest" : "track-value" });
      tip(c, `${t("bcn.tip.trackSpace", { track: CITIZENS[kind].name, space: i + 1, vp: value })}${filled ? ` (${t("bcn.tip.covered")})` : ""}${trigger ? `, ${t("bcn.panel.cerdaScoring")}` : ""}`);
      if (i > 0 && track.sections[i - 1] !== section) {
        svg("line", { x1: sx, x2: sx, y1: ty - 3, y2: ty + 35, stroke: "#3b2a1a", "stroke-width": 2.5 }, row);
      }
    });
    const extra = track.off_board || 0;
    text(row, left + n * cell + 16, ty + 21, extra ? `+${extra}` : "", { class: "track-value" });
  });
}

// -- player boards ------------------------------------------------------------------------------------

function drawPlayerBoard(ctx, player, x, y) {
  if (!player) return;
  const seat = player.seat;
  const style = seatStyle(seat);
  const mine = seat === ctx.viewer;
  const current = ctx.view.current_player === seat;
  const g = svg("g", { class: `bcn-player${mine ? " mine" : ""}`, "data-seat": seat, transform: `translate(${x} ${y})` }, ctx.root);
  svg("rect", { x: 0, y: 0, width: BOARD_W, height: BOARD_H, rx: 8, fill: "#fffdf8", stroke: style.colour, "stroke-width": current ? 4 : 2 }, g);
  svg("rect", { x: 0, y: 0, width: BOARD_W, height: 30, rx: 8, fill: tint(seat, "33") }, g);
  svg("rect", { x: 0, y: 0, width: 8, height: BOARD_H, rx: 4, fill: style.colour }, g);
  seatToken(g, seat, 22, 15, 9);
  const name = ctx.names[seat] || seatStyle(seat).letter;
  text(g, 36, 20, `${clip(name, 22)}${mine ? ` (${t("seat.you")})` : ""}`, { class: "board-name" });
  if (ctx.view.first_player === seat) {
    const f = tip(group(g, {}), t("bcn.firstPlayer"));
    svg("rect", { x: 196, y: 7, width: 26, height: 16, rx: 3, fill: "#23303d" }, f);
    text(f, 209, 19, t("bcn.firstShort"), { class: "chip-text light", "font-size": 9 });
  }
  if (current && !ctx.view.terminal) text(g, 230, 20, `▶ ${t("seat.toPlay")}`, { class: "board-turn" });
  // hand
  const hand = Array.isArray(player.hand) ? player.hand : null;
  if (!player.name || hand || player.hand_size) text(g, 318, 20, t("bcn.hand"), { class: "board-small", "text-anchor": "end" });
  if (hand) hand.forEach((kind, k) => citizenDisc(g, kind, 331 + k * 19, 15, 8));
  else {
    for (let k = 0; k < (player.hand_size || 0); k += 1) {
      const h = tip(group(g, {}), t("bcn.tip.hiddenCitizen"));
      svg("circle", { cx: 331 + k * 19, cy: 15, r: 8, fill: "#ddd", stroke: "#666", "stroke-dasharray": "2 2" }, h);
      text(h, 331 + k * 19, 19, "?", { class: "tok-letter", "font-size": 9, fill: "#444" });
    }
  }
  const solo = ctx.view.solo;
  if (solo && solo.seat === seat) {
    text(g, BOARD_W - 10, 21, t("bcn.vpCount", { vp: solo.automa_vp }), { class: "board-vp", "text-anchor": "end" });
    text(g, 236, 20, `${t("bcn.vpCount", { vp: player.vp })} × ${solo.multiplier_percent}% =`, { class: "board-small" });
  } else text(g, BOARD_W - 10, 21, t("bcn.vpCount", { vp: player.vp }), { class: "board-vp", "text-anchor": "end" });
  text(g, BOARD_W - 82, 20, `Cerdà ×${player.cerda_multiplier}`, { class: "board-small", "text-anchor": "end" });

  drawWarehouse(ctx, g, player);
  drawTramArea(ctx, g, player);
  drawIntersections(g, player);
  drawStacks(g, player);
  drawProjects(ctx, g, player, mine);
  drawSagradaTrack(ctx, g, player);
  drawBuiltServices(ctx, g, player);
}

function section(parent, x, y, w, h, title, note = "") {
  svg("rect", { x, y, width: w, height: h, rx: 5, class: "board-section" }, parent);
  text(parent, x + 6, y + 12, title, { class: "section-title" });
  if (note) text(parent, x + w - 6, y + 12, note, { class: "section-note", "text-anchor": "end" });
}

// A printed VP row of the player board (view.player_board): what the next piece taken from it
// would score, once `taken` pieces are gone. Null without a row.
function nextOnRow(row, taken) {
  if (!Array.isArray(row) || !row.length) return null;
  const now = row[Math.min(Math.max(taken, 0), row.length - 1)];
  const next = taken + 1 < row.length ? row[taken + 1] : null;
  return { now, next, gain: next === null ? null : next - now };
}

function nextText(info) {
  if (!info) return "";
  return info.next === null ? t("bcn.noneLeft") : t("bcn.nextOne", { vp: info.next, gain: info.gain });
}

// A small printed VP cell: dark once uncovered, outlined when it is the next one.
function vpCell(parent, x, y, w, h, vp, state) {
  const fill = state === "shown" ? "#263238" : state === "next" ? "#fff8d8" : "#f3efe6";
  svg("rect", { x, y, width: w, height: h, rx: 2.5, fill, stroke: state === "next" ? "#000" : "#b3a78e", "stroke-width": state === "next" ? 1.6 : 0.8 }, parent);
  text(parent, x + w / 2, y + h - 3, t("bcn.vpChip", { vp }), { class: state === "shown" ? "chip-text light" : "chip-text", "font-size": 7.5, fill: state === "shown" ? "#fff" : "#3b2f1b" });
}

function drawWarehouse(ctx, g, player) {
  const x = 14;
  const y = 36;
  const row = (ctx.view.player_board || {}).cobblestone_vp;
  const removed = Array.isArray(row) ? row.length - 1 - player.cobblestones_left : 0;
  const info = nextOnRow(row, removed);
  const total = Math.min(12, player.capacity + player.cobblestones_left);
  section(g, x, y, 284, 64, t("bcn.panel.warehouse"), t("bcn.panel.warehouseNote", { coins: t("bcn.price.coin", { count: player.coins }), cloth: t("bcn.price.cloth", { count: player.cloth }), room: player.capacity }));
  const items = [];
  for (let k = 0; k < player.coins; k += 1) items.push("coin");
  for (let k = 0; k < player.cloth; k += 1) items.push("cloth");
  const w = Math.min(26, 272 / Math.max(total, 1));
  for (let i = 0; i < Math.max(total, items.length); i += 1) {
    const sx = x + 6 + i * w;
    const sy = y + 18;
    const open = i < player.capacity;
    const s = group(g, {});
    svg("rect", { x: sx, y: sy, width: w - 2, height: 24, rx: 3, fill: open ? "#fff" : "url(#bcn-stone)", stroke: open ? "#b3a78e" : "#6f6a62", "stroke-width": 1 }, s);
    if (items[i] === "coin") coin(s, sx + (w - 2) / 2, sy + 12, 8, "");
    else if (items[i] === "cloth") cloth(s, sx + (w - 2) / 2, sy + 12, 7.5, "");
    if (!open && !items[i]) {
      // the VP printed under this cobblestone: shown once it and those left of it are removed
      const k = i - player.capacity;
      const vp = Array.isArray(row) ? row[removed + 1 + k] : undefined;
      if (vp === undefined) tip(s, t("bcn.tip.cobbleInWarehouse"));
      else {
        tip(s, t(k === 0 ? "bcn.tip.cobbleNext" : "bcn.tip.cobbleLater", { vp }));
        vpCell(s, sx + 1.5, sy + 12, w - 5, 11, vp, k === 0 ? "next" : "hidden");
      }
    }
  }
  const now = info ? info.now : player.cobblestone_vp_now;
  const parts = [t("bcn.cobblesLeft", { count: player.cobblestones_left }), t("bcn.vpNow", { vp: now })];
  if (info && info.next !== null) parts.push(nextText(info));
  text(g, x + 6, y + 57, parts.join(" · "), { class: "board-small", "data-next": "cobblestone" });
}

function drawTramArea(ctx, g, player) {
  const x = 304;
  const y = 36;
  const seat = player.seat;
  const row = (ctx.view.player_board || {}).passenger_vp;
  const placed = (player.passengers || []).filter((passenger) => passenger.placed).length;
  const info = nextOnRow(row, placed);
  const now = info ? info.now : player.passenger_vp_now;
  section(g, x, y, 178, 64, t("bcn.panel.passengers"), "");
  text(g, x + 172, y + 12, info && info.next !== null ? t("bcn.vpNext", { vp: now, next: info.next, gain: info.gain }) : t("bcn.vpNow", { vp: now }), {
    class: "section-note",
    "text-anchor": "end",
    "data-next": "passenger",
  });
  if (!player.tram) drawTram(g, seat, x + 20, y + 31, t("bcn.tip.tramHome"));
  else text(g, x + 20, y + 35, player.tram, { class: "board-small", "text-anchor": "middle" });
  (player.passengers || []).forEach((passenger, k) => {
    const px = x + 46 + k * 26;
    const vp = Array.isArray(row) ? row[k + 1] : undefined;
    const label = t(passenger.placed ? "bcn.tip.passengerPlaced" : "bcn.tip.passenger", { n: k + 1, price: priceText(passenger.coin, passenger.cloth) });
    const p = tip(group(g, {}), vp === undefined ? label : t("bcn.tip.withPlaced", { label, vp }));
    svg("rect", { x: px, y: y + 17, width: 24, height: 31, rx: 3, fill: passenger.placed ? "#efece5" : "#fff", stroke: "#b3a78e" }, p);
    if (!passenger.placed) drawPassenger(p, seat, px + 12, y + 25);
    else text(p, px + 12, y + 29, "✓", { class: "board-small", "text-anchor": "middle" });
    const costs = [];
    if (passenger.coin) costs.push(["coin", passenger.coin]);
    if (passenger.cloth) costs.push(["cloth", passenger.cloth]);
    costs.forEach(([kind, n], j) => {
      const cx0 = px + 12 + (costs.length > 1 ? (j ? 5.5 : -5.5) : 0);
      if (kind === "coin") coin(p, cx0, y + 41, 5, n);
      else cloth(p, cx0, y + 41, 4.5, n);
    });
    if (vp !== undefined) vpCell(p, px, y + 50, 24, 11, vp, k < placed ? "shown" : k === placed ? "next" : "hidden");
  });
}

function drawIntersections(g, player) {
  const x = 14;
  const y = 106;
  const seat = player.seat;
  const built = (player.intersections || []).filter((i) => i.built).length;
  const choose = built >= 5 ? 3 : built >= 3 ? 2 : built >= 1 ? 1 : 0;
  section(g, x, y, 284, 64, t("bcn.panel.intersections"), choose ? t("bcn.panel.pickBenefits", { count: choose }) : t("bcn.panel.noneBuilt"));
  (player.intersections || []).forEach((space, k) => {
    const sx = x + 8 + k * 55;
    const s = tip(group(g, {}), t(space.built ? "bcn.tip.intersectionBuilt" : "bcn.tip.intersection", { n: k + 1, price: priceText(space.cost), benefit: benefitText(space.benefit) }));
    svg("rect", { x: sx, y: y + 16, width: 51, height: 44, rx: 4, fill: space.built ? "#fff8d8" : "#f7f4ee", stroke: "#b3a78e" }, s);
    const benefit = group(s, { opacity: space.built ? 1 : 0.55 });
    drawBenefit(benefit, sx + 25.5, y + 51, space.benefit, 0.8);
    if (!space.built) {
      svg("polygon", { points: octagon(sx + 25.5, y + 31, 11), fill: seatStyle(seat).colour, stroke: "#000", "stroke-width": 1 }, s);
      if (space.cost) coin(s, sx + 40, y + 26, 6, space.cost);
    } else {
      text(s, sx + 25.5, y + 35, `✓ ${t("bcn.built")}`, { class: "board-small", "text-anchor": "middle" });
    }
  });
}

function drawStacks(g, player) {
  const x = 304;
  const y = 106;
  const seat = player.seat;
  section(g, x, y, 178, 64, t("bcn.panel.stacks"), "");
  const colour = seatStyle(seat).colour;
  const piles = [
    ...(player.narrow_stacks || []).map((n) => ["narrow", n]),
    ...(player.wide_stacks || []).map((n) => ["wide", n]),
  ];
  piles.forEach(([kind, n], k) => {
    const px = x + 8 + k * 30;
    const w = kind === "wide" ? 14 : 8;
    const p = tip(group(g, {}), t(kind === "wide" ? "bcn.tip.wideStack" : "bcn.tip.narrowStack", { count: n }));
    for (let j = Math.min(n, 3) - 1; j >= 0; j -= 1) {
      svg("rect", { x: px + j * 2, y: y + 17 - j * 2, width: w, height: 18, rx: 2, fill: colour, stroke: "#000", "stroke-width": 0.8 }, p);
    }
    if (!n) svg("rect", { x: px, y: y + 17, width: w, height: 18, rx: 2, fill: "none", stroke: "#999", "stroke-dasharray": "2 2" }, p);
    text(p, px + w + 8, y + 31, n, { class: "board-small" });
  });
  (player.marker_stacks || []).forEach((n, k) => {
    const mx = x + 14 + k * 33;
    const m = tip(group(g, {}), t("bcn.tip.markerStack", { count: n }));
    if (n) {
      seatToken(m, seat, mx, y + 50, 7.5);
      if (n > 1) text(m, mx + 10, y + 47, `×${n}`, { class: "board-small", "text-anchor": "start" });
    } else svg("circle", { cx: mx, cy: y + 50, r: 7, fill: "none", stroke: "#999", "stroke-dasharray": "2 2" }, m);
  });
}

function drawProjects(ctx, g, player, mine) {
  const x = 14;
  const y = 176;
  const seat = player.seat;
  section(g, x, y, 468, 76, t("bcn.panel.projects"), t("bcn.panel.projectsNote"));
  (player.modernisme || []).forEach((space, k) => {
    const n = k + 1;
    const sx = x + 6 + k * 92.5;
    const sy = y + 16;
    const s = group(g, { class: "project", "data-project": n });
    const info = space.tile ? catalogueTile(ctx.view, "modernisme", space.tile) : null;
    if (space.tile) {
      tip(s, t("bcn.tip.project", { tile: space.tile, text: info ? tileText(info) : t("bcn.modernismeTile"), multiplier: space.multiplier }));
      drawModernismeTile(s, sx, sy, 62, 44, info ? { ...info, id: space.tile } : { id: space.tile, vp: "?", condition: "", text: "" });
    } else {
      tip(s, t("bcn.tip.projectEmpty", { n, cloth: space.take_cloth }));
      svg("rect", { x: sx, y: sy, width: 62, height: 44, rx: 5, fill: "#faf7f0", stroke: "#b3a78e", "stroke-dasharray": "4 3" }, s);
      text(s, sx + 31, sy + 20, t("bcn.spaceN", { n }), { class: "board-small", "text-anchor": "middle" });
      text(s, sx + 31, sy + 33, t("bcn.empty"), { class: "board-small faint", "text-anchor": "middle" });
    }
    // marker column: top and bottom positions
    const mx = sx + 63;
    for (const [pos, label, yy] of [["top", space.top_multiplier, sy], ["bottom", space.bottom, sy + 23]]) {
      const here = (pos === "top") === Boolean(space.top);
      svg("rect", { x: mx, y: yy, width: 27, height: 21, rx: 3, fill: here ? tint(seat, "40") : "#f7f4ee", stroke: "#b3a78e" }, s);
      text(s, mx + 10, yy + 14.5, `×${label}`, { class: here ? "mult-text on" : "mult-text" });
    }
    const markerY = space.top ? sy + 7 : sy + 30;
    svg("rect", { x: mx + 18, y: markerY, width: 7, height: 7, fill: seatStyle(seat).colour, stroke: "#000", "stroke-width": 0.8 }, s);
    // costs
    const cost = group(s, {});
    text(cost, sx + 2, sy + 56, t("bcn.takeShort"), { class: "board-tiny" });
    cloth(cost, sx + 26, sy + 53, 4.5, space.take_cloth);
    text(cost, sx + 36, sy + 56, t("bcn.improveShort"), { class: "board-tiny" });
    cloth(cost, sx + 63, sy + 53, 4.5, space.improve_cloth);
    if (mine) {
      target(ctx, g, `improve ${n}`, "rect", { x: mx - 2, y: sy - 2, width: 31, height: 48, rx: 4 }, t("bcn.tip.improve", { n, multiplier: space.top_multiplier, cloth: space.improve_cloth }));
      if (ctx.take && (ctx.legal.take.get(ctx.take) || []).includes(n)) {
        target(ctx, g, `take ${ctx.take} into ${n}`, "rect", { x: sx - 2, y: sy - 2, width: 66, height: 48, rx: 5 }, t("bcn.tip.projectSpace", { n, cloth: space.take_cloth }));
      }
    }
  });
}

function drawSagradaTrack(ctx, g, player) {
  const x = 14;
  const y = 258;
  const seat = player.seat;
  const track = ctx.view.sagrada_track || { top: 10, slots: [] };
  section(g, x, y, 286, 36, t("bcn.panel.sagradaTrack"), "");
  const n = track.top + 1;
  const cell = Math.min(21, 228 / n);
  const left = x + 56;
  let taken = 0;
  for (let i = 0; i < n; i += 1) {
    const sx = left + i * cell;
    const level = track.slots[i] || 0;
    const c = group(g, {});
    let label = t("bcn.tip.sagradaSpace", { n: i });
    let tile = null;
    if (level) {
      tile = (player.sagrada_tiles || [])[taken];
      taken += 1;
      label += `: ${t("bcn.tip.sagradaSlot", { level })}${tile ? `, ${t("bcn.tip.taken", { tile })}` : ""}`;
      const known = tile && catalogueTile(ctx.view, "sagrada", tile);
      if (known) label += ` (${benefitText(known.benefit)})`;
    }
    tip(c, label);
    svg("rect", { x: sx, y: y + 6, width: cell - 2, height: 24, rx: 3, fill: level ? (tile ? "#e9d3a0" : "#fbf1dc") : "#f7f4ee", stroke: level ? "#7a5a1e" : "#c2b8a3", "stroke-width": level ? 1.5 : 1 }, c);
    if (level) text(c, sx + (cell - 2) / 2, y + 14, tile ? "✓" : `L${level}`, { class: "board-tiny", "text-anchor": "middle" });
    if (player.sagrada === i) seatToken(c, seat, sx + (cell - 2) / 2, y + 22, 6);
  }
}

function drawBuiltServices(ctx, g, player) {
  const x = 306;
  const y = 258;
  const services = player.services || [];
  section(g, x, y, 176, 36, t("bcn.panel.builtServices"), services.length ? "" : t("bcn.noneYet"));
  const known = new Map((ctx.view.public_services || []).map((s) => [s.id, s]));
  services.forEach((id, k) => {
    const sx = x + 54 + (k % 3) * 40;
    const sy = y + 4 + Math.floor(k / 3) * 15;
    const service = known.get(id) || { id, name: id };
    const s = tip(group(g, {}), serviceTitle(service));
    svg("rect", { x: sx, y: sy, width: 38, height: 13, rx: 3, fill: "#cfe4d6", stroke: "#4f7a5c" }, s);
    text(s, sx + 19, sy + 9.5, SERVICE_SHORT[id] || clip(id, 8), { class: "board-tiny", "text-anchor": "middle" });
  });
}

// -- the solo opponent ------------------------------------------------------------------------------------

const OUTCOME_FILL = { won: "#d8efd9", lost: "#f6d5cf", tied: "#f6ecc8" };

// The difficulty in the page's language (the lobby's words), and a card's direction.
function difficultyWords(level) {
  return hasKey(`lobby.choice.difficulty.${level}`) ? t(`lobby.choice.difficulty.${level}`) : level;
}

function directionWords(direction) {
  return hasKey(`bcn.direction.${direction}`) ? t(`bcn.direction.${direction}`) : direction;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function drawSolo(ctx, g, y) {
  const solo = ctx.view.solo;
  const name = t("bcn.solo.assistant");
  const player = solo.seat === 0 ? 1 : 0;
  const mine = ctx.viewer === player;
  const you = mine ? t("bcn.solo.you") : ctx.names[player] || t("bcn.solo.thePlayer");
  const difficulty = difficultyWords(solo.difficulty);
  panel(g, 4, y, W - 8, 72, t("bcn.solo.panel", { name, difficulty, percent: solo.multiplier_percent }), t("bcn.solo.panelNote"));
  const card = solo.card;
  const cx0 = 16;
  const cy0 = y + 22;
  const c = tip(group(g, { class: "solo-card" }), card ? t("bcn.solo.cardTip", { n: card.number, title: card.title, direction: directionWords(card.direction) }) : t("bcn.solo.noCardTip"));
  svg("rect", { x: cx0, y: cy0, width: 150, height: 44, rx: 5, fill: "#f0ede6", stroke: "#555" }, c);
  if (card) {
    text(c, cx0 + 8, cy0 + 17, t("bcn.solo.card", { n: card.number }), { class: "tile-head" });
    text(c, cx0 + 8, cy0 + 34, card.title, { class: "info-text" });
    const arrow = { north: 0, east: 90, south: 180, west: 270 }[card.direction] ?? 0;
    svg("path", { d: `M${cx0 + 130} ${cy0 + 10} l8 14 h-5 v12 h-6 v-12 h-5 z`, fill: "#333", transform: `rotate(${arrow} ${cx0 + 130} ${cy0 + 23})` }, c);
    text(c, cx0 + 112, cy0 + 17, directionWords(card.direction), { class: "board-tiny", "text-anchor": "end" });
  } else text(c, cx0 + 8, cy0 + 26, t("bcn.solo.noCard"), { class: "info-text" });
  text(g, 178, y + 36, t("bcn.solo.meeple", { crossing: solo.meeple }), { class: "info-text" });
  text(g, 178, y + 54, t("bcn.solo.deck", { left: solo.deck_left, drawn: (solo.drawn || []).join(", ") || t("bcn.solo.none") }), { class: "info-text" });
  const scores = group(g, { class: "solo-scores" });
  text(scores, 352, y + 36, t("bcn.solo.score", { who: you, vp: solo.player_vp }), { class: "info-strong" });
  text(scores, 352, y + 54, t("bcn.solo.automaScore", { name, vp: solo.automa_vp, before: solo.automa_vp_before_multiplier, percent: solo.multiplier_percent }), { class: "info-text" });
  const bx = 600;
  const banner = group(g, { class: "solo-result", "data-result": solo.result || "playing" });
  if (solo.result) {
    const summary = resultSummary(ctx.view, { seat: ctx.viewer, seats: ctx.seats });
    svg("rect", { x: bx, y: y + 20, width: W - 14 - bx, height: 46, rx: 6, fill: OUTCOME_FILL[solo.result] || "#eee", stroke: "#3b2f1b", "stroke-width": 1.5 }, banner);
    text(banner, bx + 10, y + 39, summary.headline, { class: "solo-headline" });
    text(banner, bx + 10, y + 57, t("bcn.solo.marginLine", { margin: signed(solo.margin), difficulty }), { class: "info-text" });
  } else {
    const key = solo.margin > 0 ? (mine ? "bcn.solo.leadYou" : "bcn.solo.leadOther") : mine ? "bcn.solo.trailYou" : "bcn.solo.trailOther";
    const lead = solo.margin === 0 ? t("bcn.solo.level") : t(key, { who: you, n: Math.abs(solo.margin) });
    text(banner, bx, y + 36, t("bcn.solo.margin", { margin: signed(solo.margin) }), { class: "info-strong" });
    text(banner, bx, y + 54, lead, { class: "info-text" });
  }
}

// The outcome of a finished solo game in words, for the page shell's "Game over" panel (and the
// banner above): whether the player beat the Assistant, and by how much. Null before the end.
export function resultSummary(view, { seat = null, seats = [] } = {}) {
  const solo = view && view.solo;
  if (!solo || !solo.result) return null;
  const name = t("bcn.solo.assistant");
  const player = solo.seat === 0 ? 1 : 0;
  const viewer = Number.isInteger(view.viewer) ? view.viewer : seat;
  const entry = Array.isArray(seats) ? seats.find((s) => s && s.seat === player) : null;
  const mine = viewer === player;
  const who = mine ? t("bcn.solo.you") : (entry && entry.name) || t("bcn.solo.thePlayer");
  const by = Math.abs(solo.margin);
  let key;
  if (solo.result === "won") {
    key = mine ? (by ? "bcn.solo.wonYou" : "bcn.solo.wonYouTie") : by ? "bcn.solo.wonOther" : "bcn.solo.wonOtherTie";
  } else if (solo.result === "lost") {
    key = by ? (mine ? "bcn.solo.lostYou" : "bcn.solo.lostOther") : "bcn.solo.lostTie";
  } else key = mine ? "bcn.solo.tieYou" : "bcn.solo.tieOther";
  const headline = t(key, { who, name, by });
  const detail = t("bcn.solo.detail", {
    who,
    player: solo.player_vp,
    name,
    automa: solo.automa_vp,
    before: solo.automa_vp_before_multiplier,
    percent: solo.multiplier_percent,
    difficulty: difficultyWords(solo.difficulty),
    margin: signed(solo.margin),
  });
  return { headline, detail, outcome: solo.result, margin: solo.margin };
}

// -- the choice of Building type on one space --------------------------------------------------------------

function drawBuildChoice(ctx, g, space) {
  const types = ctx.legal.build.get(space) || [];
  const building = ((ctx.view.city || {}).buildings || []).find((b) => b.id === space);
  let [x, y] = [RIGHT / 2, 300];
  if (building) {
    const [r, c] = building.block;
    x = (cx(c) + cx(c + 1)) / 2;
    y = (cy(r) + cy(r + 1)) / 2;
  }
  const w = 16 + types.length * 58;
  const h = 58;
  const left = Math.max(8, Math.min(RIGHT - w - 8, x - w / 2));
  const above = y - PITCH / 2 - h + 6;
  const top = above >= 8 ? above : y + PITCH / 2 - 6;
  svg("rect", { x: left, y: top, width: w, height: h, rx: 8, class: "choice-panel" }, g);
  text(g, left + 10, top + 15, t("bcn.buildOn", { space }), { class: "panel-title" });
  const close = group(g, { class: "choice-close" });
  svg("circle", { cx: left + w - 12, cy: top + 11, r: 8, fill: "#eee", stroke: "#555" }, close);
  text(close, left + w - 12, top + 15, "×", { class: "tok-letter", "font-size": 11, fill: "#000" });
  close.setAttribute("role", "button");
  close.setAttribute("tabindex", "0");
  close.setAttribute("aria-label", t("bcn.close"));
  activate(close, () => choice.choose("buildSpace", null));
  types.forEach((type, k) => {
    const info = BUILDINGS[type] || { label: type, short: type, fill: "#ddd", ink: "#000" };
    const bx = left + 8 + k * 58;
    const by = top + 22;
    svg("rect", { x: bx, y: by, width: 54, height: 28, rx: 5, fill: info.fill, stroke: "#000" }, g);
    text(g, bx + 27, by + 18, info.label, { class: "choice-text", fill: info.ink });
    target(ctx, g, `build ${type} ${space}`, "rect", { x: bx - 1, y: by - 1, width: 56, height: 30, rx: 6 }, t("bcn.tip.buildingOn", { type: info.label, space }));
  });
}
