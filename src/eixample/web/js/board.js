// Loads the board renderer of a game (web/games/<name>.js) and draws with it. A renderer exports
// render(svgRoot, view, {legalActions, onAction, seat, seats, selected}) and may return the list
// of legal actions it made clickable; the page lists every other one as a button. Without a
// renderer (or if it fails) the board shows the view as text and every action is a button.

import { api, clear, el } from "./api.js";
import { squeezeFitted } from "./draw.js";

const cache = new Map();
let catalog = null;

// The renderer module of a game, as listed by /api/catalog; null if it has none.
export async function loadRenderer(gameName) {
  if (!cache.has(gameName)) {
    cache.set(gameName, findRenderer(gameName));
  }
  return cache.get(gameName);
}

async function findRenderer(gameName) {
  try {
    catalog = catalog || (await api("/api/catalog"));
  } catch {
    return null;
  }
  const entry = catalog.games.find((game) => game.name === gameName);
  if (!entry || !entry.renderer) return null;
  try {
    const module = await import(entry.renderer);
    return typeof module.render === "function" ? module : null;
  } catch (error) {
    console.warn(`the board renderer of ${gameName} failed to load`, error);
    return null;
  }
}

export function drawBoard(svgRoot, fallback, renderer, view, options) {
  if (renderer) {
    try {
      clear(svgRoot);
      const handled = renderer.render(svgRoot, view, options);
      svgRoot.removeAttribute("hidden");
      fallback.hidden = true;
      squeezeFitted(svgRoot);
      return new Set(handled ? Array.from(handled) : []);
    } catch (error) {
      console.error("board renderer failed", error);
    }
  }
  svgRoot.setAttribute("hidden", "");
  fallback.hidden = false;
  clear(fallback).append(el("pre", { class: "raw-view" }, JSON.stringify(view, null, 1)));
  return new Set();
}

// The words for an action: the renderer's actionLabel(action, {view, seat, seats}) if it has
// one (the game's action grammar worded through the catalogs), else the action text itself.
export function actionLabel(renderer, action, context) {
  if (renderer && typeof renderer.actionLabel === "function") {
    try {
      const words = renderer.actionLabel(action, context);
      if (words) return words;
    } catch (error) {
      console.error("action label failed", error);
    }
  }
  return action;
}
