// The rating changes a finished rated game made, under its final scores: each rated seat's
// player (linked to their profile), their rating before and after (GET /api/games/{id}/ratings).

import { api, clear, el } from "./api.js";
import { t } from "./i18n.js";
import { seatBadge } from "./players.js";
import { playerName } from "./ratings.js";

let asked = null;

export async function showRatingChanges(gameId, list) {
  if (!list || asked === gameId) return;
  asked = gameId;
  let found;
  try {
    found = await api(`/api/games/${encodeURIComponent(gameId)}/ratings`);
  } catch {
    asked = null; // asked again at the next render
    return;
  }
  clear(list);
  for (const change of found.changes) {
    const name = playerName(change.name, change.kind);
    const difference = change.rating - change.rating_before;
    list.append(el("li", { dataset: { seat: String(change.seat) } },
      seatBadge(change.seat), " ",
      change.link ? el("a", { href: change.link }, name) : name, " ",
      el("span", { class: "rating-change" }, t("ratings.change", {
        before: change.rating_before, rating: change.rating,
        change: difference >= 0 ? `+${difference}` : String(difference),
      }))));
  }
  list.hidden = found.changes.length === 0;
  document.body.dataset.ratings = String(found.changes.length);
}
