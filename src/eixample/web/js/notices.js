// The unsubscribe page of the "your turn" mails: /notices/unsubscribe?account=<id>&token=<hmac>.
// It works without signing in: the link's token is the proof. The request carries no cookie, so a
// signed-in browser needs no CSRF token for it either.

import { errorText } from "./api.js";
import { languageMenu, setupI18n, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function showError(text) {
  $("unsubscribe-error").textContent = text;
  $("unsubscribe-error").hidden = false;
}

async function unsubscribe(account, token) {
  let response;
  try {
    response = await fetch("/api/notices/unsubscribe", {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ account, token }),
    });
  } catch (error) {
    showError(t("errors.unreachable", { error: error.message }));
    return;
  }
  if (response.ok) {
    $("unsubscribe-form").hidden = true;
    $("unsubscribe-done").hidden = false;
    return;
  }
  const data = await response.json().catch(() => null);
  showError(response.status === 403 ? t("notices.badLink") : errorText(data, response.status));
}

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  const query = new URLSearchParams(location.search);
  const account = query.get("account") || "";
  const token = query.get("token") || "";
  if (!account || !token || account.length > 32 || token.length > 64) {
    showError(t("notices.badLink"));
    return;
  }
  $("unsubscribe-form").hidden = false;
  $("unsubscribe-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("unsubscribe").disabled = true;
    unsubscribe(account, token).finally(() => {
      $("unsubscribe").disabled = false;
    });
  });
}

start();
