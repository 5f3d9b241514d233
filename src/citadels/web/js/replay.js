// Replays: a finished game stepped through move by move, as a spectator saw it or from one
// seat's point of view (its hand and picks). A player replays from their own seat (the stored
// token names it); once the game is over anyone may choose any seat. The server answers only
// for a finished game, so no seat's view is offered while it is being played. "Review the
// game" (here, or ?review=1 from the final scores) draws the seat's review over it (review.js).

import { api, storedToken } from "./net.js";
import { h, icon, render } from "./dom.js";
import { loadCards } from "./lobby.js";
import { setRanks } from "./cards.js";
import { tableScreen } from "./table.js";
import { errorText, t } from "./strings.js";
import { fetchReview, logMarks, reviewPanel } from "./review.js";
import { fitTray, watchLayout } from "./layout.js";

/** Draw the replay of table ``code`` into ``root``; answers a teardown function. */
export function replayScreen(root, code, { lang, languagePicker }) {
  const state = { frames: [], steps: 0, at: 0, playing: false, error: "", data: null, sideTab: "log", seat: null, you: null };
  let timer = null;
  let loading = 0;
  const asked = new URLSearchParams(location.search).get("seat");
  // The review shown (of state.review.seat), or null; ?review=1 opens it once loaded.
  state.review = null;
  let wantReview = new URLSearchParams(location.search).get("review") === "1";
  let reviewing = 0;

  async function openReview() {
    const seat = state.seat ?? state.you ?? 0;
    if (state.seat !== seat) {
      choose(String(seat));
      wantReview = true;
      return;
    }
    const mine = ++reviewing;
    state.review = { seat, loading: true };
    const url = new URL(location.href);
    url.searchParams.set("review", "1");
    history.replaceState(history.state, "", url.pathname + url.search);
    draw();
    try {
      const data = await fetchReview(code, seat, lang);
      if (mine !== reviewing) return;
      state.review = { seat, data, marks: logMarks(data, state.frames) };
    } catch (err) {
      if (mine !== reviewing) return;
      state.review = { seat, error: errorText(err) };
    }
    draw();
    const panel = root.querySelector(".review-panel h2, .review-panel .error");
    if (panel) panel.scrollIntoView({ block: "nearest" });
  }

  function closeReview() {
    reviewing += 1;
    state.review = null;
    const url = new URL(location.href);
    url.searchParams.delete("review");
    history.replaceState(history.state, "", url.pathname + url.search);
    draw();
    const again = root.querySelector("[data-key=r-review]");
    if (again) again.focus();
  }

  const page = (from, count) => {
    const seat = state.seat === null ? "" : `&seat=${state.seat}`;
    return api("GET", `/api/tables/${code}/replay?from=${from}&count=${count}${seat}&lang=${encodeURIComponent(lang)}`, undefined, storedToken(code) || undefined);
  };

  async function load() {
    const mine = ++loading;
    const frames = [];
    let first = null;
    try {
      if (state.data === null) {
        // The first look says which seat the stored token holds: its player starts there.
        const probe = await page(0, 1);
        state.you = probe.you ?? null;
        const wanted = asked !== null && /^\d+$/.test(asked) ? Number(asked) : null;
        state.seat = wanted !== null && wanted < probe.players ? wanted : state.you;
      }
      let from = 0;
      for (;;) {
        const data = await page(from, 500);
        first = first || data;
        frames.push(...data.frames);
        if (!data.frames.length || frames.length > data.steps) break;
        from = frames.length;
      }
      if (mine !== loading) return;
      state.data = first;
      state.steps = first.steps;
      state.frames = frames;
      state.at = Math.min(state.at, frames.length - 1);
      state.data.result = state.data.result || null;
      await loadCards(state.data.edition, lang);
    } catch (err) {
      if (mine !== loading) return;
      state.error = errorText(err);
    }
    if (mine !== loading) return;
    draw();
    if (!state.error && wantReview) {
      wantReview = false;
      openReview();
    }
  }

  function choose(value) {
    state.seat = value === "" ? null : Number(value);
    // A review belongs to one seat: another seat's view reviews that seat instead.
    if (state.review && state.seat !== null && state.review.seat !== state.seat) wantReview = true;
    if (state.seat === null && state.review) {
      reviewing += 1;
      state.review = null;
    }
    const url = new URL(location.href);
    if (state.seat === null) url.searchParams.delete("seat");
    else url.searchParams.set("seat", String(state.seat));
    history.replaceState(history.state, "", url.pathname + url.search);
    load();
  }

  function go(step) {
    state.at = Math.max(0, Math.min(state.frames.length - 1, step));
    draw();
  }

  function toggle() {
    state.playing = !state.playing;
    clearInterval(timer);
    if (state.playing) {
      timer = setInterval(() => {
        if (state.at >= state.frames.length - 1) {
          state.playing = false;
          clearInterval(timer);
        } else state.at += 1;
        draw();
      }, matchMedia("(prefers-reduced-motion: reduce)").matches ? 1500 : 700);
    }
    draw();
  }

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
    // The arrows follow the page: in a right-to-left language the game runs leftwards.
    const forward = document.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
    const back = document.dir === "rtl" ? "ArrowRight" : "ArrowLeft";
    if (ev.key === forward) go(state.at + 1);
    else if (ev.key === back) go(state.at - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(state.frames.length - 1);
    else return;
    ev.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  function draw() {
    if (state.error) {
      render(root, h("div.loading", {}, h("p.error", { role: "alert" }, state.error), h("a.btn", { href: "/" }, t("leave"))));
      return;
    }
    if (!state.frames.length) {
      render(root, h("div.loading", { role: "status" }, t("connecting")));
      return;
    }
    const frame = state.frames[state.at];
    setRanks(frame.view.characters_in_play);
    const names = state.data.names || [];
    const table = {
      code,
      status: "finished",
      edition: state.data.edition,
      players: state.data.players,
      seats: names.map((name, seat) => ({ seat, name, kind: "human", connected: true })),
    };
    const events = [];
    for (const f of state.frames.slice(0, state.at + 1)) events.push(...(f.events || []));
    const last = state.at === state.frames.length - 1;
    const game = {
      code,
      table,
      // The seat shown is "you" only when it is the one this browser's token holds.
      you: state.seat === null ? { seat: null, spectator: true } : { seat: state.seat, spectator: false, own: state.seat === state.you },
      view: frame.view,
      legal: [],
      events,
      chat: [],
      result: last ? state.data.result : null,
      scores: last ? state.data.scores : null,
      scoreHeaders: state.data.score_headers || null,
      sideTab: state.sideTab,
      scoresHidden: state.scoresHidden,
      replay: true,
      hintUses: state.data.hints_used || [],
      timeouts: state.data.timeouts || [],
      marks: state.review && state.review.marks ? state.review.marks : null,
    };
    const bar = h(
      "nav.replay-bar",
      { "aria-label": t("replay") },
      h("button.btn.small", { type: "button", "data-key": "r-first", onclick: () => go(0), "aria-label": t("first") }, icon("first")),
      h("button.btn.small", { type: "button", "data-key": "r-prev", onclick: () => go(state.at - 1), "aria-label": t("prev") }, icon("prev")),
      h("button.btn.small.primary", { type: "button", "data-key": "r-play", onclick: toggle, "aria-label": state.playing ? t("pause") : t("play") }, icon(state.playing ? "pause" : "play")),
      h("button.btn.small", { type: "button", "data-key": "r-next", onclick: () => go(state.at + 1), "aria-label": t("next") }, icon("next")),
      h("button.btn.small", { type: "button", "data-key": "r-last", onclick: () => go(state.frames.length - 1), "aria-label": t("last") }, icon("last")),
      h("label.sr", { for: "r-slider" }, t("replay")),
      h("input", {
        type: "range",
        id: "r-slider",
        "data-key": "r-slider",
        min: 0,
        max: state.frames.length - 1,
        value: state.at,
        oninput: (ev) => go(Number(ev.target.value)),
      }),
      h("span.step", { role: "status" }, t("step_n", { n: frame.version, m: state.steps })),
      h(
        "button.btn.small" + (state.review ? ".pressed" : ""),
        { type: "button", "data-key": "r-review", "aria-pressed": state.review ? "true" : "false", onclick: () => (state.review ? closeReview() : openReview()) },
        t("review_game"),
      ),
      h("label", { for: "r-seat" }, t("replay_view")),
      h(
        "select",
        { id: "r-seat", "data-key": "r-seat", onchange: (ev) => choose(ev.target.value) },
        h("option", { value: "", selected: state.seat === null }, t("replay_spectator")),
        names.map((name, seat) =>
          h("option", { value: String(seat), selected: state.seat === seat }, seat === state.you ? t("replay_your_seat", { name }) : name),
        ),
      ),
    );
    render(
      root,
      h(
        "header.topbar.replay-top",
        {},
        h("a.brand", { href: "/", "aria-label": t("leave") }, icon("tower"), h("span", {}, t("app_title"))),
        h("span.code-tag", { dir: "ltr" }, code),
        h("span.tag.spec", {}, t("replay")),
        h("span.round-tag", { "data-round": frame.view.round }, t("round_n", { n: frame.view.round })),
        h("span.spacer"),
        languagePicker(),
      ),
      h(
        "main.replay",
        { id: "main" },
        h("h1.sr", {}, `${t("replay")} · ${code}`),
        bar,
        state.review
          ? reviewPanel(state.review.data, {
              at: state.at,
              names,
              go: (step) => go(step),
              close: closeReview,
              loading: state.review.loading,
              error: state.review.error,
            })
          : null,
        tableScreen(game, {
          onAct: () => {},
          onChat: () => {},
          onChatDraft: () => {},
          onTab: (name) => {
            state.sideTab = name;
            draw();
          },
          onRematch: () => {},
          onReview: () => {
            state.scoresHidden = true;
            openReview();
          },
          onScores: (show) => {
            state.scoresHidden = !show;
            draw();
          },
        }),
      ),
    );
    // The top bar's height (--topbar-h) is this page's own, not the table's it may follow.
    fitTray(root);
    watchLayout(root);
    // The log beside the table stays in sight under the review panel (a wide screen's side
    // column is as tall as the window less the bars above it).
    const panel = root.querySelector(".review-panel");
    root.style.setProperty("--review-h", panel ? `${panel.offsetHeight + 8}px` : "0px");
    for (const list of root.querySelectorAll(".log")) list.scrollTop = list.scrollHeight;
  }

  draw();
  load();
  return () => {
    clearInterval(timer);
    document.removeEventListener("keydown", onKey);
  };
}
