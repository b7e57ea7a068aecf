// The board's viewport, shared by every game: the drawing pans inside a scrolling box, zooms
// (buttons, pinch with two fingers, Ctrl+wheel) and, when the renderer lists regions, shows one
// region at a time through region tabs ("panels you open": a city, tracks, each player board).
//
// A renderer may export regions(view, {seat, seats}) -> [{id, label, box: [x, y, w, h]}]; the
// labels are already words (the renderer words them through the catalogs). The viewport keeps
// the renderer's own viewBox as "the whole table" and puts the region's box in its place after
// every redraw (also the renderer's own, through a MutationObserver).
//
// On a small screen the viewport follows the decision: while it is your turn it opens the region
// holding the first clickable target, unless you chose a region yourself, and it zooms in until
// the smallest clickable target is at least MIN_TARGET CSS pixels and the median text MIN_TEXT.
// Once the game is over (context.finished) it shows the whole table.

import { clear, el } from "./api.js";
import { revealTargets } from "./draw.js";
import { t } from "./i18n.js";

const MIN_TARGET = 28;
const MIN_TEXT = 11;
const MAX_ZOOM = 5;
const ZOOM_STEP = 1.4;
const SMALL = "(max-width: 800px)";

export class BoardViewport {
  constructor(svgRoot, toolbar) {
    this.svg = svgRoot;
    this.toolbar = toolbar;
    this.box = svgRoot.parentElement;
    this.regions = [];
    this.region = null; // id shown now; null: the whole drawing
    this.chosen = false; // the player picked a region: stop following the decision
    this.zoom = 1;
    this.zoomChosen = false;
    this.fullBox = null;
    this.pointers = new Map();
    this.pinch = null;
    this.shownKey = null;
    new MutationObserver(() => this.keepRegion()).observe(svgRoot, { attributes: true, attributeFilter: ["viewBox"] });
    // where the viewport brought the decision's targets, kept until the player moves the board:
    // a scroll that neither the player nor the viewport made (a redraw's) is undone if it hid them
    this.kept = null;
    for (const type of ["wheel", "pointerdown", "touchstart", "keydown"]) {
      this.box.addEventListener(type, () => { this.kept = null; }, { passive: true });
    }
    this.box.addEventListener("scroll", () => this.keepTargets());
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => this.keepTargets(true)).observe(this.box);
    svgRoot.addEventListener("choice-opened", (event) => this.followChoice(event.detail || []));
    this.box.addEventListener("wheel", (event) => this.onWheel(event), { passive: false });
    this.box.addEventListener("pointerdown", (event) => this.onPointer(event));
    this.box.addEventListener("pointermove", (event) => this.onPointer(event));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      this.box.addEventListener(type, (event) => {
        this.pointers.delete(event.pointerId);
        if (this.pointers.size < 2) this.pinch = null;
      });
    }
  }

  small() {
    return window.matchMedia(SMALL).matches;
  }

  // After each render: the region tabs, the region, the zoom.
  update(renderer, view, context) {
    this.applied = null;
    let regions = [];
    if (renderer && typeof renderer.regions === "function") {
      try {
        regions = renderer.regions(view, context) || [];
      } catch (error) {
        console.error("board regions failed", error);
      }
    }
    this.regions = regions;
    if (this.region && !regions.some((region) => region.id === this.region)) {
      this.region = null;
      this.chosen = false;
    }
    // a finished game has no decision to follow: the whole table shows its end
    const following = this.small() && !(context && context.finished);
    if (!this.chosen) this.region = following ? this.followDecision() : null;
    this.keepRegion();
    this.renderToolbar();
    // zoom and scroll again only when what is shown changes (another region, a new decision),
    // not on every message, so that a player's panning is left alone while others move
    const key = this.shownNow();
    if (key === this.shownKey) return;
    this.shownKey = key;
    // a new decision: where it is made comes into view, on every screen size
    requestAnimationFrame(() => {
      revealTargets(this.svg);
      this.kept = [this.box.scrollLeft, this.box.scrollTop];
    });
    if (!this.zoomChosen) {
      this.autoZoom();
      // a renderer's own stylesheet may still be loading: measure again once it is there
      for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
        if (!link.sheet) link.addEventListener("load", () => this.zoomChosen || this.autoZoom(), { once: true });
      }
    }
  }

  // After a scroll the player did not make (a redraw's), or a resize of the board's box (the
  // decision sheet grew): while the player has not moved the board, a decision whose targets no
  // longer show gets them back in view.
  keepTargets(resized = false) {
    if (!this.kept) return;
    if (!resized && this.box.scrollLeft === this.kept[0] && this.box.scrollTop === this.kept[1]) return;
    if (this.targetsShow()) return;
    if (resized) revealTargets(this.svg);
    else this.box.scrollTo({ left: this.kept[0], top: this.kept[1] });
    this.kept = [this.box.scrollLeft, this.box.scrollTop];
  }

  // Whether the centre of some target lies in the board's box (and the window).
  targetsShow() {
    const frame = this.box.getBoundingClientRect();
    const top = Math.max(0, frame.top);
    const bottom = Math.min(window.innerHeight, frame.bottom);
    return Array.from(this.svg.querySelectorAll("[data-action], [data-step]")).some((node) => {
      const r = node.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      return r.width > 0 && x >= frame.left && x <= frame.right && y >= top && y <= bottom;
    });
  }

  // A two-step choice opened (a Modernisme tile picked, its project space next): when none of its
  // targets lies in the region shown, the region holding them opens (the whole table if none).
  followChoice(targets) {
    if (!this.regions.length || !targets.length || targets.some((node) => this.insideRegion(node))) return;
    const holder = this.regions.find((region) => targets.some((node) => this.insideRegion(node, region.id)));
    this.region = holder ? holder.id : null;
    this.chosen = false;
    this.shownKey = this.shownNow();
    this.keepRegion();
    this.renderToolbar();
    if (!this.zoomChosen) this.autoZoom();
  }

  // What the viewport shows: the region, the first clickable target, the screen's class.
  shownNow() {
    const first = this.svg.querySelector("[data-action]");
    return `${this.region}|${first ? first.getAttribute("data-action") : ""}|${this.small()}`;
  }

  // The region holding the first clickable target; else the one shown, else the first region.
  followDecision() {
    if (!this.regions.length) return null;
    const target = this.svg.querySelector("[data-action], [data-step], .bcn-target");
    if (target) {
      const inside = this.regions.find((region) => this.insideRegion(target, region.id));
      if (inside) return inside.id;
    }
    return this.region || this.regions[0].id;
  }

  keepRegion() {
    const current = this.svg.getAttribute("viewBox");
    // a viewBox this viewport did not set is the renderer's drawing: the whole table
    if (current && current !== this.applied) this.fullBox = current;
    const region = this.regions.find((entry) => entry.id === this.region);
    const wanted = region ? region.box.join(" ") : this.fullBox;
    if (wanted && current !== wanted) {
      this.applied = wanted;
      this.svg.setAttribute("viewBox", wanted);
    }
    this.svg.dataset.region = this.region || "all";
  }

  renderToolbar() {
    clear(this.toolbar);
    if (this.regions.length) {
      const tabs = el("div", { class: "region-tabs", role: "group", "aria-label": t("board.regions") });
      const entries = [{ id: null, label: t("board.whole") }, ...this.regions];
      for (const entry of entries) {
        tabs.append(
          el(
            "button",
            {
              type: "button",
              class: "region-tab",
              "aria-pressed": String(entry.id === this.region),
              dataset: { region: entry.id || "all" },
              onclick: () => this.showRegion(entry.id),
            },
            entry.label,
          ),
        );
      }
      this.toolbar.append(tabs);
    }
    this.toolbar.append(
      el(
        "div",
        { class: "zoom-buttons" },
        el("button", { type: "button", class: "zoom-out", "aria-label": t("board.zoomOut"), title: t("board.zoomOut"), onclick: () => this.setZoom(this.zoom / ZOOM_STEP) }, "−"),
        el("button", { type: "button", class: "zoom-fit", "aria-label": t("board.zoomFit"), title: t("board.zoomFit"), onclick: () => this.setZoom(1) }, "1:1"),
        el("button", { type: "button", class: "zoom-in", "aria-label": t("board.zoomIn"), title: t("board.zoomIn"), onclick: () => this.setZoom(this.zoom * ZOOM_STEP) }, "+"),
      ),
    );
  }

  showRegion(id) {
    this.kept = null;
    this.region = id;
    this.chosen = true;
    this.zoomChosen = false;
    this.shownKey = this.shownNow();
    this.keepRegion();
    this.renderToolbar();
    this.autoZoom();
    this.box.scrollTo({ left: 0, top: 0 });
  }

  // At zoom 1 on a small screen, measure the smallest clickable target and the median text size
  // of the part shown; zoom in until they reach MIN_TARGET and MIN_TEXT pixels.
  autoZoom() {
    this.applyZoom(1);
    if (!this.small()) return;
    const scale = this.svg.getScreenCTM ? Math.abs((this.svg.getScreenCTM() || { a: 1 }).a) : 1;
    let smallest = Infinity;
    for (const node of this.svg.querySelectorAll("[data-action]")) {
      const r = node.getBoundingClientRect();
      if (r.width === 0 || !this.insideRegion(node)) continue;
      smallest = Math.min(smallest, r.width, r.height);
    }
    const sizes = [];
    for (const node of this.svg.querySelectorAll("text")) {
      if (!this.insideRegion(node)) continue;
      const size = parseFloat(getComputedStyle(node).fontSize);
      if (size > 0) sizes.push(size * scale);
    }
    sizes.sort((a, b) => a - b);
    const median = sizes.length ? sizes[Math.floor(sizes.length / 2)] : Infinity;
    const zoom = Math.max(1, MIN_TARGET / smallest, MIN_TEXT / median);
    if (zoom > 1) this.applyZoom(Math.min(MAX_ZOOM, zoom));
    this.scrollToTarget();
  }

  // Whether the centre of a node (in the drawing's own units, whatever transforms its groups
  // carry) lies in the region shown.
  insideRegion(node, regionId = this.region) {
    const region = this.regions.find((entry) => entry.id === regionId);
    if (!region) return true;
    const point = this.centre(node);
    if (!point) return true;
    const [x, y, w, h] = region.box;
    return point.x >= x && point.x <= x + w && point.y >= y && point.y <= y + h;
  }

  centre(node) {
    const matrix = this.svg.getScreenCTM && this.svg.getScreenCTM();
    if (!matrix) return null;
    const r = node.getBoundingClientRect();
    const inverse = matrix.inverse();
    const sx = r.left + r.width / 2;
    const sy = r.top + r.height / 2;
    return { x: inverse.a * sx + inverse.c * sy + inverse.e, y: inverse.b * sx + inverse.d * sy + inverse.f };
  }

  scrollToTarget() {
    if (this.zoom <= 1) return;
    const node = Array.from(this.svg.querySelectorAll("[data-action]")).find((entry) => this.insideRegion(entry));
    if (!node) return;
    const r = node.getBoundingClientRect();
    const box = this.box.getBoundingClientRect();
    this.box.scrollBy({ left: r.left - box.left - box.width / 2 + r.width / 2, top: r.top - box.top - box.height / 2 + r.height / 2 });
  }

  setZoom(zoom) {
    this.kept = null;
    this.zoomChosen = true;
    const box = this.box;
    // keep the centre of the view where it is
    const cx = (box.scrollLeft + box.clientWidth / 2) / Math.max(1, box.scrollWidth);
    const cy = (box.scrollTop + box.clientHeight / 2) / Math.max(1, box.scrollHeight);
    this.applyZoom(zoom);
    box.scrollLeft = cx * box.scrollWidth - box.clientWidth / 2;
    box.scrollTop = cy * box.scrollHeight - box.clientHeight / 2;
  }

  applyZoom(zoom) {
    this.zoom = Math.max(1, Math.min(MAX_ZOOM, zoom));
    this.svg.style.width = `${(this.zoom * 100).toFixed(1)}%`;
    this.box.dataset.zoomed = String(this.zoom > 1);
    this.box.dataset.zoom = this.zoom.toFixed(2);
  }

  onWheel(event) {
    if (!event.ctrlKey) return;
    event.preventDefault();
    this.setZoom(this.zoom * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
  }

  onPointer(event) {
    if (event.pointerType !== "touch") return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size !== 2) return;
    const [a, b] = Array.from(this.pointers.values());
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    if (!this.pinch) this.pinch = { distance, zoom: this.zoom };
    else if (this.pinch.distance > 0) this.setZoom(this.pinch.zoom * (distance / this.pinch.distance));
  }
}
