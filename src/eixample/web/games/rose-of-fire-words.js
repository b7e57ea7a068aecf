// The Rose of Fire's action texts in words, through the catalogs (rof.do.*): "tile LB3 Y" reads
// "Place a yellow tile on LB3". The grammar is the "Action text" table of the Rose of Fire in
// docs/formats.md; a text that does not match it is shown as it is. Also the words for the
// groups of buttons (by first word), the help of each decision kind (rof.help.*) and the small
// vocabulary the board shares with them (colours, house types, influence symbols, card effects).

import { hasKey, t } from "../js/i18n.js";

export const COLOUR_OF_LETTER = { Y: "yellow", L: "lilac", G: "green" };
export const SYMBOL_OF_LETTER = { K: "crown", C: "colonies", P: "personalities" };
export const LETTER_OF_SYMBOL = { crown: "K", colonies: "C", personalities: "P" };
export const HOUSE_LETTERS = ["U", "M", "W", "L"];

export function colourName(colour) {
  return t(`rof.colour.${colour}`);
}

export function houseName(letter) {
  return t(`rof.house.${letter}`);
}

export function symbolName(symbol) {
  return t(`rof.symbol.${symbol}`);
}

export function kindName(kind) {
  return t(`rof.kind.${kind}`);
}

// A card's effects ({reward: 1, vp: 2}) in words.
export function effectsText(effects) {
  return Object.entries(effects || {})
    .map(([effect, amount]) => (hasKey(`rof.effect.${effect}`) ? t(`rof.effect.${effect}`, { n: amount }) : `${effect} ${amount}`))
    .join(", ");
}

// "2K1C+conv" in words: "2 crown, 1 colonies and your conviction".
export function paymentText(payment) {
  if (payment === "conv") return t("rof.pay.conviction");
  const [tokens, conviction] = payment.split("+");
  const parts = [];
  for (const [, count, letter] of tokens.matchAll(/(\d+)([KCP])/g)) {
    parts.push(t("rof.pay.tokens", { n: Number(count), symbol: symbolName(SYMBOL_OF_LETTER[letter]) }));
  }
  if (conviction === "conv") parts.push(t("rof.pay.conviction"));
  return parts.join(", ");
}

// A card of the viewer's hand or of a pile, named by its title when the view holds its face.
export function cardName(view, id) {
  if (id === "strike") return t("rof.card.strike");
  const players = (view && view.player_list) || [];
  for (const player of players) {
    const card = (player.hand || []).find((entry) => entry.id === id);
    if (card) return card.kind === "city" ? t("rof.card.city", { colour: colourName(card.colour), id }) : `${card.title} (${id})`;
  }
  // a card seen from outside the hand (a replay, a pile): its kind shows in its name
  const kind = KIND_OF_LETTER[id[0]];
  return kind ? `${kindName(kind)} ${id}` : id;
}

const KIND_OF_LETTER = { c: "city", p: "popularity", r: "prestige" };

function influenceName(view, id) {
  const card = ((view && view.influence_cards) || []).find((entry) => entry.id === id);
  return card ? `${card.name} (${id})` : id;
}

// The symbol a secret token choice ("keep 1", "drop 3") names: only the choosing seat's own view
// says it (secret_choice); anyone else sees the place alone.
function secretSymbol(view, action) {
  for (const player of (view && view.player_list) || []) {
    const symbol = player.secret_choice && player.secret_choice[action];
    if (symbol) return symbol;
  }
  return "hidden";
}

// Each form: a pattern of the action text, and the catalog key and arguments for its words.
const FORMS = [
  [/^card (\S+)$/, (m, view) => ["card", { card: cardName(view, m[1]) }]],
  [/^event (\S+)$/, (m, view) => ["event", { card: cardName(view, m[1]) }]],
  [/^both (\S+)$/, (m, view) => ["both", { card: cardName(view, m[1]) }]],
  [/^discard (\S+)$/, (m, view) => ["discard", { card: cardName(view, m[1]) }]],
  [/^tile (\S+) ([YLG])$/, (m) => ["tile", { space: m[1], colour: colourName(COLOUR_OF_LETTER[m[2]]) }]],
  [/^house ([UMWL])$/, (m) => ["house", { house: houseName(m[1]) }]],
  [/^keep \d+$/, (m, view) => ["keep", { symbol: symbolName(secretSymbol(view, m[0])) }]],
  [/^drop \d+$/, (m, view) => ["drop", { symbol: symbolName(secretSymbol(view, m[0])) }]],
  [/^block (\S+)$/, (m) => ["block", { space: m[1] }]],
  [/^buy (\S+) with (\S+)$/, (m, view) => ["buy", { card: influenceName(view, m[1]), payment: paymentText(m[2]) }]],
  [/^done$/, () => ["done", {}]],
  [/^reward$/, () => ["reward", {}]],
  [/^reward personalities$/, () => ["rewardConviction", {}]],
  [/^extra none$/, () => ["extraNone", {}]],
  [/^extra colonies$/, () => ["extraConviction", {}]],
  [/^ability first$/, () => ["abilityFirst", {}]],
  [/^strikers first$/, () => ["strikersFirst", {}]],
];

// The words for an action text, or null when it does not follow the grammar.
export function actionWords(action, view) {
  for (const [pattern, words] of FORMS) {
    const match = pattern.exec(action);
    if (match) {
      const [key, args] = words(match, view);
      return t(`rof.do.${key}`, args);
    }
  }
  return null;
}

// The heading of a group of buttons, from the first word of its actions.
export function groupWords(word) {
  const key = `rof.group.${word}`;
  return hasKey(key) ? t(key) : null;
}

// What a decision kind means and why these choices are the legal ones.
export function decisionHelp(kind) {
  const key = `rof.help.${kind}`;
  return kind && hasKey(key) ? t(key) : null;
}
