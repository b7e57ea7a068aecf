// Board renderer for tic-tac-toe: a 3×3 grid. X is seat A (a cross in A's colour), O is seat B
// (a ring in B's colour); empty cells that may be marked now are clickable.

import { t } from "../js/i18n.js";
import { seatStyle, svg } from "../js/players.js";

const CELL = 100;
const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

export function render(root, view, { legalActions = [], onAction = () => {}, selected = null } = {}) {
  root.setAttribute("viewBox", `0 0 ${CELL * 3} ${CELL * 3}`);
  root.setAttribute("aria-label", describe(view.board));
  svg("rect", { x: 0, y: 0, width: CELL * 3, height: CELL * 3, class: "board-background" }, root);
  const handled = [];
  view.board.forEach((mark, index) => {
    const x = (index % 3) * CELL;
    const y = Math.floor(index / 3) * CELL;
    const cell = svg("g", { class: "cell", "data-cell": index }, root);
    svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: "cell-background" }, cell);
    if (mark === "X") drawCross(cell, x, y);
    else if (mark === "O") drawRing(cell, x, y);
    const action = `mark ${index}`;
    if (legalActions.includes(action)) {
      handled.push(action);
      const target = svg("rect", {
        x: x + 4,
        y: y + 4,
        width: CELL - 8,
        height: CELL - 8,
        rx: 8,
        class: `target${selected === action ? " selected" : ""}`,
        "data-action": action,
        role: "button",
        tabindex: 0,
        "aria-label": actionLabel(action),
      }, cell);
      target.addEventListener("click", () => onAction(action));
      target.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          event.stopPropagation();
          onAction(action);
        }
      });
    }
  });
  for (let i = 1; i < 3; i += 1) {
    svg("line", { x1: i * CELL, y1: 8, x2: i * CELL, y2: CELL * 3 - 8, class: "grid-line" }, root);
    svg("line", { x1: 8, y1: i * CELL, x2: CELL * 3 - 8, y2: i * CELL, class: "grid-line" }, root);
  }
  const line = LINES.find(([a, b, c]) => view.board[a] !== "." && view.board[a] === view.board[b] && view.board[a] === view.board[c]);
  if (line) {
    const centre = (i) => [(i % 3) * CELL + CELL / 2, Math.floor(i / 3) * CELL + CELL / 2];
    const [x1, y1] = centre(line[0]);
    const [x2, y2] = centre(line[2]);
    svg("line", { x1, y1, x2, y2, class: "win-line" }, root);
  }
  return handled;
}

function drawCross(parent, x, y) {
  const style = seatStyle(0);
  const m = 24;
  const g = svg("g", { class: "mark mark-x", stroke: style.colour, "stroke-width": 14, "stroke-linecap": "round" }, parent);
  svg("line", { x1: x + m, y1: y + m, x2: x + CELL - m, y2: y + CELL - m }, g);
  svg("line", { x1: x + CELL - m, y1: y + m, x2: x + m, y2: y + CELL - m }, g);
  svg("text", { x: x + CELL - 10, y: y + CELL - 10, "text-anchor": "end", class: "mark-letter" }, parent).textContent = style.letter;
}

function drawRing(parent, x, y) {
  const style = seatStyle(1);
  svg("circle", {
    cx: x + CELL / 2,
    cy: y + CELL / 2,
    r: CELL / 2 - 24,
    fill: "none",
    stroke: style.colour,
    "stroke-width": 14,
    class: "mark mark-o",
  }, parent);
  svg("text", { x: x + CELL - 10, y: y + CELL - 10, "text-anchor": "end", class: "mark-letter" }, parent).textContent = style.letter;
}

function describe(board) {
  const rows = [0, 1, 2].map((r) => board.slice(r * 3, r * 3 + 3).map((m) => (m === "." ? t("ttt.empty") : m)).join(", "));
  return t("ttt.describe", { rows: rows.map((row, r) => t("ttt.row", { row: r + 1, marks: row })).join(". ") });
}

// "mark 4" in words: the cell's row and column.
export function actionLabel(action) {
  const match = /^mark ([0-8])$/.exec(action);
  if (!match) return action;
  const index = Number(match[1]);
  return t("ttt.mark", { row: Math.floor(index / 3) + 1, column: (index % 3) + 1 });
}

export function groupLabel(word) {
  return word === "mark" ? t("ttt.cells") : null;
}
