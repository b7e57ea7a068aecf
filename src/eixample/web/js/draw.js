// Small SVG drawing helpers shared by the game boards (web/games/*.js).

import { seatName, seatStyle, svg } from "./players.js";

// Adds a board's stylesheet to the page once (renderers call it with their own CSS file's URL).
export function addStylesheet(href) {
  if (typeof document === "undefined" || document.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.appendChild(link);
}

// Runs `handler` on a click, or on Enter or Space when the node has the keyboard focus.
export function activate(node, handler) {
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    handler();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      handler();
    }
  });
}

// Seats in the order their boards are drawn: the viewer's first, then the others in turn order.
export function boardOrder(n, viewer) {
  const order = [];
  const first = viewer !== null && viewer >= 0 && viewer < n ? viewer : 0;
  for (let k = 0; k < n; k += 1) order.push((first + k) % n);
  return order;
}

// The frame every board drawing starts with: its size, classes (`<prefix>-board`) and words for
// screen readers, the renderer's own definitions (`defs(root)`), and the table under everything,
// where a click closes an open two-step choice. Returns the table.
export function boardFrame(root, choice, { prefix, width, height, label, defs }) {
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  root.setAttribute("preserveAspectRatio", "xMidYMin meet");
  root.classList.add(`${prefix}-board`, "tall-board");
  root.setAttribute("aria-label", label);
  defs(root);
  const table = svg("rect", { x: 0, y: 0, width, height, class: `${prefix}-table` }, root);
  choice.closeOnClick(table);
  return table;
}

// The seat the board is drawn for: the view's own viewer, else the page's seat (one of the
// view's players), else none (a spectator).
export function viewerOf(view, seat) {
  if (Number.isInteger(view.viewer)) return view.viewer;
  return Number.isInteger(seat) && seat >= 0 && seat < (view.player_list || []).length ? seat : null;
}

// An SVG group under `parent`.
export function group(parent, attrs = {}) {
  return svg("g", attrs, parent);
}

// Black or white text, whichever reads on the seat's colour.
export function inkFor(seat) {
  return seat % 6 >= 3 ? "#000" : "#fff";
}

// An SVG text node.
export function text(parent, x, y, content, attrs = {}) {
  const node = svg("text", { x, y, ...attrs }, parent);
  node.textContent = String(content);
  return node;
}

// A text that must keep within `width` drawing units (a card's head, a column's title): drawn
// with {"data-fit": width}, it is squeezed to that width after the render when a language's
// words are longer (`squeezeFitted`).
export function squeezeFitted(svgRoot) {
  // measured before the renderer's stylesheet is there, every text would seem too long
  const loading = Array.from(document.querySelectorAll('link[rel="stylesheet"]')).filter((link) => !link.sheet);
  if (loading.length) {
    for (const link of loading) link.addEventListener("load", () => squeezeFitted(svgRoot), { once: true });
    return;
  }
  const nodes = Array.from(svgRoot.querySelectorAll("text[data-fit]"));
  const lengths = nodes.map((node) => node.getComputedTextLength()); // one layout for them all
  nodes.forEach((node, k) => {
    const width = Number(node.dataset.fit);
    if (lengths[k] > width && !node.hasAttribute("textLength")) {
      node.setAttribute("textLength", String(width));
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  });
}

// A tooltip (an SVG title) on `node`.
export function tip(node, content) {
  svg("title", {}, node).textContent = content;
  return node;
}

// After a two-step choice opens, keyboard users continue on its first option.
export function focusFirst(root, selector) {
  const node = root && root.querySelector(selector);
  if (node && typeof node.focus === "function") node.focus({ preventScroll: true });
}

// Brings the decision's targets into view (the page, and the board's own scrolling box) when
// none of them shows: after a choice the next one may be made far from it (the city after the
// hand, a player board below the fold). Left alone while any target shows.
export function revealTargets(root, selector = "[data-action], [data-step]") {
  if (!root || typeof window === "undefined") return;
  const nodes = typeof selector === "string" ? root.querySelectorAll(selector) : selector;
  const targets = Array.from(nodes).filter((node) => {
    const r = node.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  });
  if (!targets.length) return;
  const frame = root.parentElement ? root.parentElement.getBoundingClientRect() : null;
  const top = Math.max(0, frame ? frame.top : 0);
  const bottom = Math.min(window.innerHeight, frame ? frame.bottom : window.innerHeight);
  const left = Math.max(0, frame ? frame.left : 0);
  const right = Math.min(window.innerWidth, frame ? frame.right : window.innerWidth);
  const shows = (node) => {
    const r = node.getBoundingClientRect();
    return r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= left - 1 && r.right <= right + 1;
  };
  if (targets.some(shows)) return;
  targets[0].scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
}

// Shows on the board where `action` is played while a choice naming it (a button, a hint...) is
// hovered or focused: its targets get the class "pointed" until `on` is false. An action with no
// target of its own shows the step that opens it (the tile or the space of a two-step choice),
// else the places its words name ("use C02+C12": crossings C02 and C12).
export function pointAt(root, action, on) {
  if (!root || !action) return;
  for (const node of actionPlaces(root, action)) node.classList.toggle("pointed", on);
}

// The board elements that show where `action` is played (see pointAt).
export function actionPlaces(root, action) {
  const escaped = typeof CSS !== "undefined" && CSS.escape ? CSS.escape(action) : action.replace(/["\\]/g, "\\$&");
  const targets = Array.from(root.querySelectorAll(`[data-action="${escaped}"]`));
  if (targets.length) return targets;
  const words = String(action).split(/[\s+]+/).filter((word) => /^[\w.-]{1,40}$/.test(word));
  const steps = Array.from(root.querySelectorAll("[data-step]")).filter((node) =>
    Object.entries(node.dataset).some(([name, value]) => name !== "step" && words.includes(value)));
  if (steps.length) return steps;
  const places = [];
  // only names like "C02" or "V4.1" (a letter and a digit): "keep 1" names no place
  for (const word of words.slice(1).filter((w) => /[A-Za-z]/.test(w) && /\d/.test(w))) {
    for (const name of PLACE_ARGUMENTS) places.push(...root.querySelectorAll(`[data-${name}="${word}"]`));
  }
  return places;
}

// The places a structured message names in its arguments ({crossing: "C33"}, {space: "B10"}...),
// marked on the board where an element carries the same name as a data attribute
// (data-crossing="C33"); the class "pointed" until `on` is false. Returns how many were found.
export function pointAtPlaces(root, args, on, mark = "pointed") {
  if (!root || !args || typeof args !== "object") return 0;
  let found = 0;
  for (const [name, value] of Object.entries(args)) {
    if (!PLACE_ARGUMENTS.has(name) || typeof value !== "string" || !/^[\w.-]{1,40}$/.test(value)) continue;
    for (const node of root.querySelectorAll(`[data-${name}="${value}"]`)) {
      node.classList.toggle(mark, on);
      found += 1;
    }
  }
  return found;
}

// What the others did since the viewer's last decision: the places named by every line of each
// other player since then get the class "last-move" (lines name seats "P1", "P2"...); a player
// whose moves name no place on the board (tokens kept, an event played...) has their own board
// marked ("last-move-seat", on the element with their data-seat).
export function markLastMoves(root, log, viewer) {
  if (!root || !Array.isArray(log) || typeof viewer !== "number") return;
  const mine = `P${viewer + 1}`;
  const found = new Map();
  for (let k = log.length - 1; k >= 0; k -= 1) {
    const args = log[k] && log[k].args;
    const player = args ? args.player : null;
    if (typeof player !== "string" || !/^P\d{1,2}$/.test(player)) continue;
    if (player === mine) break;
    found.set(player, (found.get(player) || 0) + pointAtPlaces(root, args, true, "last-move"));
  }
  for (const [player, count] of found) {
    if (count) continue;
    for (const node of root.querySelectorAll(`[data-seat="${Number(player.slice(1)) - 1}"]`)) node.classList.add("last-move-seat");
  }
}

const PLACE_ARGUMENTS = new Set(["crossing", "space", "street", "sidewalk", "block", "project", "tile", "card"]);

// `pointAtPlaces` wired to an element showing whatever message `current()` returns now (the
// decision text, redrawn at each state): hovering or focusing it shows the places it names.
export function pointsAtCurrentPlaces(element, root, current) {
  const show = (on) => {
    const entry = current();
    pointAtPlaces(root, entry && typeof entry === "object" ? entry.args : null, on);
  };
  for (const type of ["mouseenter", "focus"]) element.addEventListener(type, () => show(true));
  for (const type of ["mouseleave", "blur"]) element.addEventListener(type, () => show(false));
  return element;
}

// Whether a message names a place of the board in its arguments.
export function namesPlace(entry) {
  const args = entry && typeof entry === "object" ? entry.args : null;
  return Boolean(args && Object.keys(args).some((name) => PLACE_ARGUMENTS.has(name) && typeof args[name] === "string"));
}

// `pointAtPlaces` wired to a log line: hovering or focusing it shows the places it names.
export function pointsAtPlaces(element, root, entry) {
  const args = entry && typeof entry === "object" ? entry.args : null;
  if (!namesPlace(entry)) return element;
  element.tabIndex = 0;
  element.classList.add("names-place");
  for (const type of ["mouseenter", "focus"]) element.addEventListener(type, () => pointAtPlaces(root, args, true));
  for (const type of ["mouseleave", "blur"]) element.addEventListener(type, () => pointAtPlaces(root, args, false));
  return element;
}

// `pointAt` wired to a page element that names `action`.
export function pointsAt(element, root, action) {
  for (const type of ["mouseenter", "focus"]) element.addEventListener(type, () => pointAt(root, action, true));
  for (const type of ["mouseleave", "blur"]) element.addEventListener(type, () => pointAt(root, action, false));
  return element;
}

// Each seat's name: the automa's (the only player a view names: Barcelona's Assistant) in the
// page's language, else the player's at the table, else the seat's letter.
export function seatNames(view, seats) {
  const names = [];
  (view.player_list || []).forEach((player, index) => {
    const entry = Array.isArray(seats) ? seats.find((s) => s && s.seat === index) : null;
    if (player.name) names[index] = seatName({ kind: "automa", name: player.name });
    else names[index] = (entry && entry.name) || seatStyle(index).letter;
  });
  return names;
}

// What a board keeps between draws: the half-made two-step choice (its named `steps`, e.g. the
// Modernisme tile picked before its project space) and the last call to render, so that opening
// or closing a choice redraws the board. The choice is dropped when the legal actions change, on
// Escape, on a click on the table, and once an action is played.
//
// Each step names the entry of the legal actions by target (`legalTargets`) whose key it holds,
// and the pattern of an action behind it: the page's keyboard selection of such an action opens
// the step when it has more than one option (or always, with `evenForOne`).
export class TwoStepChoice {
  constructor(steps, stylesheet, render) {
    this.steps = steps;
    this.parts = Object.keys(steps);
    this.stylesheet = stylesheet;
    this.render = render;
    this.local = { key: "" };
    for (const part of this.parts) this.local[part] = null;
    this.lastCall = null;
    this.listening = false;
  }

  // At the start of render(root, view, options): remembers the call, drops a choice the legal
  // actions no longer allow.
  begin(root, view, options) {
    this.listen();
    this.lastCall = [root, view, options];
    const key = (options.legalActions || []).join("|");
    if (key !== this.local.key) {
      this.local.key = key;
      this.clear();
    }
  }

  listen() {
    if (this.listening || typeof document === "undefined") return;
    this.listening = true;
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.open) this.cancel();
    });
    addStylesheet(this.stylesheet);
  }

  get open() {
    return this.parts.some((part) => this.local[part]);
  }

  get root() {
    return this.lastCall && this.lastCall[0];
  }

  clear() {
    for (const part of this.parts) this.local[part] = null;
  }

  cancel() {
    this.clear();
    this.redraw();
  }

  // The steps open in this drawing, by part: kept from the last one or opened by the page's
  // selection, and only while the legal actions still have them.
  openSteps(legal, selected) {
    const open = {};
    for (const [part, step] of Object.entries(this.steps)) {
      const options = legal[step.legal];
      const match = selected ? step.selected.exec(selected) : null;
      const opens = match && (step.evenForOne || (options.get(match[1]) || []).length > 1);
      const value = opens ? match[1] : this.local[part];
      open[part] = value && options.has(value) ? value : null;
    }
    return open;
  }

  // Opens one part of the choice, closing the others (null closes it), draws the board again and
  // puts the keyboard focus on the first element matching `focus` (the step's options).
  choose(part, value, focus) {
    this.clear();
    this.local[part] = value;
    this.redraw();
    focusFirst(this.root, focus);
  }

  redraw() {
    if (!this.lastCall) return;
    const [root, view, options] = this.lastCall;
    const before = new Set(Array.from(root.querySelectorAll("[data-action]"), (node) => node.dataset.action));
    while (root.firstChild) root.removeChild(root.firstChild);
    this.render(root, view, options);
    if (!this.open) return;
    // the second step's targets (a project space for the tile chosen...) may be far from the
    // first, even in another region of the board's viewport: the viewport is told which they are
    const opened = Array.from(root.querySelectorAll("[data-action]")).filter((node) => !before.has(node.dataset.action));
    const targets = opened.length ? opened : Array.from(root.querySelectorAll("[data-action]"));
    if (typeof CustomEvent !== "undefined") root.dispatchEvent(new CustomEvent("choice-opened", { detail: targets }));
    revealTargets(root, targets);
  }

  // The page's onAction, dropping the half-made choice first.
  played(onAction) {
    return (action) => {
      this.clear();
      onAction(action);
    };
  }

  // A click on `background` (the table around the pieces) closes an open choice.
  closeOnClick(background) {
    if (this.open) background.addEventListener("click", () => this.cancel());
  }
}

// `value` added to the list kept under `key` in `map` (the legal actions grouped by their target).
export function addTo(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

// The legal actions by what they target on the board: `all` of them; for each verb of `sets`, the
// Set of what its two-word actions name ("block B4": B4); for each verb of `maps`, a Map of the
// lists that `maps[verb](words, action)` files under a key ([key, value], or false to leave an
// action out): "tile S3 Y" and "tile S3 G" give S3 -> [Y, G].
export function legalTargets(list, { sets = [], maps = {} }) {
  const legal = { all: new Set(list) };
  for (const verb of sets) legal[verb] = new Set();
  for (const verb of Object.keys(maps)) legal[verb] = new Map();
  for (const action of list) {
    const words = action.split(" ");
    const [verb] = words;
    if (words.length === 2 && sets.includes(verb)) {
      legal[verb].add(words[1]);
    } else if (Object.hasOwn(maps, verb)) {
      const entry = maps[verb](words, action);
      if (entry) addTo(legal[verb], entry[0], entry[1]);
    }
  }
  return legal;
}

// The start of a board's render(root, view, options): the call kept by `choice` for redraws, and
// what the drawing reads (the `ctx` of actionTarget and stepTarget): the view, the legal actions
// by target (`legalTargets` with the board's `targets`), the actions handled so far, the page's
// onAction and selection, the viewer, the seats and their names, the board's class `prefix` and
// each step of `choice` open (by its part's name), or null.
export function beginDrawing(choice, root, view, options, { prefix, targets }) {
  const { legalActions = [], onAction = () => {}, seat = null, seats = [], selected = null } = options;
  choice.begin(root, view, { legalActions, onAction, seat, seats, selected });
  const legal = legalTargets(legalActions, targets);
  return {
    view,
    legal,
    handled: new Set(),
    onAction: choice.played(onAction),
    selected,
    viewer: viewerOf(view, seat),
    names: seatNames(view, seats),
    seats,
    root,
    prefix,
    ...choice.openSteps(legal, selected),
  };
}

// A clickable element playing `action` (only if it is legal now), named `words`; `ctx.prefix`
// names the board's classes (`bcn`, `rof`).
export function actionTarget(ctx, parent, action, tag, attrs, words, tooltip = words) {
  if (!ctx.legal.all.has(action)) return null;
  ctx.handled.add(action);
  const node = svg(tag, {
    ...attrs,
    class: `${ctx.prefix}-target${ctx.selected === action ? " selected" : ""}`,
    "data-action": action,
    role: "button",
    tabindex: 0,
    "aria-label": words,
  }, parent);
  tip(node, tooltip);
  activate(node, () => ctx.onAction(action));
  return node;
}

// A clickable element that opens a second step (a tile with several spaces, a space with several
// colours...), `chosen` while its step is open.
export function stepTarget(ctx, parent, tag, attrs, label, chosen, handler) {
  const node = svg(tag, {
    ...attrs,
    class: `${ctx.prefix}-target step${chosen ? " selected" : ""}`,
    "data-step": "",
    role: "button",
    tabindex: 0,
    "aria-label": label,
  }, parent);
  tip(node, label);
  activate(node, handler);
  return node;
}
