// The account page (/account): sign in or create an account; once signed in, the account's
// settings (e-mail address, password, sign out everywhere, delete). /account/verify#token=… and
// /account/reset#token=… take the token of a mailed link: the fragment never reaches the server's
// logs, and it is removed from the address once read.

import { accountStatus, api, ApiError, el } from "./api.js";
import { localPath } from "./accountmenu.js";
import { hasKey, language, languageMenu, setupI18n, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// A refusal in the page's language: the account's own wording of its code, else the server's.
function problem(error) {
  if (error instanceof ApiError && error.code) {
    if (error.code === "too_many") return t("account.errors.throttled", { seconds: error.retryAfter ?? 60 });
    if (hasKey(`account.errors.${error.code}`)) return t(`account.errors.${error.code}`, error.args);
  }
  return error.message;
}

function say(id, text) {
  $(id).textContent = text || "";
}

// Runs `work` with the form's buttons disabled; a refusal is shown in `errorId`.
async function submitting(form, errorId, work) {
  const buttons = [...form.querySelectorAll("button")];
  buttons.forEach((button) => { button.disabled = true; });
  say(errorId, "");
  try {
    await work();
  } catch (error) {
    say(errorId, problem(error));
  } finally {
    buttons.forEach((button) => { button.disabled = false; });
  }
}

// Where to go once signed in: back where the sign-in began, or the account; a language asked
// for in the address stays.
function signedIn() {
  const params = new URLSearchParams(location.search);
  const next = new URL(localPath(params.get("next")) || "/account", location.origin);
  if (params.get("lang")) next.searchParams.set("lang", params.get("lang"));
  location.assign(`${next.pathname}${next.search}`);
}

function showNote(text) {
  const note = $("account-note");
  note.textContent = text;
  note.hidden = !text;
}

function tokenFromHash() {
  const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("token");
  if (token) history.replaceState(null, "", location.pathname);
  return token;
}

// Passkeys, where the browser can make them (WebAuthn with its JSON helpers).
function passkeysWork() {
  return Boolean(window.PublicKeyCredential && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function");
}

function deviceName() {
  return (navigator.userAgentData && navigator.userAgentData.platform) || "passkey";
}

async function createPasskey(options) {
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  return credential.toJSON();
}

async function usePasskey(options) {
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  return credential.toJSON();
}

// A refusal, or the browser's: the person closed its passkey dialog.
function passkeyProblem(error) {
  return error instanceof DOMException ? t("account.passkeyCancelled") : problem(error);
}

async function withPasskey(form, errorId, work) {
  await submitting(form, errorId, async () => {
    try {
      await work();
    } catch (error) {
      throw new Error(passkeyProblem(error));
    }
  });
}

function showGuest() {
  if (passkeysWork()) {
    $("passkey-signin").hidden = false;
    $("passkey-signup").hidden = false;
  }
  $("passkey-signin").addEventListener("click", () => {
    withPasskey($("signin-form"), "signin-error", async () => {
      const { ceremony, options } = await api("/api/account/passkey-signin/options", { method: "POST" });
      const credential = await usePasskey(options);
      await api("/api/account/passkey-signin", { method: "POST", body: { ceremony, credential } });
      signedIn();
    });
  });
  $("passkey-signup").addEventListener("click", () => {
    withPasskey($("signup-form"), "signup-error", async () => {
      const name = $("signup-name").value.trim();
      const { ceremony, options } = await api("/api/account/passkey-signup/options", { method: "POST", body: { name } });
      const credential = await createPasskey(options);
      await api("/api/account/passkey-signup", { method: "POST", body: { ceremony, credential, name: deviceName() } });
      signedIn();
    });
  });
  $("signin-panel").hidden = false;
  $("signup-panel").hidden = false;
  $("signin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(event.target, "signin-error", async () => {
      await api("/api/account/signin", {
        method: "POST", body: { name: $("signin-name").value.trim(), password: $("signin-password").value },
      });
      signedIn();
    });
  });
  $("signup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(event.target, "signup-error", async () => {
      const email = $("signup-email").value.trim();
      await api("/api/account/signup", {
        method: "POST",
        body: { name: $("signup-name").value.trim(), password: $("signup-password").value, lang: language(),
          ...(email ? { email } : {}) },
      });
      signedIn();
    });
  });
  $("forgot-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(event.target, "forgot-result", async () => {
      await api("/api/account/password/forgot", { method: "POST", body: { email: $("forgot-email").value.trim(), lang: language() } });
      say("forgot-result", t("account.forgotSent"));
    });
  });
}

function emailText(account) {
  if (!account.email) return t("account.noEmail");
  return `${account.email} (${t(account.email_verified ? "account.verified" : "account.unverified")})`;
}

// The "your turn" mails of turn-based games (server/notice_routes.py): on unless stopped here or
// by a mail's unsubscribe link.
async function showTurnMails() {
  const box = $("turn-mails");
  try {
    box.checked = (await api("/api/notices/settings")).mail;
    box.dataset.ready = "true";
  } catch (error) {
    say("settings-result", problem(error));
    return;
  }
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      const answer = await api("/api/notices/settings", { method: "PUT", body: { mail: box.checked } });
      box.checked = answer.mail;
      say("settings-result", t("account.saved"));
    } catch (error) {
      box.checked = !box.checked;
      say("settings-result", problem(error));
    } finally {
      box.disabled = false;
    }
  });
}

function showAccount(account) {
  const panel = $("settings-panel");
  panel.hidden = false;
  document.body.dataset.account = account.name;
  say("settings-name", account.name);
  say("settings-email", emailText(account));
  say("settings-since", new Date(account.created_at).toLocaleDateString(language()));
  $("email-input").value = account.email || "";
  $("password-form-name").value = account.name;
  $("email-resend").hidden = !(account.mail && account.email && !account.email_verified);

  $("password-current-label").hidden = !account.has_password;
  $("delete-password-label").hidden = !account.has_password;
  $("delete-name-label").hidden = account.has_password;
  showPasskeys();
  showTurnMails();

  $("sign-out").addEventListener("click", async () => {
    await api("/api/account/signout", { method: "POST" }).catch(() => null);
    location.assign("/account");
  });
  $("sign-out-everywhere").addEventListener("click", async () => {
    await api("/api/account/signout-everywhere", { method: "POST" }).catch(() => null);
    location.assign("/account");
  });
  $("email-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(event.target, "email-error", async () => {
      const email = $("email-input").value.trim();
      const answer = await api("/api/account/email", { method: "POST", body: { email: email || null, lang: language() } });
      const fresh = await accountStatus({ fresh: true });
      if (fresh.account) say("settings-email", emailText(fresh.account));
      say("settings-result", answer.verification_sent ? t("account.verificationSent") : t("account.saved"));
    });
  });
  $("email-resend").addEventListener("click", () => {
    submitting($("email-form"), "email-error", async () => {
      await api("/api/account/email/send", { method: "POST", body: { lang: language() } });
      say("settings-result", t("account.verificationSent"));
    });
  });
  $("password-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(event.target, "password-error", async () => {
      const current = $("password-current").value;
      await api("/api/account/password", {
        method: "POST", body: { new_password: $("password-new").value, ...(current ? { password: current } : {}) },
      });
      event.target.reset();
      say("settings-result", t("account.passwordChanged"));
    });
  });
  $("delete-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(event.target, "delete-error", async () => {
      if (!window.confirm(t("account.deleteConfirm"))) return;
      const body = account.has_password ? { password: $("delete-password").value } : { confirm_name: $("delete-name").value };
      await api("/api/account", { method: "DELETE", body });
      location.assign("/");
    });
  });
}

async function listPasskeys() {
  const list = $("passkey-list");
  const { passkeys } = await api("/api/account/passkeys");
  list.replaceChildren(...passkeys.map((passkey) => {
    const remove = el("button", { type: "button", class: "link-button" }, t("account.removePasskey"));
    remove.addEventListener("click", () => {
      submitting(list, "passkey-error", async () => {
        await api("/api/account/passkeys/delete", { method: "POST", body: { id: passkey.id } });
        await listPasskeys();
      });
    });
    const added = t("account.passkeyAdded", { date: new Date(passkey.created_at).toLocaleDateString(language()) });
    return el("li", { class: "passkey" }, el("span", { class: "passkey-name" }, passkey.name), " ",
      el("span", { class: "muted" }, added), " ", remove);
  }));
  if (!passkeys.length) list.append(el("li", { class: "muted" }, t("account.noPasskeys")));
  document.body.dataset.passkeys = String(passkeys.length);
}

function showPasskeys() {
  listPasskeys().catch((error) => say("passkey-error", problem(error)));
  if (!passkeysWork()) return;
  const add = $("passkey-add");
  add.hidden = false;
  add.addEventListener("click", () => {
    withPasskey($("passkeys"), "passkey-error", async () => {
      const { ceremony, options } = await api("/api/account/passkeys/options", { method: "POST" });
      const credential = await createPasskey(options);
      await api("/api/account/passkeys", { method: "POST", body: { ceremony, credential, name: deviceName() } });
      await listPasskeys();
    });
  });
}

async function verify(token) {
  try {
    await api("/api/account/email/verify", { method: "POST", body: { token } });
    showNote(t("account.emailVerified"));
  } catch (error) {
    showNote(problem(error));
  }
}

function showReset(token) {
  $("reset-panel").hidden = false;
  $("reset-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(event.target, "reset-error", async () => {
      await api("/api/account/password/reset", { method: "POST", body: { token, password: $("reset-password").value } });
      location.assign("/account");
    });
  });
}

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  const view = location.pathname.replace(/^\/account\/?/, "");
  const token = view ? tokenFromHash() : null;
  if (view === "verify" && token) await verify(token);
  if (view === "reset" && token) {
    showReset(token);
    document.body.dataset.ready = "true";
    return;
  }
  const { account } = await accountStatus({ fresh: true });
  if (account) showAccount(account);
  else showGuest();
  document.body.dataset.ready = "true";
}

start();
