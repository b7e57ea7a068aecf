// The header's account corner, on every page: "Sign in" for a guest, or the signed-in name with
// a menu (My account, Sign out).

import { accountStatus, api, clear, el } from "./api.js";
import { setupI18n, t } from "./i18n.js";

// A path of this site to come back to after signing in ("/play/x?y"), or null.
export function localPath(text) {
  return typeof text === "string" && /^\/(?![/\\])/.test(text) ? text : null;
}

function signInLink() {
  const here = `${location.pathname}${location.search}`;
  const next = location.pathname.startsWith("/account") ? "" : `?next=${encodeURIComponent(here)}`;
  return el("a", { class: "account-link", href: `/account${next}` }, t("account.signIn"));
}

function accountMenu(account) {
  const signOut = el("button", { type: "button", class: "link-button account-sign-out" }, t("account.signOut"));
  signOut.addEventListener("click", async () => {
    signOut.disabled = true;
    try {
      await api("/api/account/signout", { method: "POST" });
    } finally {
      location.reload();
    }
  });
  const menu = el(
    "details",
    { class: "account-menu" },
    el("summary", { "aria-label": t("account.menuLabel", { name: account.name }) },
      el("span", { class: "account-name" }, account.name)),
    el("ul", { class: "account-menu-items" },
      el("li", {}, el("a", { href: "/account" }, t("account.myAccount"))),
      el("li", {}, signOut)),
  );
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  return menu;
}

async function start() {
  const slot = document.getElementById("account-slot");
  if (!slot) return;
  await setupI18n();
  const { account } = await accountStatus();
  clear(slot);
  slot.append(account ? accountMenu(account) : signInLink());
  slot.dataset.signedIn = account ? "true" : "false";
}

start();
