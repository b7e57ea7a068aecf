// The score-over-time chart: one line per seat, in its colour, with its own dash pattern and its
// shape and letter at the end of the line.

import { t } from "./i18n.js";
import { seatMarker, seatStyle, svg } from "./players.js";
import { clear } from "./api.js";

const WIDTH = 360;
const HEIGHT = 180;
const PAD = { left: 34, right: 26, top: 10, bottom: 24 };

export function renderScoreChart(root, history, seats, { step = null } = {}) {
  clear(root);
  root.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  root.setAttribute("role", "img");
  const points = (history || []).map((entry, index) => ({ index, scores: entry })).filter((p) => Array.isArray(p.scores));
  if (!points.length) {
    root.setAttribute("aria-label", t("chart.none"));
    svg("text", { x: WIDTH / 2, y: HEIGHT / 2, "text-anchor": "middle", class: "chart-empty" }, root).textContent =
      t("chart.noneYet");
    return;
  }
  const moves = Math.max(1, history.length - 1);
  const all = points.flatMap((p) => p.scores);
  const top = Math.max(1, ...all);
  const bottom = Math.min(0, ...all);
  const x = (move) => PAD.left + ((WIDTH - PAD.left - PAD.right) * move) / moves;
  const y = (score) => HEIGHT - PAD.bottom - ((HEIGHT - PAD.top - PAD.bottom) * (score - bottom)) / (top - bottom);

  const axes = svg("g", { class: "chart-axes" }, root);
  svg("line", { x1: PAD.left, y1: y(bottom), x2: WIDTH - PAD.right, y2: y(bottom) }, axes);
  svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(bottom) }, axes);
  for (const value of niceTicks(bottom, top)) {
    svg("line", { x1: PAD.left - 3, y1: y(value), x2: WIDTH - PAD.right, y2: y(value), class: "chart-grid" }, axes);
    svg("text", { x: PAD.left - 6, y: y(value) + 4, "text-anchor": "end" }, axes).textContent = String(value);
  }
  svg("text", { x: PAD.left, y: HEIGHT - 6 }, axes).textContent = "0";
  svg("text", { x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end" }, axes).textContent =
    t("chart.move", { move: history.length - 1 });

  const players = points[0].scores.length;
  const labels = [];
  for (let seat = 0; seat < players; seat += 1) {
    const style = seatStyle(seat);
    const path = points.map((p) => `${x(p.index)},${y(p.scores[seat])}`).join(" ");
    svg("polyline", {
      points: path,
      fill: "none",
      stroke: style.colour,
      "stroke-width": 2.5,
      "stroke-dasharray": style.dash || null,
      class: `chart-line seat-line-${seat}`,
    }, root);
    const last = points[points.length - 1];
    seatMarker(root, seat, x(last.index), y(last.scores[seat]), 5);
    const name = seats && seats[seat] ? seats[seat].name : style.letter;
    labels.push(`${name} (${style.letter}): ${last.scores[seat]}`);
  }
  if (step !== null && step !== undefined) {
    svg("line", { x1: x(step), y1: PAD.top, x2: x(step), y2: y(bottom), class: "chart-step" }, root);
  }
  root.setAttribute("aria-label", t("chart.label", { latest: labels.join(", ") }));
}

function niceTicks(low, high) {
  const span = high - low;
  const raw = span / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) || magnitude;
  const ticks = [];
  for (let value = Math.ceil(low / step) * step; value <= high + 1e-9; value += step) ticks.push(Math.round(value * 1000) / 1000);
  return ticks;
}
