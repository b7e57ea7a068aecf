// Knowing it is your turn: the tab's title and a badge on its icon while it is your turn, and,
// when your turn begins, an optional sound (two short tones made with WebAudio) and an optional
// browser notification if the tab is hidden. Both options are off until the player ticks them
// in the "Alerts" panel; notification permission is asked only by that click, never on load.
// The choices are kept in localStorage.

import { t } from "./i18n.js";

const STORAGE_KEY = "eixample.alerts";
const ICON_SIZE = 32;

function loadSettings() {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || "{}");
    return { sound: stored.sound === true, notify: stored.notify === true };
  } catch {
    return { sound: false, notify: false };
  }
}

function saveSettings(settings) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // not kept across visits; the panel still works for this page
  }
}

// The tab icon: the brand's square with an "E", and a red dot while it is your turn.
function drawIcon(badge) {
  const canvas = document.createElement("canvas");
  canvas.width = ICON_SIZE;
  canvas.height = ICON_SIZE;
  const g = canvas.getContext("2d");
  if (!g) return "data:,";
  g.fillStyle = "#23303d";
  g.fillRect(0, 0, ICON_SIZE, ICON_SIZE);
  g.fillStyle = "#ffffff";
  g.font = "bold 22px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText("E", ICON_SIZE / 2 - (badge ? 3 : 0), ICON_SIZE / 2 + 1);
  if (badge) {
    g.beginPath();
    g.arc(ICON_SIZE - 8, 8, 7.5, 0, 2 * Math.PI);
    g.fillStyle = "#d55e00";
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = "#ffffff";
    g.stroke();
  }
  return canvas.toDataURL("image/png");
}

export class TurnAlerts {
  constructor({ icon, toggle, panel, sound, notify, note }) {
    this.icon = icon;
    this.panel = panel;
    this.note = note;
    this.soundBox = sound;
    this.notifyBox = notify;
    this.settings = loadSettings();
    this.wasYourTurn = false;
    this.audio = null;
    this.badge = null;
    sound.checked = this.settings.sound;
    notify.checked = this.settings.notify && typeof Notification !== "undefined" && Notification.permission === "granted";
    toggle.addEventListener("click", () => {
      panel.hidden = !panel.hidden;
      toggle.setAttribute("aria-expanded", String(!panel.hidden));
    });
    sound.addEventListener("change", () => this.onSound());
    // browsers start audio only after a gesture on the page: the first tap or key unlocks it
    const unlock = () => {
      if (this.settings.sound) this.audioContext();
    };
    document.addEventListener("pointerdown", unlock, { once: true });
    document.addEventListener("keydown", unlock, { once: true });
    notify.addEventListener("change", () => this.onNotify());
    this.setBadge(false);
  }

  onSound() {
    this.settings.sound = this.soundBox.checked;
    saveSettings(this.settings);
    if (this.settings.sound) this.beep(); // a sample, and the click unlocks audio for later
  }

  async onNotify() {
    if (!this.notifyBox.checked) {
      this.settings.notify = false;
      saveSettings(this.settings);
      this.note.textContent = "";
      return;
    }
    if (typeof Notification === "undefined") {
      this.notifyBox.checked = false;
      this.note.textContent = t("settings.notifyUnsupported");
      return;
    }
    let permission = Notification.permission;
    if (permission === "default") permission = await Notification.requestPermission();
    const granted = permission === "granted";
    this.notifyBox.checked = granted;
    this.settings.notify = granted;
    saveSettings(this.settings);
    this.note.textContent = granted ? t("settings.notifyOn") : t("settings.notifyBlocked");
  }

  // After each state message: title and badge follow the turn; the alerts fire when it begins.
  update({ yourTurn, title, decision }) {
    document.title = yourTurn ? t("turn.title", { title }) : `${title} — Eixample`;
    this.setBadge(yourTurn);
    if (yourTurn && !this.wasYourTurn) this.turnBegins(title, decision);
    this.wasYourTurn = yourTurn;
  }

  setBadge(on) {
    if (this.badge === on) return;
    this.badge = on;
    this.icon.href = drawIcon(on);
    this.icon.dataset.badge = on ? "on" : "off";
  }

  turnBegins(title, decision) {
    if (this.settings.sound) this.beep();
    if (this.settings.notify && document.hidden && typeof Notification !== "undefined" && Notification.permission === "granted") {
      try {
        const note = new Notification(t("turn.notificationTitle", { title }), { body: decision, tag: "eixample-turn" });
        note.onclick = () => {
          window.focus();
          note.close();
        };
      } catch (error) {
        console.warn("notification failed", error);
      }
    }
  }

  audioContext() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    this.audio = this.audio || new Context();
    if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    return this.audio;
  }

  beep() {
    try {
      if (!this.audioContext()) return;
      const now = this.audio.currentTime;
      [660, 880].forEach((frequency, k) => {
        const tone = this.audio.createOscillator();
        const gain = this.audio.createGain();
        tone.type = "sine";
        tone.frequency.value = frequency;
        const start = now + k * 0.16;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.14);
        tone.connect(gain).connect(this.audio.destination);
        tone.start(start);
        tone.stop(start + 0.15);
      });
    } catch (error) {
      console.warn("sound failed", error);
    }
  }
}
