// The end-of-game table: points by source (rows) for each seat (columns), and the totals.

import { clear, el } from "./api.js";
import { t } from "./i18n.js";
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
        el("th", { scope: "col" }, t("final.bySource")),
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
        el("th", { scope: "row" }, sourceLabel(source)),
        seats.map((seat) => el("td", {}, String((breakdown[seat.seat] || {})[source] ?? 0))),
      ),
    );
  }
  body.append(
    el(
      "tr",
      { class: "total" },
      el("th", { scope: "row" }, t("final.total")),
      seats.map((seat) =>
        el("td", { class: "final-score", dataset: { seat: String(seat.seat) } }, String(scores[seat.seat])),
      ),
    ),
  );
  table.append(body);
}

// A score source in words: the catalog's `source.<name>` if it has one, else the name itself.
function sourceLabel(source) {
  const key = `source.${source}`;
  const words = t(key);
  return words === key ? source.replace(/_/g, " ") : words;
}
