// What the profile and leaderboard pages share: a player's name as shown, a date.

import { t } from "./i18n.js";

// How a player is named: an account by its user name, a bot level in the page's language.
export function playerName(name, kind) {
  if (kind !== "bot") return name;
  const key = `lobby.levels.${name}`;
  const level = t(key);
  return t("profile.botName", { level: level === key ? name : level });
}

export function formatDate(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(document.documentElement.lang || undefined);
}
