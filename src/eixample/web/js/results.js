// The end-of-game table: points by source (rows) for each seat (columns), and the totals.

import { clear, el } from "./api.js";
import { seatBadge } from "./players.js";

export function renderBreakdown(table, seats, scores, breakdown) {
  clear(table);
  const sources = [];
  for (const entry of Array.isArray(breakdown) ? breakdown : []) {
    for (const key of Object.keys(entry || {})) if (!sources.includes(key)) sources.push(key);
  }
  table.append(
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col" }, "Points by source"),
        seats.map((seat) => el("th", { scope: "col" }, seatBadge(seat.seat), " ", seat.name)),
      ),
    ),
  );
  const body = el("tbody");
  for (const source of sources) {
    body.append(
      el(
        "tr",
        { dataset: { source } },
        el("th", { scope: "row" }, source.replace(/_/g, " ")),
        seats.map((seat) => el("td", {}, String((breakdown[seat.seat] || {})[source] ?? 0))),
      ),
    );
  }
  body.append(
    el(
      "tr",
      { class: "total" },
      el("th", { scope: "row" }, "Total"),
      seats.map((seat) =>
        el("td", { class: "final-score", dataset: { seat: String(seat.seat) } }, String(scores[seat.seat])),
      ),
    ),
  );
  table.append(body);
}
