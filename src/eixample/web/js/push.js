// "Notify me when it is my turn": on the page of a turn-based game, a signed-in player's seat may
// ask for Web Push notifications. The browser subscribes with the server's VAPID key
// (GET /api/push/key) through the service worker /sw.js, and the subscription is kept for the
// account (POST /api/push/subscriptions); the server then pushes each "your turn" notice to it.

import { accountStatus, api } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function say(key, args) {
  $("push-status").textContent = t(key, args);
  $("push-status").hidden = false;
}

async function subscribe() {
  if ((await Notification.requestPermission()) !== "granted") {
    say("notices.pushBlocked");
    return;
  }
  const { key } = await api("/api/push/key");
  const registration = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  const { endpoint, keys } = subscription.toJSON();
  await api("/api/push/subscriptions", { method: "POST", body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } });
  $("push-offer").hidden = true;
  say("notices.pushOn");
}

let wired = false;

// Shows the offer to a seat's player of a turn-based game who is signed in, once per page.
export async function offerPush(turnBased, seated) {
  const button = $("push-offer");
  if (!button || !turnBased || !seated || !supported() || Notification.permission === "denied") {
    if (button) button.hidden = true;
    return;
  }
  if (!(await accountStatus()).signed_in) return;
  if (Notification.permission === "granted" && wired) return;
  button.hidden = false;
  if (wired) return;
  wired = true;
  button.addEventListener("click", () => {
    button.disabled = true;
    subscribe()
      .catch((error) => say("notices.pushFailed", { error: error.message }))
      .finally(() => {
        button.disabled = false;
      });
  });
}
