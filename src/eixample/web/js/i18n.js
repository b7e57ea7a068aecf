// The web app's own texts in five languages, through i18next (vendor/i18next.js, see
// vendor/README.md) and the catalogs in web/i18n/<lang>.json. The language is, in this order:
// `?lang=xx` in the address, the one chosen earlier from the menu (localStorage), the browser's
// first supported language, English. <html lang> follows it.
//
// In the HTML, a data-i18n attribute (a key) sets an element's text and data-i18n-attr ("attr:key;…")
// its attributes. In code, `t(key, args)` with {{placeholders}}. Texts coming from a game engine
// are either plain text (shown as they are) or structured entries {"key": ..., "args": {...}},
// rendered through the catalog's `engine.<key>` messages by `message()`.

import i18next from "../vendor/i18next.js";

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "fr", name: "Français" },
  { code: "de", name: "Deutsch" },
  { code: "ja", name: "日本語" },
  { code: "cs", name: "Čeština" },
];
const CODES = LANGUAGES.map((language) => language.code);
const STORAGE_KEY = "eixample.lang";

function supported(code) {
  const base = String(code || "").toLowerCase().split(/[-_]/)[0];
  return CODES.includes(base) ? base : null;
}

export function chooseLanguage() {
  const asked = supported(new URLSearchParams(location.search).get("lang"));
  if (asked) return asked;
  try {
    const stored = supported(localStorage.getItem(STORAGE_KEY));
    if (stored) return stored;
  } catch {
    // storage may be refused (private mode): fall through
  }
  for (const code of navigator.languages || [navigator.language]) {
    const found = supported(code);
    if (found) return found;
  }
  return "en";
}

async function loadCatalog(code) {
  const response = await fetch(new URL(`../i18n/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`catalog ${code}: status ${response.status}`);
  return response.json();
}

let ready = null;

// Loads the chosen language (and English as the fallback) once; every page awaits it first.
export function setupI18n() {
  if (ready) return ready;
  ready = (async () => {
    const language = chooseLanguage();
    const resources = { en: { translation: await loadCatalog("en") } };
    if (language !== "en") {
      try {
        resources[language] = { translation: await loadCatalog(language) };
      } catch (error) {
        console.warn(error);
      }
    }
    await i18next.init({
      lng: language,
      fallbackLng: "en",
      resources,
      interpolation: { escapeValue: false }, // texts go into textContent, never innerHTML
      returnNull: false,
    });
    document.documentElement.lang = language;
    translateDom(document);
    return language;
  })();
  return ready;
}

export function t(key, args = {}) {
  return i18next.t(key, args);
}

export function hasKey(key) {
  return i18next.exists(key);
}

export function language() {
  return i18next.language || "en";
}

// Plain text as it is; a structured entry {key, args} through the catalog (engine.<key>). An
// argument may itself be an entry (a building, a card: translated too) or a list of values,
// joined by engine.join.<argument name> (else engine.join.list); see docs/formats.md.
export function message(entry) {
  if (entry && typeof entry === "object" && typeof entry.key === "string") {
    const key = `engine.${entry.key}`;
    const args = {};
    for (const [name, value] of Object.entries(entry.args || {})) args[name] = messageArgument(name, value);
    // with the arguments: a plural message has only key_<category> forms, found through `count`
    return i18next.exists(key, args) ? i18next.t(key, args) : `${entry.key} ${JSON.stringify(entry.args || {})}`;
  }
  return String(entry ?? "");
}

function isNothing(item) {
  return Boolean(item && typeof item === "object" && typeof item.key === "string" && item.key.endsWith(".nothing"));
}

function messageArgument(name, value) {
  if (Array.isArray(value)) {
    const join = i18next.exists(`engine.join.${name}`) ? `engine.join.${name}` : "engine.join.list";
    // "1 coin; nothing; 1 step" reads "1 coin; 1 step": a "nothing" item is left out of a list that has others
    const items = value.filter((item) => !isNothing(item));
    return (items.length ? items : value).map((item) => messageArgument(name, item)).join(i18next.t(join));
  }
  if (value && typeof value === "object") return message(value);
  return value;
}

export function translateDom(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":").map((part) => part.trim());
      if (attribute && key) node.setAttribute(attribute, t(key));
    }
  }
}

// The language menu (a <select>): changing it remembers the choice and reloads the page without
// a `?lang=` that would override it.
export function languageMenu() {
  const label = document.createElement("label");
  label.className = "language-menu";
  const caption = document.createElement("span");
  caption.className = "visually-hidden";
  caption.textContent = t("common.language");
  const select = document.createElement("select");
  select.id = "language";
  for (const entry of LANGUAGES) {
    const option = document.createElement("option");
    option.value = entry.code;
    option.lang = entry.code;
    option.textContent = entry.name;
    select.append(option);
  }
  select.value = language();
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(STORAGE_KEY, select.value);
    } catch {
      // not remembered; the address still carries it
    }
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    if (!supportedStored(select.value)) url.searchParams.set("lang", select.value);
    location.replace(url.toString());
  });
  label.append(caption, select);
  return label;
}

function supportedStored(code) {
  try {
    return localStorage.getItem(STORAGE_KEY) === code;
  } catch {
    return false;
  }
}

// The game's rules page, in the page's language (js/rules.js).
export function showRulesLink(game) {
  const link = document.getElementById("rules-link");
  link.href = `/static/rules.html?game=${encodeURIComponent(game)}&lang=${language()}`;
  link.hidden = false;
}
