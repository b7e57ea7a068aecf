// The rules page of a game: /static/rules.html?game=<name>&lang=<xx>. It shows
// docs/rules/<name>.<lang>.md (served under /rules/), rendered by marked (vendor/marked.js); when
// that language is not written yet it says so and shows the English text.

import { marked } from "../vendor/marked.js";
import { LANGUAGES, language, languageMenu, setupI18n, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const GAME_NAME = /^[a-z0-9_-]{1,40}$/;

async function fetchRules(game, lang) {
  const response = await fetch(`/rules/${game}.${lang}.md`);
  return response.ok ? response.text() : null;
}

async function start() {
  await setupI18n();
  $("language-slot").replaceWith(languageMenu());
  const game = new URLSearchParams(location.search).get("game") || "";
  const note = $("rules-note");
  if (!GAME_NAME.test(game)) {
    note.textContent = t("rules.missing");
    note.hidden = false;
    return;
  }
  $("title").textContent = t("rules.title", { game });
  const lang = language();
  let text = await fetchRules(game, lang);
  if (text === null && lang !== "en") {
    text = await fetchRules(game, "en");
    if (text !== null) {
      const name = (LANGUAGES.find((entry) => entry.code === lang) || { name: lang }).name;
      note.textContent = t("rules.pending", { language: name });
      note.hidden = false;
    }
  }
  if (text === null) {
    note.textContent = t("rules.missing");
    note.hidden = false;
    return;
  }
  // our own documentation, not user input: its Markdown becomes the article
  $("rules").innerHTML = marked.parse(text);
  const heading = $("rules").querySelector("h1");
  const title = heading ? heading.textContent : game;
  $("title").textContent = title;
  document.title = `${title} — Eixample`;
  document.body.dataset.rules = game;
}

start();
