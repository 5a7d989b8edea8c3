/* Offline, progressive enhancement only: without this file the hand form is a plain POST.
   - Registers the service worker (static/sw.js) where the page is a secure context (HTTPS,
     or this machine): pages then open on a weak signal, as saved copies.
   - A hand saved on the record form is sent from a queue kept in localStorage: with no
     connection it waits on this phone ("Hand 3 waiting to send · no connection") and is
     sent when the connection is back, from whichever page of the app is open. It keeps
     the form's once-only token, so sending it twice (a lost answer, two pages racing)
     records it once. A refused hand is never dropped: the person opens it and sees why.
   - A table passcode this phone has not given: as chips.js, the hand stays queued while
     the phone unlocks, and is sent once it is back. */
(function () {
  "use strict";
  var say = window.KingsCorners.say;  // words.js: in the page's language
  var script = document.currentScript;
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var KEY = "kings-corners:hand-queue";
  var SENT_KEY = "kings-corners:hands-sent";
  var LOCK = "kings-corners:hand-queue";
  var RETRY_MS = 3000;
  var PING_MS = 5000;
  var SEND_TIMEOUT_MS = 20000;
  var SHOW_SENT_MS = 10 * 60 * 1000;
  var BUSY_SHOWN_MS = 600;

  var newToken = function () {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  };
  var clock = function (ms) {
    var d = new Date(Number(ms));
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  };

  /* ---- The service worker ---------------------------------------------------------- */
  if (script && script.dataset.sw && window.isSecureContext && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(script.dataset.sw).catch(function () { /* no worker: pages load as before */ });
  }

  if (!window.fetch || !window.localStorage || !window.crypto) return;

  /* ---- The queue, shared by every page of the app open on this phone ---------------- */
  var read = function (key) {
    try { return JSON.parse(localStorage.getItem(key || KEY) || "[]"); } catch (e) { return []; }
  };
  var write = function (list, key) {
    try { localStorage.setItem(key || KEY, JSON.stringify(list)); } catch (e) { /* private mode: nothing kept */ }
  };
  /* Change the stored queue (read afresh: another page may have changed it). */
  var change = function (fn) { var list = read(); var out = fn(list); write(list); return out; };
  var find = function (list, id) {
    for (var i = 0; i < list.length; i++) if (list[i].id === id) return i;
    return -1;
  };

  var PAGE = newToken();  // this page view: its own hands are followed to their scoreboard
  var offline = navigator.onLine === false;
  var sending = null;  // the id of the hand on its way
  var leaving = false;
  var retry = null;
  var busySince = 0;
  var savedCopy = document.documentElement.getAttribute("data-saved-copy");
  // The offline page, shown by the worker in place of a page it has no copy of.
  var standIn = document.querySelector("[data-stand-in]");
  var inPlaceOf = !!standIn && window.location.pathname !== standIn.getAttribute("data-stand-in");
  var editNote = "";
  var tapsFirst = null;  // a hand waiting for its game's chips taps to be sent first

  /* ---- What this phone is told: a strip at the foot of every page -------------------- */
  var strip = document.createElement("div");
  strip.className = "kc-queue";
  strip.setAttribute("role", "status");
  strip.setAttribute("aria-live", "polite");
  strip.hidden = true;
  var space = document.createElement("div");
  space.setAttribute("aria-hidden", "true");
  document.body.appendChild(space);
  document.body.appendChild(strip);

  var line = function (cls, text, buttons) {
    var p = document.createElement("p");
    p.className = "kc-line " + cls;
    var span = document.createElement("span");
    span.textContent = text;
    p.appendChild(span);
    (buttons || []).forEach(function (b) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "kc-action";
      button.textContent = b.label;
      if (b.aria) button.setAttribute("aria-label", b.aria);
      button.addEventListener("click", b.act);
      p.appendChild(button);
    });
    return p;
  };

  var render = function () {
    var now = Date.now();
    var sent = read(SENT_KEY).filter(function (s) { return now - s.sentAt < SHOW_SENT_MS; });
    var lines = [];
    if (savedCopy) {
      lines.push(line("copy", say("off_copy", { time: clock(savedCopy) })));
    }
    if (editNote) lines.push(line("waiting", editNote));
    read().forEach(function (item) {
      if (item.state === "refused") {
        lines.push(line("refused", say("off_refused", { label: item.label, reason: item.reason }), [
          { label: say("off_open"), act: function () { openItem(item.id); } },
          { label: say("off_discard"), aria: say("off_discard_what", { label: item.label }), act: function () { discard(item.id); } }]));
      } else if (item.id === tapsFirst) {
        // chips.js sends its taps from the game's page.
        lines.push(line("waiting", say("off_taps_first", { label: item.label }),
          $("[data-live-panel]") ? [] : [{ label: say("off_open_game"), act: function () { window.location.href = item.game; } }]));
      } else if (item.locked) {
        lines.push(line("waiting", say("off_locked", { label: item.label }), [
          { label: say("off_unlock"), act: function () { window.location.href = item.locked; } }]));
      } else if (offline || item.waited) {
        lines.push(line("waiting", say("off_waiting", { label: item.label })));
      } else if (item.id !== sending || now - busySince > BUSY_SHOWN_MS) {
        lines.push(line("sending", say("off_sending", { label: item.label.toLowerCase() })));
      }
    });
    sent.forEach(function (s) {
      lines.push(line("sent", "✓ " + say("off_sent", { label: s.label, time: clock(s.sentAt) }), [
        { label: "×", aria: say("off_dismiss"), act: function () { dismiss(s.id); } }]));
    });
    strip.textContent = "";
    lines.forEach(function (l) { strip.appendChild(l); });
    strip.hidden = !lines.length;
    space.style.height = strip.hidden ? "" : strip.offsetHeight + "px";
  };

  var dismiss = function (id) {
    var list = read(SENT_KEY).filter(function (s) { return s.id !== id; });
    write(list, SENT_KEY);
    render();
  };
  var discard = function (id) {
    change(function (list) { var i = find(list, id); if (i >= 0) list.splice(i, 1); });
    render();
  };

  /* Post a hand as a plain form: the server's own page then shows what it says (why it was
     refused, with everything typed kept), as it would have without this file. */
  var post = function (item) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.url;
    form.hidden = true;
    new URLSearchParams(item.body).forEach(function (value, name) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    });
    document.body.appendChild(form);
    HTMLFormElement.prototype.submit.call(form);
  };
  var openItem = function (id) {
    var item = change(function (list) { var i = find(list, id); return i >= 0 ? list.splice(i, 1)[0] : null; });
    render();
    if (item) { leaving = true; post(item); }
  };

  /* The first words of what the server said when it refused a hand. */
  var reason = function (html, status) {
    var doc = new DOMParser().parseFromString(html || "", "text/html");
    var said = doc.querySelector("main [role=alert]") || doc.querySelector("main h1");
    var text = said ? said.textContent.replace(/\s+/g, " ").trim() : "";
    return text || say("off_answered", { status: status });
  };

  var schedule = function () {
    if (retry) window.clearTimeout(retry);
    retry = window.setTimeout(function () { retry = null; flush(); }, RETRY_MS);
  };

  /* Send one hand; resolve to what became of it. */
  var send = function (item) {
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller && window.setTimeout(function () { controller.abort(); }, SEND_TIMEOUT_MS);
    return fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin", cache: "no-store",
      signal: controller ? controller.signal : undefined,
      headers: { "Content-Type": "application/x-www-form-urlencoded",
                 "X-Hand-Queue": "1", "X-Live-Panel": "1" }
    }).then(function (response) {
      if (timer) window.clearTimeout(timer);
      if (response.status >= 502 && response.status <= 504) return { kind: "offline" };
      var unlock = response.status === 403 && response.headers.get("X-Unlock");
      if (unlock) return { kind: "unlock", where: unlock };
      if (response.status === 204 && response.headers.get("X-Location")) {
        return { kind: "sent", where: response.headers.get("X-Location") };
      }
      return response.text().then(function (html) {
        return { kind: "refused", reason: reason(html, response.status) };
      });
    }, function () {
      if (timer) window.clearTimeout(timer);
      return { kind: "offline" };
    });
  };

  /* This page's own hand was sent by another page of the app on this phone: go on to
     where it went, as if it had been sent from here. */
  var followMine = function () {
    if (leaving || !$("#hand-form")) return false;
    var mine = read(SENT_KEY).filter(function (s) { return s.page === PAGE && s.where; })[0];
    if (!mine) return false;
    leaving = true;
    window.location.assign(mine.where);
    return true;
  };

  var unlocking = !!$("input[name=unlock_passcode]");  // the page that asks for the passcode
  /* Send the next waiting hand, one at a time across every page of the app on this phone
     (Web Locks where there are; the once-only token makes a race harmless where not). */
  var flush = function () {
    if (sending || leaving || unlocking) return;
    var next = read().filter(function (i) { return i.state === "waiting"; })[0];
    if (!next) { render(); return; }
    // A chips game's taps of this hand still waiting in chips.js's own queue go first:
    // saving the hand takes the taps of the hand in progress with it.
    var taps = read("kings-corners:chips-queue:" + (/(\d+)$/.exec(next.game) || [])[1])
      .filter(function (tap) { return String(tap.hand) === String(next.number); });
    tapsFirst = taps.length ? next.id : null;
    if (tapsFirst) { render(); schedule(); return; }
    sending = next.id;
    busySince = Date.now();
    window.setTimeout(render, BUSY_SHOWN_MS + 50);
    var run = function () {
      var item = read()[find(read(), next.id)];
      if (!item || item.state !== "waiting") return Promise.resolve({ kind: "gone" });
      return send(item).then(function (outcome) { outcome.item = item; return outcome; });
    };
    var go = navigator.locks ? navigator.locks.request(LOCK, run) : run();
    go.then(function (outcome) {
      sending = null;
      var item = outcome.item;
      if (outcome.kind === "gone") { if (!followMine()) flush(); return; }
      if (outcome.kind === "offline") {
        offline = true;
        change(function (list) { var i = find(list, item.id); if (i >= 0) { list[i].waited = true; delete list[i].locked; } });
        if (item.page === PAGE) release();
        render();
        schedule();
        return;
      }
      offline = false;
      if (outcome.kind === "unlock") {
        // The hand stays queued, and is sent once this phone is back unlocked. It asks
        // once by itself; after that (the person chose to just watch) it waits to be asked.
        var asked = change(function (list) {
          var i = find(list, item.id);
          if (i < 0) return true;
          var before = list[i].asked;
          list[i].asked = true;
          list[i].locked = outcome.where;
          return before;
        });
        if (!asked) { leaving = true; window.location.href = outcome.where; return; }
        render();
        return;
      }
      var mine = item.page === PAGE && !!$("#hand-form");
      if (outcome.kind === "sent") {
        change(function (list) { var i = find(list, item.id); if (i >= 0) list.splice(i, 1); });
        if (item.waited) {
          var sent = read(SENT_KEY).filter(function (s) {
            return s.id !== item.id && Date.now() - s.sentAt < SHOW_SENT_MS;
          });
          sent.push({ id: item.id, label: item.label, sentAt: Date.now(), page: item.page,
                      where: outcome.where });
          write(sent, SENT_KEY);
        }
        if (mine) { leaving = true; window.location.assign(outcome.where); return; }
      } else if (mine) {
        // Refused while the person is on its form: show the server's answer, as a plain
        // form would have.
        change(function (list) { var i = find(list, item.id); if (i >= 0) list.splice(i, 1); });
        leaving = true;
        post(item);
        return;
      } else {
        change(function (list) {
          var i = find(list, item.id);
          if (i >= 0) { list[i].state = "refused"; list[i].reason = outcome.reason; }
        });
      }
      render();
      flush();
    });
  };

  /* ---- The hand form ---------------------------------------------------------------- */
  var form = $("#hand-form");
  var recording = !!form && /\/hands\/new\/?$/.test(new URL(form.action, window.location.href).pathname);
  var gameOf = function (url) {
    var match = /^(.*\/games\/\d+)\//.exec(new URL(url, window.location.href).pathname);
    return match ? match[1] : "";
  };
  var labelOf = function (number) {
    var h1 = form && ($(".game-head h1") || $("main h1"));
    var word = h1 ? h1.textContent.trim().replace(/\s*\d+\s*$/, "") : "Hand";
    return (word || "Hand") + " " + number;
  };

  if (recording) {
    var token = $("input[name=token]", form);
    var number = $("input[name=number]", form);
    // A saved copy's token was this form's when it was kept; a hand entered on the copy is
    // a new hand, so it gets a token of its own.
    if (savedCopy && token) token.value = newToken().slice(0, 22);
    // Hands of this game still waiting come first: this form is for the one after them.
    var game = gameOf(form.action);
    var waitingNumbers = read().filter(function (i) { return i.game === game; })
      .map(function (i) { return Number(i.number) || 0; });
    var last = Math.max.apply(null, [0].concat(waitingNumbers));
    if (number && last >= Number(number.value)) {
      var was = number.value;
      number.value = String(last + 1);
      [$(".game-head h1"), $("#save-hand")].forEach(function (el) {
        if (el) el.textContent = el.textContent.replace(new RegExp("\\b" + was + "\\s*$"), number.value);
      });
      // The preview and the notice of what other phones did are for this number too.
      [[form, "data-preview"], [$("[data-notice]", form), "data-notice"]].forEach(function (pair) {
        var value = pair[0] && pair[0].getAttribute(pair[1]);
        if (value) pair[0].setAttribute(pair[1], value.replace("/hands/" + was + "/", "/hands/" + number.value + "/"));
      });
    }
  }

  /* Let the form be saved again (app.js sends a form once): what is saved over a hand
     still waiting replaces it. */
  var release = function () {
    if (!form) return;
    delete form.dataset.sent;
    Array.prototype.forEach.call(form.querySelectorAll("[aria-busy]"), function (b) { b.removeAttribute("aria-busy"); });
  };

  /* Listened for last (on the window, as the event bubbles up), so a form another script
     stopped (app.js's once-only guard, a question asked first) is left alone. */
  window.addEventListener("submit", function (event) {
    if (!form || event.target !== form || event.defaultPrevented) return;
    if (!recording) {
      // A correction is not queued: with no connection it is not sent at all, and says so.
      if (navigator.onLine !== false) return;
      event.preventDefault();
      editNote = say("off_edit");
      release();
      render();
      return;
    }
    // With a connection the form is posted as it always is; the service worker (over
    // HTTPS) brings it back here if the post cannot get through after all.
    if (navigator.onLine !== false) return;
    event.preventDefault();
    var tokenField = $("input[name=token]", form);
    if (tokenField && !tokenField.value) tokenField.value = newToken().slice(0, 22);
    enqueue(form.action, new URLSearchParams(new FormData(form)).toString());
  });

  /* Queue a hand posted from this page's form (a new one, or the same one saved again). */
  var enqueue = function (url, body) {
    var fields = new URLSearchParams(body);
    var num = fields.get("number") || "";
    var tokenValue = fields.get("token") || "";
    change(function (list) {
      for (var i = 0; i < list.length; i++) {
        if (tokenValue && list[i].token === tokenValue) {
          // Saved again from the same form: what is waiting becomes what is there now.
          if (list[i].id !== sending) { list[i].body = body; list[i].state = "waiting"; list[i].page = PAGE; }
          return;
        }
      }
      list.push({ id: newToken(), url: url, body: body, game: gameOf(url), number: num,
                  label: labelOf(num), token: tokenValue, page: PAGE, state: "waiting",
                  at: Date.now(), waited: true });
    });
    render();
    flush();
  };

  /* A post the service worker could not get through: it came back here with the form's
     fields after the # (kept on the phone only, never sent). */
  var HASH = "#kc-hand=";
  if (window.location.hash.indexOf(HASH) === 0) {
    var carried = decodeURIComponent(window.location.hash.slice(HASH.length));
    history.replaceState(history.state, "", window.location.pathname + window.location.search);
    if (recording) {
      // The form shows the hand that waits (a set of keys takes its value by name).
      new URLSearchParams(carried).forEach(function (value, name) {
        var field = form.elements[name];
        if (field && name !== "csrf_token") field.value = value;
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }
    // Queued even where the form could not be shown (the offline page): it was posted here.
    enqueue(window.location.href, carried);
  }

  /* ---- When the connection comes and goes ---------------------------------------------- */
  window.addEventListener("online", function () { offline = false; render(); flush(); });
  window.addEventListener("offline", function () { offline = true; render(); });
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === SENT_KEY) {
      if (followMine()) return;
      render();
      flush();
    }
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { leaving = false; render(); flush(); }
  });

  /* A saved copy, or the offline page in place of a page: once the machine answers again,
     a page that does not keep itself up to date (nor holds a form being filled in) is
     opened afresh; the offline page opens the page it stood in for. */
  if ((savedCopy || inPlaceOf) && script && script.dataset.ping) {
    var pinging = false;
    var ping = function () {
      if (pinging || !(savedCopy || inPlaceOf)) return;
      pinging = true;
      fetch(script.dataset.ping, { cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) return;
          if (inPlaceOf) { inPlaceOf = false; window.location.reload(); return; }
          savedCopy = null;
          if (!$("#hand-form") && !$("[data-live-version]")) window.location.reload();
          else render();
        }, function () { /* still no connection */ })
        .then(function () { pinging = false; });
    };
    window.setInterval(ping, PING_MS);
    window.addEventListener("online", ping);
    if (inPlaceOf) ping();  // the connection may be back already: a moment's loss
  }

  render();
  flush();
})();
