// A player's profile, /players/<name> (an account's user name, or a bot level "bot:strong"):
// ratings per game and player count, the chosen one's history as a chart (drawn like the score
// chart, js/chart.js), games played and won per game, and recent games with their replays.

import { api, clear, el, gameIdFromPath } from "./api.js";
import { languageMenu, setupI18n, t } from "./i18n.js";
import { svg } from "./players.js";
import { formatDate, playerName } from "./ratings.js";

const $ = (id) => document.getElementById(id);
const WIDTH = 360;
const HEIGHT = 180;
const PAD = { left: 40, right: 14, top: 10, bottom: 24 };

function countLabel(rating) {
  return t("profile.gameAt", { title: rating.title, count: rating.players });
}

function renderRatings(ratings) {
  const table = clear($("ratings"));
  $("no-ratings").hidden = ratings.length > 0;
  table.closest(".table-scroll").hidden = ratings.length === 0;
  if (!ratings.length) return;
  table.append(el("thead", {}, el("tr", {},
    el("th", { scope: "col" }, t("lobby.game")),
    el("th", { scope: "col" }, t("profile.rating")),
    el("th", { scope: "col" }, t("profile.gamesCount")),
    el("th", { scope: "col" }, t("profile.wins")))));
  const body = el("tbody");
  for (const rating of ratings) {
    const board = `/leaderboard?game=${encodeURIComponent(rating.game)}&players=${rating.players}`;
    body.append(el("tr", { dataset: { game: rating.game, players: String(rating.players) } },
      el("th", { scope: "row" }, el("a", { href: board }, countLabel(rating))),
      el("td", { class: "rating" }, String(rating.rating)),
      el("td", {}, String(rating.games)),
      el("td", {}, String(rating.wins))));
  }
  table.append(body);
}

// The rating after each rated game, oldest first, as one line.
export function renderRatingChart(root, rating) {
  clear(root);
  root.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  const points = rating.history;
  if (!points.length) return;
  const values = points.map((point) => point.rating);
  const top = Math.max(...values) + 10;
  const bottom = Math.min(...values) - 10;
  const steps = Math.max(1, points.length - 1);
  const x = (index) => PAD.left + ((WIDTH - PAD.left - PAD.right) * index) / steps;
  const y = (value) => HEIGHT - PAD.bottom - ((HEIGHT - PAD.top - PAD.bottom) * (value - bottom)) / (top - bottom);
  const axes = svg("g", { class: "chart-axes" }, root);
  svg("line", { x1: PAD.left, y1: y(bottom), x2: WIDTH - PAD.right, y2: y(bottom) }, axes);
  svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(bottom) }, axes);
  for (const value of [bottom + 10, Math.round((top + bottom) / 2), top - 10]) {
    svg("line", { x1: PAD.left - 3, y1: y(value), x2: WIDTH - PAD.right, y2: y(value), class: "chart-grid" }, axes);
    svg("text", { x: PAD.left - 6, y: y(value) + 4, "text-anchor": "end" }, axes).textContent = String(value);
  }
  svg("text", { x: PAD.left, y: HEIGHT - 6 }, axes).textContent = formatDate(points[0].at);
  svg("text", { x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end" }, axes).textContent =
    formatDate(points[points.length - 1].at);
  svg("polyline", {
    points: points.map((point, index) => `${x(index)},${y(point.rating)}`).join(" "),
    fill: "none", stroke: "#0072B2", "stroke-width": 2.5, class: "chart-line rating-line",
  }, root);
  points.forEach((point, index) => {
    const dot = svg("circle", { cx: x(index), cy: y(point.rating), r: 3.5, class: point.won ? "rating-won" : "rating-lost" }, root);
    svg("title", {}, dot).textContent = `${formatDate(point.at)}: ${point.rating}`;
  });
  root.setAttribute("aria-label", t("profile.chartLabel", {
    what: countLabel(rating), games: points.length, first: values[0], latest: values[values.length - 1],
  }));
}

function renderChart(ratings) {
  const panel = $("chart-panel");
  panel.hidden = ratings.length === 0;
  if (!ratings.length) return;
  const select = clear($("history-select"));
  ratings.forEach((rating, index) => select.append(el("option", { value: String(index) }, countLabel(rating))));
  const show = () => renderRatingChart($("rating-chart"), ratings[Number(select.value)]);
  select.addEventListener("change", show);
  show();
}

function renderPlayed(games) {
  const table = clear($("played"));
  $("no-games").hidden = games.length > 0;
  table.closest(".table-scroll").hidden = games.length === 0;
  if (!games.length) return;
  table.append(el("thead", {}, el("tr", {},
    el("th", { scope: "col" }, t("lobby.game")),
    el("th", { scope: "col" }, t("profile.gamesCount")),
    el("th", { scope: "col" }, t("profile.wins")))));
  table.append(el("tbody", {}, games.map((game) => el("tr", { dataset: { game: game.game } },
    el("th", { scope: "row" }, game.title), el("td", {}, String(game.played)), el("td", {}, String(game.won))))));
}

function ratingChange(game) {
  if (!game.rated) return t("profile.unrated");
  const change = game.rating - game.rating_before;
  return t("profile.ratingChange", { rating: game.rating, change: change >= 0 ? `+${change}` : String(change) });
}

function renderRecent(recent) {
  const list = clear($("recent"));
  if (!recent.length) {
    list.append(el("li", { class: "muted" }, t("profile.noGames")));
    return;
  }
  for (const game of recent) {
    list.append(el("li", { class: "game-line", dataset: { gameId: game.game_id, rated: String(game.rated) } },
      el("strong", {}, game.title),
      el("span", {}, t("profile.players", { count: game.players })),
      el("span", {}, formatDate(game.finished_at)),
      el("span", { class: game.won ? "result-won" : "result-lost" }, game.won ? t("profile.won") : t("profile.lost")),
      el("span", { class: "rating-change" }, ratingChange(game)),
      el("span", { class: "links" }, el("a", { href: game.replay }, t("profile.replay")))));
  }
}

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  const name = gameIdFromPath();
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}`);
    const shown = playerName(player.name, player.kind);
    $("title").textContent = shown;
    document.title = `${shown} — Eixample`;
    renderRatings(player.ratings);
    renderChart(player.ratings);
    renderPlayed(player.games);
    renderRecent(player.recent);
    document.body.dataset.player = player.key;
  } catch (error) {
    $("error").textContent = error.message;
    $("error").hidden = false;
    document.body.dataset.player = "";
  }
}

start();
