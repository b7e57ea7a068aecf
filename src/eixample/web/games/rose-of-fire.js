// Board renderer for Barcelona: The Rose of Fire. One SVG holds the table: the Eixample (its
// districts of spaces with city tiles, houses, blocks, obelisks and starting spaces; Sant Martí
// shaded out when only two play), the tracks (social conflict with the bomb, its events and
// Anarchy; the Auca of prestige; victory points; the round track with the immigration tokens),
// the strikers' places (Raval, the barricades, Montjuïc, the black bag) and the red bag, the
// influence cards, the decks and discard piles, the viewer's hand with its faces and a family
// card per player (houses and strikers left, influence tokens, conviction token, card backs).
//
// Everything comes from the view (docs/formats.md, "Player view"). Legal actions whose target is
// on the table carry data-action="<action text>": spaces (tile), hand cards (card, event, both,
// discard), blocks (block), the house types (house: in a panel beside the tile just placed, whose
// space the decision names, else on the viewer's family card), the viewer's influence
// tokens (drop, keep), its conviction token (reward personalities, extra colonies) and the
// influence cards (buy). Two take two clicks when there is a choice: a space allowing several
// tile colours (data-tile-space) and an influence card with several payments (data-buy), each
// opening a small panel of buttons. "done", "reward", "extra none", "ability first" and
// "strikers first" stay page buttons.
//
// Colour never carries meaning alone: tiles have a pattern and a letter, seats their shape and
// letter, influence symbols their letter (K crown, C colonies, P personalities).

import { t } from "../js/i18n.js";
import { actionTarget, activate, beginDrawing, boardFrame, boardOrder, group, inkFor, seatNames, stepTarget, text, tip, TwoStepChoice, viewerOf } from "../js/draw.js";
import { seatMarker, seatStyle, svg } from "../js/players.js";
import {
  actionWords,
  cardName,
  COLOUR_OF_LETTER,
  colourName,
  decisionHelp as helpFor,
  effectsText,
  groupWords,
  HOUSE_LETTERS,
  houseName,
  kindName,
  LETTER_OF_SYMBOL,
  paymentText,
  symbolName,
} from "./rose-of-fire-words.js";

// -- geometry ------------------------------------------------------------------------------------

const W = 1000;
const CELL = 38;
const GRID_X = [12, 342, 672]; // left edge of each district's grid
const GRID_Y = 38;
const DISTRICT_IDS = ["L", "R", "S"];
const TRACKS_Y = 248;
const SUPPLY_Y = 492;
const HAND_Y = 676;
const CARD_W = 132;
const CARD_H = 176;
const FAMILY_W = 490;
const FAMILY_H = 196;
// The Auca's printed range and the VP track's length (rules.md, "Components in play"); the view
// gives positions, not the board's printing.
const AUCA_MIN = -5;
const AUCA_MAX = 15;
const TRACK_X = 128; // left end of the three tracks, after their names
const VP_SPACES = 40; // past 40 the marker starts again (the Czech rulebook, "stupnice vítězných bodů")

const TILE_FILL = { yellow: "#f2d45c", lilac: "#c5aee6", green: "#8fcb88" };
const TILE_LETTER = { yellow: "Y", lilac: "L", green: "G" };
const SYMBOL_FILL = { crown: "#c9302c", colonies: "#2d6fb4", personalities: "#2e8b57" };
const KIND_FILL = { city: "#5b7fa6", popularity: "#a0522d", prestige: "#7b5aa6", strike: "#333" };

// -- state kept between redraws -------------------------------------------------------------------

// a space picked before the tile's colour, an influence card before its payment
const choice = new TwoStepChoice({
  tileSpace: { legal: "tile", selected: /^tile (\S+) [YLG]$/ },
  buyCard: { legal: "buy", selected: /^buy (\S+) with \S+$/ },
}, new URL("../css/rose-of-fire.css", import.meta.url).href, (...call) => render(...call));

// -- small drawing helpers ------------------------------------------------------------------------

// A player's piece: their shape in their colour, with their letter on it.
function seatToken(parent, seat, x, y, r, label = null) {
  const g = group(parent, { class: "seat-token" });
  seatMarker(g, seat, x, y, r);
  const style = seatStyle(seat);
  const lift = style.shape === "triangle" ? r * 0.18 : 0;
  text(g, x, y + lift + r * 0.38, label ?? style.letter, { class: "tok-letter", "font-size": (r * 1.05).toFixed(1), fill: inkFor(seat) });
  return g;
}

// An influence token: a disc in the symbol's colour with its letter; face down it is grey with "?".
function influenceToken(parent, symbol, x, y, r) {
  const down = !symbol || symbol === "hidden";
  const g = group(parent, { class: `influence-token ${down ? "face-down" : symbol}` });
  svg("circle", { cx: x, cy: y, r, fill: down ? "#6d6456" : SYMBOL_FILL[symbol], stroke: "#1d1a15", "stroke-width": 1.2 }, g);
  text(g, x, y + r * 0.38, down ? "?" : LETTER_OF_SYMBOL[symbol], { class: "tok-letter", "font-size": (r * 1.1).toFixed(1), fill: "#fff" });
  return g;
}

function wrapText(parent, x, y, content, width, maxLines, cls, lineHeight = 11, charWidth = 5.2) {
  const words = String(content).split(/\s+/);
  const lines = [];
  let line = "";
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length * charWidth > width && line) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  const shown = lines.slice(0, maxLines);
  if (lines.length > maxLines) shown[maxLines - 1] = `${shown[maxLines - 1].slice(0, -1)}…`;
  shown.forEach((entry, k) => text(parent, x, y + k * lineHeight, entry, { class: cls, "data-fit": width }));
  return shown.length;
}

function panel(parent, x, y, w, h, title) {
  svg("rect", { x, y, width: w, height: h, rx: 6, class: "rof-panel" }, parent);
  if (title) text(parent, x + 8, y + 15, title, { class: "panel-title" });
}

// -- legal actions ---------------------------------------------------------------------------------

const TARGETS = {
  sets: ["block"],
  maps: {
    tile: (words) => words.length === 3 && [words[1], words[2]], // space -> [colour letters]
    buy: (words, action) => words.length === 4 && [words[1], action], // influence card -> [action texts]
  },
};

// A clickable element playing `action` (only if it is legal now); its tooltip says what it does.
function target(ctx, parent, action, tag, attrs) {
  return actionTarget(ctx, parent, action, tag, attrs, actionLabel(action, { view: ctx.view }));
}

// -- entry point ----------------------------------------------------------------------------------


function hasHand(view, viewer) {
  return viewer !== null && Array.isArray(((view.player_list || [])[viewer] || {}).hand);
}

function familyTop(view, viewer) {
  return hasHand(view, viewer) ? HAND_Y + CARD_H + 44 : HAND_Y;
}

function familyBox(k, top) {
  return [6 + (k % 2) * (FAMILY_W + 8), top + Math.floor(k / 2) * (FAMILY_H + 8)];
}

export function render(root, view, options = {}) {
  const ctx = beginDrawing(choice, root, view, options, { prefix: "rof", targets: TARGETS });
  const { viewer, tileSpace, buyCard } = ctx;
  const players = view.player_list || [];
  ctx.houseSpace = houseSpace(view, Array.from(ctx.legal.all), viewer);

  const top = familyTop(view, viewer);
  const rows = Math.ceil(players.length / 2);
  const height = top + rows * (FAMILY_H + 8) + 4;
  boardFrame(root, choice, { prefix: "rof", width: W, height, label: describe(view, ctx.names), defs: drawDefs });
  drawEixample(ctx, group(root, { class: "rof-eixample" }));
  drawTracks(ctx, group(root, { class: "rof-tracks" }));
  drawStrikers(ctx, group(root, { class: "rof-strikers" }));
  drawInfluenceCards(ctx, group(root, { class: "rof-influence" }));
  drawPiles(ctx, group(root, { class: "rof-piles" }));
  if (hasHand(view, viewer)) drawHand(ctx, group(root, { class: "rof-hand" }), players[viewer]);
  boardOrder(players.length, viewer).forEach((index, k) => {
    const [x, y] = familyBox(k, top);
    drawFamily(ctx, group(root, { class: "rof-family", "data-seat": index }), players[index], x, y);
  });
  if (ctx.houseSpace) drawHouseChoice(ctx, group(root, { class: "rof-house-choice" }), ctx.houseSpace, players[viewer]);
  if (tileSpace) drawTileChoice(ctx, group(root, { class: "rof-choice" }), tileSpace);
  if (buyCard) drawBuyChoice(ctx, group(root, { class: "rof-choice" }), buyCard);
  return Array.from(ctx.handled);
}

// The parts of the table a small screen shows one at a time (js/viewport.js).
export function regions(view, { seat = null, seats = [] } = {}) {
  const players = view.player_list || [];
  const viewer = viewerOf(view, seat);
  const names = seatNames(view, seats);
  const list = [
    { id: "eixample", label: t("rof.region.eixample"), box: [0, 0, W, TRACKS_Y - 4] },
    { id: "tracks", label: t("rof.region.tracks"), box: [0, TRACKS_Y - 4, W, SUPPLY_Y - TRACKS_Y + 4] },
    { id: "supply", label: t("rof.region.supply"), box: [0, SUPPLY_Y - 4, W, HAND_Y - SUPPLY_Y] },
  ];
  if (hasHand(view, viewer)) list.push({ id: "hand", label: t("rof.region.hand"), box: [0, HAND_Y - 4, W, CARD_H + 46] });
  const top = familyTop(view, viewer);
  boardOrder(players.length, viewer).forEach((index, k) => {
    const [x, y] = familyBox(k, top);
    list.push({ id: `family-${index}`, label: t("rof.region.family", { name: names[index] }), box: [x - 4, y - 4, FAMILY_W + 8, FAMILY_H + 8] });
  });
  return list;
}

// The page's words for an action text, a group of buttons and the pending decision.
export function actionLabel(action, { view = null } = {}) {
  return actionWords(action, view) || action;
}

export function groupLabel(word) {
  return groupWords(word);
}

export function decisionHelp(view) {
  return helpFor(view && view.decision_kind);
}

function describe(view, names) {
  const scores = (view.player_list || []).map((p, i) => t("rof.describe.player", { name: names[i], vp: p.vp, prestige: p.prestige })).join("; ");
  return t("rof.describe.board", { period: view.period, phase: view.phase, bomb: view.conflict.bomb, scores });
}

function drawDefs(root) {
  const defs = svg("defs", {}, root);
  const dots = svg("pattern", { id: "rof-pat-yellow", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, defs);
  svg("circle", { cx: 4, cy: 4, r: 1.3, fill: "#8a6d00", opacity: 0.55 }, dots);
  const stripes = svg("pattern", { id: "rof-pat-lilac", width: 7, height: 7, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  svg("line", { x1: 0, y1: 0, x2: 0, y2: 7, stroke: "#5b3f86", "stroke-width": 1.4, opacity: 0.45 }, stripes);
  const cross = svg("pattern", { id: "rof-pat-green", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, defs);
  svg("path", { d: "M0 4H8M4 0V8", stroke: "#2c6a28", "stroke-width": 1, opacity: 0.45 }, cross);
  const shade = svg("pattern", { id: "rof-shade", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  svg("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "#9b917f", "stroke-width": 3 }, shade);
}

// -- the Eixample ----------------------------------------------------------------------------------

function spaceXY(space) {
  const district = DISTRICT_IDS.indexOf(space[0]);
  const row = space.charCodeAt(1) - 65;
  const column = Number(space.slice(2)) - 1;
  return [GRID_X[district] + column * CELL, GRID_Y + row * CELL];
}

function drawEixample(ctx, g) {
  const { view } = ctx;
  const used = new Set((view.districts || []).map((d) => d.id));
  DISTRICT_IDS.forEach((id, k) => {
    const x = GRID_X[k];
    const info = (view.districts || []).find((d) => d.id === id);
    const name = info ? t(`rof.district.${id}`) : t("rof.district.S");
    text(g, x, GRID_Y - 10, name, { class: "district-name" });
    if (!used.has(id)) {
      svg("rect", { x: x - 2, y: GRID_Y - 2, width: 8 * CELL + 4, height: 5 * CELL + 4, rx: 4, fill: "url(#rof-shade)", class: "district-unused" }, g);
      const note = group(g, { class: "unused-note" });
      svg("rect", { x: x + 40, y: GRID_Y + 76, width: 8 * CELL - 80, height: 38, rx: 5, fill: "#f6f1e6", stroke: "#9b917f" }, note);
      text(note, x + 4 * CELL, GRID_Y + 99, t("rof.district.unused"), { class: "unused-text" });
      return;
    }
    svg("rect", { x: x - 3, y: GRID_Y - 3, width: 8 * CELL + 6, height: 5 * CELL + 6, rx: 4, class: "district-frame" }, g);
  });
  const blocks = new Map();
  for (const space of view.eixample || []) {
    drawSpace(ctx, g, space);
    if (space.block) blocks.set(space.block, true);
  }
  for (const block of blocks.keys()) drawBlock(g, block, (view.obelisks.blocks || []).includes(block));
  for (const block of ctx.legal.block) {
    const [x, y] = spaceXY(block);
    target(ctx, g, `block ${block}`, "rect", { x: x + 1, y: y + 1, width: 2 * CELL - 2, height: 2 * CELL - 2, rx: 5, "data-block": block });
  }
}

function drawSpace(ctx, g, space) {
  const [x, y] = spaceXY(space.space);
  const cell = group(g, { class: "space", "data-space": space.space });
  if (space.tile) {
    svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 2, fill: TILE_FILL[space.tile], class: "tile" }, cell);
    svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 2, fill: `url(#rof-pat-${space.tile})`, class: "tile-pattern" }, cell);
    if (space.complete) svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 2, class: "tile-complete" }, cell);
    text(cell, x + 4, y + 11, TILE_LETTER[space.tile], { class: "tile-letter" });
    tip(cell, t(space.complete ? "rof.tip.tileComplete" : "rof.tip.tile", { space: space.space, colour: colourName(space.tile) }));
  } else {
    svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 2, class: "space-empty" }, cell);
    text(cell, x + CELL / 2, y + CELL - 5, space.space.slice(1), { class: "space-name" });
    if (space.start) {
      svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2 - 3, r: 10, fill: TILE_FILL[space.start], stroke: "#3d3526", "stroke-width": 1.4, "stroke-dasharray": "3 2" }, cell);
      text(cell, x + CELL / 2, y + CELL / 2 + 1, TILE_LETTER[space.start], { class: "start-letter" });
      tip(cell, t("rof.tip.start", { space: space.space, colour: colourName(space.start) }));
    } else {
      tip(cell, space.space);
    }
  }
  if (space.house) drawHouse(cell, x, y, space.house, ctx);
  const colours = ctx.legal.tile.get(space.space);
  if (!colours) return;
  const box = { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 3 };
  if (colours.length === 1) {
    target(ctx, g, `tile ${space.space} ${colours[0]}`, "rect", box);
  } else {
    for (const letter of colours) ctx.handled.add(`tile ${space.space} ${letter}`);
    const label = t("rof.tip.tileChoice", { space: space.space, colours: colours.map((c) => colourName(COLOUR_OF_LETTER[c])).join(", ") });
    stepTarget(ctx, g, "rect", { ...box, "data-tile-space": space.space }, label, ctx.tileSpace === space.space, () => {
      choice.choose("tileSpace", space.space, ".rof-choice [data-action]");
    });
  }
}

function drawHouse(parent, x, y, house, ctx) {
  const g = group(parent, { class: "house", "data-owner": house.owner, "data-house": house.type });
  seatToken(g, house.owner, x + CELL / 2, y + CELL / 2, 11.5);
  svg("rect", { x: x + CELL - 15, y: y + CELL - 14, width: 13, height: 12, rx: 2, class: "house-type-box" }, g);
  text(g, x + CELL - 8.5, y + CELL - 4.5, house.type, { class: "house-type" });
  tip(g, t("rof.tip.house", { house: houseName(house.type), name: ctx.names[house.owner] }));
}

function drawBlock(g, block, obelisk) {
  const [x, y] = spaceXY(block);
  svg("rect", { x: x - 1, y: y - 1, width: 2 * CELL + 2, height: 2 * CELL + 2, rx: 4, class: "block-frame" }, g);
  if (!obelisk) return;
  const ob = group(g, { class: "obelisk" });
  const cx = x + CELL;
  const cy = y + CELL;
  svg("polygon", { points: `${cx},${cy - 14} ${cx + 5},${cy - 8} ${cx + 5},${cy + 12} ${cx - 5},${cy + 12} ${cx - 5},${cy - 8}`, fill: "#e8e3d8", stroke: "#222", "stroke-width": 1.3 }, ob);
  tip(ob, t("rof.tip.obelisk", { space: block }));
}

// -- tracks ----------------------------------------------------------------------------------------

function drawTracks(ctx, g) {
  const { view } = ctx;
  panel(g, 4, TRACKS_Y, W - 8, 148, "");
  drawConflict(ctx, g, TRACKS_Y + 8);
  drawAuca(ctx, g, TRACKS_Y + 54);
  drawVP(ctx, g, TRACKS_Y + 100);
  if (view.conflict.anarchy) {
    const banner = group(g, { class: "anarchy-banner" });
    svg("rect", { x: 770, y: TRACKS_Y + 2, width: 222, height: 16, rx: 3, fill: "#111" }, banner);
    text(banner, 881, TRACKS_Y + 14, t("rof.conflict.anarchyNow"), { class: "banner-text" });
  }
}

function trackLabel(g, y, label) {
  const lines = label.length * 6.6 > TRACK_X - 18 ? 2 : 1;
  wrapText(g, 12, y + (lines === 1 ? 16 : 10), label, TRACK_X - 18, 2, "track-label", 13, 6.6);
}

function drawConflict(ctx, g, y) {
  const { conflict } = ctx.view;
  trackLabel(g, y, t("rof.conflict.title"));
  const x0 = TRACK_X;
  const step = 30;
  const events = Object.entries(conflict.events || {});
  for (let k = 0; k <= conflict.anarchy_space; k += 1) {
    const x = x0 + k * step;
    const cell = group(g, { class: "conflict-space", "data-space": k });
    const anarchy = k === conflict.anarchy_space;
    svg("rect", { x, y, width: step - 3, height: 26, rx: 3, class: anarchy ? "conflict-cell anarchy" : "conflict-cell" }, cell);
    text(cell, x + 3, y + 8, k, { class: "cell-number" });
    const event = events.find(([, info]) => info.space === k);
    if (event) {
      const [symbol, info] = event;
      influenceToken(cell, symbol, x + (step - 3) / 2, y + 15, 8);
      if (info.fired) svg("path", { d: `M${x + 4} ${y + 22}L${x + step - 7} ${y + 5}`, class: "fired-stroke" }, cell);
      tip(cell, t(info.fired ? "rof.tip.eventFired" : "rof.tip.event", { symbol: symbolName(symbol), space: k }));
    } else if (anarchy) {
      text(cell, x + (step - 3) / 2, y + 20, "A", { class: "anarchy-letter" });
      tip(cell, t("rof.tip.anarchy", { space: k }));
    }
  }
  const bx = x0 + Math.min(conflict.bomb, conflict.anarchy_space) * step + (step - 3) / 2;
  const bomb = group(g, { class: "bomb" });
  svg("circle", { cx: bx, cy: y + 15, r: 9, fill: "#111", stroke: "#f5c542", "stroke-width": 2 }, bomb);
  svg("path", { d: `M${bx + 5} ${y + 8}q4 -6 8 -4`, stroke: "#d9480f", "stroke-width": 2, fill: "none" }, bomb);
  tip(bomb, t("rof.tip.bomb", { space: conflict.bomb }));
}

function stackedTokens(g, seats, x, y, w) {
  const r = Math.min(7, w / 4);
  seats.forEach((seat, k) => {
    const dx = (k % 2) * 2 * r - r + w / 2;
    const dy = Math.floor(k / 2) * 2 * r;
    seatToken(g, seat, x + dx, y + dy, r);
  });
}

function drawAuca(ctx, g, y) {
  const players = ctx.view.player_list || [];
  trackLabel(g, y, t("rof.auca.title"));
  const x0 = TRACK_X;
  const step = 40;
  for (let v = AUCA_MIN; v <= AUCA_MAX; v += 1) {
    const x = x0 + (v - AUCA_MIN) * step;
    svg("rect", { x, y, width: step - 3, height: 38, rx: 3, class: v < 0 ? "auca-cell negative" : "auca-cell" }, g);
    text(g, x + 3, y + 9, v, { class: "cell-number" });
    const here = players.map((p, i) => [p, i]).filter(([p]) => Math.max(AUCA_MIN, Math.min(AUCA_MAX, p.prestige)) === v).map(([, i]) => i);
    const tokens = group(g, { class: "auca-markers" });
    stackedTokens(tokens, here, x, y + 17, step - 3);
    if (here.length) tip(tokens, here.map((i) => t("rof.tip.prestige", { name: ctx.names[i], prestige: players[i].prestige })).join("; "));
  }
}

function drawVP(ctx, g, y) {
  const players = ctx.view.player_list || [];
  trackLabel(g, y, t("rof.vp.title"));
  const x0 = TRACK_X;
  const step = 21;
  for (let v = 0; v < VP_SPACES; v += 1) {
    const x = x0 + v * step;
    svg("rect", { x, y, width: step - 2, height: 38, rx: 2, class: v % 10 === 0 ? "vp-cell tens" : "vp-cell" }, g);
    if (v % 5 === 0) text(g, x + 1.5, y + 9, v, { class: "cell-number" });
    // a negative score waits on 0 (its tooltip tells it); past the end the marker goes round
    const here = players.map((p, i) => [p, i]).filter(([p]) => Math.max(0, p.vp) % VP_SPACES === v).map(([, i]) => i);
    here.forEach((seat, k) => {
      const marker = seatToken(g, seat, x + (step - 2) / 2, y + 18 + k * 5, 7);
      tip(marker, t("rof.tip.vp", { name: ctx.names[seat], vp: players[seat].vp }));
    });
  }
}

// -- round track, strikers, bags ---------------------------------------------------------------------

function drawStrikers(ctx, g) {
  const { view } = ctx;
  const y = TRACKS_Y + 154;
  const players = view.player_list || [];
  // round track: five phases, the immigration token drawn for each
  panel(g, 4, y, 262, 84, t("rof.round.title"));
  const periods = ["I", "I", "II", "II", "III"];
  for (let k = 0; k < 5; k += 1) {
    const x = 12 + k * 50;
    const current = k + 1 === view.phase;
    const cell = group(g, { class: `round-space${current ? " current" : ""}` });
    svg("rect", { x, y: y + 22, width: 46, height: 56, rx: 4, class: current ? "round-cell current" : "round-cell" }, cell);
    text(cell, x + 23, y + 34, t("rof.round.phase", { phase: k + 1, period: periods[k] }), { class: "round-name" });
    const level = (view.immigration.round_track || [])[k];
    if (level !== undefined) {
      svg("polygon", { points: hexagon(x + 23, y + 58, 13), class: "immigration-token" }, cell);
      text(cell, x + 23, y + 63, level, { class: "immigration-level" });
      tip(cell, t("rof.tip.immigration", { phase: k + 1, level }));
    }
  }
  // Raval, barricades, Montjuïc and the black bag
  const px = 272;
  panel(g, px, y, 420, 84, "");
  const columns = [
    [t("rof.place.raval"), players.map((p) => p.strikers.raval), null],
    [t("rof.place.barricades"), players.map((p) => p.strikers.barricades), view.barricade_soldiers],
    [t("rof.place.blackBag"), view.black_bag.strikers, view.black_bag.soldiers],
    [t("rof.place.montjuic"), null, view.montjuic],
  ];
  columns.forEach(([title, strikers, soldiers], k) => {
    const x = px + 8 + k * 104;
    const cell = group(g, { class: "striker-place" });
    text(cell, x, y + 15, title, { class: "place-title", "data-fit": 96 });
    const parts = [];
    (strikers || []).forEach((count, seat) => {
      const sx = x + 12 + (seat % 2) * 46;
      const sy = y + 32 + Math.floor(seat / 2) * 22;
      seatToken(cell, seat, sx, sy, 8);
      text(cell, sx + 12, sy + 4, `×${count}`, { class: "count-text" });
      parts.push(t("rof.tip.strikers", { name: ctx.names[seat], count }));
    });
    if (soldiers !== null) {
      const sx = x + (strikers ? 12 : 20);
      const sy = strikers ? y + 32 + Math.ceil(players.length / 2) * 22 : y + 40;
      soldier(cell, sx, sy, strikers ? 7 : 11);
      text(cell, sx + 12, sy + 4, `×${soldiers}`, { class: "count-text" });
      parts.push(t("rof.tip.soldiers", { count: soldiers }));
    }
    tip(cell, `${title}: ${parts.join(", ")}`);
  });
  // bags, tiles and obelisks left
  const sx = px + 426;
  panel(g, sx, y, W - 4 - sx, 84, "");
  const bag = group(g, { class: "red-bag" });
  svg("path", { d: `M${sx + 14} ${y + 30}q-6 40 22 40q28 0 22 -40z`, fill: "#b3261e", stroke: "#3d0c08" }, bag);
  text(bag, sx + 36, y + 58, view.red_bag, { class: "bag-count" });
  text(bag, sx + 36, y + 18, t("rof.place.redBag"), { class: "place-title middle" });
  tip(bag, t("rof.tip.redBag", { count: view.red_bag }));
  Object.entries(view.tiles_left || {}).forEach(([colour, count], k) => {
    const tx = sx + 96 + k * 48;
    const tile = group(g, { class: "tiles-left" });
    svg("rect", { x: tx, y: y + 30, width: 26, height: 26, rx: 2, fill: TILE_FILL[colour] }, tile);
    svg("rect", { x: tx, y: y + 30, width: 26, height: 26, rx: 2, fill: `url(#rof-pat-${colour})`, stroke: "#3d3526" }, tile);
    text(tile, tx + 13, y + 48, TILE_LETTER[colour], { class: "start-letter" });
    text(tile, tx + 13, y + 72, `×${count}`, { class: "count-text middle" });
    tip(tile, t("rof.tip.tilesLeft", { colour: colourName(colour), count }));
  });
  const ob = group(g, { class: "obelisks-left" });
  const ox = sx + 252;
  svg("polygon", { points: `${ox},${y + 26} ${ox + 6},${y + 33} ${ox + 6},${y + 58} ${ox - 6},${y + 58} ${ox - 6},${y + 33}`, fill: "#e8e3d8", stroke: "#222" }, ob);
  text(ob, ox, y + 72, `×${view.obelisks.left}`, { class: "count-text middle" });
  tip(ob, t("rof.tip.obelisksLeft", { count: view.obelisks.left }));
  text(g, sx + 96, y + 18, t("rof.place.tiles"), { class: "place-title" });
}

function hexagon(x, y, r) {
  const points = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 3) * i;
    points.push(`${(x + r * Math.cos(angle)).toFixed(1)},${(y + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function soldier(parent, x, y, r) {
  svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: r * 0.3, fill: "#4b5320", stroke: "#1c1f0c" }, parent);
  text(parent, x, y + r * 0.4, "S", { class: "tok-letter", "font-size": (r * 1.1).toFixed(1), fill: "#fff" });
}

// -- influence cards, decks and discard piles --------------------------------------------------------

function drawInfluenceCards(ctx, g) {
  const { view } = ctx;
  const cards = view.influence_cards || [];
  text(g, 10, SUPPLY_Y + 8, t("rof.influence.title"), { class: "section-title" });
  const w = 106;
  cards.forEach((card, k) => {
    const x = 8 + k * (w + 4);
    const y = SUPPLY_Y + 14;
    const node = group(g, { class: `influence-card status-${typeof card.status === "number" ? "owned" : card.status}`, "data-influence": card.id, "data-card": card.id });
    svg("rect", { x, y, width: w, height: 100, rx: 6, class: "influence-face" }, node);
    svg("rect", { x, y, width: w, height: 18, rx: 6, fill: SYMBOL_FILL[card.symbol] }, node);
    text(node, x + 6, y + 13, `${card.id} · ${symbolName(card.symbol)}`, { class: "influence-head", "data-fit": w - 10 });
    wrapText(node, x + 6, y + 30, card.name, w - 10, 2, "influence-name", 10, 5.4);
    let cx = x + 12;
    for (const [symbol, count] of Object.entries(card.cost || {})) {
      for (let n = 0; n < count; n += 1) {
        influenceToken(node, symbol, cx, y + 62, 7);
        cx += 15;
      }
    }
    svg("rect", { x: x + w - 34, y: y + 72, width: 30, height: 22, rx: 4, fill: "#263238" }, node);
    text(node, x + w - 19, y + 87, `${card.vp}`, { class: "vp-chip" });
    let status = "";
    if (typeof card.status === "number") {
      seatToken(node, card.status, x + 14, y + 84, 8);
      status = t("rof.influence.owned", { name: ctx.names[card.status] });
    } else if (card.status !== "available") {
      status = t(`rof.influence.${card.status}`);
      svg("rect", { x, y, width: w, height: 100, rx: 6, class: "influence-gone" }, node);
      wrapText(node, x + 6, y + 80, status, w - 44, 2, "status-text", 10, 5);
    }
    const cost = Object.entries(card.cost || {}).map(([symbol, count]) => t("rof.pay.tokens", { n: count, symbol: symbolName(symbol) })).join(", ");
    tip(node, t("rof.tip.influence", { name: card.name, cost, vp: card.vp }) + (status ? ` — ${status}` : ""));
    const payments = ctx.legal.buy.get(card.id);
    if (!payments) return;
    const box = { x: x - 1, y: y - 1, width: w + 2, height: 102, rx: 7 };
    if (payments.length === 1) target(ctx, g, payments[0], "rect", box);
    else {
      for (const action of payments) ctx.handled.add(action);
      stepTarget(ctx, g, "rect", { ...box, "data-buy": card.id }, t("rof.tip.buyChoice", { name: card.name, count: payments.length }), ctx.buyCard === card.id, () => {
        choice.choose("buyCard", card.id, ".rof-choice [data-action]");
      });
    }
  });
}

function drawPiles(ctx, g) {
  const { view } = ctx;
  const y = SUPPLY_Y + 122;
  ["city", "popularity", "prestige"].forEach((kind, k) => {
    const x = 8 + k * 330;
    const pile = group(g, { class: "pile", "data-pile": kind });
    panel(pile, x, y, 322, 50, "");
    cardBack(pile, kind, x + 8, y + 6, 28, 38);
    text(pile, x + 42, y + 20, t("rof.pile.deck", { kind: kindName(kind), count: view.decks[kind] }), { class: "pile-title" });
    const discards = (view.discards || {})[kind] || [];
    const shown = discards.length > 12 ? [...discards.slice(0, 12), "…"] : discards;
    text(pile, x + 42, y + 34, t("rof.pile.discard", { count: discards.length }), { class: "pile-note" });
    text(pile, x + 42, y + 46, shown.join(" "), { class: "pile-cards" });
    tip(pile, `${t("rof.pile.deck", { kind: kindName(kind), count: view.decks[kind] })}. ${t("rof.pile.discard", { count: discards.length })}: ${discards.join(", ")}`);
  });
}

function cardBack(parent, kind, x, y, w, h) {
  const g = group(parent, { class: `card-back ${kind}` });
  svg("rect", { x, y, width: w, height: h, rx: 3, fill: KIND_FILL[kind], stroke: "#1d1a15" }, g);
  svg("rect", { x: x + 3, y: y + 3, width: w - 6, height: h - 6, rx: 2, fill: "none", stroke: "#fff", "stroke-opacity": 0.6 }, g);
  text(g, x + w / 2, y + h / 2 + 4, kindName(kind).slice(0, 1).toUpperCase(), { class: "back-letter" });
  return g;
}

// -- the viewer's hand ---------------------------------------------------------------------------------

function drawHand(ctx, g, player) {
  const cards = player.hand || [];
  text(g, 10, HAND_Y + 8, t("rof.hand.title"), { class: "section-title" });
  const step = Math.min(CARD_W + 8, (W - 16) / Math.max(1, cards.length));
  cards.forEach((card, k) => drawCard(ctx, g, card, 8 + k * step, HAND_Y + 14, Math.min(CARD_W, step - 6)));
}

function drawCard(ctx, g, card, x, y, w) {
  const node = group(g, { class: `hand-card ${card.kind}`, "data-card": card.id });
  svg("rect", { x, y, width: w, height: CARD_H, rx: 7, class: "card-face" }, node);
  svg("rect", { x, y, width: w, height: 22, rx: 7, fill: KIND_FILL[card.kind] }, node);
  text(node, x + 6, y + 15, `${kindName(card.kind)} · ${card.id}`, { class: "card-kind", "data-fit": w - 10 });
  if (card.colour && card.kind !== "strike") {
    const colours = card.colour === "any" ? ["yellow", "lilac", "green"] : [card.colour];
    colours.forEach((colour, k) => {
      const cx = x + 8 + k * 30;
      svg("rect", { x: cx, y: y + 28, width: 26, height: 26, rx: 2, fill: TILE_FILL[colour] }, node);
      svg("rect", { x: cx, y: y + 28, width: 26, height: 26, rx: 2, fill: `url(#rof-pat-${colour})`, stroke: "#3d3526" }, node);
      text(node, cx + 13, y + 46, TILE_LETTER[colour], { class: "start-letter" });
    });
  }
  (card.houses || []).forEach((house, k) => {
    const hx = x + w - 22 - k * 22;
    svg("polygon", { points: `${hx},${y + 36} ${hx + 9},${y + 28} ${hx + 18},${y + 36} ${hx + 18},${y + 52} ${hx},${y + 52}`, class: "house-icon" }, node);
    text(node, hx + 9, y + 49, house, { class: "house-icon-letter" });
  });
  let line = y + 70;
  if (card.kind === "city") {
    line += 11 * wrapText(node, x + 6, line, t("rof.card.tile", { colour: colourName(card.colour) }), w - 10, 2, "card-text", 11, 4.7);
    wrapText(node, x + 6, line + 2, t("rof.card.houses", { houses: (card.houses || []).map(houseName).join(", ") }), w - 10, 4, "card-text", 11, 4.7);
  } else {
    line += 11 * wrapText(node, x + 6, line, card.title, w - 10, 2, "card-title", 11, 5.6);
  }
  const ability = effectsText(card.ability);
  if (ability) line += 10 * wrapText(node, x + 6, line + 2, t("rof.card.ability", { effects: ability }), w - 10, 3, "card-text", 10, 4.7) + 4;
  const event = effectsText(card.event);
  if (event) wrapText(node, x + 6, line + 2, t("rof.card.event", { effects: event }), w - 10, 3, "card-text event", 10, 4.7);
  if (card.kind === "strike") wrapText(node, x + 6, line, t("rof.card.strikeText"), w - 10, 5, "card-text", 10, 4.7);
  const houses = (card.houses || []).map(houseName).join(", ");
  const colour = card.colour === "any" ? t("rof.colour.any") : card.colour ? colourName(card.colour) : "";
  tip(node, [card.kind === "city" ? kindName(card.kind) : card.title, colour, houses, ability, event ? t("rof.card.event", { effects: event }) : ""].filter(Boolean).join(" · "));
  const face = { x: x - 1, y: y - 1, width: w + 2, height: CARD_H + 2, rx: 8 };
  target(ctx, g, `card ${card.id}`, "rect", face) || target(ctx, g, `discard ${card.id}`, "rect", face);
  // an event card's other ways to be played: buttons under the card
  const extras = [`event ${card.id}`, `both ${card.id}`].filter((action) => ctx.legal.all.has(action));
  extras.forEach((action, k) => {
    const bw = (w - 4) / 2;
    const bx = x + k * (bw + 4);
    const by = y + CARD_H + 4;
    svg("rect", { x: bx, y: by, width: bw, height: 24, rx: 4, class: "chip-button" }, g);
    text(g, bx + bw / 2, by + 16, t(`rof.card.${action.split(" ")[0]}Button`), { class: "chip-label" });
    target(ctx, g, action, "rect", { x: bx, y: by, width: bw, height: 24, rx: 4 });
  });
}

// -- family cards -----------------------------------------------------------------------------------

function drawFamily(ctx, g, player, x, y) {
  const { view } = ctx;
  const seat = player.seat;
  const own = ctx.viewer === seat;
  const style = seatStyle(seat);
  const deciding = view.current_player === seat && !view.terminal;
  svg("rect", { x, y, width: FAMILY_W, height: FAMILY_H, rx: 8, class: "family-card" }, g);
  if (deciding) svg("rect", { x: x + 1.5, y: y + 1.5, width: FAMILY_W - 3, height: FAMILY_H - 3, rx: 7, fill: "none", stroke: style.colour, "stroke-width": 3.5, class: "deciding-frame" }, g);
  svg("rect", { x, y, width: 8, height: FAMILY_H, rx: 3, fill: style.colour }, g);
  seatToken(g, seat, x + 24, y + 18, 11);
  const title = own ? t("rof.family.you", { name: ctx.names[seat] }) : ctx.names[seat];
  text(g, x + 42, y + 23, title, { class: "family-name" });
  const facts = [t("rof.family.vp", { vp: player.vp }), t("rof.family.prestige", { prestige: player.prestige })];
  if (view.first_player === seat) facts.push(t("rof.family.first"));
  if (deciding) facts.push(t("rof.family.deciding"));
  text(g, x + FAMILY_W - 10, y + 23, facts.join(" · "), { class: "family-facts" });

  // houses left by type; the viewer's are the targets of a "house" decision
  text(g, x + 18, y + 46, t("rof.family.houses"), { class: "family-label" });
  HOUSE_LETTERS.forEach((letter, k) => {
    const hx = x + 18 + k * 56;
    const hy = y + 52;
    const cell = group(g, { class: "house-supply", "data-house": letter });
    svg("polygon", { points: `${hx},${hy + 12} ${hx + 13},${hy} ${hx + 26},${hy + 12} ${hx + 26},${hy + 30} ${hx},${hy + 30}`, fill: style.colour, stroke: "#1d1a15", "stroke-width": 1.2 }, cell);
    text(cell, hx + 13, hy + 26, letter, { class: "tok-letter", "font-size": 12, fill: inkFor(seat) });
    text(cell, hx + 30, hy + 26, `×${player.houses_left[letter]}`, { class: "count-text" });
    tip(cell, t("rof.tip.housesLeft", { house: houseName(letter), count: player.houses_left[letter] }));
    if (own && !ctx.houseSpace) target(ctx, g, `house ${letter}`, "rect", { x: hx - 4, y: hy - 4, width: 54, height: 38, rx: 5 });
  });

  // strikers
  const s = player.strikers;
  text(g, x + 250, y + 46, t("rof.family.strikers"), { class: "family-label" });
  const counts = t("rof.family.strikerCounts", { supply: s.supply, raval: s.raval, barricades: s.barricades, bag: s.bag });
  wrapText(g, x + 250, y + 62, counts, 190, 3, "family-small", 12, 5.2);

  // influence tokens and conviction
  text(g, x + 18, y + 104, t("rof.family.tokens"), { class: "family-label" });
  const tokens = group(g, { class: "family-tokens" });
  let tx = x + 26;
  if (player.token_symbols) {
    for (const [symbol, count] of Object.entries(player.token_symbols)) {
      for (let n = 0; n < count; n += 1) {
        influenceToken(tokens, symbol, tx, y + 120, 9);
        tx += 21;
      }
      const drop = own && count ? secretAction(player, "drop", symbol) : null;
      if (drop) target(ctx, g, drop, "circle", { cx: tx - 21, cy: y + 120, r: 11 });
    }
    tip(tokens, Object.entries(player.token_symbols).map(([symbol, count]) => t("rof.pay.tokens", { n: count, symbol: symbolName(symbol) })).join(", ") || t("rof.family.none"));
  } else {
    for (let n = 0; n < player.tokens; n += 1) {
      influenceToken(tokens, "hidden", tx, y + 120, 9);
      tx += 21;
    }
    tip(tokens, t("rof.tip.tokensDown", { count: player.tokens }));
  }
  if (!player.tokens) text(g, x + 18, y + 124, t("rof.family.none"), { class: "family-small" });
  // the two tokens drawn for an upper-class house: keep one
  // (the engine names secret choices by a place that says nothing of the symbol: the seat's own
  // view maps each offered text to its symbol)
  const keeps = Object.entries(player.secret_choice || {}).filter(([action]) => action.startsWith("keep "));
  if (own && keeps.length) {
    text(g, x + 250, y + 104, t("rof.family.keep"), { class: "family-label" });
    keeps.forEach(([action, symbol], k) => {
      influenceToken(g, symbol, x + 262 + k * 30, y + 120, 10);
      target(ctx, g, action, "circle", { cx: x + 262 + k * 30, cy: y + 120, r: 13 });
    });
  }
  drawConviction(ctx, g, player, x + FAMILY_W - 50, y + 128, own);

  // cards: the hand's backs by kind, cards on the table, influence cards
  text(g, x + 18, y + 152, t("rof.family.hand"), { class: "family-label" });
  let cx = x + 18;
  for (const [kind, count] of Object.entries(player.hand_counts || {})) {
    if (!count) continue;
    const back = cardBack(g, kind, cx, y + 158, 22, 30);
    text(g, cx + 26, y + 178, `×${count}`, { class: "count-text" });
    tip(back, t("rof.tip.backs", { count, kind: kindName(kind) }));
    cx += 54;
  }
  const extras = [];
  if ((player.table || []).length) extras.push(t("rof.family.table", { cards: player.table.map((id) => cardName(view, id)).join(", ") }));
  if ((player.influence_cards || []).length) extras.push(t("rof.family.influence", { cards: player.influence_cards.join(", ") }));
  if (player.strike_in_front) extras.push(t("rof.family.strikeInFront"));
  extras.forEach((line, k) => wrapText(g, x + 250, y + 160 + k * 12, line, 230, 1, "family-small"));
}

// The offered secret action ("drop 2") that names a token of `symbol`, from the seat's own view.
function secretAction(player, verb, symbol) {
  const offered = Object.entries(player.secret_choice || {});
  const found = offered.find(([action, named]) => named === symbol && action.startsWith(`${verb} `));
  return found ? found[0] : null;
}

function drawConviction(ctx, g, player, x, y, own) {
  const node = group(g, { class: "conviction", "data-conviction": player.conviction === null ? "none" : player.conviction === "hidden" ? "hidden" : "shown" });
  text(node, x, y - 20, t("rof.family.conviction"), { class: "family-label middle" });
  if (player.conviction === null) {
    text(node, x, y + 4, "—", { class: "count-text middle" });
    tip(node, t("rof.tip.convictionNone"));
    return;
  }
  const faceUp = player.conviction !== "hidden";
  svg("circle", { cx: x, cy: y, r: 16, fill: "none", stroke: "#1d1a15", "stroke-width": 1.5, "stroke-dasharray": faceUp && own && !player.conviction_used ? "3 2" : "" }, node);
  influenceToken(node, faceUp ? player.conviction : "hidden", x, y, 13);
  if (player.conviction_used) svg("path", { d: `M${x - 14} ${y + 14}L${x + 14} ${y - 14}`, class: "fired-stroke" }, node);
  let words;
  if (player.conviction_used) words = t("rof.tip.convictionUsed", { symbol: symbolName(player.conviction) });
  else if (!faceUp) words = t("rof.tip.convictionHidden");
  else if (own) words = t("rof.tip.convictionOwn", { symbol: symbolName(player.conviction) });
  else words = t("rof.tip.convictionShown", { symbol: symbolName(player.conviction) });
  tip(node, words);
  if (own) {
    target(ctx, g, "reward personalities", "circle", { cx: x, cy: y, r: 18 }) || target(ctx, g, "extra colonies", "circle", { cx: x, cy: y, r: 18 });
  }
}

// -- the two-step choices -------------------------------------------------------------------------------

function choicePanel(g, x, y, w, h, title) {
  svg("rect", { x, y, width: w, height: h, rx: 6, class: "choice-panel" }, g);
  text(g, x + w / 2, y + 16, title, { class: "choice-title" });
  const close = group(g, { class: "choice-close", role: "button", tabindex: 0, "aria-label": t("rof.choice.close") });
  svg("rect", { x: x + w - 28, y: y + 2, width: 26, height: 26, rx: 4, fill: "#eee", stroke: "#555" }, close);
  text(close, x + w - 15, y + 20, "×", { class: "choice-title" });
  tip(close, t("rof.choice.close"));
  activate(close, () => choice.cancel());
}

// The tile waiting for its house: the space the decision names (the view has no field for it),
// if it holds a tile and no house; null when it cannot be told.
function houseSpace(view, legal, viewer) {
  if (viewer === null || !legal.some((action) => action.startsWith("house "))) return null;
  const named = /\b([LRS][A-E][1-8])\b/.exec(view.decision || "");
  if (!named) return null;
  const space = (view.eixample || []).find((entry) => entry.space === named[1]);
  return space && space.tile && !space.house ? space.space : null;
}

// The house types the card allows, in a panel beside the tile just placed.
function drawHouseChoice(ctx, g, space, player) {
  const letters = HOUSE_LETTERS.filter((letter) => ctx.legal.all.has(`house ${letter}`));
  const [sx, sy] = spaceXY(space);
  svg("rect", { x: sx - 2, y: sy - 2, width: CELL + 4, height: CELL + 4, rx: 4, class: "decision-ring" }, g);
  const step = 70; // a house and its count "×5", both inside the house's target
  const w = Math.max(200, 24 + letters.length * step);
  const x = Math.max(6, Math.min(W - w - 6, sx + CELL / 2 - w / 2));
  const y = sy + CELL + 90 > TRACKS_Y ? sy - 80 : sy + CELL + 6;
  svg("rect", { x, y, width: w, height: 74, rx: 6, class: "choice-panel" }, g);
  text(g, x + w / 2, y + 16, t("rof.choice.house", { space }), { class: "choice-title" });
  const style = seatStyle(player.seat);
  letters.forEach((letter, k) => {
    const hx = x + (w - letters.length * step + 8) / 2 + k * step;
    const hy = y + 26;
    svg("polygon", { points: `${hx + 6},${hy + 14} ${hx + 20},${hy + 2} ${hx + 34},${hy + 14} ${hx + 34},${hy + 38} ${hx + 6},${hy + 38}`, fill: style.colour, stroke: "#1d1a15", "stroke-width": 1.2 }, g);
    text(g, hx + 20, hy + 32, letter, { class: "tok-letter", "font-size": 13, fill: inkFor(player.seat) });
    text(g, hx + 38, hy + 32, `×${player.houses_left[letter]}`, { class: "count-text" });
    target(ctx, g, `house ${letter}`, "rect", { x: hx, y: hy, width: step - 8, height: 42, rx: 4 });
  });
}

function drawTileChoice(ctx, g, space) {
  const colours = ctx.legal.tile.get(space) || [];
  const [sx, sy] = spaceXY(space);
  const w = Math.max(200, 40 + colours.length * 56);
  const x = Math.max(6, Math.min(W - w - 6, sx + CELL / 2 - w / 2));
  const y = sy + CELL + 90 > TRACKS_Y ? sy - 76 : sy + CELL + 4;
  choicePanel(g, x, y, w, 72, t("rof.choice.tile", { space }));
  colours.forEach((letter, k) => {
    const colour = COLOUR_OF_LETTER[letter];
    const bx = x + (w - colours.length * 56 + 12) / 2 + k * 56;
    svg("rect", { x: bx, y: y + 26, width: 44, height: 40, rx: 3, fill: TILE_FILL[colour] }, g);
    svg("rect", { x: bx, y: y + 26, width: 44, height: 40, rx: 3, fill: `url(#rof-pat-${colour})`, stroke: "#3d3526" }, g);
    text(g, bx + 22, y + 52, letter, { class: "start-letter" });
    target(ctx, g, `tile ${space} ${letter}`, "rect", { x: bx, y: y + 26, width: 44, height: 40, rx: 3 });
  });
}

function drawBuyChoice(ctx, g, cardId) {
  const payments = ctx.legal.buy.get(cardId) || [];
  const w = 520;
  const rowH = 30;
  const h = 34 + payments.length * rowH;
  const x = (W - w) / 2;
  const y = SUPPLY_Y + 10;
  const card = (ctx.view.influence_cards || []).find((entry) => entry.id === cardId);
  choicePanel(g, x, y, w, h, t("rof.choice.buy", { name: card ? card.name : cardId }));
  payments.forEach((action, k) => {
    const by = y + 30 + k * rowH;
    svg("rect", { x: x + 12, y: by, width: w - 24, height: rowH - 4, rx: 4, class: "chip-button" }, g);
    text(g, x + w / 2, by + 17, paymentText(action.split(" ")[3]), { class: "chip-label" });
    target(ctx, g, action, "rect", { x: x + 12, y: by, width: w - 24, height: rowH - 4, rx: 4 });
  });
}
