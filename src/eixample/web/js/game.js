// The game page: a generic shell around a per-game board renderer. It shows the decision in
// words, the legal actions as buttons grouped by their first word (with keyboard selection), a
// game log, a score chart and, at the end, the points by source (and the renderer's summary of
// the result, if it has one). Every change arrives over the WebSocket as this seat's own view.
// Seats of kind "automa" are played by the game itself (a solo game's opponent): their log lines
// are marked, and the lines of a turn they played appear one after the other.

import { clear, el, gameIdFromPath, seatFromHash, seatToken, wsUrl } from "./api.js";
import { drawBoard, loadRenderer } from "./board.js";
import { renderScoreChart } from "./chart.js";
import { seatBadge, seatStyle } from "./players.js";
import { renderBreakdown } from "./results.js";

const gameId = gameIdFromPath();
const invitation = seatFromHash();
let token = invitation.token;
const $ = (id) => document.getElementById(id);
const dom = {
  title: $("title"),
  connection: $("connection"),
  seats: $("seats"),
  board: $("board"),
  fallback: $("board-fallback"),
  decision: $("decision"),
  error: $("error"),
  actions: $("actions"),
  keysHelp: $("keys-help"),
  undo: $("undo"),
  final: $("final"),
  winners: $("winners"),
  resultDetail: $("result-detail"),
  finalScores: $("final-scores"),
  replayLink: $("replay-link"),
  chart: $("chart"),
  log: $("log"),
};

let socket = null;
let state = null;
let renderer = null;
let pending = null;
let requests = 0;
let retries = 0;
let refused = false;
let ordered = [];
let selected = -1;
let digits = "";
let digitTimer = null;
let logShown = 0; // log lines already on the page: newer ones appear one by one

function setConnection(text, kind) {
  dom.connection.textContent = text;
  dom.connection.dataset.kind = kind;
}

function showError(message) {
  dom.error.textContent = message;
  dom.error.hidden = !message;
}

function connect() {
  setConnection("connecting…", "wait");
  socket = new WebSocket(wsUrl(`/ws/games/${encodeURIComponent(gameId)}`));
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", token }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(message);
  });
  socket.addEventListener("close", (event) => {
    pending = null;
    if (event.code >= 4000 && event.code < 5000) {
      refused = true;
      setConnection("not connected", "bad");
      return;
    }
    if (refused) return;
    const wait = Math.min(8000, 400 * 2 ** retries);
    retries += 1;
    setConnection(`reconnecting in ${Math.round(wait / 1000)} s…`, "wait");
    setTimeout(connect, wait);
  });
}

async function onMessage(message) {
  if (message.type === "state") {
    retries = 0;
    setConnection(message.seat === null ? "watching" : "connected", "good");
    const first = state === null;
    state = message;
    pending = null;
    if (first) showError("");
    await render();
  } else if (message.type === "presence") {
    if (state === null) return;
    state = { ...state, seats: message.seats, status: message.status };
    renderSeats();
    document.body.dataset.status = state.status;
  } else if (message.type === "ack") {
    if (pending === message.request_id) pending = null;
    showError("");
    updateEnabled();
  } else if (message.type === "error") {
    if (!message.request_id || pending === message.request_id) pending = null;
    showError(message.error);
    updateEnabled();
    if (state === null) dom.title.textContent = "This game cannot be opened";
  }
}

function send(payload) {
  if (!socket || socket.readyState !== WebSocket.OPEN || pending) return false;
  requests += 1;
  pending = `r${requests}`;
  socket.send(JSON.stringify({ ...payload, request_id: pending }));
  updateEnabled();
  return true;
}

function playAction(action) {
  if (!state || !state.your_turn || !state.legal_actions.includes(action)) return;
  send({ type: "move", action, expected_move: state.move_number });
}

function undo() {
  if (state && state.can_undo) send({ type: "undo", expected_move: state.move_number });
}

// -- rendering -------------------------------------------------------------------------------

async function render() {
  document.title = `${state.title} — Eixample`;
  dom.title.textContent = state.seed_shown ? `${state.title} · seed ${state.seed}` : `${state.title}`;
  if (renderer === null) renderer = (await loadRenderer(state.game)) || false;

  renderSeats();
  dom.decision.textContent = state.decision;
  dom.decision.classList.toggle("your-turn", state.your_turn);
  if (!ordered.length || !sameActions(ordered, state.legal_actions)) selected = -1;
  const handled = renderBoardNow();
  renderActions(handled);
  dom.undo.hidden = !state.can_undo;
  renderLog();
  renderScoreChart(dom.chart, state.score_history, state.seats);
  renderFinal();
  updateEnabled();
  // for tests and styling: what the page shows now
  document.body.dataset.moveNumber = String(state.move_number);
  document.body.dataset.yourTurn = String(state.your_turn);
  document.body.dataset.status = state.status;
}

function sameActions(a, b) {
  return a.length === b.length && a.every((action) => b.includes(action));
}

function renderBoardNow() {
  return drawBoard(dom.board, dom.fallback, renderer || null, state.view, {
    legalActions: state.your_turn && !pending ? state.legal_actions : [],
    onAction: playAction,
    seat: state.seat,
    seats: state.seats,
    selected: selected >= 0 ? ordered[selected] : null,
  });
}

function renderSeats() {
  clear(dom.seats);
  const scores = Array.isArray(state.view.scores) ? state.view.scores : state.result ? state.result.scores : null;
  for (const seat of state.seats) {
    const item = el(
      "li",
      { class: `seat-card seat-border-${seat.seat}`, dataset: { seat: String(seat.seat) } },
      seatBadge(seat.seat),
      el("span", { class: "seat-name" }, seat.name),
      seat.seat === state.seat ? el("span", { class: "you" }, "you") : null,
      el("span", { class: "seat-kind" }, seatKind(seat)),
      seat.kind === "automa"
        ? null
        : el(
            "span",
            { class: `presence ${seat.connected ? "online" : "offline"}`, title: seat.connected ? "connected" : "not connected" },
            seat.connected ? "online" : "offline",
          ),
      scores ? el("span", { class: "seat-score", dataset: { seat: String(seat.seat) } }, `${scores[seat.seat]} pts`) : null,
    );
    if (state.current_player === seat.seat) item.classList.add("to-move");
    dom.seats.append(item);
  }
}

function seatKind(seat) {
  if (seat.kind === "bot") return `bot · ${seat.bot}`;
  if (seat.kind === "automa") return "automa · plays by itself";
  return seat.joined ? "person" : "invited";
}

function renderActions(handled) {
  clear(dom.actions);
  ordered = [];
  const actions = state.your_turn ? state.legal_actions : [];
  dom.keysHelp.hidden = actions.length === 0;
  if (!actions.length) return;
  const groups = new Map();
  for (const action of actions) {
    const word = action.split(/\s+/)[0];
    if (!groups.has(word)) groups.set(word, []);
    groups.get(word).push(action);
  }
  for (const [word, list] of groups) {
    const onBoard = list.every((action) => handled.has(action));
    const buttons = list.map((action) => {
      const index = ordered.length;
      ordered.push(action);
      return el(
        "button",
        {
          type: "button",
          class: `action${index === selected ? " selected" : ""}`,
          dataset: { action, index: String(index) },
          onclick: () => playAction(action),
        },
        el("span", { class: "key" }, String(index + 1)),
        action,
      );
    });
    const containsSelected = list.includes(ordered[selected]);
    if (onBoard) {
      const details = el(
        "details",
        { class: "action-group on-board", open: containsSelected },
        el("summary", {}, `${word} — ${list.length} on the board`),
        el("div", { class: "buttons" }, buttons),
      );
      dom.actions.append(details);
    } else {
      dom.actions.append(
        el("fieldset", { class: "action-group" }, el("legend", {}, `${word} (${list.length})`), el("div", { class: "buttons" }, buttons)),
      );
    }
  }
}

function updateEnabled() {
  const busy = Boolean(pending);
  for (const button of dom.actions.querySelectorAll("button")) button.disabled = busy;
  dom.undo.disabled = busy;
  document.body.dataset.busy = String(busy);
}

function renderLog() {
  clear(dom.log);
  const log = Array.isArray(state.view.log) ? state.view.log : [];
  const automa = state.seats.filter((seat) => seat.kind === "automa");
  // lines new since the last message fade in one after the other (not on the first message,
  // nor after an undo shortened the log)
  const fresh = logShown > 0 && log.length > logShown ? logShown : log.length;
  log.forEach((entry, index) => {
    const line = String(entry);
    const by = automa.find((seat) => line.startsWith(`${seat.name} `));
    const item = el("li", by ? { class: "log-automa", dataset: { seat: String(by.seat) } } : {}, by ? seatBadge(by.seat) : null, by ? " " : null, line);
    if (index >= fresh) {
      item.classList.add("log-new");
      item.style.animationDelay = `${Math.min(index - fresh, 40) * 110}ms`;
    }
    dom.log.append(item);
  });
  logShown = log.length;
  dom.log.parentElement.hidden = log.length === 0;
  dom.log.scrollTop = dom.log.scrollHeight;
}

// The renderer's summary of the result ({headline, detail, outcome}), if it has one.
function resultSummary() {
  if (!renderer || typeof renderer.resultSummary !== "function") return null;
  try {
    return renderer.resultSummary(state.view, { seat: state.seat, seats: state.seats });
  } catch (error) {
    console.error("result summary failed", error);
    return null;
  }
}

function renderFinal() {
  if (!state.result) {
    dom.final.hidden = true;
    return;
  }
  dom.final.hidden = false;
  const names = state.result.winners.map((seat) => `${state.seats[seat] ? state.seats[seat].name : "seat"} (${seatStyle(seat).letter})`);
  const summary = resultSummary();
  if (summary && summary.outcome) dom.final.dataset.outcome = summary.outcome;
  else delete dom.final.dataset.outcome;
  dom.resultDetail.hidden = !(summary && summary.detail);
  dom.resultDetail.textContent = summary && summary.detail ? summary.detail : "";
  if (summary && summary.headline) dom.winners.textContent = summary.headline;
  else {
    dom.winners.textContent =
      names.length === state.seats.length && names.length > 1
        ? "A draw: every player shares the victory."
        : `${names.length > 1 ? "Winners" : "Winner"}: ${names.join(", ")}`;
  }
  const breakdown = Array.isArray(state.view.score_breakdown) ? state.view.score_breakdown : state.result.score_breakdown;
  renderBreakdown(dom.finalScores, state.seats, state.result.scores, breakdown);
  dom.replayLink.href = `/replay/${encodeURIComponent(gameId)}`;
}

// -- keyboard --------------------------------------------------------------------------------

function select(index) {
  if (!ordered.length) return;
  selected = ((index % ordered.length) + ordered.length) % ordered.length;
  renderBoardNow();
  for (const button of dom.actions.querySelectorAll("button.action")) {
    const isSelected = Number(button.dataset.index) === selected;
    button.classList.toggle("selected", isSelected);
    if (isSelected) {
      const details = button.closest("details");
      if (details) details.open = true;
      button.scrollIntoView({ block: "nearest" });
    }
  }
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
  if (event.key === "u" || event.key === "U") {
    undo();
    return;
  }
  if (!ordered.length) return;
  if (/^[0-9]$/.test(event.key)) {
    digits += event.key;
    clearTimeout(digitTimer);
    digitTimer = setTimeout(() => (digits = ""), 1200);
    const number = Number(digits);
    if (number >= 1 && number <= ordered.length) select(number - 1);
    else digits = event.key === "0" ? "" : event.key;
    event.preventDefault();
  } else if (event.key === "ArrowDown" || event.key === "ArrowRight") {
    select(selected + 1);
    event.preventDefault();
  } else if (event.key === "ArrowUp" || event.key === "ArrowLeft") {
    select(selected < 0 ? ordered.length - 1 : selected - 1);
    event.preventDefault();
  } else if (event.key === "Home") {
    select(0);
    event.preventDefault();
  } else if (event.key === "End") {
    select(ordered.length - 1);
    event.preventDefault();
  } else if (event.key === "Enter" && selected >= 0) {
    if (event.target instanceof HTMLButtonElement) return;
    playAction(ordered[selected]);
    event.preventDefault();
  } else if (event.key === "Escape") {
    selected = -1;
    for (const button of dom.actions.querySelectorAll("button.action")) button.classList.remove("selected");
    renderBoardNow();
  }
}

dom.undo.addEventListener("click", undo);
document.addEventListener("keydown", onKey);
window.addEventListener("hashchange", () => location.reload());
if (!gameId) {
  showError("No game id in the address.");
} else {
  seatToken(gameId, invitation.seat, invitation.token).then((claimed) => {
    token = claimed;
    connect();
    if (!token) setConnection("watching", "good");
  });
}
