// The coach in the browser: the win-probability graph of a finished game (replay page and the
// game page's end screen), and the Hint button of games created with hints allowed.
//
// The graph's points are computed by the server in the background: GET .../win-probability
// answers "pending" until they are ready, so the page asks again with a growing pause. Each
// seat's line has its colour, dash pattern and shape (as in the score chart), and the same figures
// are offered as a table, the graph's text alternative.

import { api, clear, el } from "./api.js";
import { pointsAt } from "./draw.js";
import { t } from "./i18n.js";
import { seatMarker, seatStyle, svg } from "./players.js";

const WIDTH = 360;
const HEIGHT = 160;
const PAD = { left: 34, right: 26, top: 10, bottom: 24 };
const FIRST_WAIT = 1000;
const LONGEST_WAIT = 15000;
const MOST_TRIES = 40;

const percent = (p) => Math.round(p * 100);

// The score chart's panel and the (empty, hidden) win-probability panel, in place of the page's
// <div id="charts">: the markup of both lives here only. Called before the page looks them up.
export function mountCharts(slot) {
  const scores = el("section", { class: "chart-panel" },
    el("h2", { "data-i18n": "game.scores" }, "Scores"),
    svg("svg", { id: "chart", class: "chart", role: "img", "data-i18n-attr": "aria-label:game.scoreChart" }));
  const win = el("section", { id: "win-panel", class: "chart-panel win-panel", hidden: true });
  slot.replaceWith(scores, win);
}

// The panel of the graph: {panel, chart, status, table} elements of the page. `load` asks the
// server until the curve is ready (or failed); `draw(step)` marks the replay's step.
export class WinGraph {
  // The graph in the page's empty panel (<section id="win-panel" hidden>), the same on every page.
  static inPanel(gameId, panel) {
    const status = el("p", { id: "win-status", class: "muted", role: "status", hidden: true });
    const chart = svg("svg", { id: "win-chart", class: "chart", role: "img", "aria-label": t("coach.winTitle"), "data-i18n-attr": "aria-label:coach.winTitle" });
    const table = el("table", { id: "win-table", class: "breakdown win-table" });
    clear(panel).append(
      el("h2", { "data-i18n": "coach.winTitle" }, t("coach.winTitle")),
      status,
      chart,
      el("details", { class: "win-table-box" }, el("summary", { "data-i18n": "coach.winTable" }, t("coach.winTable")), el("div", { class: "table-scroll" }, table)),
    );
    return new WinGraph(gameId, { panel, chart, status, table });
  }

  constructor(gameId, dom) {
    this.gameId = gameId;
    this.dom = dom;
    this.curve = null;
    this.seats = [];
    this.step = null;
    this.started = false;
  }

  load(seats, steps) {
    this.seats = seats;
    this.steps = steps;
    if (this.started) return;
    this.started = true;
    this.dom.panel.hidden = false;
    this.poll(FIRST_WAIT, 0);
  }

  async poll(wait, tries) {
    let answer;
    try {
      answer = await api(`/api/games/${encodeURIComponent(this.gameId)}/win-probability`);
    } catch (error) {
      if (error.status === 409) {
        this.dom.panel.hidden = true; // not over yet: never shown for a running game
        this.started = false;
        return;
      }
      answer = { status: "pending", done: 0, total: 0 };
    }
    if (answer.status === "ready") {
      this.curve = answer;
      this.dom.status.textContent = "";
      this.dom.status.hidden = true;
      this.draw(this.step);
      return;
    }
    if (answer.status === "failed" || tries >= MOST_TRIES) {
      this.dom.status.textContent = t("coach.winFailed");
      this.dom.status.hidden = false;
      return;
    }
    this.dom.status.textContent = answer.total ? t("coach.winPending", { done: answer.done, total: answer.total }) : t("coach.winWaiting");
    this.dom.status.hidden = false;
    document.body.dataset.winProbability = "pending";
    setTimeout(() => this.poll(Math.min(LONGEST_WAIT, wait * 1.6), tries + 1), wait);
  }

  draw(step = null) {
    this.step = step;
    if (!this.curve) return;
    renderWinChart(this.dom.chart, this.curve.points, this.seats, this.steps, step);
    renderWinTable(this.dom.table, this.curve.points, this.seats);
    document.body.dataset.winProbability = "ready";
  }
}

export function renderWinChart(root, points, seats, steps, step) {
  clear(root);
  root.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  root.setAttribute("role", "img");
  if (!points.length) return;
  const last = points[points.length - 1];
  const moves = Math.max(1, steps ?? last.move);
  const x = (move) => PAD.left + ((WIDTH - PAD.left - PAD.right) * move) / moves;
  const y = (p) => HEIGHT - PAD.bottom - (HEIGHT - PAD.top - PAD.bottom) * p;
  const axes = svg("g", { class: "chart-axes" }, root);
  for (const value of [0, 0.25, 0.5, 0.75, 1]) {
    svg("line", { x1: PAD.left - 3, y1: y(value), x2: WIDTH - PAD.right, y2: y(value), class: value ? "chart-grid" : null }, axes);
    svg("text", { x: PAD.left - 6, y: y(value) + 4, "text-anchor": "end" }, axes).textContent = `${percent(value)}%`;
  }
  svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(0) }, axes);
  svg("text", { x: PAD.left, y: HEIGHT - 6 }, axes).textContent = "0";
  svg("text", { x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end" }, axes).textContent = t("chart.move", { move: moves });
  const players = last.win_probability.length;
  const labels = [];
  for (let seat = 0; seat < players; seat += 1) {
    const style = seatStyle(seat);
    svg("polyline", {
      points: points.map((point) => `${x(point.move)},${y(point.win_probability[seat])}`).join(" "),
      fill: "none",
      stroke: style.colour,
      "stroke-width": 2.5,
      "stroke-dasharray": style.dash || null,
      class: `chart-line win-probability-line seat-line-${seat}`,
    }, root);
    seatMarker(root, seat, x(last.move), y(last.win_probability[seat]), 5);
    labels.push(`${seatName(seats, seat)}: ${percent(pointAt(points, step ?? last.move).win_probability[seat])}%`);
  }
  if (step !== null && step !== undefined) {
    svg("line", { x1: x(step), y1: PAD.top, x2: x(step), y2: y(0), class: "chart-step" }, root);
  }
  root.setAttribute("aria-label", t("coach.winLabel", { move: step ?? last.move, latest: labels.join(", ") }));
}

// The graph as a table: one row per computed position, one column per seat.
export function renderWinTable(table, points, seats) {
  clear(table);
  const players = points.length ? points[0].win_probability.length : 0;
  const head = el("tr", {}, el("th", { scope: "col" }, t("coach.winMove")));
  for (let seat = 0; seat < players; seat += 1) head.append(el("th", { scope: "col" }, seatName(seats, seat)));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const point of points) {
    body.append(
      el("tr", {}, el("th", { scope: "row" }, String(point.move)), point.win_probability.map((p) => el("td", {}, `${percent(p)}%`))),
    );
  }
  table.append(body);
}

// The point at a step: the last computed one at or before it (long games are computed at spread positions).
function pointAt(points, step) {
  let found = points[0];
  for (const point of points) if (point.move <= step) found = point;
  return found;
}

function seatName(seats, seat) {
  const letter = seatStyle(seat).letter;
  return seats && seats[seat] ? `${seats[seat].name} (${letter})` : letter;
}

// The Hint button of a seat in a game created with hints allowed: asks the server for the bot's
// top three choices for this decision and lists them, in the words of the action buttons, with
// the seat's win probability; clicking one plays it.
export class HintBox {
  constructor(gameId, dom, { getToken, label, play }) {
    this.gameId = gameId;
    this.dom = dom;
    this.getToken = getToken;
    this.label = label;
    this.play = play;
    this.allowed = false;
    this.state = null;
    this.shownFor = null;
    this.asking = false;
    this.waitUntil = 0; // after a refusal with a Retry-After: the time (ms) the button opens again
    this.waitTimer = null;
    dom.button.addEventListener("click", () => this.ask());
  }

  // Whether the game was created with hints allowed (the lobby line of the game says so).
  async learn() {
    try {
      const summary = await api(`/api/games/${encodeURIComponent(this.gameId)}`);
      this.allowed = Boolean(summary.hints_allowed);
    } catch {
      this.allowed = false;
    }
    this.dom.note.hidden = !this.allowed;
    if (this.state) this.update(this.state);
  }

  // A new decision clears the choices and the last message; a refusal stays shown until then.
  update(state) {
    const moved = this.state !== null && this.state.move_number !== state.move_number;
    this.state = state;
    const mine = this.allowed && state.seat !== null && state.your_turn;
    this.dom.panel.hidden = !mine;
    if (moved || (this.shownFor !== null && this.shownFor !== state.move_number)) this.clearChoices();
    this.dom.button.disabled = !mine || this.asking || Date.now() < this.waitUntil;
  }

  clearChoices() {
    this.shownFor = null;
    clear(this.dom.choices);
    this.dom.choices.hidden = true;
    this.dom.status.textContent = "";
  }

  async ask() {
    const state = this.state;
    if (!state || !state.your_turn || this.asking) return;
    this.asking = true;
    this.dom.button.disabled = true;
    this.dom.status.textContent = t("coach.thinking");
    try {
      const hint = await api(`/api/games/${encodeURIComponent(this.gameId)}/hint`, {
        method: "POST",
        body: { expected_move: state.move_number },
        token: this.getToken(),
      });
      if (this.state.move_number === hint.move_number) this.show(hint);
    } catch (error) {
      this.dom.status.textContent = hintError(error);
      if (error.retryAfter) this.waitFor(error.retryAfter);
    } finally {
      this.asking = false;
      this.update(this.state);
    }
  }

  // Keep the button closed for the time the server asked, then open it again.
  waitFor(seconds) {
    this.waitUntil = Date.now() + seconds * 1000;
    clearTimeout(this.waitTimer);
    this.waitTimer = setTimeout(() => {
      this.waitUntil = 0;
      if (this.state) this.update(this.state);
    }, seconds * 1000);
  }

  show(hint) {
    this.shownFor = hint.move_number;
    clear(this.dom.choices);
    this.dom.status.textContent = t("coach.choicesFor");
    for (const choice of hint.choices) {
      const words = this.label(choice.action);
      this.dom.choices.append(
        el(
          "li",
          {},
          pointsAt(el(
            "button",
            { type: "button", class: "hint-choice", dataset: { action: choice.action }, onclick: () => this.play(choice.action) },
            t("coach.choice", { action: words, percent: percent(choice.win_probability) }),
          ), document.getElementById("board"), choice.action),
        ),
      );
    }
    this.dom.choices.hidden = false;
  }
}

function hintError(error) {
  if (error.status === 403) return t("coach.notAllowed");
  if (error.status === 409) return t("coach.stale");
  const seconds = error.retryAfter ?? 60;
  if (error.status === 429) return t("coach.tooMany", { seconds });
  if (error.status === 503) return t("coach.busy", { seconds });
  return error.message;
}
