// A tiny DOM builder and the inline SVG icons. No framework: the views are small and re-rendered
// whole from the state; focus is carried across re-renders by each control's data-key.

/** Create an element: h("button.primary", {onclick, "aria-label": "…"}, child, …). */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = [el.className, value].filter(Boolean).join(" ");
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, String(v));
    } else if (key === "html") {
      el.innerHTML = value; // only ever used with the static SVG icons below
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace the children of ``root`` with ``children``, keeping focus on the same data-key. */
export function render(root, ...children) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.key : null;
  root.replaceChildren();
  append(root, children);
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

const SVG = {
  crown:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M3 8l4.5 4L12 4l4.5 8L21 8l-2 11H5z" fill="currentColor" stroke="#5a3a00" stroke-width="1.2" stroke-linejoin="round"/><circle cx="12" cy="4" r="1.6" fill="currentColor"/><circle cx="3" cy="8" r="1.4" fill="currentColor"/><circle cx="21" cy="8" r="1.4" fill="currentColor"/></svg>',
  coin:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="9.5" fill="#e9b824" stroke="#8a6300" stroke-width="1.5"/><circle cx="12" cy="12" r="6.5" fill="none" stroke="#a87a08" stroke-width="1.2"/><path d="M12 8.5v7M10 10.5h4" stroke="#7a5500" stroke-width="1.4" stroke-linecap="round"/></svg>',
  cards:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="3" y="5" width="11" height="15" rx="2" fill="#7b2d26" stroke="#f2e6c9" stroke-width="1.2" transform="rotate(-10 8 12)"/><rect x="9" y="4" width="11" height="15" rx="2" fill="#8f3a30" stroke="#f2e6c9" stroke-width="1.2"/><path d="M14.5 8l2 3.5-2 3.5-2-3.5z" fill="#e9c46a"/></svg>',
  city:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M2 21V11l4-3 4 3v10M10 21V6l4-3 4 3v15M18 21v-8l4 2v6M1 21h22" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>',
  skull:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 3C7.6 3 4.5 6 4.5 10c0 2.6 1.3 4.3 3 5.3V19h9v-3.7c1.7-1 3-2.7 3-5.3 0-4-3.1-7-7.5-7z" fill="#efe6d2" stroke="#2a1a10" stroke-width="1.3"/><circle cx="9" cy="10.5" r="1.8" fill="#2a1a10"/><circle cx="15" cy="10.5" r="1.8" fill="#2a1a10"/><path d="M10 19v-2M12 19v-2M14 19v-2" stroke="#2a1a10" stroke-width="1.2"/></svg>',
  bag:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M8 7c0-2 8-2 8 0l-1.5 2c3 1.5 5 5 5 8 0 3-3 4-7.5 4S4.5 20 4.5 17c0-3 2-6.5 5-8z" fill="#6b4b2a" stroke="#f2e6c9" stroke-width="1.2"/><path d="M9.5 9h5" stroke="#f2e6c9" stroke-width="1.2"/></svg>',
  sound_on:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path d="M16 8.5a5 5 0 010 7M18.5 6a8.5 8.5 0 010 12" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>',
  sound_off:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>',
  link:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg>',
  bot:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="5" y="8" width="14" height="11" rx="3" fill="currentColor"/><circle cx="9.5" cy="13" r="1.6" fill="#1b2a22"/><circle cx="14.5" cy="13" r="1.6" fill="#1b2a22"/><path d="M12 8V5M12 4.5a1 1 0 100-.1" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>',
  eye:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M2 12s3.5-6 10-6 10 6 10 6-3.5 6-10 6S2 12 2 12z" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="12" cy="12" r="3" fill="currentColor"/></svg>',
  facedown:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="5" y="3" width="14" height="18" rx="2" fill="#3b2a4f" stroke="#e9c46a" stroke-width="1.2"/><path d="M12 7l3 5-3 5-3-5z" fill="#e9c46a"/></svg>',
  first:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 5v14M19 5l-10 7 10 7z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>',
  prev:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M17 5L7 12l10 7z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>',
  play:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M7 5l11 7-11 7z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>',
  pause:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" fill="currentColor"/></svg>',
  next:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M5 5l10 7-10 7z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/><path d="M18 5v14" stroke="currentColor" stroke-width="2.4"/></svg>',
  last:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M5 5l10 7-10 7z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/><path d="M18 5v14" stroke="currentColor" stroke-width="2.4"/><path d="M21 5v14" stroke="currentColor" stroke-width="1.4"/></svg>',
  globe:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M3 12h18M12 3c3 3.2 3 14.8 0 18M12 3c-3 3.2-3 14.8 0 18" fill="none" stroke="currentColor" stroke-width="1.4"/></svg>',
  menu:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 6.5h16M4 12h16M4 17.5h16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
  hourglass:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 3h12M6 21h12M7 3c0 5 10 6 10 9s-10 4-10 9M17 3c0 5-10 6-10 9s10 4 10 9" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg>',
  tower:
    '<svg viewBox="0 0 64 64" aria-hidden="true" focusable="false"><path d="M14 58V30l-4-4V14h6v5h5v-5h6v5h5v-5h6v5h5v-5h6v12l-4 4v28z" fill="#e9c46a" stroke="#5a3a00" stroke-width="2" stroke-linejoin="round"/><path d="M27 58V46a5 5 0 0110 0v12" fill="#5a3a00"/><rect x="22" y="32" width="5" height="7" rx="2.5" fill="#5a3a00"/><rect x="37" y="32" width="5" height="7" rx="2.5" fill="#5a3a00"/><path d="M32 2v10M32 3l9 3-9 3" fill="#b33" stroke="#5a3a00" stroke-width="1.5"/></svg>',
};

/** An inline SVG icon (decorative; give the text beside it to screen readers). */
export function icon(name, cls = "") {
  return h(`span.icon${cls ? "." + cls : ""}`, { html: SVG[name] || "", "aria-hidden": "true" });
}
