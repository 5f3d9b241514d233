// Every word of the client's own interface ("chrome") lives in one table per language,
// ../i18n/<lang>.json (issue 11): a key maps to a text with {field} placeholders, or, when it
// counts something, to its plural forms by CLDR category ({"one": …, "few": …, "other": …}),
// chosen with Intl.PluralRules. Numbers are written with Intl.NumberFormat (Persian digits in
// Persian). Game texts — card names and powers, action labels, the move log, scores — are
// rendered by the server through citadels.present, in the language the client asks for.

import { koreanParticles } from "./korean.js";

/** The languages of the interface, each with its own name and the direction of its script
 * (the server lists the same in GET /api/info). */
export const LANGUAGES = {
  en: { name: "English", dir: "ltr" },
  fa: { name: "فارسی", dir: "rtl" },
  ru: { name: "Русский", dir: "ltr" },
  ko: { name: "한국어", dir: "ltr" },
  vi: { name: "Tiếng Việt", dir: "ltr" },
};

const KEY = "citadels.lang";
const TABLES = {};
let current = "en";
let plurals = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");

/** The supported language a tag like "fa-IR" or "ru" names, or null. */
export function supported(tag) {
  const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
  return Object.hasOwn(LANGUAGES, base) ? base : null;
}

/** The language this person chose before (localStorage), else the browser's first language
 * the game speaks (navigator.languages), else English. */
export function preferredLanguage() {
  try {
    const stored = supported(localStorage.getItem(KEY));
    if (stored) return stored;
  } catch {
    /* private mode */
  }
  for (const tag of navigator.languages || [navigator.language]) {
    const found = supported(tag);
    if (found) return found;
  }
  return "en";
}

async function load(lang) {
  if (TABLES[lang]) return;
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no strings for ${lang}`);
  TABLES[lang] = await response.json();
}

/**
 * Load and choose the interface language (falls back to English), and set the page's ``lang``
 * and ``dir``. With ``remember``, keep the choice for this browser. Answers the language chosen.
 */
export async function setLanguage(lang, { remember = false } = {}) {
  let chosen = supported(lang) || "en";
  try {
    await load("en");
    await load(chosen);
  } catch {
    if (!TABLES[chosen]) chosen = "en";
  }
  current = chosen;
  plurals = new Intl.PluralRules(chosen);
  numbers = new Intl.NumberFormat(chosen);
  document.documentElement.lang = chosen;
  document.documentElement.dir = LANGUAGES[chosen].dir;
  if (remember) {
    try {
      localStorage.setItem(KEY, chosen);
    } catch {
      /* the choice lasts as long as the page */
    }
  }
  return chosen;
}

export function language() {
  return current;
}

/** A number as this language writes it (Persian digits in Persian); other values as text. */
export function num(value) {
  // A missing or impossible number is written as nothing, never "NaN", "null" or "undefined".
  if (typeof value === "number") return Number.isFinite(value) ? numbers.format(value) : "";
  return String(value ?? "");
}

/** The interface string ``key`` with ``{field}`` placeholders filled in (numbers written as the
 * language writes them); a plural entry takes the form for ``fields.n``. */
export function t(key, fields = {}) {
  let text = (TABLES[current] && TABLES[current][key]) ?? (TABLES.en && TABLES.en[key]) ?? key;
  if (typeof text === "object") {
    const n = Number(fields.n);
    text = text[Number.isFinite(n) ? plurals.select(n) : "other"] ?? text.other;
  }
  const filled = text.replace(/\{(\w+)\}/g, (_, name) => (name in fields ? isolate(fields[name]) : `{${name}}`));
  return current === "ko" ? koreanParticles(filled) : filled;
}

// A text placed into a sentence is isolated (FSI … PDI), so that a Latin name inside Persian
// words, or the reverse, keeps the sentence's order; numbers are written as the language does.
function isolate(value) {
  return typeof value === "number" ? num(value) : `\u2068${value ?? ""}\u2069`;
}

/** Whether the interface has a string for ``key``. */
export function has(key) {
  return Boolean((TABLES[current] && TABLES[current][key]) ?? (TABLES.en && TABLES.en[key]));
}

/** An error the server answered ({code, message, rule}), in the interface's language: its code
 * names the words; the server's own (English) message only for a code the client does not know. */
export function errorText(error) {
  const code = error && error.code;
  if (code === "illegal_action" && error.rule) return t("err_illegal_action_rule", { rule: error.rule });
  if (code === "not_found") return t("table_not_found");
  if (code === "seat_taken") return t("seat_taken");
  if (code && has(`err_${code}`)) return t(`err_${code}`);
  return (error && error.message) || t("error");
}
