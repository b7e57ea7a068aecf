// The replay page: a finished game step by step. The server replays the record up to the step
// and sends the spectator's view of it: a stored game's (/replay/<id>), or a record file opened
// here (picked or dropped on the page; sent with each step, never stored).

import { api, clear, el, gameIdFromPath } from "./api.js";
import { actionLabel, drawBoard, loadRenderer } from "./board.js";
import { renderScoreChart } from "./chart.js";
import { mountCharts, WinGraph } from "./coach.js";
import { languageMenu, message, setupI18n, showRulesLink, t } from "./i18n.js";
import { botLevel, nameWithLetter, namedMessage, namedSeats, seatBadge, seatNameBox, seatStyle } from "./players.js";
import { renderBreakdown } from "./results.js";
import { trackSheetHeight } from "./sheet.js";
import { BoardViewport } from "./viewport.js";

const gameId = location.pathname.replace(/\/+$/, "") === "/replay" ? "" : gameIdFromPath();
const RECORD_FILE_LIMIT = 60 * 1024; // under the server's limit on a request body
let localRecord = null; // a record opened from a file
const $ = (id) => document.getElementById(id);
mountCharts($("charts"));
let frame = null;
let renderer = null;
let step = null;
let playing = null;
let loading = Promise.resolve();
let viewport = null;
let winGraph = null;

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function go(target) {
  loading = loading.then(async () => {
    const wanted = frame ? Math.max(0, Math.min(frame.steps, target)) : target;
    try {
      const query = wanted === null ? "" : `?step=${wanted}`;
      frame = localRecord
        ? await api(`/api/replay${query}`, { method: "POST", body: localRecord })
        : await api(`/api/games/${encodeURIComponent(gameId)}/replay${query}`);
      frame.seats = namedSeats(frame.seats);
    } catch (error) {
      showError(error.message);
      stop();
      return;
    }
    showError("");
    step = frame.step;
    await render();
  });
  return loading;
}

async function render() {
  if (renderer === null) renderer = (await loadRenderer(frame.game)) || false;
  document.title = `${t("replay.heading", { title: frame.title })} — Eixample`;
  $("title").textContent = t("replay.heading", { title: frame.title });
  showRulesLink(frame.game);
  $("position").textContent = t("replay.position", { step: frame.step, steps: frame.steps });
  $("slider").max = String(frame.steps);
  $("slider").value = String(frame.step);
  const seats = clear($("seats"));
  const scores = Array.isArray(frame.view.scores) ? frame.view.scores : null;
  for (const seat of frame.seats) {
    const item = el(
      "li",
      { class: `seat-card seat-border-${seat.seat}` },
      seatBadge(seat.seat),
      seatNameBox(seat),
      el("span", { class: "seat-kind" }, seat.kind === "bot" ? t("seat.bot", { bot: botLevel(seat) }) : seat.kind === "automa" ? t("seat.automaShort") : t("seat.person")),
      scores ? el("span", { class: "seat-score" }, t("seat.points", { vp: scores[seat.seat] })) : null,
    );
    if (frame.current_player === seat.seat) item.classList.add("to-move");
    seats.append(item);
  }
  const context = { legalActions: [], finished: frame.step === frame.steps, onAction: () => {}, seat: null, seats: frame.seats };
  drawBoard($("board"), $("board-fallback"), renderer || null, frame.view, context);
  viewport.update(renderer || null, frame.view, context);
  if (frame.step === 0) {
    $("step-action").textContent = t("replay.start", { decision: namedMessage(frame.decision, frame.seats) });
  } else {
    const seat = frame.action_seats[frame.step - 1];
    const words = actionLabel(renderer || null, frame.actions[frame.step - 1], { view: frame.view, seat, seats: frame.seats });
    $("step-action").textContent = t("replay.stepAction", { name: frame.seats[seat].name, letter: seatStyle(seat).letter, action: words });
  }
  const log = clear($("log"));
  for (const line of Array.isArray(frame.view.log) ? frame.view.log : []) log.append(el("li", {}, namedMessage(line, frame.seats)));
  log.scrollTop = log.scrollHeight;
  renderScoreChart($("chart"), frame.score_history, frame.seats, { step: frame.step });
  if (localRecord) $("win-panel").hidden = true; // the win estimate is kept for stored games only
  else {
    winGraph.load(frame.seats, frame.steps);
    winGraph.draw(frame.step);
  }
  const names = frame.result.winners.map((seat) => nameWithLetter(frame.seats[seat], seat));
  $("winners").textContent =
    names.length === frame.seats.length && names.length > 1 ? t("final.drawShort") : t(names.length > 1 ? "final.winners" : "final.winner", { names: names.join(", ") });
  renderBreakdown($("final-scores"), frame.seats, frame.result.scores, frame.result.score_breakdown);
  document.body.dataset.step = String(frame.step);
}

function stop() {
  if (playing) clearInterval(playing);
  playing = null;
  $("play").textContent = t("replay.play");
}

function togglePlay() {
  if (playing) {
    stop();
    return;
  }
  if (frame && step >= frame.steps) go(0);
  $("play").textContent = t("replay.pause");
  playing = setInterval(() => {
    if (!frame || step >= frame.steps) stop();
    else go(step + 1);
  }, Number($("speed").value) || 700);
}

// A turn runs until the seat to move changes: the steps where a new seat's actions begin.
function turnStarts() {
  const seats = frame ? frame.action_seats : [];
  const starts = [0];
  for (let k = 1; k < seats.length; k += 1) if (seats[k] !== seats[k - 1]) starts.push(k);
  starts.push(seats.length);
  return starts;
}

function nextTurn() {
  if (!frame) return;
  stop();
  go(turnStarts().find((k) => k > step) ?? frame.steps);
}

function previousTurn() {
  if (!frame) return;
  stop();
  go([...turnStarts()].reverse().find((k) => k < step) ?? 0);
}

function changeSpeed() {
  if (!playing) return;
  stop();
  togglePlay();
}

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  viewport = new BoardViewport($("board"), $("board-toolbar"));
  trackSheetHeight($("decision-panel"));
  winGraph = WinGraph.inPanel(gameId, $("win-panel"));
  offerRecordFiles();
  if (gameId) {
    const download = $("record-download");
    download.href = `/api/games/${encodeURIComponent(gameId)}/record`;
    download.download = `eixample-${gameId}.json`;
    download.hidden = false;
    go(0);
  } else {
    $("title").textContent = t("recordFile.title");
    $("step-action").textContent = t("recordFile.prompt");
  }
  document.body.dataset.ready = "true"; // a record file can be picked or dropped from now on
}

// A record file, picked or dropped anywhere on the page: read here, then replayed by the server.
function offerRecordFiles() {
  $("record-file").addEventListener("change", (event) => {
    const file = event.target.files && event.target.files[0];
    if (file) openRecordFile(file);
    event.target.value = "";
  });
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    document.body.classList.remove("dropping");
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) openRecordFile(file);
  });
}

async function openRecordFile(file) {
  stop();
  if (file.size > RECORD_FILE_LIMIT) {
    showError(t("recordFile.tooLarge", { name: file.name, size: Math.round(RECORD_FILE_LIMIT / 1024) }));
    return;
  }
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    showError(t("recordFile.notJson", { name: file.name }));
    return;
  }
  let first;
  try {
    first = await api("/api/replay?step=0", { method: "POST", body: record });
  } catch (error) {
    showError(t("recordFile.refused", { name: file.name, error: error.message }));
    return; // the game shown before stays
  }
  localRecord = record;
  if (!frame || frame.game !== first.game) renderer = null;
  frame = first;
  step = 0;
  showError("");
  $("record-download").hidden = true;
  document.body.dataset.recordFile = file.name;
  await render();
}

$("first").addEventListener("click", () => go(0));
$("previous").addEventListener("click", () => go(step - 1));
$("next").addEventListener("click", () => go(step + 1));
$("last").addEventListener("click", () => go(frame ? frame.steps : null));
$("play").addEventListener("click", togglePlay);
$("next-turn").addEventListener("click", nextTurn);
$("previous-turn").addEventListener("click", previousTurn);
$("speed").addEventListener("change", changeSpeed);
$("slider").addEventListener("input", (event) => go(Number(event.target.value)));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (event.key in moves && event.shiftKey) {
    if (event.key === "ArrowRight") nextTurn();
    else previousTurn();
    event.preventDefault();
  } else if (event.key in moves && step !== null) {
    go(step + moves[event.key]);
    event.preventDefault();
  } else if (event.key === "Home") {
    go(0);
    event.preventDefault();
  } else if (event.key === "End" && frame) {
    go(frame.steps);
    event.preventDefault();
  } else if (event.key === " ") {
    togglePlay();
    event.preventDefault();
  }
});

start();
