// The admins' page (/admin): open reports, live games and their players, blocked address ranges
// and the audit log; each act asks for a reason and goes through the admin API (docs/api.md).

import { accountStatus, api, clear, el } from "./api.js";
import { languageMenu, setupI18n, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function showError(message) {
  $("admin-error").textContent = message;
  $("admin-error").hidden = !message;
}

async function act(path, { method = "POST", body } = {}) {
  try {
    await api(path, { method, body });
    showError("");
  } catch (error) {
    showError(error.message);
  }
  await refresh();
}

function withReason(path) {
  const reason = window.prompt(t("admin.reason"), "");
  if (reason === null) return;
  act(path, { body: { reason: reason.slice(0, 500) } });
}

function button(label, onclick) {
  return el("button", { type: "button", onclick }, label);
}

function renderReports(reports) {
  const list = clear($("reports"));
  $("reports-empty").hidden = reports.length > 0;
  for (const report of reports) {
    const game = `/api/admin/games/${encodeURIComponent(report.game_id)}`;
    list.append(
      el(
        "li",
        { dataset: { report: String(report.id) } },
        el("a", { href: `/play/${encodeURIComponent(report.game_id)}` }, report.game_id),
        ` ${report.letter} · ${report.reporter}: ${report.reason}`,
        report.line_text ? el("q", {}, report.line_text) : null,
        report.line_id && !report.line_hidden ? button(t("admin.hide"), () => withReason(`${game}/chat/${report.line_id}/hide`)) : null,
        button(t("admin.close"), () => withReason(`/api/admin/reports/${report.id}/close`)),
      ),
    );
  }
}

function renderGames(games) {
  const list = clear($("games"));
  for (const game of games) {
    const players = game.seats.map((seat) => {
      const suspend = seat.account_id ? button(t("admin.suspend"), () => withReason(`/api/admin/accounts/${seat.account_id}/suspend`)) : null;
      return el("span", { class: "admin-player" }, `${seat.letter || ""} ${seat.name}`, suspend);
    });
    list.append(
      el(
        "li",
        { dataset: { game: game.game_id } },
        el("a", { href: `/play/${encodeURIComponent(game.game_id)}` }, `${game.title} ${game.game_id}`),
        ` (${game.status}, ${t("admin.watchers", { count: game.watchers })}) `,
        ...players,
        button(t("admin.end"), () => withReason(`/api/admin/games/${encodeURIComponent(game.game_id)}/end`)),
      ),
    );
  }
}

function renderBlocks(blocks) {
  const list = clear($("blocks"));
  for (const block of blocks) {
    list.append(el("li", {}, `${block.network} · ${block.actor} · ${block.reason}`,
      button(t("admin.unblock"), () => act(`/api/admin/blocks/${block.id}`, { method: "DELETE" }))));
  }
}

function renderAudit(entries) {
  const list = clear($("audit"));
  for (const entry of entries) {
    list.append(el("li", {}, `${entry.at} · ${entry.actor} · ${entry.act} · ${entry.target}`));
  }
}

async function refresh() {
  try {
    const [reports, games, blocks, audit] = await Promise.all([
      api("/api/admin/reports"), api("/api/admin/games"), api("/api/admin/blocks"), api("/api/admin/audit"),
    ]);
    renderReports(reports.reports);
    renderGames(games.games);
    renderBlocks(blocks.blocks);
    renderAudit(audit.audit);
  } catch (error) {
    showError(error.message);
  }
}

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  const status = await accountStatus();
  if (!status.signed_in || status.account.role !== "admin") {
    showError(t("admin.needAdmin"));
    return;
  }
  $("block-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act("/api/admin/blocks", { body: { network: $("block-network").value.trim(), reason: $("block-reason").value } });
  });
  await refresh();
}

start();
