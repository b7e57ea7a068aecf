// The leaderboard of a game at a player count, /leaderboard?game=<name>&players=<n>: the best
// ratings first, each player linked to their profile.

import { api, clear, el } from "./api.js";
import { languageMenu, setupI18n, t } from "./i18n.js";
import { playerName } from "./ratings.js";

const $ = (id) => document.getElementById(id);

function choose(select, values, label, wanted) {
  clear(select);
  for (const value of values) select.append(el("option", { value: String(value) }, label(value)));
  if (values.map(String).includes(String(wanted))) select.value = String(wanted);
}

function renderBoard(board) {
  const table = clear($("board"));
  $("board-empty").hidden = board.entries.length > 0;
  table.closest(".table-scroll").hidden = board.entries.length === 0;
  if (!board.entries.length) return;
  table.append(el("thead", {}, el("tr", {},
    el("th", { scope: "col" }, t("leaderboard.place")),
    el("th", { scope: "col" }, t("leaderboard.player")),
    el("th", { scope: "col" }, t("profile.rating")),
    el("th", { scope: "col" }, t("profile.gamesCount")),
    el("th", { scope: "col" }, t("profile.wins")))));
  table.append(el("tbody", {}, board.entries.map((entry) => el("tr", { dataset: { kind: entry.kind } },
    el("td", {}, String(entry.place)),
    el("th", { scope: "row" }, el("a", { href: entry.link }, playerName(entry.name, entry.kind))),
    el("td", { class: "rating" }, String(entry.rating)),
    el("td", {}, String(entry.games)),
    el("td", {}, String(entry.wins))))));
}

async function show(games, game, players) {
  const error = $("error");
  error.hidden = true;
  const info = games.find((entry) => entry.name === game) || games[0];
  const query = new URLSearchParams({ game: info.name });
  if (players) query.set("players", String(players));
  try {
    const board = await api(`/api/leaderboard?${query}`);
    const counts = [];
    for (let count = Math.max(2, info.min_players); count <= info.max_players; count += 1) counts.push(count);
    choose($("board-players"), counts, (count) => t("profile.players", { count }), board.players);
    renderBoard(board);
    history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(board.game)}&players=${board.players}`);
    document.body.dataset.board = `${board.game}:${board.players}`;
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
  }
}

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  const params = new URLSearchParams(location.search);
  try {
    const catalog = await api("/api/catalog");
    const games = catalog.games.filter((game) => game.listed || game.name === params.get("game"));
    choose($("board-game"), games.map((game) => game.name), (name) => games.find((g) => g.name === name).title,
      params.get("game"));
    $("board-game").addEventListener("change", () => show(games, $("board-game").value, null));
    $("board-players").addEventListener("change", () => show(games, $("board-game").value, $("board-players").value));
    await show(games, $("board-game").value, params.get("players"));
  } catch (failure) {
    $("error").textContent = failure.message;
    $("error").hidden = false;
  }
}

start();
