/* Chip pot, progressive enhancement only: every tap also works as a plain form.
   - Live pot: taps are posted in the background, in order, from a queue kept in
     localStorage, so a reload or a dropped connection loses nothing; each tap carries
     a once-only token, so sending one twice records it once.
   - New game: the chosen set's value of each setting is marked. */
(function () {
  "use strict";
  var say = window.KingsCorners.say;  // words.js: in the page's language
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var RETRY_MS = 3000;
  var DEBOUNCE_MS = 450;  // a thumb's double tap on one key is one pass

  var newToken = function () {
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  };
  var taps_ = function (n) { return n === 1 ? say("tap", { n: n }) : say("taps", { n: n }); };

  /* ---- Live pot ---------------------------------------------------------------- */
  /* Started on a page with a live pot, or when a refresh brings one (a game reopened). */
  var started = false;
  var startLivePot = function () {
    var panel = $("[data-live-panel]");
    if (started || !panel || !window.fetch || !window.localStorage) return;
    started = true;
    var gameId = panel.dataset.game;
    var key = "kings-corners:chips-queue:" + gameId;
    var queue = [];
    try { queue = JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { queue = []; }
    var sending = false;
    var offline = false;
    var leaving = false;
    var lastTap = { key: "", at: 0 };

    var save = function () {
      try { localStorage.setItem(key, JSON.stringify(queue)); } catch (e) { /* private mode: memory only */ }
    };

    var status = function () {
      var box = $("[data-live-status]", panel);
      if (!box) return;
      var taps = queue.length;
      if (!taps) { box.textContent = ""; return; }
      box.textContent = offline
        ? say("taps_waiting", { taps: taps_(taps) })
        : say("taps_saving", { taps: taps_(taps) });
    };

    /* Show a tap not yet saved on top of what the server said. */
    var showOne = function (item) {
      if (item.undo || String(item.hand) !== panel.dataset.hand) return;
      var row = $('.live-player[data-seat="' + item.seat + '"]', panel);
      var stack = row && $("[data-stack]", row);
      var pot = $("[data-pot]", panel);
      if (!stack || !pot) return;
      // What the tap pays is put on its key by the server (data-pays); a stack shown
      // cannot go below nothing while taps wait.
      var have = parseInt(stack.textContent, 10);
      var paid = item.chips > have ? have : item.chips;
      stack.textContent = have - paid;
      var unit = $("[data-stack-unit]", row);
      if (unit) unit.textContent = have - paid === 1 ? (unit.dataset.one || "chip") : (unit.dataset.many || "chips");
      pot.textContent = parseInt(pot.textContent, 10) + paid;
      row.classList.add("pending");
      $(".pot", panel).classList.add("pending");
    };
    var showQueued = function () { queue.forEach(showOne); status(); };

    /* A tap refused because its hand had ended on another phone: the player stays on the
       hand they meant, its keys off, told why, until they choose to open the next one (a
       refresh of the page from another phone's save keeps them there too). */
    var held = null;
    var hold = function (why, next) {
      var holder = document.createElement("div");
      holder.innerHTML = serverHtml;
      var old = $("[data-live-panel]", holder);
      if (!old) return false;
      $$("form[data-live] button", old).forEach(function (b) { b.disabled = true; });
      var note = document.createElement("div");
      note.className = "live-held";
      note.setAttribute("role", "alert");
      var said = document.createElement("p");
      said.textContent = why;
      var open = document.createElement("button");
      open.type = "button";
      open.className = "button primary";
      open.setAttribute("data-open-next", "");
      open.textContent = say("open_hand", { n: next });
      open.addEventListener("click", function () { held = null; window.location.reload(); });
      note.appendChild(said);
      note.appendChild(open);
      old.insertBefore(note, $(".live-players", old));
      held = old;
      return true;
    };
    var showHeld = function () {
      var shown = $("[data-live-panel]");
      if (!held || !shown) return;
      shown.parentNode.replaceChild(held, shown);
      panel = held;
    };

    /* Put the server's panel in place (the hand's truth), then the taps still queued. */
    var serverHtml = panel.outerHTML;
    var swap = function (html, refused) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      var fresh = $("[data-live-panel]", holder);
      if (!fresh || fresh.dataset.hand !== panel.dataset.hand) {
        var why = refused && fresh && $(".error[role=alert]", fresh);
        if (why && hold(why.textContent, fresh.dataset.hand)) {
          queue = queue.filter(function (item) { return item.hand !== panel.dataset.hand; });
          save();
          showHeld();
          return;
        }
        // The hand was saved or the game ended (perhaps on another phone): show it all.
        if (!queue.length) window.location.reload();
        return;
      }
      serverHtml = html;
      panel.parentNode.replaceChild(fresh, panel);
      panel = fresh;
      // This phone's own tap is not news to the page's watch for other phones' changes.
      document.dispatchEvent(new CustomEvent("kc:seen", { detail: fresh.dataset.gameVersion }));
      showQueued();
    };

    var flush = function () {
      if (sending || !queue.length) { status(); return; }
      sending = true;
      var item = queue[0];
      fetch(item.url, {
        method: "POST", body: item.body, credentials: "same-origin",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Live-Panel": "1" }
      }).then(function (response) {
        if (response.status >= 502 && response.status <= 504) throw new Error("gateway");
        var unlock = response.status === 403 && response.headers.get("X-Unlock");
        if (unlock) {
          // The table has a passcode this phone has not given: the tap stays queued and is
          // sent once the phone is unlocked and back on this page.
          leaving = true;
          window.location.href = unlock;
          throw new Error("locked");
        }
        return response.text().then(function (html) { return [html, response.status === 422]; });
      }).then(function (answer) {
        queue.shift();
        save();
        sending = false;
        offline = false;
        swap(answer[0], answer[1]);
        flush();
      }).catch(function () {
        sending = false;
        if (leaving) return;
        offline = true;
        status();
        window.setTimeout(flush, RETRY_MS);
      });
    };

    document.addEventListener("submit", function (event) {
      var form = event.target.closest && event.target.closest("form[data-live]");
      if (!form || !panel.contains(form)) return;
      event.preventDefault();
      event.stopPropagation();  // not app.js's once-only guard: every tap here counts
      var undo = form.hasAttribute("data-undo");
      if (undo) {
        var waiting = queue.length - (sending ? 1 : 0);
        if (waiting > 0 && !queue[queue.length - 1].undo) {
          queue.pop();  // not sent yet: take it back here
          save();
          swap(serverHtml);
          return;
        }
      }
      var tapKey = undo ? "undo" : $("input[name=player]", form).value + form.dataset.kind;
      var now = Date.now();
      if (lastTap.key === tapKey && now - lastTap.at < DEBOUNCE_MS) return;
      lastTap = { key: tapKey, at: now };
      // A token of its own for every tap: resending this one records it once, the next
      // tap on the same key is a new event.
      var token = $("input[name=token]", form);
      if (token) token.value = newToken();
      var item = { url: form.action, body: new URLSearchParams(new FormData(form)).toString(),
                   hand: panel.dataset.hand, undo: undo };
      if (undo && queue.length) {
        // Behind taps still on their way, the event to undo is theirs, not the one shown.
        item.body = item.body.replace(/(^|&)event=\d*/, "$1event=");
      }
      if (!undo) {
        var button = $("button", form);
        item.seat = $("input[name=player]", form).value;
        item.chips = parseInt(button.dataset.pays, 10) || 0;
        button.classList.add("hit");
        window.setTimeout(function () { button.classList.remove("hit"); }, 180);
        if (navigator.vibrate) navigator.vibrate(15);
      }
      queue.push(item);
      save();
      showOne(item);
      status();
      flush();
    }, true);

    /* Another phone tapped or saved: app.js refreshed the page; take the new panel. */
    document.addEventListener("kc:refreshed", function () {
      if (held) { showHeld(); return; }
      var fresh = $("[data-live-panel]");
      if (!fresh) return;
      panel = fresh;
      serverHtml = panel.outerHTML;
      showQueued();
    });
    window.addEventListener("online", function () { offline = false; flush(); });
    showQueued();
    flush();
  };
  startLivePot();
  document.addEventListener("kc:refreshed", startLivePot);

  /* ---- New game: mark the chosen set's value of each chips setting ----------------- */
  var chipsRules = $('.settings[data-variant="chips"]');
  if (chipsRules) {
    var mark = function () {
      var chosen = $("input[name=rules-chips-preset]:checked", chipsRules);
      var preset = chosen ? chosen.value : "house";
      $$(".preset-values", chipsRules).forEach(function (el) {
        var setting = el.closest(".setting");
        $$(".preset-value", el).forEach(function (v) {
          var on = v.dataset.preset === preset;
          v.classList.toggle("on", on);
          if (on) $$("input[type=text]:not([name$=\"-other\"])", setting).forEach(function (input) { input.placeholder = v.dataset.value; });
        });
      });
    };
    chipsRules.addEventListener("change", mark);
    mark();
  }
})();
