// Emblems drawn by the project: one for each character and one for each district colour, as
// inline SVG built with createElementNS (no markup strings, no outside art, nothing a strict
// Content-Security-Policy forbids). They are decoration beside the words and symbols that say
// the same (aria-hidden): a colour is never told by its hue or its emblem alone.

const NS = "http://www.w3.org/2000/svg";

// Each emblem: a list of [tag, attributes] on a 24 × 24 grid. "f" fills with the emblem's colour
// (currentColor), "s" strokes with it; other attributes pass through.
const S = { fill: "none", stroke: "currentColor", "stroke-width": "1.7", "stroke-linecap": "round", "stroke-linejoin": "round" };
const F = { fill: "currentColor" };
const p = (d, style = S) => ["path", { d, ...style }];
const c = (cx, cy, r, style = S) => ["circle", { cx, cy, r, ...style }];

const CHARACTERS = {
  // a dagger
  assassin: [p("M12 2.5l2 3v9h-4v-9z", F), p("M7.5 14.5h9"), p("M12 15v4.5"), c(12, 20.5, 1.4, F)],
  // a purse with its cord
  thief: [p("M8 7.5c-3 2.5-4.5 6-4 9 .5 3 4 4 8 4s7.5-1 8-4c.5-3-1-6.5-4-9z", F), p("M8.5 7.5h7M9.5 4.5l2.5 3 2.5-3")],
  // a wand and its stars
  magician: [p("M4 20L15 9"), p("M17 3l.9 2.3 2.3.9-2.3.9L17 9.4l-.9-2.3-2.3-.9 2.3-.9z", F), c(7, 6, 1.1, F), c(19.5, 13.5, 1.1, F)],
  // a crown
  king: [p("M3.5 8l4 4L12 5l4.5 7 4-4-1.8 10.5H5.3z", F), p("M5.5 21h13")],
  // a mitre
  bishop: [p("M12 2.5c3.5 2.5 5.5 6 5.5 9.5v8.5h-11V12c0-3.5 2-7 5.5-9.5z", F), p("M12 8.5v8M9.5 11h5", { ...S, stroke: "#2a1c00" })],
  // a stack of coins
  merchant: [p("M5 17.5c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5M5 14c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5M5 10.5v7M19 10.5v7"), ["ellipse", { cx: 12, cy: 10.5, rx: 7, ry: 2.5, ...F }]],
  // a builder's square and compass
  architect: [p("M4 20V5h3v12h13v3z", F), p("M14 3l-4 11M14 3l4 11M12 8.5h4")],
  // a sword over a shield
  warlord: [p("M6 4h12v7c0 5-6 9-6 9s-6-4-6-9z", F), p("M12 2v19M9 6.5h6", { ...S, stroke: "#2a1c00" })],
  // a pointed hat
  witch: [p("M12 2.5l5 12H7z", F), p("M3 15.5c3 2 15 2 18 0"), p("M9.5 11.5h5")],
  // a ledger with a coin
  tax_collector: [p("M4.5 4h9v16h-9z"), p("M7 8h4M7 11h4M7 14h2.5"), c(17, 15.5, 3.5, F)],
  // a staff with a star
  wizard: [p("M8 21L15 6"), p("M16.5 2l1 2.5 2.5 1-2.5 1-1 2.5-1-2.5-2.5-1 2.5-1z", F), p("M5 17h6")],
  // an orb and cross
  emperor: [c(12, 14.5, 6, F), p("M12 2.5v6M9.5 5h5"), p("M6 14.5h12", { ...S, stroke: "#2a1c00" })],
  // a bell
  abbot: [p("M12 3c-3.5 0-5.5 3-5.5 7v5l-2 3h15l-2-3v-5c0-4-2-7-5.5-7z", F), c(12, 20.3, 1.5, F)],
  // a flask
  alchemist: [p("M9.5 3h5M10.5 3v6L5 19c-.6 1.2.2 2 1.4 2h11.2c1.2 0 2-.8 1.4-2l-5.5-10V3"), p("M7.5 15.5h9L19 20H5z", F)],
  // an anchor
  navigator: [c(12, 5, 2), p("M12 7v14M8 10.5h8M4.5 14c0 4 3.5 7 7.5 7s7.5-3 7.5-7")],
  // a sealed scroll
  diplomat: [p("M6 4h10a2 2 0 012 2v12a2 2 0 01-2 2H6z"), p("M9 8.5h6M9 11.5h6"), c(15.5, 17, 2.6, F)],
  // a brush on a palette
  artist: [p("M12 3.5c-5 0-8.5 3.5-8.5 8s3.5 8.5 8 8.5c1.5 0 2-1 1.5-2-.6-1.3 0-2.5 1.5-2.5h2c2.5 0 4-1.5 4-4 0-4.5-3.5-8-8.5-8z", F), c(8, 10, 1.2, { fill: "#2a1c00" }), c(12, 7.5, 1.2, { fill: "#2a1c00" }), c(16, 10, 1.2, { fill: "#2a1c00" })],
  // a tiara
  queen: [p("M4 16c2-5 5-7.5 8-10 3 2.5 6 5 8 10z", F), c(12, 4, 1.6, F), p("M4 19h16")],
  // a gavel
  magistrate: [p("M6 9l5-5 4 4-5 5z", F), p("M12.5 10.5L20 18"), p("M3.5 21h9")],
  // an eye
  spy: [p("M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z"), c(12, 12, 3.2, F)],
  // a flower (the Blackmailer's threat)
  blackmailer: [c(12, 7, 3, F), c(7.5, 10.5, 3, F), c(16.5, 10.5, 3, F), c(9.5, 15, 3, F), c(14.5, 15, 3, F), c(12, 11.5, 1.8, { fill: "#2a1c00" })],
  // a crystal ball
  seer: [c(12, 10.5, 7, F), p("M6.5 20.5h11M8 17.5l-1.5 3M16 17.5l1.5 3"), p("M9 8a3.5 3.5 0 013-2", { ...S, stroke: "#2a1c00" })],
  // a signet ring
  patrician: [c(12, 14, 6), p("M9 3.5h6l1.5 3-4.5 3.5-4.5-3.5z", F)],
  // a cross
  cardinal: [p("M10 2.5h4v5h5v4h-5v10h-4v-10H5v-4h5z", F)],
  // a crate on a cart
  trader: [p("M5 5h14v10H5z", F), p("M3 15h18"), c(7.5, 18.5, 2), c(16.5, 18.5, 2)],
  // an open book
  scholar: [p("M12 6c-2-1.5-5-2-8.5-2v14c3.5 0 6.5.5 8.5 2 2-1.5 5-2 8.5-2V4c-3.5 0-6.5.5-8.5 2z", F), p("M12 6v14", { ...S, stroke: "#2a1c00" })],
  // a marshal's baton and star
  marshal: [p("M5 19L17 7"), p("M15 5l4 4"), p("M7 3l.9 2.3 2.3.9-2.3.9L7 9.4l-.9-2.3-2.3-.9 2.3-.9z", F)],
};

const COLOURS = {
  // noble: a fleur of three points
  noble: [p("M12 3c2 3 2 6 0 9-2-3-2-6 0-9zM4 9c3 0 6 1.5 8 4-3 1-6 .5-8-4zM20 9c-3 0-6 1.5-8 4 3 1 6 .5 8-4z", F), p("M8 17h8M12 13v7")],
  // religious: a domed temple
  religious: [p("M5 11a7 7 0 0114 0z", F), p("M4 11h16M6.5 11v8M10 11v8M14 11v8M17.5 11v8M3.5 20h17"), p("M12 1.5v2.5")],
  // trade: scales
  trade: [p("M12 3v17M7 20h10M4.5 6.5h15"), p("M4.5 6.5L2 12.5h5zM19.5 6.5L17 12.5h5z", F)],
  // military: a shield
  military: [p("M12 2.5l8 3v6c0 5-3.5 8.5-8 10-4.5-1.5-8-5-8-10v-6z", F), p("M12 6v12M8 10.5h8", { ...S, stroke: "#2a1c00" })],
  // unique: a cut gem
  unique: [p("M6 3.5h12l3.5 5L12 21 2.5 8.5z", F), p("M2.5 8.5h19M9 3.5l-1.5 5L12 21M15 3.5l1.5 5L12 21", { ...S, stroke: "#2a1c00", "stroke-width": "1" })],
};

function build(shapes, cls) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", cls);
  for (const [tag, attrs] of shapes) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    svg.appendChild(el);
  }
  return svg;
}

/** The emblem of a character (by id), or null for one the project has not drawn. */
export function characterEmblem(id) {
  const shapes = CHARACTERS[id];
  return shapes ? build(shapes, `emblem ch-${id}`) : null;
}

/** The emblem of a district colour (noble, religious, trade, military, unique), or null. */
export function colourEmblem(colour) {
  const shapes = COLOURS[colour];
  return shapes ? build(shapes, `emblem col-${colour}`) : null;
}

/** The ids the project draws (for tests and docs). */
export const EMBLEM_CHARACTERS = Object.keys(CHARACTERS);
export const EMBLEM_COLOURS = Object.keys(COLOURS);
