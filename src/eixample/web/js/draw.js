// Small SVG drawing helpers shared by the game boards (web/games/*.js).

import { seatStyle, svg } from "./players.js";

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

// Each seat's name: the one the view gives (Barcelona's automa), else the player's at the
// table, else the seat's letter.
export function seatNames(view, seats) {
  const names = [];
  (view.player_list || []).forEach((player, index) => {
    const entry = Array.isArray(seats) ? seats.find((s) => s && s.seat === index) : null;
    names[index] = player.name || (entry && entry.name) || seatStyle(index).letter;
  });
  return names;
}
