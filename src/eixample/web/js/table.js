// Around the table on the game page: the chat (seats speak, spectators read), the turn clock,
// resigning, leaving and taking a seat back, and the rematch. The server sends a "table" message
// on connecting and whenever the clock, the stand-in bots or the rematch change, and "chat"
// messages with new lines; everything is set as text, never as HTML.

import { api, clear, el } from "./api.js";
import { t } from "./i18n.js";
import { seatBadge } from "./players.js";
import { offerPush } from "./push.js";

const $ = (id) => document.getElementById(id);
const EVENTS = new Set(["resigned", "left", "clock", "back"]);
const TURN_BASED_EVENTS = new Set(["timeout"]); // texts under turnBased.event

// A line's words: a player's own, the server's events in the page's language, or (a line a
// moderator hid, or ended the game) the moderation's notice.
function lineWords(line) {
  if (line.kind === "hidden") return t("admin.hiddenLine");
  if (line.kind === "event" && line.text === "ended") return t("admin.ended");
  if (line.kind === "event" && EVENTS.has(line.text)) return t(`table.event.${line.text}`, { name: line.name });
  if (line.kind === "event" && TURN_BASED_EVENTS.has(line.text)) return t(`turnBased.event.${line.text}`, { name: line.name });
  return line.text;
}

export class TableUI {
  constructor({ gameId, send, getToken, onError }) {
    this.gameId = gameId;
    this.send = send;
    this.getToken = getToken;
    this.onError = onError;
    // until the server says otherwise (it greets only when something is at the table): empty
    this.table = { clock_seconds: null, deadline: null, seconds_left: null, stand_ins: [], rematch: null, lines: [] };
    this.state = null;
    this.lines = [];
    this.tick = null;
    this.following = false;
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("chat-input").value.trim();
      if (!text) return;
      if (this.send({ type: "chat", text })) $("chat-input").value = "";
    });
    $("resign").addEventListener("click", () => {
      if (window.confirm(t("table.resignConfirm"))) this.send({ type: "resign" });
    });
    $("leave").addEventListener("click", () => this.send({ type: "leave" }));
    $("take-back").addEventListener("click", () => this.send({ type: "take_back" }));
    $("rematch").addEventListener("click", () => this.goToRematch());
  }

  onMessage(message) {
    if (message.type === "table") {
      const offered = message.change && message.rematch && !this.table.rematch;
      this.table = message;
      if (!message.change) this.lines = message.lines;
      this.render();
      if (offered) this.followRematch();
      return true;
    }
    if (message.type === "chat") {
      const known = new Set(this.lines.map((line) => line.id));
      this.lines = [...this.lines, ...message.lines.filter((line) => !known.has(line.id))].slice(-200);
      this.renderLines();
      return true;
    }
    return false;
  }

  onState(state) {
    this.state = state;
    this.render();
  }

  standIn(seat) {
    if (!this.table) return null;
    const entry = this.table.stand_ins.find((item) => item.seat === seat);
    return entry ? entry.why : null;
  }

  // Words for a seat's card: "played by a bot (time ran out)" and the like.
  seatNote(seat) {
    const why = this.standIn(seat);
    return why ? t(`table.standIn.${why}`) : null;
  }

  render() {
    if (!this.state || !this.table) return;
    const seat = this.state.seat;
    const over = this.state.status === "finished";
    offerPush(Boolean(this.table.turn_days) && !over, seat !== null);
    const person = seat !== null && this.state.seats[seat] && this.state.seats[seat].kind === "person";
    const why = person ? this.standIn(seat) : null;
    $("chat-form").hidden = seat === null;
    $("chat-readonly").hidden = seat !== null;
    $("seat-controls").hidden = !person || over;
    $("resign").hidden = why === "resigned";
    $("leave").hidden = why !== null;
    $("take-back").hidden = why === null || why === "resigned";
    $("stand-in-note").hidden = why === null;
    $("stand-in-note").textContent = why ? t(`table.yourSeat.${why}`) : "";
    $("rematch").hidden = !(over && person);
    $("rematch-link").hidden = !(over && this.table.rematch && !person);
    if (this.table.rematch) $("rematch-link").href = `/play/${encodeURIComponent(this.table.rematch)}`;
    this.renderClock();
    this.renderLines();
    document.body.dataset.standIn = why || "";
  }

  renderClock() {
    clearInterval(this.tick);
    const clock = $("clock");
    const table = this.table;
    if ((!table.clock_seconds && !table.turn_days) || this.state.status === "finished") {
      clock.hidden = true;
      return;
    }
    clock.hidden = false;
    const deadline = table.deadline ? Date.now() + (table.seconds_left || 0) * 1000 : null;
    if (table.turn_days) {
      // a turn-based game: days per move, the time left in days and hours (refreshed each minute)
      const key = table.time_out === "lose" ? "turnBased.perMoveLose" : "turnBased.perMoveBot";
      const showDays = () => {
        const pace = t(key, { count: table.turn_days });
        if (deadline === null) {
          clock.textContent = pace;
          return;
        }
        const hours = Math.max(0, Math.floor((deadline - Date.now()) / 3600000));
        clock.textContent = `${pace} · ${t("turnBased.left", { days: Math.floor(hours / 24), hours: hours % 24 })}`;
      };
      clock.dataset.urgent = "false";
      showDays();
      if (deadline !== null) this.tick = setInterval(showDays, 60000);
      return;
    }
    const show = () => {
      if (deadline === null) {
        clock.textContent = t("clock.perDecision", { time: formatSeconds(table.clock_seconds) });
        clock.dataset.urgent = "false";
        return;
      }
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      clock.textContent = t("clock.left", { time: formatSeconds(left) });
      clock.dataset.urgent = String(left <= 10);
    };
    show();
    if (deadline !== null) this.tick = setInterval(show, 1000);
  }

  renderLines() {
    const list = clear($("chat-lines"));
    if (!this.state) return;
    for (const line of this.lines) {
      const words = lineWords(line);
      list.append(
        el(
          "li",
          { class: line.kind === "chat" ? "chat-line" : "chat-event", dataset: { seat: String(line.seat) } },
          seatBadge(line.seat),
          " ",
          line.kind === "chat" ? el("strong", {}, `${line.name}: `) : null,
          el("span", { class: "chat-text" }, words),
          this.reportable(line) ? this.reportButton(line) : null,
        ),
      );
    }
    $("chat-empty").hidden = this.lines.length > 0;
    list.hidden = this.lines.length === 0; // an empty scrolling box is no target to tab to
    list.scrollTop = list.scrollHeight;
  }

  // A player reports another seat's chat line, or another person at the table, to the moderators
  // (server/admin.py), with a reason.
  reportable(line) {
    const seat = this.state ? this.state.seat : null;
    return line.kind === "chat" && seat !== null && seat !== undefined && line.seat !== seat;
  }

  reportButton(line) {
    return this.reportButtonFor({ line_id: line.id }, t("report.lineLabel", { name: line.name }));
  }

  reportButtonFor(what, label) {
    const button = el("button", { type: "button", class: "chat-report", title: label, "aria-label": label }, t("report.button"));
    button.addEventListener("click", async () => {
      const reason = window.prompt(t("report.reason"), "");
      if (reason === null || !reason.trim()) return;
      try {
        await api(`/api/games/${encodeURIComponent(this.gameId)}/reports`, {
          method: "POST", token: this.getToken(), body: { ...what, reason: reason.trim().slice(0, 500) },
        });
        button.textContent = t("report.done");
        button.disabled = true;
      } catch (error) {
        this.onError(error.message);
      }
    });
    return button;
  }

  // The rematch: this seat's browser goes to its own seat of the new game (already claimed).
  async goToRematch() {
    this.following = true;
    try {
      const answer = await api(`/api/games/${encodeURIComponent(this.gameId)}/rematch`, { method: "POST", token: this.getToken() });
      if (answer.token) localStorage.setItem(`eixample.seat.${answer.game_id}.${answer.seat}`, answer.token);
      location.assign(`/play/${encodeURIComponent(answer.game_id)}#seat=${answer.seat}&token=${encodeURIComponent(answer.token || "")}`);
    } catch (error) {
      this.onError(error.message);
    }
  }

  followRematch() {
    if (this.following || !this.state || this.state.seat === null) return;
    this.following = true;
    this.goToRematch();
  }
}

function formatSeconds(total) {
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}
