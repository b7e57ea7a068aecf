// The lobby: create a game (game, seats with people or bots, options), hand out the invitation
// links, and list open, running and finished games. The number of seats runs from the game's
// min_players to its max_players (catalog). A game playable alone lists its automa (the seats it
// plays itself) in the catalog; with one seat the lobby shows them and offers the `difficulty`
// option, which is only sent for a one-seat game.

import { accountStatus, api, clear, el, forgetGame, handOverSeats, myGames, rememberGame } from "./api.js";
import { hasKey, languageMenu, setupI18n, t } from "./i18n.js";
import { botLevel, namedSeats, seatBadge, seatName, seatStyle } from "./players.js";

const $ = (id) => document.getElementById(id);
let catalog = { games: [], bots: [] };
let listStatus = "open";
let account = null; // the signed-in account ({id, name, ...}), null for a guest
const optionValues = {}; // kept while options come and go with the number of seats

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  account = (await accountStatus()).account;
  try {
    catalog = await api("/api/catalog");
  } catch (error) {
    showCreateError(t("lobby.catalogError", { error: error.message }));
    return;
  }
  // the games people play; an unlisted one (an example kept for tests) only when the address names it (/?game=tictactoe)
  const named = new URLSearchParams(location.search).get("game");
  catalog.games = catalog.games.filter((game) => game.listed !== false || game.name === named);
  const select = $("game-select");
  for (const game of catalog.games) select.append(el("option", { value: game.name }, game.title));
  const preferred = catalog.games.find((game) => game.name === named) || catalog.games.find((game) => game.name === "barcelona") || catalog.games[0];
  if (preferred) select.value = preferred.name;
  for (const spec of catalog.bots) $("bot-specs").append(el("option", { value: spec }));
  select.addEventListener("change", onGameChange);
  $("player-count").addEventListener("change", () => {
    renderSeatRows();
    renderOptions();
  });
  $("create-form").addEventListener("submit", onCreate);
  // a turn-based game has days per move instead of the real-time clock
  const pace = () => {
    const turnBased = Boolean($("turn-select").value);
    $("time-out-row").hidden = !turnBased;
    $("clock-select").disabled = turnBased;
  };
  $("turn-select").addEventListener("change", pace);
  pace();
  for (const tab of document.querySelectorAll(".tabs [role=tab]")) {
    tab.addEventListener("click", () => {
      listStatus = tab.dataset.status;
      for (const other of document.querySelectorAll(".tabs [role=tab]")) {
        other.setAttribute("aria-selected", String(other === tab));
      }
      refreshList();
    });
  }
  setUpFilters();
  onGameChange();
  renderMyGames();
  refreshList();
  if (account) {
    $("account-games").hidden = false;
    // the seats this browser held before signing in become the account's, then the list shows them
    handOverSeats().catch(() => []).then(refreshAccountGames);
  }
  setInterval(() => {
    refreshList();
    if (account) refreshAccountGames();
  }, 5000);
  document.body.dataset.ready = "true"; // the tabs and filters answer from now on
}

// The filters of the games list: game, number of players, speed (turn clock), the table's rating.
function setUpFilters() {
  for (const game of catalog.games) $("filter-game").append(el("option", { value: game.name }, game.title));
  const most = Math.max(1, ...catalog.games.map((game) => game.max_players));
  for (let n = 1; n <= most; n += 1) $("filter-players").append(el("option", { value: String(n) }, String(n)));
  for (const id of ["filter-game", "filter-players", "filter-speed", "filter-min-rating", "filter-max-rating"]) {
    $(id).addEventListener("change", refreshList);
  }
  $("lobby-filters").addEventListener("submit", (event) => event.preventDefault());
}

function filterQuery() {
  const query = new URLSearchParams({ status: listStatus });
  for (const [name, id] of [["game", "filter-game"], ["players", "filter-players"], ["speed", "filter-speed"]]) {
    if ($(id).value) query.set(name, $(id).value);
  }
  for (const [name, id] of [["min_rating", "filter-min-rating"], ["max_rating", "filter-max-rating"]]) {
    const value = $(id).valueAsNumber;  // NaN when empty or not a number: no bound
    if (Number.isInteger(value) && value >= 0 && value <= 10000) query.set(name, String(value));
  }
  return query.toString();
}

// "My games" of the signed-in account, from the server: those waiting for the account's decision
// first, then the others in play, then the finished ones.
async function refreshAccountGames() {
  let data;
  try {
    data = await api("/api/me/games");
  } catch (error) {
    clear($("account-game-list")).append(el("li", { class: "error" }, error.message));
    return;
  }
  const list = clear($("account-game-list"));
  if (!data.games.length) list.append(el("li", { class: "muted" }, t("myGames.empty")));
  for (const game of data.games) {
    game.seats = namedSeats(game.seats);
    const others = game.seats.filter((seat) => seat.seat !== game.seat && seat.kind !== "automa").map((seat) => seat.name);
    const state = game.your_turn ? "yourTurn" : game.status;
    list.append(
      el(
        "li",
        { class: `game-line account-game${game.your_turn ? " your-turn" : ""}`, dataset: { gameId: game.game_id, state } },
        el("strong", {}, game.title),
        el("span", { class: `game-state state-${state}` }, t(`myGames.${state}`)),
        el("span", { class: "muted" }, t("myGames.against", { names: others.join(", ") || "—" })),
        game.status === "finished" ? outcome(game) : null,
        el(
          "span",
          { class: "links" },
          el("a", { href: game.links.play, class: "play-mine" }, game.status === "finished" ? t("lobby.finalPosition") : t("myGames.play")),
          game.links.replay ? el("a", { href: game.links.replay }, t("lobby.replay")) : null,
        ),
      ),
    );
  }
}

function currentGame() {
  return catalog.games.find((game) => game.name === $("game-select").value);
}

function onGameChange() {
  const game = currentGame();
  if (!game) return;
  const count = $("player-count");
  const previous = Number(count.value) || game.max_players;
  clear(count);
  const automa = game.automa || [];
  for (let n = game.min_players; n <= game.max_players; n += 1) {
    const label = n === 1 && automa.length ? t("lobby.soloAgainst", { automa: automa.join(", ") }) : String(n);
    count.append(el("option", { value: String(n) }, label));
  }
  count.value = String(Math.min(game.max_players, Math.max(game.min_players, previous)));
  renderSeatRows();
  renderOptions();
}

function solo() {
  const game = currentGame();
  return Boolean(game && Number($("player-count").value) === 1 && (game.automa || []).length);
}

function renderOptions() {
  const game = currentGame();
  if (!game) return;
  const options = $("options");
  for (const input of options.querySelectorAll(".option-input")) {
    optionValues[input.dataset.option] = input.type === "checkbox" ? input.checked : input.value;
  }
  for (const input of options.querySelectorAll(".seat-list-input")) optionValues[`${input.dataset.option}.${input.dataset.seat}`] = input.value;
  const wasOpen = Boolean(options.querySelector("details.house-rules[open]"));
  const before = optionValues;
  clear(options).append(el("legend", {}, t("lobby.options")));
  // the house rules (not printed rules) wait behind a disclosure, closed until wanted
  const houseRules = el("details", { class: "house-rules" }, el("summary", {}, t("lobby.houseRules")));
  let shown = 0;
  let houseShown = 0;
  const byCount = game.choices || {};
  const choices = byCount[$("player-count").value] || {};
  const players = Number($("player-count").value);
  for (const name of game.options) {
    const where = (game.house_rules || []).includes(name) ? houseRules : options;
    let input;
    const seatList = (game.seat_lists || {})[name];
    if (seatList) {
      // one whole number per seat, in turn order: a field for each seat instead of a typed list
      if (players < 2) continue;
      const fields = [];
      for (let place = 0; place < players; place += 1) {
        // in turn order (the first player first), whichever seat that is
        const value = before[`${name}.${place}`];
        fields.push(el("label", { class: "seat-list-entry" }, t("lobby.turnPlace", { n: place + 1 }), " ",
          el("input", { type: "number", class: "seat-list-input", "data-option": name, "data-seat": String(place), min: String(seatList[0]), max: String(seatList[1]), step: "1", inputmode: "numeric", placeholder: "0", value: typeof value === "string" ? value : "", "aria-label": t("lobby.seatListEntry", { option: optionLabel(name), n: place + 1 }) })));
      }
      where.append(el("fieldset", { class: "seat-list", "data-option": name }, el("legend", {}, optionLabel(name)), ...fields));
      if (where === houseRules) houseShown += 1;
      else shown += 1;
      continue;
    }
    if (Object.values(byCount).some((offered) => name in offered)) {
      // one of a few values: a menu, "default" leaving the option out; not offered for this many players
      const values = choices[name] || [];
      if (values.length < 2) continue;
      input = el("select", { class: "option-input", name, "data-option": name },
        el("option", { value: "" }, t("lobby.optionDefault")),
        ...values.map((value) => el("option", { value: JSON.stringify(value) }, choiceLabel(name, value))));
      input.value = values.some((value) => JSON.stringify(value) === before[name]) ? before[name] : "";
    } else if (Object.values(game.ranges || {}).some((offered) => name in offered)) {
      // a whole number within the game's limits, left empty for the default; not offered for this many players
      const limits = (game.ranges[$("player-count").value] || {})[name];
      if (!limits) continue;
      input = el("input", { type: "number", class: "option-input", name, "data-option": name, min: String(limits[0]), max: String(limits[1]), step: "1", inputmode: "numeric", title: `${limits[0]}–${limits[1]}`, placeholder: t("lobby.optionDefault"), value: typeof before[name] === "string" ? before[name] : "" });
    } else if ((game.switches || []).includes(name)) {
      // a true-or-false option: off (left out of the game's options) unless ticked
      input = el("input", { type: "checkbox", class: "option-input", name, "data-option": name });
      input.checked = before[name] === true;
    } else {
      input = el("input", { type: "text", class: "option-input", name, "data-option": name, placeholder: t("lobby.optionDefault"), value: typeof before[name] === "string" ? before[name] : "" });
    }
    where.append(el("label", {}, optionLabel(name), " ", input));
    if (where === houseRules) houseShown += 1;
    else shown += 1;
  }
  if (houseShown) {
    houseRules.open = wasOpen;
    options.append(houseRules);
  }
  options.hidden = shown + houseShown === 0;
}

// The options that list one whole number per seat: left out while every field is empty.
function seatListOptions() {
  const lists = {};
  for (const input of document.querySelectorAll(".seat-list-input")) {
    (lists[input.dataset.option] ||= []).push(input.value.trim());
  }
  const out = {};
  for (const [name, values] of Object.entries(lists)) {
    if (values.some((value) => value !== "")) out[name] = values.map((value) => (value === "" ? 0 : parseOption(value)));
  }
  return out;
}

function renderSeatRows() {
  const rows = $("seat-rows");
  const existing = Array.from(rows.querySelectorAll(".seat-row:not(.automa-row)")).map(readSeatRow);
  clear(rows).append(el("legend", {}, t("lobby.seats")));
  const count = Number($("player-count").value);
  for (let seat = 0; seat < count; seat += 1) {
    const first = seat === 0 ? (account ? "me" : "person") : "bot";
    const before = existing[seat] || { kind: first, name: "", level: DEFAULT_LEVEL, bot: "", open: false };
    // signed in, a seat may be the creator's own or another player's, by user name
    const kind = el(
      "select",
      { class: "seat-kind", "aria-label": t("lobby.seatKindLabel", { letter: seatStyle(seat).letter }), dataset: { seat: String(seat) } },
      account ? el("option", { value: "me" }, t("invite.kindMe", { name: account.name })) : null,
      el("option", { value: "person" }, t("lobby.person")),
      account ? el("option", { value: "account" }, t("invite.kindAccount")) : null,
      el("option", { value: "bot" }, t("lobby.bot")),
    );
    kind.value = before.kind === "me" && !account ? "person" : before.kind;
    if (!kind.value) kind.value = "person";
    const name = el("input", {
      class: "seat-name-input",
      type: "text",
      maxlength: 40,
      placeholder: t("lobby.namePlaceholder"),
      value: before.name || "",
      "aria-label": t("lobby.seatNameLabel", { letter: seatStyle(seat).letter }),
    });
    const level = el(
      "select",
      { class: "seat-level", "aria-label": t("lobby.seatBotLabel", { letter: seatStyle(seat).letter }) },
      ...gameLevels().map((entry) => el("option", { value: entry.name }, t(`lobby.levels.${entry.name}`))),
      el("option", { value: CUSTOM_LEVEL }, t("lobby.levelCustom")),
    );
    const bot = el("input", {
      class: "seat-bot",
      type: "text",
      list: "bot-specs",
      value: before.level === CUSTOM_LEVEL ? before.bot || defaultBotSpec() : specOf(before.level) || strongestSpec(),
      "aria-label": t("lobby.seatSpecLabel", { letter: seatStyle(seat).letter }),
    });
    level.value = levelOf(bot.value);
    // a person's seat may be offered to anyone in the lobby's Open tab instead of by invitation only
    const open = el("input", { type: "checkbox", class: "seat-open", "aria-label": t("lobby.seatOpenLabel", { letter: seatStyle(seat).letter }) });
    open.checked = Boolean(before.open);
    const openLabel = el("label", { class: "check seat-open-label" }, open, " ", t("lobby.seatOpen"));
    const row = el("div", { class: "seat-row", dataset: { seat: String(seat) } }, seatBadge(seat), kind, name, level, bot, openLabel);
    const letter = seatStyle(seat).letter;
    const sync = () => {
      const custom = level.value === CUSTOM_LEVEL;
      if (!custom) bot.value = specOf(level.value);
      level.hidden = kind.value !== "bot";
      bot.hidden = kind.value !== "bot" || !custom;
      openLabel.hidden = kind.value !== "person";
      name.hidden = kind.value === "me";
      const byName = kind.value === "account";
      name.placeholder = byName ? t("invite.accountPlaceholder") : t("lobby.namePlaceholder");
      name.setAttribute("aria-label", byName ? t("invite.accountLabel", { letter }) : t("lobby.seatNameLabel", { letter }));
      name.classList.toggle("account-name", byName);
    };
    kind.addEventListener("change", sync);
    level.addEventListener("change", sync);
    sync();
    rows.append(row);
  }
  // the seats the game plays itself in a solo game
  const game = currentGame();
  if (game && count === 1) {
    (game.automa || []).forEach((name, k) => {
      rows.append(
        el(
          "div",
          { class: "seat-row automa-row", dataset: { seat: String(count + k) } },
          seatBadge(count + k),
          el("span", { class: "seat-name" }, name),
          el("span", { class: "muted" }, t("lobby.automaNote")),
        ),
      );
    });
  }
}

const CUSTOM_LEVEL = "custom";
const DEFAULT_LEVEL = "intermediate";

/** The bot levels offered for the chosen game (the catalog's default ones for a game without its own). */
function gameLevels() {
  const game = currentGame();
  return (game && game.levels) || catalog.levels || [];
}

/** The spec of a bot level of the chosen game (levels are offered by their plain names). */
function specOf(name) {
  const entry = gameLevels().find((level) => level.name === name);
  return entry ? entry.spec : "";
}

/** The level a spec stands for, or the custom entry for any other spec. */
function levelOf(spec) {
  const entry = gameLevels().find((level) => level.spec === spec);
  return entry ? entry.name : CUSTOM_LEVEL;
}

/** The spec of the strongest level offered (for a level the chosen game does not have). */
function strongestSpec() {
  const levels = gameLevels();
  return levels.length ? levels[levels.length - 1].spec : defaultBotSpec();
}

function defaultBotSpec() {
  return specOf(DEFAULT_LEVEL) || catalog.bots[0] || "random";
}

function readSeatRow(row) {
  return {
    kind: row.querySelector(".seat-kind").value,
    name: row.querySelector(".seat-name-input").value.trim(),
    level: row.querySelector(".seat-level").value, // kept by name when the game, and so its levels, changes
    bot: row.querySelector(".seat-bot").value.trim(),
    open: row.querySelector(".seat-open").checked,
  };
}

function parseOption(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function showCreateError(message) {
  $("create-error").textContent = message;
  $("create-error").hidden = !message;
}

async function onCreate(event) {
  event.preventDefault();
  showCreateError("");
  const rows = Array.from($("seat-rows").querySelectorAll(".seat-row:not(.automa-row)")).map(readSeatRow);
  const unnamed = rows.findIndex((seat) => seat.kind === "account" && !seat.name);
  if (unnamed >= 0) {
    showCreateError(t("invite.accountMissing", { letter: seatStyle(unnamed).letter }));
    return;
  }
  const seats = rows.map((seat) => {
    if (seat.kind === "me") return { kind: "person", account: account.name };
    if (seat.kind === "account") return { kind: "person", account: seat.name };
    const spec = { kind: seat.kind };
    if (seat.name) spec.name = seat.name;
    if (seat.kind === "bot") spec.bot = seat.bot || "random";
    if (seat.kind === "person" && seat.open) spec.open = true;
    return spec;
  });
  const options = {};
  for (const input of document.querySelectorAll(".option-input")) {
    if (input.type === "checkbox") {
      if (input.checked) options[input.dataset.option] = true;
    } else if (input.value.trim()) options[input.dataset.option] = parseOption(input.value.trim());
  }
  Object.assign(options, seatListOptions());
  const body = { game: $("game-select").value, seats, options };
  const seed = $("seed").value.trim();
  // a chosen seed is shown to every seat and in the lobby (the server refuses a hidden one for two or more people)
  if (seed) Object.assign(body, { seed: Number(seed), seed_shown: true });
  if ($("turn-select").value) {
    body.turn_days = Number($("turn-select").value);
    body.time_out = $("time-out-select").value;
  } else if ($("clock-select").value) body.clock_seconds = Number($("clock-select").value);
  if ($("hints-allowed").checked) body.hints_allowed = true;
  if (!$("rated").checked) body.rated = false;
  $("create").disabled = true;
  try {
    const created = await api("/api/games", { method: "POST", body });
    const entry = {
      game_id: created.game_id,
      game: created.game,
      title: currentGame() ? currentGame().title : created.game,
      created: new Date().toISOString(),
      spectator_link: created.spectator_link,
      // the creator's own seat opens at the account's seat on any device; a friend's is in their "My games"
      seats: created.seats.map((seat) => ({
        seat: seat.seat, name: seat.name, kind: seat.kind, bot: seat.bot, level: seat.level,
        link: rows[seat.seat] && rows[seat.seat].kind === "me" ? `${location.origin}/play/${created.game_id}` : seat.link,
        account: Boolean(rows[seat.seat] && rows[seat.seat].kind === "account"),
      })),
      creator_token: created.creator_token,
      hints_allowed: Boolean(body.hints_allowed),
    };
    rememberGame(entry);
    showInvitations(entry);
    renderMyGames();
    refreshList();
    if (account) refreshAccountGames();
  } catch (error) {
    showCreateError(error.message);
  } finally {
    $("create").disabled = false;
  }
}

function copyButton(text) {
  const button = el("button", { type: "button", class: "copy" }, t("lobby.copy"));
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t("lobby.copied");
    } catch {
      button.textContent = t("lobby.selectAndCopy");
    }
    setTimeout(() => (button.textContent = t("lobby.copy")), 1500);
  });
  return button;
}

function showInvitations(entry) {
  const list = clear($("invitation-list"));
  if (entry.hints_allowed) list.append(el("li", { class: "invitation hints-note" }, t("coach.hintsAllowed")));
  for (const seat of namedSeats(entry.seats)) {
    if (seat.link) {
      list.append(
        el(
          "li",
          { class: "invitation" },
          seatBadge(seat.seat),
          el("span", { class: "seat-name" }, seat.name),
          el("input", { type: "text", readonly: true, value: seat.link, class: "link", "aria-label": t("lobby.linkFor", { name: seat.name }) }),
          copyButton(seat.link),
          el("a", { class: "play-link", href: seat.link, dataset: { seat: String(seat.seat) } }, t("lobby.playAs", { name: seat.name })),
        ),
      );
    } else {
      const note = seat.account ? t("invite.inTheirGames", { name: seat.name }) : seat.kind === "automa" ? t("lobby.playedByGame") : t("lobby.botNote", { bot: botLevel(seat) });
      list.append(el("li", { class: "invitation" }, seatBadge(seat.seat), el("span", { class: "seat-name" }, seat.name), el("span", { class: "muted" }, note)));
    }
  }
  list.append(
    el(
      "li",
      { class: "invitation" },
      el("span", { class: "seat-name" }, t("lobby.spectators")),
      el("input", { type: "text", readonly: true, value: entry.spectator_link, class: "link", "aria-label": t("lobby.spectatorLink") }),
      copyButton(entry.spectator_link),
      el("a", { class: "watch-link", href: entry.spectator_link }, t("lobby.watch")),
    ),
  );
  $("invitations").hidden = false;
}

function renderMyGames() {
  const list = clear($("my-games"));
  const games = myGames();
  if (!games.length) list.append(el("li", { class: "muted" }, t("lobby.mineEmpty")));
  for (const game of games.slice(0, 10)) {
    const links = game.seats
      .filter((seat) => seat.link)
      .map((seat) => el("a", { href: seat.link, class: "seat-link" }, seatBadge(seat.seat), ` ${seatName(seat)}`));
    const forget = el("button", { type: "button", class: "link-button" }, t("lobby.forget"));
    forget.addEventListener("click", () => {
      forgetGame(game.game_id);
      renderMyGames();
    });
    list.append(
      el(
        "li",
        { class: "game-line" },
        el("strong", {}, game.title || game.game),
        el("span", { class: "muted" }, ` ${new Date(game.created).toLocaleString(document.documentElement.lang)}`),
        el("span", { class: "links" }, links, el("a", { href: `/play/${game.game_id}` }, t("lobby.watchLower")), forget),
      ),
    );
    offerReplayIfFinished(list.lastElementChild.querySelector(".links"), game.game_id);
  }
}

// "replay" only for a game that is over (the server refuses the replay of a running game).
async function offerReplayIfFinished(links, gameId) {
  try {
    const summary = await api(`/api/games/${encodeURIComponent(gameId)}`);
    if (summary.links.replay) links.prepend(el("a", { href: summary.links.replay }, t("lobby.replay")));
  } catch {
    // a forgotten or unknown game: nothing to replay
  }
}

// A finished game's line: who won and when it ended.
function outcome(game) {
  if (!game.result) return el("span", { class: "muted" }, t("lobby.move", { move: game.move_number }));
  const winners = game.result.winners.map((seat) => (game.seats[seat] ? game.seats[seat].name : String(seat)));
  const shown = game.seats.filter((seat) => seat.kind !== "automa").length;
  const who =
    winners.length > 1 && winners.length === game.seats.length && shown > 1
      ? t("final.drawShort")
      : t(winners.length > 1 ? "final.winners" : "final.winner", { names: winners.join(", ") });
  const when = new Date(game.updated_at).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
  return el(
    "span",
    { class: "result" },
    el("span", { class: "winner" }, who),
    " · ",
    t("lobby.scores", { scores: game.result.scores.join(" – ") }),
    " · ",
    el("time", { datetime: game.updated_at, class: "finished-at" }, t("lobbyRows.finishedOn", { date: when })),
  );
}

// Each answer is drawn only if no later request was made meanwhile: a tab clicked while the
// previous list was on its way must not be overwritten by that older list.
let listRequests = 0;

async function refreshList() {
  const request = (listRequests += 1);
  let data;
  try {
    data = await api(`/api/games?${filterQuery()}`);
  } catch (error) {
    if (request === listRequests) clear($("game-list")).append(el("li", { class: "error" }, error.message));
    return;
  }
  if (request !== listRequests) return;
  const list = clear($("game-list"));
  if (!data.games.length) list.append(el("li", { class: "muted" }, t(`lobby.none.${listStatus}`)));
  for (const game of data.games) {
    game.seats = namedSeats(game.seats);
    const seats = game.seats.map((seat) =>
      el("span", { class: "seat-chip" }, seatBadge(seat.seat), ` ${seat.name}${seatNote(seat)}`),
    );
    const result = outcome(game);
    list.append(
      el(
        "li",
        { class: "game-line", dataset: { gameId: game.game_id } },
        el("strong", {}, game.title),
        game.seed_shown ? el("span", { class: "muted seed-shown" }, t("lobby.seedShown", { seed: game.seed })) : null,
        game.hints_allowed ? el("span", { class: "hints-allowed", title: t("coach.hintsAllowed") }, t("coach.lobbyHints")) : null,
        game.rated === false ? el("span", { class: "muted unrated" }, t("ratings.unrated")) : null,
        el("span", { class: "seats-inline" }, seats),
        result,
        el(
          "span",
          { class: "links" },
          el("a", { href: game.links.watch }, game.status === "finished" ? t("lobby.finalPosition") : t("lobby.watchLower")),
          game.status === "finished" && game.links.replay ? el("a", { href: game.links.replay }, t("lobby.replay")) : null,
          game.status === "open" ? joinButtons(game) : null,
        ),
      ),
    );
  }
}

function seatNote(seat) {
  if (seat.kind === "bot") return t("lobby.noteBot");
  if (seat.kind === "automa") return t("lobby.noteAutoma");
  if (joinable(seat)) return t("lobby.noteOpen");
  return seat.joined ? "" : t("lobby.noteInvited");
}

function joinable(seat) {
  return seat.kind === "person" && seat.open && !seat.claimed;
}

// "join" for each seat its creator opened to anyone: the server hands this browser the seat's
// private token, kept like a claimed invitation's, and the game page opens on that seat.
function joinButtons(game) {
  return game.seats.filter(joinable).map((seat) => {
    const button = el("button", { type: "button", class: "link-button join-seat", dataset: { seat: String(seat.seat) } }, t("lobby.joinSeat", { letter: seatStyle(seat.seat).letter }));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const joined = await api(`/api/games/${encodeURIComponent(game.game_id)}/seats/${seat.seat}/join`, { method: "POST" });
        localStorage.setItem(`eixample.seat.${game.game_id}.${joined.seat}`, joined.token);
        location.href = `/play/${encodeURIComponent(game.game_id)}#seat=${joined.seat}&token=${encodeURIComponent(joined.token)}`;
      } catch (error) {
        button.disabled = false;
        $("join-error").textContent = t("lobby.joinFailed", { error: error.message });
        $("join-error").hidden = false;
        refreshList();
      }
    });
    return button;
  });
}

// The label of one value of an option with a menu: translated when the catalogs have it.
function choiceLabel(name, value) {
  const key = `lobby.choice.${name}.${value}`;
  return hasKey(key) ? t(key) : String(value);
}

// A game option's label: from the catalog when it has one, else its name in words.
function optionLabel(name) {
  const key = `lobby.option.${name}`;
  return hasKey(key) ? t(key) : name.replace(/_/g, " ");
}

start();
