// Every word of the client's own interface ("chrome") lives in this one table, so that it can be
// translated (issue 11). Game texts — card names and powers, action labels, the move log, scores —
// are rendered by the server through citadels.present and never built here.

const STRINGS = {
  en: {
    app_title: "Citadels",
    tagline: "Build the finest city. Bluff your way to the crown.",
    your_turn_title: "▶ Your turn — Citadels",
    skip_to_actions: "Skip to your actions",
    // lobby
    open_tables: "Open tables",
    no_open_tables: "No table is waiting for players. Create one!",
    refresh: "Refresh",
    create_table: "Create a table",
    join_by_code: "Join by code",
    table_code: "Table code",
    join: "Join",
    edition: "Edition",
    players: "Players",
    seats_count: "{n} seats",
    setup: "Characters and districts",
    preset: "Preset",
    preset_default: "Standard set",
    custom: "Custom",
    characters: "Characters",
    purple_districts: "Purple districts",
    none: "None",
    city_size: "City complete at",
    districts_n: "{n} districts",
    bots: "Bots",
    bot_count: "Bot seats",
    bot_level: "Bot level",
    turn_timer: "Turn timer",
    timer_off: "Off",
    seconds_n: "{n} s",
    your_name: "Your name",
    name_placeholder: "e.g. Anna",
    create: "Create table",
    creating: "Creating…",
    seats_taken: "{taken} of {total} seats taken",
    table_of: "{edition} · {players} players",
    watch: "Watch",
    seed: "Seed (optional)",
    // waiting room
    waiting_room: "Waiting for players",
    invite: "Invite friends",
    invite_help: "Send this link, or tell them the code.",
    copy: "Copy",
    copied: "Copied!",
    seat_n: "Seat {n}",
    empty_seat: "Empty seat",
    take_seat: "Take this seat",
    give_bot: "Give to a bot",
    bot: "Bot",
    host: "Host",
    you: "You",
    start_game: "Start the game",
    waiting_for_host: "Waiting for the host to start the game…",
    need_full: "Every seat needs a player or a bot before the game can start.",
    sit_down: "Take a seat",
    spectating: "You are watching this table.",
    // table
    round_n: "Round {n}",
    deck_n: "Deck: {n}",
    gold: "Gold",
    gold_n: "{n} gold",
    cards_n: "{n} cards in hand",
    city: "City",
    city_n: "City {n}/{m}",
    hand: "Your hand",
    your_characters: "Your characters",
    crown: "Crown",
    has_crown: "has the crown",
    the_court: "Characters",
    faceup_removed: "Removed face up",
    removed: "Removed",
    facedown_n: "{n} face down",
    known_facedown: "You saw face down",
    revealed_by: "{name}",
    murdered: "Murdered",
    robbed: "Robbed",
    bewitched: "Bewitched",
    draft: "Choose a character",
    draft_put_aside: "Put a character aside, face down",
    draft_wait: "{name} is choosing a character…",
    turn_of: "{name}'s turn",
    turn_of_char: "{name}'s turn · {character}",
    your_turn: "Your turn",
    your_turn_char: "Your turn · {character}",
    waiting_for: "Waiting for {name}…",
    actions: "Your actions",
    no_actions: "Nothing to do right now.",
    log: "Moves",
    chat: "Chat",
    say: "Message",
    send: "Send",
    chat_readonly: "Spectators can read the chat.",
    sound: "Sound on your turn",
    sound_on: "Sound on",
    sound_off: "Sound off",
    leave: "Lobby",
    connecting: "Connecting…",
    reconnecting: "Connection lost — reconnecting…",
    connected: "Connected",
    offline: "offline",
    empty_city: "No districts yet",
    empty_hand: "No cards",
    card_info: "About this card",
    close: "Close",
    cost_n: "Cost {n}",
    rank_n: "Rank {n}",
    complete: "Complete city",
    first_complete: "First to complete",
    spectator_badge: "Spectator",
    played_by_bot: "played by a bot",
    // scores
    final_scores: "Final scores",
    winner: "Winner",
    winners: "Winners",
    rank: "Place",
    player: "Player",
    total: "Total",
    tiebreak: "Tie-break",
    score_districts: "City",
    score_colours: "Colours",
    score_first_complete: "First",
    score_complete: "Complete",
    score_bonus: "Bonus",
    rematch: "Play again",
    new_table: "New table",
    watch_replay: "Watch the replay",
    back_to_table: "Back to the table",
    // replay
    replay: "Replay",
    step_n: "Step {n} of {m}",
    first: "First",
    prev: "Previous",
    next: "Next",
    last: "Last",
    play: "Play",
    pause: "Pause",
    // errors
    error: "Something went wrong",
    table_not_found: "No table with this code.",
    name_required: "Please enter your name.",
    seat_taken: "That seat was just taken.",
  },
};

let current = "en";

/** Choose the interface language (falls back to English) and set the page direction. */
export function setLanguage(lang) {
  current = STRINGS[lang] ? lang : "en";
  document.documentElement.lang = current;
  document.documentElement.dir = ["fa", "ar", "he"].includes(current) ? "rtl" : "ltr";
}

export function language() {
  return current;
}

/** The interface string ``key`` with ``{field}`` placeholders filled in. */
export function t(key, fields = {}) {
  const table = STRINGS[current] || STRINGS.en;
  const text = table[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in fields ? String(fields[name]) : `{${name}}`));
}
