// Barcelona's action texts in words, through the catalogs (bcn.do.*): "mix coin 1 cloth 1" reads
// "Take 1 coin and 1 cloth". The grammar is the "Action text" table of docs/formats.md; a text
// that does not match it is shown as it is. Also the words for the groups of buttons (by first
// word) and the help text of each decision kind (bcn.help.*).

import { hasKey, t } from "../js/i18n.js";

// Each form: a pattern of the action text, and the catalog key and arguments for its words.
const FORMS = [
  [/^place (\S+)$/, (m) => ["place", { crossing: m[1] }]],
  [/^top ([WMU])$/, (m) => ["top", { citizen: t(`bcn.citizen.${m[1]}`) }]],
  [/^benefits none$/, () => ["benefitsNone", {}]],
  [/^benefits ([\d+]+)$/, (m) => ["benefits", { list: listOf(m[1].split("+")) }]],
  [/^act (\S+) (\w+)$/, (m) => ["act", { street: m[1], action: actionName(m[2]) }]],
  [/^end actions$/, () => ["endActions", {}]],
  [/^gain cloth$/, () => ["gainCloth", {}]],
  [/^gain coins$/, () => ["gainCoins", {}]],
  [/^cobble (\S+)$/, (m) => ["cobble", { space: m[1] }]],
  [/^streets wide$/, () => ["streetsWide", {}]],
  [/^streets narrow$/, () => ["streetsNarrow", {}]],
  [/^street (\S+)$/, (m) => ["street", { space: m[1] }]],
  [/^intersection (\S+)$/, (m) => ["intersection", { crossing: m[1] }]],
  [/^improve (\d+)$/, (m) => ["improve", { n: m[1] }]],
  [/^take (\S+) into (\d+)$/, (m) => ["take", { tile: m[1], n: m[2] }]],
  [/^service (\S+)$/, (m) => ["service", { service: serviceName(m[1]) }]],
  [/^tram (\S+)$/, (m) => ["tram", { space: m[1] }]],
  [/^passenger$/, () => ["passenger", {}]],
  [/^no passenger$/, () => ["noPassenger", {}]],
  [/^skip action$/, () => ["skipAction", {}]],
  [/^sagrada (\S+)$/, (m) => ["sagrada", { tile: m[1] }]],
  [/^mix coin (\d+) cloth (\d+)$/, (m) => mix(Number(m[1]), Number(m[2]))],
  [/^discard coin$/, () => ["discardCoin", {}]],
  [/^discard cloth$/, () => ["discardCloth", {}]],
  [/^build (corner|L1|L2|L3) (\S+)$/, (m) => ["build", { type: t(`bcn.building.${m[1]}`), space: m[2] }]],
  [/^use (\S+)\+(\S+)$/, (m) => ["use", { first: m[1], second: m[2] }]],
];

function listOf(items) {
  if (items.length <= 1) return items.join("");
  return t("bcn.do.list", { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

function actionName(kind) {
  const key = `bcn.action.${kind}`;
  return hasKey(key) ? t(key) : kind;
}

function serviceName(id) {
  const key = `bcn.service.${id}`;
  return hasKey(key) ? t(key) : id;
}

function mix(coins, cloth) {
  if (coins && cloth) return ["mix", { coins: t("bcn.benefit.coin", { count: coins }), cloth: t("bcn.benefit.cloth", { count: cloth }) }];
  if (coins) return ["mixOne", { what: t("bcn.benefit.coin", { count: coins }) }];
  return ["mixOne", { what: t("bcn.benefit.cloth", { count: cloth }) }];
}

// The words for an action text, or null when it does not follow the grammar.
export function actionWords(action) {
  for (const [pattern, words] of FORMS) {
    const match = pattern.exec(action);
    if (match) {
      const [key, args] = words(match);
      return t(`bcn.do.${key}`, args);
    }
  }
  return null;
}

// The heading of a group of buttons, from the first word of its actions.
export function groupWords(word) {
  const key = `bcn.group.${word}`;
  return hasKey(key) ? t(key) : null;
}

// What a decision kind means and why these choices are the legal ones.
export function decisionHelp(kind) {
  const key = `bcn.help.${kind}`;
  return kind && hasKey(key) ? t(key) : null;
}
