// The account page (/account): sign in or create an account; once signed in, the account's
// settings (e-mail address, password, sign out everywhere, delete). /account/verify#token=… and
// /account/reset#token=… take the token of a mailed link: the fragment never reaches the server's
// logs, and it is removed from the address once read.

import { accountStatus, api, ApiError } from "./api.js";
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

function showGuest() {
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
        body: { name: $("signup-name").value.trim(), password: $("signup-password").value, ...(email ? { email } : {}) },
      });
      signedIn();
    });
  });
  $("forgot-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(event.target, "forgot-result", async () => {
      await api("/api/account/password/forgot", { method: "POST", body: { email: $("forgot-email").value.trim() } });
      say("forgot-result", t("account.forgotSent"));
    });
  });
}

function emailText(account) {
  if (!account.email) return t("account.noEmail");
  return `${account.email} (${t(account.email_verified ? "account.verified" : "account.unverified")})`;
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
      const answer = await api("/api/account/email", { method: "POST", body: { email: email || null } });
      const fresh = await accountStatus({ fresh: true });
      if (fresh.account) say("settings-email", emailText(fresh.account));
      say("settings-result", answer.verification_sent ? t("account.verificationSent") : t("account.saved"));
    });
  });
  $("email-resend").addEventListener("click", () => {
    submitting($("email-form"), "email-error", async () => {
      await api("/api/account/email/send", { method: "POST" });
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
      await api("/api/account", { method: "DELETE", body: { password: $("delete-password").value || null } });
      location.assign("/");
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
