// The Mini App's table: draws the state the server sends (bot/webapp/state.py) and sends taps.
// Every word on the page comes from the server, in the viewer's language; the page only draws the pips.
// Signed in by Telegram: each request carries Telegram.WebApp.initData, checked by the server.
"use strict";
(function () {
  const tg = (window.Telegram && window.Telegram.WebApp) || null;
  const initData = (tg && tg.initData) || "";
  const unsafe = (tg && tg.initDataUnsafe) || {};
  const query = new URLSearchParams(location.search);
  const start = unsafe.start_param || "";
  const matchId = query.get("m") || (start.indexOf("m_") === 0 ? start.slice(2) : "");
  const hint = (unsafe.user && unsafe.user.language_code) || "";
  const root = document.getElementById("table");
  const offline = document.getElementById("offline");
  const toastBox = document.getElementById("toast");
  let state = null;
  let offset = 0; // the server's clock minus this one, in ms
  let toastTimer = null;
  let stopped = false;

  // -- Telegram's theme ------------------------------------------------------------------
  const THEME = ["bg_color", "text_color", "hint_color", "link_color", "button_color", "button_text_color",
    "secondary_bg_color", "accent_text_color"];
  function applyTheme() {
    const params = (tg && tg.themeParams) || {};
    const style = document.documentElement.style;
    for (const key of THEME) {
      if (params[key]) style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), params[key]);
    }
    document.documentElement.dataset.scheme = (tg && tg.colorScheme) || "light";
  }
  applyTheme();
  if (tg) {
    if (tg.onEvent) tg.onEvent("themeChanged", applyTheme);
    if (tg.ready) tg.ready();
    if (tg.expand) tg.expand();
  }
  if (hint.slice(0, 2) === "pl") document.documentElement.lang = "pl";

  // -- drawing ---------------------------------------------------------------------------
  const SVG = "http://www.w3.org/2000/svg";
  const PIPS = { // a half's pips on a 3 x 3 grid: (column, row)
    0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
    4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
    6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  };
  // The server's texts are Telegram's HTML (names escaped there). They are parsed inert (a template runs nothing)
  // and rebuilt from an allow-list of Telegram's tags: anything else keeps its text and loses its markup, a link
  // keeps only an https or tg address. A text the server failed to escape could never run here.
  const TAGS = { B: "b", STRONG: "b", I: "i", EM: "i", U: "u", INS: "u", S: "s", STRIKE: "s", DEL: "s",
    CODE: "code", PRE: "pre", BLOCKQUOTE: "blockquote", A: "a", SPAN: "span", "TG-SPOILER": "span" };
  function rich(target, html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    (function copy(from, to) {
      for (const node of Array.from(from.childNodes)) {
        if (node.nodeType === Node.TEXT_NODE) { to.appendChild(document.createTextNode(node.nodeValue)); continue; }
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        const tag = TAGS[node.tagName];
        if (!tag) { copy(node, to); continue; }
        const made = document.createElement(tag);
        if (tag === "a") {
          const href = node.getAttribute("href") || "";
          if (/^(https:|tg:)/i.test(href)) { made.setAttribute("href", href); made.setAttribute("rel", "noopener"); }
        }
        if (node.tagName === "TG-SPOILER" || (tag === "span" && node.classList.contains("tg-spoiler"))) {
          made.className = "tg-spoiler";
        }
        copy(node, made);
        to.appendChild(made);
      }
    })(template.content, target);
  }
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "html") rich(node, value);
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children || []) if (child) node.appendChild(child);
    return node;
  }
  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    return node;
  }
  // A domino standing up: its first end on top. width: its width in px.
  function tile(ends, width) {
    const w = 40, h = 80;
    const node = svg("svg", { viewBox: "0 0 " + w + " " + h, width: width, height: width * 2, class: "tile",
      role: "img", "aria-label": "[" + ends[0] + "|" + ends[1] + "]" });
    node.appendChild(svg("rect", { class: "body", x: 1, y: 1, width: w - 2, height: h - 2, rx: 6 }));
    node.appendChild(svg("line", { x1: 6, y1: h / 2, x2: w - 6, y2: h / 2 }));
    ends.forEach(function (n, half) {
      for (const [c, r] of PIPS[n] || []) {
        node.appendChild(svg("circle", { cx: 9 + c * 11, cy: half * 40 + 9 + r * 11, r: 3.9 }));
      }
    });
    return node;
  }
  function text(html, cls) {
    return html ? el("div", { class: "text " + (cls || ""), html: html }) : null;
  }

  function render(next) {
    state = next;
    offset = next.now * 1000 - Date.now();
    const L = next.labels;
    document.documentElement.lang = next.lang;
    root.dataset.version = String(next.version);
    root.dataset.seat = next.seat === null ? "" : String(next.seat);
    root.dataset.state = next.state;
    const parts = [];
    parts.push(el("h1", { html: next.title }));
    if (next.fingerprint) parts.push(el("p", { class: "fingerprint", html: next.fingerprint }));
    parts.push(el("div", { class: "players" }, next.players.map(function (p, seat) {
      const mine = next.seat === seat;
      return el("div", { class: "player" + (p.turn ? " turn" : ""), "data-player": String(seat) }, [
        el("div", { class: "name", html: p.name + (mine ? " ★" : "") }),
        el("div", { class: "score" }, [document.createTextNode(String(p.score) + " "),
          el("small", { text: "/ " + next.target })]),
        el("div", { class: "hint", text: p.tiles }),
      ]);
    })));
    const board = [];
    board.push(el("figure", { "data-lead": "" }, [el("figcaption", { text: next.lead ? L.lead : L["table-empty"] }),
      next.lead ? tile(next.lead.tile, 44) : null]));
    if (next.last) {
      board.push(el("figure", { "data-last": "" }, [el("figcaption", { text: L.last }),
        el("div", { class: "trick" }, next.last.tiles.map(function (t) { return tile(t, 28); }))]));
    }
    parts.push(el("section", { class: "card board" }, board));
    if (next.lead) parts.push(text(next.lead.text, "hint"));
    if (next.last) parts.push(text(next.last.text, "hint"));
    if (next.lines.length) parts.push(el("section", { class: "card" }, next.lines.map(function (line) {
      return text(line);
    })));
    if (next.turn) {
      parts.push(el("p", { class: "turn" }, [el("span", { html: next.turn })]));
    }
    const mineNow = next.hand && next.state !== "over" && next.players[next.seat] && next.players[next.seat].turn;
    if (mineNow) parts.push(el("p", { class: "your-turn", "data-your-turn": "", text: L["your-turn"] }));
    if (next.deadline) {
      parts.push(el("p", {}, [el("span", { class: "hint", text: L["turn-clock"] + " " }),
        el("span", { class: "clock", "data-clock": "" })]));
    }
    if (next.seat === null) parts.push(el("p", { class: "hint", text: L.watching }));
    if (next.prompt && next.state !== "over") parts.push(text(next.prompt, "prompt"));
    if (next.hand) {
      parts.push(el("section", { class: "hand", "data-hand": "" }, [el("h2", { text: L.hand })].concat(
        next.hand.map(function (t) {
          const button = el("button", { type: "button", class: "tile-button", "data-action": t.action,
            "aria-disabled": t.enabled ? "false" : "true" }, [tile(t.tile, 38)]);
          button.addEventListener("click", function () { act(t.action, t.enabled); });
          return button;
        }))));
    }
    if (next.actions.length) {
      parts.push(el("section", { class: "actions" }, next.actions.map(function (a) {
        const button = el("button", { type: "button", class: "action", "data-action": a.action, text: a.text,
          disabled: !a.enabled, "aria-disabled": a.enabled ? "false" : "true" });
        button.addEventListener("click", function () { act(a.action, a.enabled); });
        return button;
      })));
    }
    if (next.prev) parts.push(el("section", { class: "card" }, [text(next.prev)]));
    if (next.result) {
      const end = [el("div", { class: "section-title", text: L.over }), text(next.result)];
      if (next.next) {
        const go = el("button", { type: "button", class: "action", "data-next": next.next, text: L.next });
        go.addEventListener("click", function () { openMatch(next.next); });
        end.push(el("div", { class: "actions" }, [go]));
      } else if (next.rematch) {
        const again = el("button", { type: "button", class: "action", "data-rematch": "", text: L.rematch });
        again.addEventListener("click", rematch);
        end.push(el("div", { class: "actions" }, [again]));
      }
      parts.push(el("section", { class: "card result", "data-result": "" }, end));
    }
    root.replaceChildren.apply(root, parts.filter(Boolean));
    tick();
  }

  function tick() {
    const clock = root.querySelector("[data-clock]");
    if (!clock || !state || !state.deadline) return;
    const left = Math.max(0, Math.round((state.deadline * 1000 - (Date.now() + offset)) / 1000));
    clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    clock.classList.toggle("low", left <= 30);
  }
  setInterval(tick, 1000);

  function newer(next) {
    return !state || next.match !== state.match || next.version >= state.version;
  }

  function toast(message) {
    toastBox.textContent = message;
    toastBox.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toastBox.hidden = true; }, 2600);
    if (tg && tg.HapticFeedback && tg.HapticFeedback.notificationOccurred) {
      tg.HapticFeedback.notificationOccurred("error");
    }
  }

  function refuse(message) { // nothing of the match is shown
    stopped = true;
    state = null;
    root.dataset.version = "";
    root.dataset.seat = "";
    root.dataset.state = "error";
    root.replaceChildren(el("p", { class: "error", "data-error": "", text: message }));
    offline.hidden = true;
  }

  // -- talking to the bot -------------------------------------------------------------------
  function headers(json) {
    const h = { Authorization: "tma " + initData };
    if (json) h["Content-Type"] = "application/json";
    return h;
  }
  function url(path) {
    return path + (path.indexOf("?") < 0 ? "?" : "&") + "hl=" + encodeURIComponent(hint);
  }
  async function post(path, body) {
    const response = await fetch(url(path), { method: "POST", headers: headers(true), body: JSON.stringify(body) });
    const data = await response.json().catch(function () { return {}; });
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      refuse(data.error || String(response.status));
      return null;
    }
    if (data.state && newer(data.state)) render(data.state);
    if (data.error) toast(data.error);
    else if (!response.ok && state) toast(state.labels.refused); // refused without a reason given
    return data;
  }
  function requestId() {
    return Math.random().toString(36).slice(2, 12) + Date.now().toString(36);
  }
  async function act(action, enabled) {
    if (!state || state.state === "over") return;
    window.__tappedAt = Date.now();
    if (enabled && tg && tg.HapticFeedback && tg.HapticFeedback.impactOccurred) tg.HapticFeedback.impactOccurred("light");
    try {
      await post("/app/api/act", { m: state.match, v: state.version, a: action, id: requestId() });
    } catch (error) {
      showOffline();
    }
  }
  async function rematch() {
    try {
      const data = await post("/app/api/rematch", { m: state.match });
      if (data && data.toast) toast(data.toast);
      if (data && data.next) openMatch(data.next);
    } catch (error) {
      showOffline();
    }
  }
  function openMatch(id) {
    const params = new URLSearchParams(location.search);
    params.set("m", id);
    history.replaceState(null, "", location.pathname + "?" + params.toString() + location.hash);
    current = id;
    state = null;
    switching = true;
    if (reader) reader.cancel().catch(function () {});
  }

  let notice = null; // why the live stream was refused, when the server said
  function showOffline() {
    if (notice || state) {
      offline.textContent = notice || state.labels.offline;
      offline.hidden = false;
    }
  }

  // The live stream: Server-Sent Events read with fetch (an EventSource cannot send the Authorization header).
  let current = matchId;
  let reader = null;
  let switching = false; // to another match (the rematch): connect again at once
  async function live() {
    let delay = 500;
    while (!stopped) {
      try {
        const response = await fetch(url("/app/api/live?m=" + encodeURIComponent(current)), { headers: headers(false),
          cache: "no-store" });
        if (response.status !== 200) {
          const data = await response.json().catch(function () { return {}; });
          if (response.status === 401 || response.status === 403 || response.status === 404) {
            refuse(data.error || String(response.status));
            return;
          }
          if (data.error) notice = data.error; // too many windows: said until this one connects
          throw new Error(String(response.status));
        }
        reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          buffer += decoder.decode(chunk.value, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = block.split("\n");
            const data = lines.filter(function (line) { return line.indexOf("data: ") === 0; })
              .map(function (line) { return line.slice(6); }).join("\n");
            if (!data) continue;
            const next = JSON.parse(data);
            if (lines.indexOf("event: gone") >= 0) { // no longer to be seen (left the chat, launch data too old)
              refuse(next.error || "403");
              return;
            }
            offline.hidden = true;
            notice = null;
            delay = 500;
            root.dataset.live = "on";
            if (next.match === current && newer(next)) render(next);
          }
        }
      } catch (error) {
        // fall through: reconnect
      }
      reader = null;
      root.dataset.live = "off";
      if (stopped) return;
      if (switching) {
        switching = false;
        continue;
      }
      showOffline();
      await new Promise(function (resolve) { setTimeout(resolve, delay); });
      delay = Math.min(delay * 2, 5000);
    }
  }

  if (!initData) {
    // Opened outside Telegram: ask the server all the same, it answers 401 with the words to show.
    fetch(url("/app/api/state?m=" + encodeURIComponent(matchId)), { headers: headers(false) })
      .then(function (r) { return r.json(); })
      .then(function (data) { refuse(data.error || "401"); })
      .catch(function () { refuse("401"); });
    return;
  }
  live();
})();
