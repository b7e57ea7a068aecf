// The game page: a generic shell around a per-game board renderer. It shows the decision in
// words, the legal actions as buttons grouped by their first word (with keyboard selection), a
// game log, a score chart and, at the end, the points by source (and the renderer's summary of
// the result, if it has one). Every change arrives over the WebSocket as this seat's own view.
// Seats of kind "automa" are played by the game itself (a solo game's opponent): their log lines
// are marked, and the lines of a turn they played appear one after the other.

import { clear, el, errorText, gameIdFromPath, handOverSeats, seatFromHash, seatToken, wsUrl } from "./api.js";
import { actionLabel, drawBoard, loadRenderer } from "./board.js";
import { markLastMoves, namesPlace, pointsAt, pointsAtCurrentPlaces, pointsAtPlaces } from "./draw.js";
import { renderScoreChart } from "./chart.js";
import { showRatingChanges } from "./game-ratings.js";
import { HintBox, mountCharts, WinGraph } from "./coach.js";
import { languageMenu, message, setupI18n, showRulesLink, t } from "./i18n.js";
import { StateFollower } from "./patches.js";
import { botLevel, nameWithLetter, namedMessage, namedSeats, seatBadge, seatName, seatNameBox, seatStyle } from "./players.js";
import { renderBreakdown } from "./results.js";
import { trackSheetHeight } from "./sheet.js";
import { TableUI } from "./table.js";
import { TurnAlerts } from "./turn.js";
import { BoardViewport } from "./viewport.js";

const gameId = gameIdFromPath();
const invitation = seatFromHash();
let token = invitation.token;
const $ = (id) => document.getElementById(id);
mountCharts($("charts"));
const dom = {
  title: $("title"),
  connection: $("connection"),
  seats: $("seats"),
  board: $("board"),
  toolbar: $("board-toolbar"),
  decisionPanel: $("decision-panel"),
  fallback: $("board-fallback"),
  decision: $("decision"),
  decisionHelp: $("decision-help"),
  decisionHelpText: $("decision-help-text"),
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
let sentMove = null; // the last move sent, kept until it is answered
let unanswered = null; // a move the closed socket never answered: sent again once the page is back
let requests = 0;
let retries = 0;
let refused = false;
let ordered = [];
let selected = -1;
let digits = "";
let digitTimer = null;
let logShown = 0; // log lines already on the page: newer ones appear one by one
const LOG_LINE_GAP_MS = 110;
const LOG_FADE_MS = 1500;
let viewport = null;
let alerts = null;
let table = null;
let hints = null;
let winGraph = null;

// hovering or focusing the decision shows the places it names ("crossing C32") on the board
pointsAtCurrentPlaces(dom.decision, dom.board, () => state && state.decision);

function setConnection(text, kind) {
  dom.connection.textContent = text;
  dom.connection.dataset.kind = kind;
}

function showError(message) {
  dom.error.textContent = message;
  dom.error.hidden = !message;
}

// Changes arrive as patches against the state this page holds; a gap asks for the whole again.
const follower = new StateFollower(() => {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "resync" }));
});

function connect() {
  setConnection(t("connection.connecting"), "wait");
  socket = new WebSocket(wsUrl(`/ws/games/${encodeURIComponent(gameId)}`));
  follower.reset();
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", token, patches: true }));
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
    // a restarting server closes its sockets without reading what is still on its way: a move
    // never answered is sent again once the page is back, if the game still waits for it there
    if (pending && sentMove && sentMove.request_id === pending) unanswered = sentMove;
    pending = null;
    if (event.code >= 4000 && event.code < 5000) {
      refused = true;
      setConnection(t("connection.refused"), "bad");
      return;
    }
    if (refused) return;
    const wait = Math.min(8000, 400 * 2 ** retries);
    retries += 1;
    setConnection(t("connection.reconnecting", { seconds: Math.round(wait / 1000) }), "wait");
    setTimeout(connect, wait);
  });
}

async function onMessage(message) {
  if (message.type === "state" || message.type === "patch") {
    const next = message.type === "state" ? follower.whole(message) : follower.patched(state, message);
    if (next === null) return;
    retries = 0;
    setConnection(next.seat === null ? t("connection.watching") : t("connection.connected"), "good");
    const first = state === null;
    state = { ...next, seats: namedSeats(next.seats) };
    document.body.dataset.version = String(state.version);
    pending = null;
    if (first) showError("");
    await render();
    if (message.type === "state") sendUnansweredMove();
  } else if (table.onMessage(message)) {
    if (state !== null) renderSeats();
  } else if (message.type === "presence") {
    if (state === null) return;
    state = { ...state, seats: namedSeats(message.seats), status: message.status };
    renderSeats();
    document.body.dataset.status = state.status;
  } else if (message.type === "ack") {
    if (pending === message.request_id) pending = null;
    showError("");
    updateEnabled();
  } else if (message.type === "error") {
    if (!message.request_id || pending === message.request_id) pending = null;
    showError(errorText(message));
    updateEnabled();
    if (state === null) dom.title.textContent = t("game.cannotOpen");
  }
}

function send(payload) {
  if (!socket || socket.readyState !== WebSocket.OPEN || pending) return false;
  requests += 1;
  pending = `r${requests}`;
  const request = { ...payload, request_id: pending };
  sentMove = payload.type === "move" ? request : null;
  socket.send(JSON.stringify(request));
  updateEnabled();
  return true;
}

// Sent again only at the move number it was made for: a move the server did make before the
// socket closed has moved the game on, and is not made twice.
function sendUnansweredMove() {
  const move = unanswered;
  unanswered = null;
  if (move && state.your_turn && state.move_number === move.expected_move && state.legal_actions.includes(move.action)) {
    send({ type: "move", action: move.action, expected_move: move.expected_move });
  }
}

// Table messages (chat, resign, leave, take back) do not wait for an answer, unlike moves.
function sendTable(payload) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  requests += 1;
  socket.send(JSON.stringify({ ...payload, request_id: `t${requests}` }));
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
  dom.title.textContent = state.seed_shown ? t("game.titleWithSeed", { title: state.title, seed: state.seed }) : state.title;
  showRulesLink(state.game);
  if (renderer === null) renderer = (await loadRenderer(state.game)) || false;

  renderSeats();
  dom.decision.textContent = namedMessage(state.decision, state.seats);
  dom.decision.classList.toggle("names-place", namesPlace(state.decision));
  if (namesPlace(state.decision)) dom.decision.tabIndex = 0;
  else dom.decision.removeAttribute("tabindex");
  dom.decision.classList.toggle("your-turn", state.your_turn);
  dom.decision.dataset.yourTurn = t("game.yourTurn");
  const help = state.your_turn ? decisionHelp() : null;
  dom.decisionHelpText.textContent = help || "";
  dom.decisionHelp.hidden = !help;
  if (!ordered.length || !sameActions(ordered, state.legal_actions)) selected = -1;
  const handled = renderBoardNow();
  renderActions(handled);
  dom.undo.hidden = !state.can_undo;
  renderLog();
  renderScoreChart(dom.chart, state.score_history, state.seats);
  renderFinal();
  updateEnabled();
  hints.update(state);
  if (state.result) winGraph.load(state.seats, state.move_number);
  table.onState(state);
  alerts.update({ yourTurn: Boolean(state.your_turn), title: state.title, decision: dom.decision.textContent });
  // for tests and styling: what the page shows now
  document.body.dataset.moveNumber = String(state.move_number);
  document.body.dataset.yourTurn = String(state.your_turn);
  document.body.dataset.status = state.status;
}

function sameActions(a, b) {
  return a.length === b.length && a.every((action) => b.includes(action));
}

function renderBoardNow() {
  const context = {
    legalActions: state.your_turn && !pending ? state.legal_actions : [],
    finished: state.status === "finished",
    onAction: playAction,
    seat: state.seat,
    seats: state.seats,
    selected: selected >= 0 ? ordered[selected] : null,
  };
  const handled = drawBoard(dom.board, dom.fallback, renderer || null, state.view, context);
  markLastMoves(dom.board, state.view.log, state.seat);
  viewport.update(renderer || null, state.view, context);
  return handled;
}

function renderSeats() {
  clear(dom.seats);
  const scores = Array.isArray(state.view.scores) ? state.view.scores : state.result ? state.result.scores : null;
  for (const seat of state.seats) {
    const item = el(
      "li",
      { class: `seat-card seat-border-${seat.seat}`, dataset: { seat: String(seat.seat) } },
      seatBadge(seat.seat),
      seatNameBox(seat),
      seat.seat === state.seat ? el("span", { class: "you" }, t("seat.you")) : null,
      el("span", { class: "seat-kind" }, seatKind(seat)),
      table.seatNote(seat.seat) ? el("span", { class: "stand-in" }, table.seatNote(seat.seat)) : null,
      seat.kind === "automa"
        ? null
        : el(
            "span",
            { class: `presence ${seat.connected ? "online" : "offline"}`, title: seat.connected ? t("seat.connectedTitle") : t("seat.offlineTitle") },
            seat.connected ? t("seat.online") : t("seat.offline"),
          ),
      scores ? el("span", { class: "seat-score", dataset: { seat: String(seat.seat) } }, t("seat.points", { vp: scores[seat.seat] })) : null,
      reportablePlayer(seat) ? table.reportButtonFor({ seat: seat.seat }, t("report.playerLabel", { name: seatName(seat) })) : null,
    );
    if (state.current_player === seat.seat) {
      item.classList.add("to-move");
      item.append(el("span", { class: "to-move-note" }, t("seat.toPlay")));
    }
    dom.seats.append(item);
  }
}

// Another person at the table, seen from a seat: the viewer may report them to the moderators.
function reportablePlayer(seat) {
  return seat.kind === "person" && state.seat !== null && state.seat !== undefined && seat.seat !== state.seat;
}

function seatKind(seat) {
  if (seat.kind === "bot") return t("seat.bot", { bot: botLevel(seat) });
  if (seat.kind === "automa") return t("seat.automa");
  return seat.joined ? t("seat.person") : t("seat.invited");
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
      const button = el(
        "button",
        {
          type: "button",
          class: `action${index === selected ? " selected" : ""}`,
          dataset: { action, index: String(index) },
          onclick: () => playAction(action),
        },
        el("span", { class: "key" }, String(index + 1)),
        actionLabel(renderer || null, action, labelContext()),
      );
      return pointsAt(button, dom.board, action); // hovering or focusing a choice shows its place on the board
    });
    const containsSelected = list.includes(ordered[selected]);
    if (onBoard) {
      const details = el(
        "details",
        { class: "action-group on-board", open: containsSelected },
        el("summary", {}, t("actions.onBoard", { group: groupLabel(word), count: list.length })),
        el("div", { class: "buttons" }, buttons),
      );
      dom.actions.append(details);
    } else {
      dom.actions.append(
        el("fieldset", { class: "action-group" }, el("legend", {}, t("actions.group", { group: groupLabel(word), count: list.length })), el("div", { class: "buttons" }, buttons)),
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
  // nor after an undo shortened the log), all of them within LOG_FADE_MS however many they are
  const fresh = logShown > 0 && log.length > logShown ? logShown : log.length;
  const gap = Math.min(LOG_LINE_GAP_MS, LOG_FADE_MS / Math.max(1, log.length - fresh));
  log.forEach((entry, index) => {
    const line = namedMessage(entry, state.seats);
    // a structured entry names an automa by an entry of its own (not "P<n>"), in any language
    const byEntry = entry && entry.args && typeof entry.args.player === "object" ? automa[0] : undefined;
    const by = byEntry || automa.find((seat) => line.startsWith(`${seat.name} `));
    const item = el("li", by ? { class: "log-automa", dataset: { seat: String(by.seat) } } : {}, by ? seatBadge(by.seat) : null, by ? " " : null, line);
    if (index >= fresh) {
      item.classList.add("log-new");
      item.style.animationDelay = `${Math.round((index - fresh) * gap)}ms`;
    }
    dom.log.append(pointsAtPlaces(item, dom.board, entry)); // hovering a line shows the places it names
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
  const names = state.result.winners.map((seat) => nameWithLetter(state.seats[seat], seat));
  const summary = resultSummary();
  if (summary && summary.outcome) dom.final.dataset.outcome = summary.outcome;
  else delete dom.final.dataset.outcome;
  dom.resultDetail.hidden = !(summary && summary.detail);
  dom.resultDetail.textContent = summary && summary.detail ? summary.detail : "";
  if (summary && summary.headline) dom.winners.textContent = summary.headline;
  else {
    dom.winners.textContent =
      names.length === state.seats.length && names.length > 1
        ? t("final.draw")
        : t(names.length > 1 ? "final.winners" : "final.winner", { names: names.join(", ") });
  }
  const breakdown = Array.isArray(state.view.score_breakdown) ? state.view.score_breakdown : state.result.score_breakdown;
  renderBreakdown(dom.finalScores, state.seats, state.result.scores, breakdown);
  showRatingChanges(gameId, $("rating-changes"));
  dom.replayLink.href = `/replay/${encodeURIComponent(gameId)}`;
  $("record-download").href = `/api/games/${encodeURIComponent(gameId)}/record`;
  $("record-download").download = `eixample-${gameId}.json`;
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

// The renderer's words for an action (Barcelona: "Take 1 coin and 1 cloth"), else its text.
function labelContext() {
  return { view: state.view, seat: state.seat, seats: state.seats };
}

// The renderer's help for the pending decision: what it means and why these choices are legal.
function decisionHelp() {
  if (!renderer || typeof renderer.decisionHelp !== "function") return null;
  try {
    return renderer.decisionHelp(state.view);
  } catch (error) {
    console.error("decision help failed", error);
    return null;
  }
}

function groupLabel(word) {
  if (renderer && typeof renderer.groupLabel === "function") {
    const label = renderer.groupLabel(word);
    if (label) return label;
  }
  return word;
}

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  viewport = new BoardViewport(dom.board, dom.toolbar);
  alerts = new TurnAlerts({
    icon: $("favicon"),
    toggle: $("settings-toggle"),
    panel: $("settings"),
    sound: $("sound-setting"),
    notify: $("notify-setting"),
    note: $("notify-state"),
  });
  table = new TableUI({
    gameId,
    send: sendTable,
    getToken: () => token,
    onError: showError,
  });
  trackSheetHeight(dom.decisionPanel);
  hints = new HintBox(
    gameId,
    { panel: $("hint-panel"), button: $("hint"), status: $("hint-status"), choices: $("hint-choices"), note: $("hints-note") },
    { getToken: () => token, label: (action) => actionLabel(renderer || null, action, labelContext()), play: playAction },
  );
  winGraph = WinGraph.inPanel(gameId, $("win-panel"));
  // the help starts open where there is room for it; on a phone it is one tap away
  dom.decisionHelp.open = !window.matchMedia("(max-width: 800px)").matches;
  dom.undo.addEventListener("click", undo);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => location.reload());
  if (!gameId) {
    showError(t("game.noGameId"));
  } else {
    token = await seatToken(gameId, invitation.seat, invitation.token);
    hints.learn();
    connect();
    if (!token) setConnection(t("connection.watching"), "good");
    handOverSeats().catch(() => []); // signed in: the seats this browser held as a guest become the account's
  }
}

start();
