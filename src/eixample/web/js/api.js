// Small helpers shared by the pages: JSON requests with clear errors, DOM building, the seat token.

import { hasKey, t } from "./i18n.js";

export class ApiError extends Error {
  // retryAfter: the seconds a refusal (429, 503) asks the client to wait, or null; code and args:
  // the server's error code and its values (docs/api.md), or null and {}; requestId: the server's
  // id of the request (X-Request-ID), which its log shows too.
  constructor(status, message, { retryAfter = null, code = null, args = {}, requestId = null } = {}) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
    this.code = code;
    this.args = args;
    this.requestId = requestId;
  }
}

function retryAfter(response) {
  const seconds = Number.parseInt(response.headers.get("Retry-After") || "", 10);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

// A server error ({error, code, args}) in the page's language: the catalog's message for its code
// (errors.code.<code>) when there is one, else the server's own words.
// A refusal's words: errors.code.<code>, or a feature's own section of the catalogs
// (tests/web/test_error_codes.py, ERROR_SECTIONS, checks every code the server sends has words in
// one of them).
export function errorText(data, status = 0) {
  const code = data && typeof data.code === "string" ? data.code : null;
  const key = code === null ? null : [`errors.code.${code}`, `invite.code.${code}`, `account.errors.${code}`].find(hasKey);
  if (key) {
    const args = data.args && typeof data.args === "object" ? data.args : {};
    const problems = Array.isArray(args.problems) ? args.problems.map(problemText).join("; ") : "";
    return t(key, { ...args, problems });
  }
  return (data && data.error) || t("errors.status", { status });
}

// One problem of an invalid request: {field, rule, and the rule's limits}.
function problemText(problem) {
  const field = String((problem && problem.field) || "");
  if (problem && hasKey(`errors.rule.${problem.rule}`)) return t(`errors.rule.${problem.rule}`, { ...problem, field });
  return t("errors.rule.other", { field });
}

// Who is signed in on this browser ({signed_in, account}, GET /api/account/status), asked once
// per page; `fresh` asks again. The account's CSRF token is sent with every request that changes
// something while signed in; a "csrf" refusal (the session changed in another tab) asks again
// and sends the request once more.
let csrfToken = null;
let status = null;

export function accountStatus({ fresh = false } = {}) {
  if (status === null || fresh) {
    status = fetch("/api/account/status", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : { signed_in: false, account: null }))
      .catch(() => ({ signed_in: false, account: null }))
      .then((known) => {
        csrfToken = known.account ? known.account.csrf : null;
        return known;
      });
  }
  return status;
}

export async function api(path, { method = "GET", body, token } = {}) {
  const changes = !["GET", "HEAD", "OPTIONS"].includes(method);
  const send = () => {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers["X-Seat-Token"] = token;
    if (changes && csrfToken) headers["X-CSRF-Token"] = csrfToken;
    return fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
  let response;
  let data = null;
  try {
    if (changes) await accountStatus();
    response = await send();
    data = await jsonOf(response);
    const refused = changes && response.status === 403 && data && data.code === "csrf";
    if (refused && (await accountStatus({ fresh: true })).signed_in) {
      response = await send();
      data = await jsonOf(response);
    }
  } catch (error) {
    throw new ApiError(0, t("errors.unreachable", { error: error.message }));
  }
  if (!response.ok) {
    const requestId = response.headers.get("X-Request-ID");
    let message = errorText(data, response.status);
    // a server fault: the id lets whoever runs the server find it in the log
    if (response.status >= 500 && requestId) message = `${message} (${t("admin.requestId", { id: requestId })})`;
    throw new ApiError(response.status, message, {
      retryAfter: retryAfter(response),
      code: data && typeof data.code === "string" ? data.code : null,
      args: data && data.args && typeof data.args === "object" ? data.args : {},
      requestId,
    });
  }
  return data;
}

async function jsonOf(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

// el("div", {class: "x", onclick: f}, "text", child) — text is always set as text, never as HTML.
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export function clear(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
  return element;
}

// The game id from /play/<id> or /replay/<id>.
export function gameIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "");
}

// The seat token travels in the link's fragment (#seat=0&token=...), which browsers never send
// to the server, so it stays out of server logs and Referer headers.
export function seatFromHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = params.get("token");
  const seat = params.get("seat");
  return { token: token || null, seat: seat === null ? null : Number(seat) };
}

// Opening an invitation link claims its seat: the invitation token is traded once for a private
// seat token that only this browser keeps (local storage); from then on the invitation no longer
// acts for the seat. Without an invitation, or if the claim fails, the invitation token is used as is.
export async function seatToken(gameId, seat, invitation) {
  if (!invitation) return null;
  const key = `eixample.seat.${gameId}.${seat}`;
  const kept = localStorage.getItem(key);
  if (kept) return kept;
  try {
    const claimed = await api(`/api/games/${encodeURIComponent(gameId)}/claim`, { method: "POST", token: invitation });
    localStorage.setItem(key, claimed.token);
    return claimed.token;
  } catch {
    // signed in, the account's own seat needs no token (another device of the account claimed it)
    return (await accountStatus()).signed_in ? null : invitation;
  }
}

// The seat tokens this browser keeps ({game_id, token}), one per seat it claimed or joined.
const SEAT_KEY = /^eixample\.seat\.(.+)\.(\d+)$/;

function heldSeats() {
  const held = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const key = localStorage.key(index);
    const match = key && SEAT_KEY.exec(key);
    const token = match && localStorage.getItem(key);
    if (token) held.push({ game_id: match[1], token });
  }
  return held;
}

// Signed in, the seats this browser held as a guest become the account's: their tokens are sent
// once per account (POST /api/me/seats, at most 50 a page), the server giving only the seats each
// token proves.
export async function handOverSeats() {
  const known = await accountStatus();
  if (!known.signed_in) return [];
  const doneKey = `eixample.handedOver.${known.account.id}`;
  let done;
  try {
    done = new Set(JSON.parse(localStorage.getItem(doneKey) || "[]"));
  } catch {
    done = new Set();
  }
  const fresh = heldSeats().filter((entry) => !done.has(`${entry.game_id}:${entry.token}`)).slice(0, 50);
  if (!fresh.length) return [];
  const answer = await api("/api/me/seats", { method: "POST", body: { seats: fresh } });
  for (const entry of fresh) done.add(`${entry.game_id}:${entry.token}`);
  localStorage.setItem(doneKey, JSON.stringify(Array.from(done).slice(-500)));
  return answer.given;
}

export function wsUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

const MY_GAMES = "eixample.myGames";

export function myGames() {
  try {
    const games = JSON.parse(localStorage.getItem(MY_GAMES) || "[]");
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

export function rememberGame(entry) {
  const games = myGames().filter((game) => game.game_id !== entry.game_id);
  games.unshift(entry);
  localStorage.setItem(MY_GAMES, JSON.stringify(games.slice(0, 50)));
}

export function forgetGame(gameId) {
  localStorage.setItem(MY_GAMES, JSON.stringify(myGames().filter((game) => game.game_id !== gameId)));
}
