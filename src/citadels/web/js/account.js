// Accounts (docs/accounts.md): the account bar of the lobby, signing in or up, "my tables",
// a profile and the leaderboards. Every account is optional: a guest plays as before.

import { api, loadSession, session, storedSeats } from "./net.js";
import { h, icon, render } from "./dom.js";
import { errorText, language, num, t } from "./strings.js";

/** How many of the account's tables wait for its move (``GET /api/account/tables``), as last
 * asked: the badge of "My tables" and the count in the page's title. */
export const turns = { waiting: 0 };

/** Ask again how many tables wait for this account; when the number grows while the page is
 * hidden, a browser notification says so (once the player allowed them). Answers whether the
 * number changed. */
export async function refreshTurns() {
  let n = 0;
  if (session.account) {
    try {
      n = (await api("GET", "/api/account/tables")).tables.filter((e) => e.waits === "you").length;
    } catch {
      return false;
    }
  }
  if (n === turns.waiting) return false;
  const more = n > turns.waiting;
  turns.waiting = n;
  if (more && document.hidden && "Notification" in window && Notification.permission === "granted") {
    try {
      new Notification(t("app_title"), { body: t("turns_waiting", { n }), tag: "citadels-turns" });
    } catch {
      /* a browser that only notifies from a service worker: the title and badge say it */
    }
  }
  return true;
}

/** The page's title on the lobby and account pages: the count of tables waiting first. */
export function turnTitle() {
  document.title = turns.waiting ? `(${num(turns.waiting)}) ${t("app_title")}` : t("app_title");
}

/** The lobby's account links: signed in, the name, "My tables" and signing out; else a link
 * to sign in. */
export function accountBar(navigate, redraw) {
  const go = (href) => (ev) => {
    ev.preventDefault();
    navigate(href);
  };
  const links = [
    h("a.btn.ghost.small", { href: "/leaderboard", "data-key": "nav-leaderboard", onclick: go("/leaderboard") }, t("leaderboard")),
  ];
  if (session.account) {
    const name = session.account.name;
    links.unshift(
      h("a.btn.ghost.small", { href: `/profile/${encodeURIComponent(name)}`, "data-key": "nav-profile", onclick: go(`/profile/${encodeURIComponent(name)}`) }, icon("crown"), " ", h("bdi", {}, name)),
      h(
        "a.btn.ghost.small",
        { href: "/me", "data-key": "nav-me", onclick: go("/me") },
        t("my_tables"),
        turns.waiting ? h("span.badge", { title: t("turns_waiting", { n: turns.waiting }) }, num(turns.waiting), h("span.sr", {}, " ", t("turns_waiting", { n: turns.waiting }))) : null,
      ),
    );
    links.push(
      h("button.btn.ghost.small", { type: "button", "data-key": "sign-out", onclick: async () => {
        try {
          await api("DELETE", "/api/session");
        } catch {
          /* the cookie is gone or was never valid: signed out all the same */
        }
        await loadSession();
        await refreshTurns();
        turnTitle();
        redraw();
      } }, t("account_sign_out")),
    );
  } else {
    links.unshift(h("a.btn.ghost.small", { href: "/me", "data-key": "nav-sign-in", onclick: go("/me") }, t("account_sign_in")));
  }
  return h("nav.account-bar", { id: "account-bar", "aria-label": t("account") }, links);
}

function page(root, title, navigate, languagePicker, ...body) {
  render(
    root,
    h(
      "main.lobby.account-page",
      { id: "main" },
      h(
        "header.account-head",
        {},
        h("a.btn.ghost.small", { href: "/", "data-key": "nav-lobby", onclick: (ev) => {
          ev.preventDefault();
          navigate("/");
        } }, icon("tower"), " ", t("leave")),
        h("h1", {}, title),
        h("span.spacer"),
        languagePicker(),
      ),
      body,
    ),
  );
}

function signInForm(root, state, done) {
  async function submit(ev, path) {
    ev.preventDefault();
    state.busy = true;
    state.error = "";
    done();
    try {
      // The seats this browser holds become the account's (a guest's games are kept).
      const got = await api("POST", path, { name: state.name.trim(), password: state.password, seats: storedSeats() });
      session.account = got.account;
      session.csrf = got.csrf;
      state.password = "";
    } catch (err) {
      state.error = errorText(err);
    }
    state.busy = false;
    done();
  }
  return h(
    "form.parchment.account-form",
    { onsubmit: (ev) => submit(ev, "/api/session"), "aria-labelledby": "account-title" },
    h("h2", { id: "account-title" }, t("account_sign_in")),
    h("p.field-help", {}, t("account_help")),
    h("div.field", {}, h("label", { for: "account-name" }, t("account_name")),
      h("input", { id: "account-name", "data-key": "account-name", autocomplete: "username", maxlength: 24, dir: "auto", value: state.name, oninput: (ev) => (state.name = ev.target.value) })),
    h("div.field", {}, h("label", { for: "account-password" }, t("account_password")),
      h("input", { id: "account-password", "data-key": "account-password", type: "password", autocomplete: "current-password", maxlength: 200, value: state.password, oninput: (ev) => (state.password = ev.target.value) })),
    state.error ? h("p.error", { role: "alert" }, state.error) : null,
    h(
      "div.inline",
      {},
      h("button.btn.primary", { type: "submit", "data-key": "sign-in", disabled: state.busy }, t("account_sign_in")),
      h("button.btn", { type: "button", "data-key": "sign-up", disabled: state.busy, onclick: (ev) => submit(ev, "/api/accounts") }, t("account_sign_up")),
    ),
  );
}

/** The account's address for "your turn" e-mails (``/api/account/email``), on ``/me``. */
function emailForm(mail, draw) {
  async function send(address) {
    mail.busy = true;
    mail.error = "";
    mail.saved = false;
    draw();
    try {
      const got = await api("POST", "/api/account/email", { email: address, lang: language() });
      Object.assign(mail, { email: got.email, draft: got.email || "", enabled: got.enabled, saved: true });
    } catch (err) {
      mail.error = errorText(err);
    }
    mail.busy = false;
    draw();
  }
  return h(
    "form.parchment.account-form.email-form",
    // The server checks the address (its answer is shown in the page's language), not the
    // browser's own untranslated bubble.
    { "aria-labelledby": "email-title", novalidate: true, onsubmit: (ev) => {
      ev.preventDefault();
      send(mail.draft.trim() || null);
    } },
    h("h2", { id: "email-title" }, t("email_title")),
    h("p.field-help", {}, mail.enabled ? t("email_help") : t("email_off")),
    h("div.field", {}, h("label", { for: "account-email" }, t("email_address")),
      h("input", { id: "account-email", "data-key": "account-email", type: "email", autocomplete: "email", maxlength: 254, dir: "ltr", value: mail.draft, oninput: (ev) => (mail.draft = ev.target.value) })),
    mail.error ? h("p.error", { role: "alert" }, mail.error) : null,
    mail.saved ? h("p.note", { role: "status" }, mail.email ? t("email_saved", { email: mail.email }) : t("email_removed")) : null,
    h(
      "div.inline",
      {},
      h("button.btn.primary", { type: "submit", "data-key": "email-save", disabled: mail.busy }, t("email_save")),
      mail.email ? h("button.btn", { type: "button", "data-key": "email-remove", disabled: mail.busy, onclick: () => send(null) }, t("email_remove")) : null,
    ),
  );
}

function waitsText(entry) {
  if (entry.waits === "you") return t("waits_you");
  if (entry.waits === "open") return t("waits_open");
  const seat = entry.table.seats[entry.to_move];
  return t("waits_others", { name: (seat && (seat.name || seat.account)) || "?" });
}

/** "My tables" (``/me``): where the account sits, what waits for it first; signed out, the
 * sign-in form. */
export function meScreen(root, { navigate, languagePicker }) {
  let alive = true;
  const state = { name: "", password: "", error: "", busy: false, tables: null, mail: null,
    pw: { current: "", next: "", again: "", error: "", done: false, busy: false, open: false } };
  async function load() {
    if (!session.loaded) await loadSession();
    if (session.account) {
      try {
        if (!state.mail) {
          const got = await api("GET", "/api/account/email");
          state.mail = { email: got.email, draft: got.email || "", enabled: got.enabled, busy: false, error: "", saved: false };
        }
        state.tables = (await api("GET", "/api/account/tables")).tables;
        turns.waiting = state.tables.filter((e) => e.waits === "you").length;
      } catch (err) {
        state.error = errorText(err);
        state.tables = [];
      }
    }
    if (alive) draw();
  }
  function draw() {
    if (!alive) return;
    if (!session.account) {
      page(root, t("account"), navigate, languagePicker, signInForm(root, state, () => (session.account ? load() : draw())));
      return;
    }
    const go = (href) => (ev) => {
      ev.preventDefault();
      navigate(href);
    };
    const rows = (state.tables || []).map((e) =>
      h(
        "li.table-card.waits-" + e.waits,
        {},
        h("div.tc-head", {}, h("bdi.code", { dir: "ltr" }, e.table.code), h("span.ed", { "data-text": "server" }, e.table.edition_title)),
        h("p.tc-names", {}, h("strong", {}, waitsText(e)), e.table.rated ? [" · ", t("rated")] : null),
        h("a.btn" + (e.waits === "you" ? ".primary" : ""), { href: `/t/${e.table.code}`, "data-key": `go-${e.table.code}`, onclick: go(`/t/${e.table.code}`) }, t("open_table")),
      ),
    );
    turnTitle();
    const canAsk = "Notification" in window && Notification.permission === "default";
    page(
      root,
      t("my_tables"),
      navigate,
      languagePicker,
      accountBar(navigate, () => (session.account ? draw() : navigate("/"))),
      canAsk
        ? h("button.btn.ghost.small.notify", { type: "button", "data-key": "notify", onclick: async () => {
            try {
              await Notification.requestPermission();
            } catch {
              /* refused or unsupported: the title and the badge still say it */
            }
            draw();
          } }, t("notify_me"))
        : null,
      h(
        "section.parchment",
        { "aria-labelledby": "my-tables" },
        h("h2", { id: "my-tables" }, t("my_tables")),
        state.tables === null ? h("p.empty", {}, "…") : rows.length ? h("ul.tables", {}, rows) : h("p.empty", {}, t("no_tables_waiting")),
        state.error ? h("p.error", { role: "alert" }, state.error) : null,
      ),
      state.mail ? emailForm(state.mail, draw) : null,
      passwordForm(state, draw),
    );
  }
  draw();
  load();
  const timer = setInterval(() => alive && session.account && load(), 15000);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}

/** A profile (``/profile/{name}``): games and wins per edition, ratings, recent games. */
export function profileScreen(root, name, { navigate, languagePicker }) {
  let alive = true;
  let data = null;
  let error = "";
  function draw() {
    if (!alive) return;
    const go = (href) => (ev) => {
      ev.preventDefault();
      navigate(href);
    };
    const editions = data ? Object.entries(data.editions) : [];
    page(
      root,
      data ? data.name : name,
      navigate,
      languagePicker,
      accountBar(navigate, draw),
      error ? h("p.error", { role: "alert" }, error) : null,
      data
        ? h(
            "section.parchment",
            { "aria-labelledby": "profile-stats" },
            h("h2", { id: "profile-stats" }, t("profile")),
            editions.length
              ? h(
                  "table.profile-table",
                  {},
                  h("thead", {}, h("tr", {}, [t("edition"), t("games_played"), t("games_won"), t("rating")].map((c) => h("th", { scope: "col" }, c)))),
                  h(
                    "tbody",
                    {},
                    editions.map(([id, e]) =>
                      h("tr", { "data-edition": id }, h("th", { scope: "row", "data-text": "server" }, e.title), h("td", {}, num(e.played)), h("td", {}, num(e.won)), h("td.rating", {}, e.rating ? num(e.rating.rating) : "—")),
                    ),
                  ),
                )
              : h("p.empty", {}, t("no_games_yet")),
          )
        : null,
      data
        ? h(
            "section.parchment",
            { "aria-labelledby": "profile-recent" },
            h("h2", { id: "profile-recent" }, t("recent_games")),
            data.recent.length
              ? h(
                  "ul.tables",
                  {},
                  data.recent.map((g) =>
                    h(
                      "li.table-card",
                      {},
                      h("div.tc-head", {}, h("span.ed", { "data-text": "server" }, g.edition_title), g.won ? h("strong", {}, " ", icon("crown"), " ", t("game_won")) : null),
                      h("p.tc-names", {}, t("rank_place", { rank: g.rank ?? "?" }), " · ", g.rated ? t("rating_change", { before: g.rating_before, after: g.rating_after }) : t("unrated")),
                      g.replay ? h("a.btn", { href: g.replay, onclick: go(g.replay) }, t("replay")) : null,
                    ),
                  ),
                )
              : h("p.empty", {}, t("no_games_yet")),
          )
        : null,
    );
  }
  draw();
  (async () => {
    if (!session.loaded) await loadSession();
    try {
      data = await api("GET", `/api/accounts/${encodeURIComponent(name)}`);
    } catch (err) {
      error = errorText(err);
    }
    draw();
  })();
  return () => {
    alive = false;
  };
}

/** Each bot level measured against people, beside its fixed rating, for the levels with
 * enough games (the server says how many: ``measured_min``). */
function measuredList(data) {
  const rows = Object.entries(data.bots_measured || {}).filter(([, m]) => m.rating !== null);
  if (!rows.length) return null;
  return h(
    "ul.field-help.bot-measured",
    { "data-key": "bot-measured" },
    rows.map(([level, m]) =>
      h("li", { "data-level": level }, t("level_with_rating", { level: t(`level_${level}`), rating: num(m.anchor) }), " · ", t("bot_measured", { n: m.games, rating: num(Math.round(m.rating / 10) * 10) })),
    ),
  );
}

/** The form on ``/me`` that changes the account's password: the current one and the new one
 * twice; the other sessions of the account end, this one stays. */
function passwordForm(state, redraw) {
  const f = state.pw;
  async function submit(ev) {
    ev.preventDefault();
    f.error = "";
    f.done = false;
    if (f.next !== f.again) {
      f.error = t("passwords_differ");
      redraw();
      return;
    }
    f.busy = true;
    redraw();
    try {
      await api("POST", "/api/account/password", { current_password: f.current, new_password: f.next });
      f.current = f.next = f.again = "";
      f.done = true;
    } catch (err) {
      f.error = errorText(err);
    }
    f.busy = false;
    redraw();
  }
  const field = (id, key, label, auto) =>
    h("div.field", {}, h("label", { for: id }, label),
      h("input", { id, "data-key": id, type: "password", autocomplete: auto, maxlength: 200, value: f[key], oninput: (ev) => (f[key] = ev.target.value) }));
  return h(
    "details.parchment.account-form",
    { open: f.open, ontoggle: (ev) => (f.open = ev.target.open) },
    h("summary", { "data-key": "change-password" }, t("change_password")),
    h(
      "form",
      { onsubmit: submit, "aria-label": t("change_password") },
      h("input", { type: "text", autocomplete: "username", value: session.account ? session.account.name : "", hidden: true, readonly: true }),
      field("password-current", "current", t("current_password"), "current-password"),
      field("password-new", "next", t("new_password"), "new-password"),
      field("password-again", "again", t("new_password_again"), "new-password"),
      f.error ? h("p.error", { role: "alert" }, f.error) : null,
      f.done ? h("p.field-help", { role: "status" }, t("password_changed")) : null,
      h("button.btn.primary", { type: "submit", "data-key": "password-submit", disabled: f.busy }, t("change_password")),
    ),
  );
}

/** The leaderboards (``/leaderboard``): an edition's rated accounts, and the bots' ratings. */
export function leaderboardScreen(root, { navigate, languagePicker }) {
  let alive = true;
  let edition = "classic";
  let editions = [];
  let data = null;
  let error = "";
  async function load() {
    try {
      data = await api("GET", `/api/leaderboard?edition=${encodeURIComponent(edition)}`);
      error = "";
    } catch (err) {
      error = errorText(err);
    }
    draw();
  }
  function draw() {
    if (!alive) return;
    page(
      root,
      t("leaderboard"),
      navigate,
      languagePicker,
      accountBar(navigate, draw),
      h(
        "section.parchment",
        { "aria-labelledby": "board-title" },
        h("h2", { id: "board-title" }, t("leaderboard")),
        h("div.field", {}, h("label", { for: "board-edition" }, t("edition")),
          h("select", { id: "board-edition", "data-key": "board-edition", onchange: (ev) => {
            edition = ev.target.value;
            load();
          } }, editions.map((e) => h("option", { value: e.id, selected: e.id === edition, "data-text": "server" }, e.title)))),
        error ? h("p.error", { role: "alert" }, error) : null,
        data && data.players.length
          ? h(
              "table.profile-table",
              {},
              h("thead", {}, h("tr", {}, ["#", t("account_name"), t("rating"), t("games_played")].map((c) => h("th", { scope: "col" }, c)))),
              h("tbody", {}, data.players.map((p) => h("tr", {}, h("td", {}, num(p.rank)), h("th", { scope: "row" }, h("a", { href: `/profile/${encodeURIComponent(p.name)}` }, h("bdi", {}, p.name))), h("td.rating", {}, num(p.rating)), h("td", {}, num(p.games))))),
            )
          : h("p.empty", {}, t("no_games_yet")),
        data
          ? h(
              "p.field-help",
              {},
              t("bots_ratings"),
              " ",
              Object.entries(data.bots).map(([level, rating], i) => [i ? " · " : null, t("level_with_rating", { level: t(`level_${level}`), rating: num(rating) })]),
            )
          : null,
        data ? measuredList(data) : null,
      ),
    );
  }
  draw();
  (async () => {
    if (!session.loaded) await loadSession();
    try {
      editions = (await api("GET", "/api/info")).editions;
    } catch {
      editions = [];
    }
    load();
  })();
  return () => {
    alive = false;
  };
}
