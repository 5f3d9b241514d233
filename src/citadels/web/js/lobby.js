// The lobby: open tables, games to watch or replay, joining by code, and the create-table form.

import { api, loadSession, storedName, storeName, storeToken } from "./net.js";
import { accountBar, refreshTurns, turnTitle } from "./account.js";
import { h, icon, render } from "./dom.js";
import { cardName, characterCard, setCards, info } from "./cards.js";
import { errorText, num, t } from "./strings.js";
import { nameTag, seatName } from "./table.js";
import { PACES, storedPace } from "./pace.js";

const TIMERS = [null, 30, 60, 90, 120, 300];
// A turn-based table's seconds a turn (GET /api/info's turn_timer range: 1 hour to 14 days).
const TURN_TIMERS = [3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400, 3 * 86400, 7 * 86400, 14 * 86400];

/** A turn timer's label: "Turn-based: 12 hours a turn", "… 2 days a turn". */
function turnTimerLabel(secs) {
  return secs % 86400 === 0 ? t("turn_based_days", { n: secs / 86400 }) : t("turn_based_hours", { n: secs / 3600 });
}

/** An edition's title is "Name (what it holds)": the select shows the name, which always fits,
 * and the line under it what the edition holds (a whole title would be cut on a phone). */
function editionName(title) {
  const at = String(title).indexOf(" (");
  return at > 0 ? title.slice(0, at) : title;
}

function editionAbout(title) {
  const at = String(title).indexOf(" (");
  return at > 0 ? title.slice(at + 2).replace(/\)\s*$/, "") : "";
}

function prettyId(id) {
  return String(id).replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase());
}

/** Card texts of an edition, if the server offers them (see REQUESTS: /api/cards/{edition}). */
export async function loadCards(edition, lang) {
  try {
    const data = await api("GET", `/api/cards/${encodeURIComponent(edition)}?lang=${encodeURIComponent(lang)}`);
    const map = {};
    for (const c of data.cards || []) {
      const colour = c.colour && data.colours ? data.colours[c.colour] || data.colours[c.colour_id] : null;
      map[c.id] = colour ? { colour_symbol: colour.symbol, colour_word: colour.word, ...c } : c;
    }
    setCards(map);
    return true;
  } catch {
    return false;
  }
}

function tableCard(table, kind, go, titles) {
  const taken = table.seats.filter((s) => s.kind !== "empty").length;
  const names = table.seats.filter((s) => s.kind !== "empty").map((s) => seatName(table, s.seat));
  const href = kind === "finished" ? `/replay/${table.code}` : `/t/${table.code}`;
  const label = kind === "open" ? t("join") : kind === "playing" ? t("watch") : t("replay");
  return h(
    "li.table-card",
    {},
    h("div.tc-head", {}, h("bdi.code", { dir: "ltr" }, table.code), h("span.ed", { "data-text": "server" }, titles[table.edition] || table.edition_title || table.edition)),
    h(
      "div.tc-seats",
      { "aria-label": t("seats_taken", { taken, total: table.players }) },
      table.seats.map((s) =>
        h("span.seat-dot." + s.kind, { title: s.kind === "empty" ? t("empty_seat") : seatName(table, s.seat) }, s.kind === "bot" ? icon("bot") : s.name ? s.name.charAt(0).toUpperCase() : ""),
      ),
      h("span.tc-count", {}, t("seats_taken", { taken, total: table.players })),
    ),
    names.length ? h("p.tc-names", {}, names.map((name, i) => [i ? " · " : null, nameTag(name)])) : null,
    h("a.btn" + (kind === "open" ? ".primary" : ""), { href, "data-key": `go-${table.code}`, onclick: go(href) }, label, h("span.sr", {}, " ", h("bdi", { dir: "ltr" }, table.code))),
  );
}

/** Draw the lobby into ``root``; ``navigate(path)`` changes page. */
export function lobbyScreen(root, { navigate, lang, languagePicker }) {
  const go = (href) => (ev) => {
    ev.preventDefault();
    navigate(href);
  };
  let infoData = null;
  const state = {
    edition: "classic",
    players: 4,
    preset: "",
    custom: false,
    characters: [],
    districts: [],
    complete_at: null,
    // Every seat but yours goes to a bot until you choose otherwise (a game can start at once).
    bots: 3,
    level: "medium",
    timer: null,
    // A turn-based table's seconds a turn (null: a live table) and its rule when one runs out.
    turnTimer: null,
    onTimeout: "stand_in",
    // The table's pace (ms between the moves shown one by one): the host's own to start with;
    // each player may still change it for themselves at the table.
    pace: storedPace(),
    // null: listed when a seat is left for a friend, private for a solo game against bots
    // (the server's own default); true or false once the box is ticked or unticked.
    public: null,
    spectatorChat: false,
    hints: false,
    name: storedName(),
    error: "",
    busy: false,
    lists: { open: [], playing: [], finished: [] },
    code: "",
    joinError: "",
  };

  const listed = () => (state.public === null ? state.bots < state.players - 1 : state.public);
  const editionTitles = () => Object.fromEntries(((infoData && infoData.editions) || []).map((e) => [e.id, e.title]));
  const edition = () => (infoData ? infoData.editions.find((e) => e.id === state.edition) : null);

  async function loadLists() {
    if (!alive) return;
    if (await refreshTurns()) {
      // The badge of "My tables" and the title follow the tables waiting for this account.
      turnTitle();
      const bar = root.querySelector("#account-bar");
      if (bar && alive) bar.replaceWith(accountBar(navigate, draw));
    }
    for (const status of ["open", "playing", "finished"]) {
      try {
        state.lists[status] = (await api("GET", `/api/tables?status=${status}`)).tables || [];
      } catch {
        state.lists[status] = [];
      }
    }
    if (!alive) return;
    const box = root.querySelector("#lobby-lists");
    if (box) render(box, lists());
    else draw();
  }

  async function create(ev) {
    ev.preventDefault();
    const name = state.name.trim();
    if (!name) {
      state.error = t("name_required");
      draw();
      root.querySelector("#create-name").focus();
      return;
    }
    storeName(name);
    const ed = edition();
    const bots = {};
    for (let i = 0; i < state.bots; i++) bots[String(state.players - 1 - i)] = state.level;
    const body = {
      name,
      edition: state.edition,
      players: state.players,
      bots,
      timer: state.turnTimer ? null : state.timer,
      turn_timer: state.turnTimer,
      on_timeout: state.turnTimer ? state.onTimeout : null,
      pace: state.pace,
      public: listed(),
      spectator_chat: state.spectatorChat,
      hints: state.hints,
    };
    if (ed && ed.custom !== false && ed.presets && ed.presets.length) {
      if (state.custom) {
        if (state.characters.length) body.characters = state.characters;
        if (state.districts.length) body.districts = state.districts;
      } else if (state.preset) {
        body.preset = state.preset;
      }
    }
    if (state.complete_at && ed && state.complete_at !== ed.city_size) body.complete_at = state.complete_at;
    state.busy = true;
    state.error = "";
    draw();
    try {
      const res = await api("POST", "/api/tables", body);
      storeToken(res.code, res.token);
      navigate(`/t/${res.code}`);
    } catch (err) {
      state.busy = false;
      state.error = errorText(err);
      draw();
    }
  }

  function join(ev) {
    ev.preventDefault();
    let code = state.code.trim();
    const m = code.match(/\/t\/([A-Za-z0-9-]+)/);
    if (m) code = m[1];
    code = code.toUpperCase().replace(/[^A-Z0-9-]/g, "");
    if (!code) return;
    navigate(`/t/${code}`);
  }

  function field(label, id, control, help = null) {
    return h("div.field", {}, h("label", { for: id }, label), control, help);
  }

  function select(id, value, options, onchange) {
    return h(
      "select",
      { id, "data-key": id, onchange: (ev) => onchange(ev.target.value) },
      // A third field marks a text the server rendered (edition and preset titles).
      options.map(([v, text, server]) =>
        h("option", { value: v ?? "", selected: String(v ?? "") === String(value ?? ""), "data-text": server ? "server" : null }, text),
      ),
    );
  }

  function customPicker(ed) {
    if (!state.custom) return null;
    const toggle = (list, id) => (ev) => {
      const set = new Set(state[list]);
      if (ev.target.checked) set.add(id);
      else set.delete(id);
      state[list] = [...set];
    };
    const byRank = {};
    for (const id of ed.characters || []) {
      const r = info(id).rank ?? "?";
      (byRank[r] = byRank[r] || []).push(id);
    }
    // One character per rank (radio buttons); the ninth rank may stay empty. Without the
    // card texts the ranks are unknown: then plain check boxes, and the server checks the set.
    const ranked = !("?" in byRank);
    if (ranked && !state.characters.length) state.characters = Object.entries(byRank).filter(([r]) => r !== "9").map(([, ids]) => ids[0]);
    const choose = (rank, id) => () => {
      const others = state.characters.filter((c) => String(info(c).rank ?? "?") !== rank);
      state.characters = id ? [...others, id] : others;
    };
    return h(
      "div.custom",
      {},
      h(
        "fieldset",
        {},
        h("legend", {}, t("characters")),
        Object.entries(byRank).map(([rank, ids]) =>
          h(
            "div.rank-group",
            { role: "radiogroup", "aria-label": t("rank_n", { n: Number(rank) }) },
            h("span.rank-no", { "aria-hidden": "true" }, num(Number(rank))),
            ids.map((id) =>
              h(
                "label.check",
                {},
                ranked
                  ? h("input", { type: "radio", name: `rank-${rank}`, "data-key": `ch-${id}`, checked: state.characters.includes(id), onchange: choose(rank, id) })
                  : h("input", { type: "checkbox", "data-key": `ch-${id}`, checked: state.characters.includes(id), onchange: toggle("characters", id) }),
                " ",
                cardName(id),
              ),
            ),
            rank === "9"
              ? h(
                  "label.check",
                  {},
                  h("input", { type: "radio", name: "rank-9", "data-key": "ch-none-9", checked: !ids.some((id) => state.characters.includes(id)), onchange: choose(rank, null) }),
                  " ",
                  t("none"),
                )
              : null,
          ),
        ),
      ),
      ed.purple_pool && ed.purple_pool.length
        ? h(
            "fieldset",
            {},
            h("legend", {}, t("purple_districts")),
            h(
              "div.pool",
              {},
              ed.purple_pool.map((id) =>
                h("label.check", {}, h("input", { type: "checkbox", "data-key": `pd-${id}`, checked: state.districts.includes(id), onchange: toggle("districts", id) }), " ", cardName(id)),
              ),
            ),
          )
        : null,
    );
  }

  function createForm() {
    if (!infoData) return h("p", {}, t("connecting"));
    const ed = edition();
    const playerOptions = [];
    for (let n = ed.min_players; n <= ed.max_players; n++) playerOptions.push([n, t("seats_count", { n })]);
    const botOptions = [];
    for (let n = 0; n < state.players; n++) botOptions.push([n, num(n)]);
    const hasSetup = ed.custom || (ed.presets && ed.presets.length);
    // The presets' titles come with their edition, in the page's language (GET /api/info).
    const titles = ed.preset_titles || {};
    return h(
      "form.create-form.parchment",
      { onsubmit: create, "aria-labelledby": "create-title" },
      h("h2", { id: "create-title" }, t("create_table")),
      field(
        t("your_name"),
        "create-name",
        h("input", {
          id: "create-name",
          "data-key": "create-name",
          value: state.name,
          maxlength: (infoData.limits && infoData.limits.name) || 24,
          placeholder: t("name_placeholder"),
          autocomplete: "nickname",
          required: true,
          oninput: (ev) => (state.name = ev.target.value),
        }),
      ),
      h(
        "div.field-row",
        {},
        field(
          t("edition"),
          "create-edition",
          select("create-edition", state.edition, infoData.editions.map((e) => [e.id, editionName(e.title), true]), (v) => {
            state.edition = v;
            const e = edition();
            const full = state.bots === state.players - 1;
            state.players = Math.min(Math.max(state.players, e.min_players), e.max_players);
            state.bots = full ? state.players - 1 : Math.min(state.bots, state.players - 1);
            state.preset = "";
            state.custom = false;
            state.complete_at = null;
            loadCards(v, lang).then(draw);
            draw();
          }),
          editionAbout(ed.title) ? h("p.field-help", { "data-text": "server" }, editionAbout(ed.title)) : null,
        ),
        field(
          t("players"),
          "create-players",
          select("create-players", state.players, playerOptions, (v) => {
            // Bots in every other seat stay so with more or fewer seats.
            const full = state.bots === state.players - 1;
            state.players = Number(v);
            state.bots = full ? state.players - 1 : Math.min(state.bots, state.players - 1);
            draw();
          }),
        ),
      ),
      hasSetup
        ? field(
            t("setup"),
            "create-preset",
            select(
              "create-preset",
              state.custom ? "__custom" : state.preset,
              [["", t("preset_default")], ...(ed.presets || []).map((p) => [p, titles[p] || prettyId(p), true]), ...(ed.custom ? [["__custom", t("custom")]] : [])],
              (v) => {
                state.custom = v === "__custom";
                state.preset = state.custom ? "" : v;
                draw();
              },
            ),
          )
        : null,
      hasSetup ? customPicker(ed) : null,
      h(
        "div.field-row",
        {},
        (ed.city_size_options || []).length > 1
          ? field(
              t("city_size"),
              "create-city",
              select("create-city", state.complete_at || ed.city_size, ed.city_size_options.map((n) => [n, t("districts_n", { n })]), (v) => {
                state.complete_at = Number(v);
              }),
            )
          : null,
        field(
          t("turn_timer"),
          "create-timer",
          select(
            "create-timer",
            state.turnTimer ? `turn:${state.turnTimer}` : state.timer,
            [...TIMERS.map((s) => [s, s ? t("seconds_n", { n: s }) : t("timer_off")]), ...TURN_TIMERS.map((s) => [`turn:${s}`, turnTimerLabel(s)])],
            (v) => {
              const turn = v.startsWith("turn:");
              state.turnTimer = turn ? Number(v.slice(5)) : null;
              state.timer = !turn && v ? Number(v) : null;
              draw();
            },
          ),
        ),
      ),
      // A turn-based table's rule when a turn runs out, on a row of its own (its choices are
      // sentences).
      state.turnTimer
        ? h(
            "div.field-row",
            {},
            field(
              t("on_timeout"),
              "create-on-timeout",
              select("create-on-timeout", state.onTimeout, [["stand_in", t("on_timeout_stand_in")], ["skip", t("on_timeout_skip")]], (v) => {
                state.onTimeout = v;
              }),
              h("p.field-help", {}, t("turn_based_help")),
            ),
          )
        : null,
      h(
        "div.field-row",
        {},
        field(t("bot_count"), "create-bots", select("create-bots", state.bots, botOptions, (v) => {
          state.bots = Number(v);
          draw();
        })),
        field(
          t("bot_level"),
          "create-level",
          // Each level with its rating, on the scale accounts are rated on (docs/accounts.md).
          select("create-level", state.level, Object.entries(infoData.bot_levels || { medium: "medium" }).map(([k]) => [k, infoData.bot_ratings && k in infoData.bot_ratings ? t("level_with_rating", { level: t(`level_${k}`), rating: infoData.bot_ratings[k] }) : t(`level_${k}`)]), (v) => {
            state.level = v;
          }),
        ),
      ),
      // The pace is the bots' (and the others') as much as the host's: under the bots, full width.
      field(
        t("table_pace"),
        "create-pace",
        select("create-pace", state.pace, (PACES.includes(state.pace) ? PACES : [...PACES, state.pace].sort((a, b) => a - b)).map((ms) => [ms, ms ? t("pace_seconds", { s: ms / 1000 }) : t("pace_instant")]), (v) => {
          state.pace = Number(v);
        }),
        h("p.field-help", { id: "create-pace-help" }, t("table_pace_help")),
      ),
      h(
        "div.field-row.checks",
        {},
        h("label.check", {}, h("input", { type: "checkbox", "data-key": "create-public", checked: listed(), "aria-describedby": !listed() && state.public === null ? "create-public-help" : null, onchange: (ev) => {
          state.public = ev.target.checked;
          draw();
        } }), " ", t("list_publicly")),
        h("label.check", {}, h("input", { type: "checkbox", "data-key": "create-specchat", checked: state.spectatorChat, onchange: (ev) => (state.spectatorChat = ev.target.checked) }), " ", t("spectators_chat")),
        h("label.check", {}, h("input", { type: "checkbox", "data-key": "create-hints", checked: state.hints, onchange: (ev) => (state.hints = ev.target.checked) }), " ", t("allow_hints")),
      ),
      !listed() && state.public === null ? h("p.empty", { id: "create-public-help", style: { "font-style": "normal", "margin-block": "-0.4rem 0.8rem" } }, t("solo_private")) : null,
      state.error ? h("p.error", { role: "alert" }, state.error) : null,
      h("button.btn.primary.big", { type: "submit", "data-key": "create-submit", disabled: state.busy }, state.busy ? t("creating") : t("create")),
    );
  }

  function lists() {
    const section = (status, title) =>
      state.lists[status].length || status === "open"
        ? h(
            "section.list",
            { "aria-labelledby": `list-${status}` },
            h("h2", { id: `list-${status}` }, title),
            state.lists[status].length
              ? h("ul.tables", {}, state.lists[status].slice(0, 12).map((tb) => tableCard(tb, status, go, editionTitles())))
              : h("p.empty", {}, t("no_open_tables")),
          )
        : null;
    return h(
      "div.lobby-lists",
      {},
      h(
        "form.join-form.parchment",
        { onsubmit: join, "aria-labelledby": "join-title" },
        h("h2", { id: "join-title" }, t("join_by_code")),
        h(
          "div.inline",
          {},
          h("label.sr", { for: "join-code" }, t("table_code")),
          h("input", { id: "join-code", "data-key": "join-code", placeholder: t("join_hint"), dir: "auto", autocomplete: "off", maxlength: 64, value: state.code, oninput: (ev) => (state.code = ev.target.value) }),
          h("button.btn", { type: "submit", "data-key": "join-submit" }, t("join")),
        ),
      ),
      section("open", t("open_tables")),
      section("playing", t("watch")),
      section("finished", t("replay")),
      h("button.btn.ghost", { type: "button", "data-key": "refresh", onclick: loadLists }, t("refresh")),
    );
  }

  function draw() {
    turnTitle();
    render(
      root,
      h(
        "main.lobby",
        { id: "main" },
        h(
          "header.hero",
          {},
          icon("tower", "hero-icon"),
          h("div", {}, h("h1", {}, t("app_title")), h("p.tagline", {}, t("tagline"))),
          h("div.hero-tools", {}, languagePicker(), accountBar(navigate, draw)),
          h(
            "div.hero-fan",
            { "aria-hidden": "true" },
            ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"].map((id, i) =>
              h("div.fan-slot", { style: { "--i": i - 3.5 } }, characterCard(id)),
            ),
          ),
        ),
        h("div.lobby-grid", {}, createForm(), h("div", { id: "lobby-lists" }, lists())),
      ),
    );
  }

  let alive = true;
  const timer = setInterval(() => {
    if (alive) loadLists();
  }, 10000);
  draw();
  (async () => {
    await loadSession();
    try {
      infoData = await api("GET", `/api/info?lang=${encodeURIComponent(lang)}`);
      if (!infoData.editions.some((e) => e.id === state.edition)) state.edition = infoData.editions[0].id;
    } catch (err) {
      state.error = errorText(err);
    }
    await loadCards(state.edition, lang);
    if (!alive) return;
    draw();
    loadLists();
  })();
  return () => {
    alive = false;
    clearInterval(timer);
  };
}
