/* Progressive enhancement only: every page works without this file.
   What every page does: once-only forms, the new-game helpers, the round form's preview
   from the server, and keeping a game's pages in step with the other phones. */
(function () {
  "use strict";
  var say = window.KingsCorners.say;  // words.js: in the page's language
  document.documentElement.classList.add("js");
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };

  /* One submit per form: a double tap sends once (the server also ignores repeats).
     Listened for on the document, so forms put in by a refresh are covered too. */
  /* A form that asks first (data-confirm) asks in a dialog of the app's own: the question,
     the form's own button to go on, and Cancel. Without <dialog> the browser's box asks. */
  var askBox = null;
  var askFirst = function (form, question) {
    if (typeof HTMLDialogElement !== "function") return window.confirm(question);
    if (!askBox) {
      askBox = document.createElement("dialog");
      askBox.className = "ask";
      askBox.innerHTML = '<form method="dialog"><p class="ask-question"></p><div class="ask-keys">' +
        '<button class="button" value="no" type="submit"></button>' +
        '<button class="button primary" value="yes" type="submit"></button></div></form>';
      document.body.appendChild(askBox);
    }
    var go = $("button[type=submit]", form);
    $(".ask-question", askBox).textContent = question;
    $("button[value=no]", askBox).textContent = say("cancel");
    $("button[value=yes]", askBox).textContent = go ? go.textContent.trim() : "OK";
    $("button[value=yes]", askBox).classList.toggle("danger", !!(go && go.classList.contains("danger")));
    askBox.onclose = function () {
      if (askBox.returnValue !== "yes") return;
      form.dataset.confirmed = "1";
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    };
    askBox.returnValue = "";
    askBox.showModal();
    $("button[value=no]", askBox).focus();
    return false;
  };
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.method === "dialog") return;
    var ask = form.getAttribute("data-confirm");
    if (ask && !form.dataset.confirmed && !askFirst(form, ask)) { event.preventDefault(); return; }
    delete form.dataset.confirmed;
    if (form.dataset.sent) { event.preventDefault(); return; }
    /* Asked here (or an undo, quick on purpose): without JavaScript a page asks instead. */
    if (ask || form.hasAttribute("data-quick")) {
      var yes = $("input[name=confirmed]", form) || form.appendChild(document.createElement("input"));
      yes.type = "hidden"; yes.name = "confirmed"; yes.value = "1";
    }
    form.dataset.sent = "1";
    $$("button[type=submit]", form).forEach(function (b) { b.setAttribute("aria-busy", "true"); });
  });
  /* Coming back with the back button must not leave a form stuck as sent. */
  window.addEventListener("pageshow", function () {
    $$("form").forEach(function (f) { delete f.dataset.sent; });
  });

  /* Put the server's [data-slot] parts in place of the page's parts of the same name. */
  var place = function (html, scope) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    $$("[data-slot]", holder).forEach(function (fresh) {
      var slot = $('[data-slot="' + fresh.dataset.slot + '"]', scope);
      if (!slot) return;
      slot.innerHTML = fresh.innerHTML;
      Array.prototype.forEach.call(fresh.attributes, function (a) {
        if (a.name.indexOf("data-") === 0 && a.name !== "data-slot") slot.setAttribute(a.name, a.value);
      });
      slot.hidden = fresh.hidden;
    });
  };

  /* New game: roster chips fill seats; only the chosen variant's rules show. */
  var newGame = $("#new-game");
  if (newGame) {
    var seats = $$("input[name^=seat-]", newGame);
    var roster = $("[data-roster]", newGame);
    var syncChips = function () {
      var seated = seats.map(function (s) { return s.value.trim().toLowerCase(); });
      $$(".chip", newGame).forEach(function (chip) {
        chip.setAttribute("aria-pressed", seated.indexOf(chip.dataset.name.toLowerCase()) >= 0 ? "true" : "false");
      });
    };
    if (roster) {
      roster.hidden = false;
      roster.addEventListener("click", function (event) {
        var chip = event.target.closest(".chip");
        if (!chip) return;
        var name = chip.dataset.name;
        var taken = seats.filter(function (s) { return s.value.trim().toLowerCase() === name.toLowerCase(); });
        if (taken.length) { taken.forEach(function (s) { s.value = ""; }); }
        else {
          var free = seats.filter(function (s) { return !s.value.trim(); })[0];
          if (free) free.value = name;
        }
        syncChips();
      });
      seats.forEach(function (s) { s.addEventListener("input", syncChips); });
      syncChips();
    }
    var showVariant = function () {
      var chosen = $("input[name=variant]:checked", newGame);
      $$(".settings", newGame).forEach(function (box) {
        box.hidden = !chosen || box.dataset.variant !== chosen.value;
      });
    };
    $$("input[name=variant]", newGame).forEach(function (r) { r.addEventListener("change", showVariant); });
    showVariant();
    /* Say which games fit the players seated: a game may be for exactly two. */
    var showFit = function () {
      var seated = seats.filter(function (s) { return s.value.trim(); }).length;
      $$("[data-players]", newGame).forEach(function (option) {
        var range = option.dataset.players.split("-").map(Number);
        var line = $("[data-fit]", option);
        var exact = range[0] === range[1];
        var text = "";
        if (seated > range[1] || (seated >= 2 && seated < range[0])) {
          text = exact
            ? say("fit_exact",
                  { min: range[0], seated: seated })
            : say("fit_range",
                  { min: range[0], max: range[1], seated: seated });
        } else if (exact && seated === range[0]) {
          text = say("fits", { seated: seated });
        }
        $("b", line).textContent = text;
        line.hidden = !text;
      });
    };
    newGame.addEventListener("input", showFit);
    newGame.addEventListener("click", showFit);
    showFit();
  }

  /* Quick values and "other" boxes: typing in one clears the other. */
  $$(".taps .other input").forEach(function (box) {
    var group = box.closest(".taps");
    box.addEventListener("input", function () {
      if (box.value.trim()) $$("input[type=radio]", group).forEach(function (r) { r.checked = false; });
      group.dispatchEvent(new Event("change", { bubbles: true }));
    });
    $$("input[type=radio]", group).forEach(function (r) {
      r.addEventListener("change", function () { box.value = ""; });
    });
  });

  /* Round form: hide the one who went out; ask the server to preview what is tapped.
     The scoring lives on the server only: each change posts the form to the preview URL. */
  var hand = $("#hand-form");
  if (hand) {
    var outChanged = function () {
      var out = $("input[name=went_out]:checked", hand);
      $$(".player", hand).forEach(function (box) {
        var isOut = !!out && box.dataset.seat === out.value;
        box.toggleAttribute("data-out", isOut);
        if (isOut) {
          $$("input[type=radio]", box).forEach(function (r) { r.checked = r.value === "0" && r.name.indexOf("kings-") === 0; });
          $$(".other input", box).forEach(function (i) { i.value = ""; });
        }
      });
    };
    var asked = 0;
    var preview = function () {
      outChanged();
      if (!hand.dataset.preview || !window.fetch) return;
      var mine = ++asked;
      hand.setAttribute("data-previewing", "");
      fetch(hand.dataset.preview, { method: "POST", body: new FormData(hand), credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) { if (mine === asked) place(html, hand); })
        .catch(function () { /* no connection: the preview waits for the next tap */ })
        .then(function () { if (mine === asked) hand.removeAttribute("data-previewing"); });
    };
    hand.addEventListener("change", preview);
    hand.addEventListener("input", preview);
    preview();
  }

  /* Share a result: the picture handed to the phone's share sheet (Web Share with files)
     where the phone has one, else downloaded (the link's own download). The picture is
     fetched when the page shows it, so the tap itself shares at once, as Safari requires.
     While the server draws other phones' pictures it answers 503 with when to come back:
     the phone asks again then, a few times. */
  var shareFile = null;
  var SHARE_TRIES = 5;
  var readyShare = function (tries) {
    var link = $("a[data-share]");
    shareFile = null;
    if (!link || !navigator.canShare || !window.File || !window.fetch) return;
    tries = typeof tries === "number" ? tries : SHARE_TRIES;
    fetch(link.href, { credentials: "same-origin" })
      .then(function (r) {
        if (r.status === 503 && tries > 1) {
          var after = parseInt(r.headers.get("Retry-After"), 10);
          setTimeout(function () { readyShare(tries - 1); }, (after > 0 ? after : 2) * 1000);
        }
        return r.ok ? r.blob() : null;
      })
      .then(function (blob) {
        if (!blob) return;
        var file = new File([blob], link.getAttribute("download") || "result.png", { type: "image/png" });
        if (!navigator.canShare({ files: [file] })) return;
        shareFile = file;
        link.setAttribute("data-ready", "");  /* a tap now opens the share sheet */
      })
      .catch(function () { /* no connection: the link downloads it later */ });
  };
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-share]");
    if (!link || !shareFile) return;
    event.preventDefault();
    navigator.share({ files: [shareFile], text: link.dataset.shareText || "" })
      .catch(function () { /* closed without sharing */ });
  });
  document.addEventListener("kc:refreshed", function () { readyShare(); });
  readyShare();

  /* A page's part fetched into place (a player's charts, rivals and head-to-head): the page
     shows at once and the part follows as soon as it is drawn (offline: the copy the
     service worker kept). With no answer in PART_MS, or none at all, the slot keeps its
     link, which opens the part as a page of its own. */
  var PART_MS = 15000;
  if (window.fetch) {
    $$("[data-more]").forEach(function (slot) {
      var control = window.AbortController ? new AbortController() : null;
      var late = control && window.setTimeout(function () { control.abort(); }, PART_MS);
      var leave = function () { if (control) control.abort(); };  // WebKit: no error said
      window.addEventListener("pagehide", leave);
      slot.setAttribute("aria-busy", "true");
      fetch(slot.dataset.more, { credentials: "same-origin", headers: { "X-Fragment": "1" },
                                 signal: control ? control.signal : undefined })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) {
          if (!html) return;
          var focused = slot.contains(document.activeElement);
          place(html, document);
          var first = focused && $("h2", slot);
          if (first) {  // the link it was on gave way: on to what came in its place
            first.setAttribute("tabindex", "-1");
            first.focus();
          }
        })
        .catch(function () { /* no connection, or too slow: the link stays */ })
        .then(function () {
          window.clearTimeout(late);
          window.removeEventListener("pagehide", leave);
          slot.removeAttribute("aria-busy");
        });
    });
  }

  /* Why these points: a score tapped the first time asks for its hand's explanations (the
     row's data-why, the list alone: X-Fragment), one fetch for the whole row, and puts
     each player's sentence (data-name) in place of the link to it. Without an answer the
     link stays, and a note says the sentence could not be fetched; a later tap asks again.
     Listened for on the document (toggle does not bubble: caught on its way down), so a
     board put in by a refresh is covered too. */
  var tellWhy = function (row, html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    $$("li[data-name]", holder).forEach(function (line) {
      $$("details.why[data-name]", row).forEach(function (cell) {
        if (cell.dataset.name !== line.dataset.name) return;
        $(".why-text", cell).innerHTML = line.innerHTML;
        cell.dataset.told = "1";
      });
    });
  };
  document.addEventListener("toggle", function (event) {
    var cell = event.target;
    if (!window.fetch || !cell.open || !cell.matches || !cell.matches("details.why[data-name]") ||
        cell.dataset.told) return;
    var row = cell.closest("[data-why]");
    if (!row || row.dataset.asking) return;
    row.dataset.asking = "1";
    var text = $(".why-text", cell);
    text.setAttribute("aria-busy", "true");
    fetch(row.dataset.why, { credentials: "same-origin", headers: { "X-Fragment": "1" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) { tellWhy(row, html); })
      .catch(function () {
        if ($(".why-note", text)) return;
        var note = document.createElement("span");
        note.className = "why-note";
        note.setAttribute("role", "status");
        note.textContent = say("why_failed");
        text.appendChild(note);
      })
      .then(function () {
        delete row.dataset.asking;
        text.removeAttribute("aria-busy");
      });
  }, true);

  /* In step with the other phones: ask "anything new since version V?" (an empty 204 when
     nothing is) and, when the game moved on, refresh the page's content in place, or on a
     round form say what changed, without touching what is being typed. */
  var POLL_MS = 500;
  var watch = $("[data-live-version]");
  if (watch && window.fetch) {
    var version = watch.dataset.liveVersion;
    var asking = false;
    var busyHere = function () {
      var main = $("main");
      var focused = document.activeElement;
      return !!$("details[open]", main) || !!$("[data-live-panel] .pending", main) ||
        !!$("form[data-part][data-dirty]", main) ||  // a player's part half tapped
        (focused && main.contains(focused) && /^(INPUT|TEXTAREA|SELECT)$/.test(focused.tagName) &&
         !/^(radio|checkbox)$/.test(focused.type));  // a key tapped is not being typed in
    };
    /* Each refresh is numbered as it is asked for: a page asked for earlier never replaces
       one asked for later (two answers may come back in either order), and the poll does
       not ask while this phone's own refresh is on its way (it would wipe what that one
       adds: "Hand 3 saved from everyone's phones."). */
    var pageAsked = 0, pageShown = 0, ownOut = 0;
    var refreshPage = function (seen, own) {
      var ticket = ++pageAsked;
      if (own) ownOut += 1;
      return fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html || ticket < pageShown) return;
          var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
          if (!fresh) return;
          // Tapped on meanwhile (a part half entered): left alone, asked again next tick.
          if (!own && busyHere()) return;
          pageShown = ticket;
          $("main").innerHTML = fresh.innerHTML;
          watch = $("[data-live-version]") || watch;
          version = watch.dataset.liveVersion || seen;
          document.dispatchEvent(new CustomEvent("kc:refreshed"));
        })
        .then(function () { if (own) ownOut -= 1; },
              function (error) { if (own) ownOut -= 1; throw error; });
    };
    /* A hand saved from its form opens the scoreboard in place, without a new page load:
       the screen kept awake (the wake lock, or the little video on plain HTTP) stays on,
       with no tap needed after each save. Anything but "saved, here is the scoreboard" (a
       refusal, no connection, another answer) is sent again the ordinary way: the form's
       once-only token makes that safe. */
    var swapped = false;
    var sendHand = function (form) {  // a hand, or its undo
      var body = new URLSearchParams(new FormData(form)).toString();
      /* This phone's own change: the page it brings back is newer than any asked for
         before it, and no poll asks meanwhile (an older page would wipe "Hand 4 undone"). */
      var ticket = ++pageAsked;
      ownOut += 1;
      var out = true;
      var done = function () { if (out) { out = false; ownOut -= 1; } };
      var again = function () { done(); HTMLFormElement.prototype.submit.call(form); };
      var control = window.AbortController ? new AbortController() : null;
      if (control) window.setTimeout(function () { control.abort(); }, 15000);  // then again
      fetch(form.action, { method: "POST", body: body, credentials: "same-origin",
                           signal: control ? control.signal : undefined,
                           headers: { "Content-Type": "application/x-www-form-urlencoded" } })
        .then(function (r) {
          var there = new URL(r.url, window.location.href);
          var board = new URL(form.getAttribute("data-board") || "", window.location.href);
          if (!r.ok || !r.redirected || there.pathname !== board.pathname) throw new Error("not saved here");
          return r.text().then(function (html) { return [html, r.url]; });
        })
        .then(function (answer) {
          var doc = new DOMParser().parseFromString(answer[0], "text/html");
          var main = doc.querySelector("main");
          if (!main) throw new Error("no page");
          ["header.bar", "main", "footer.language"].forEach(function (sel) {
            var old = $("body > " + sel);
            if (old) old.remove();
          });
          var first = document.body.firstChild;
          ["header.bar", "main", "footer.language"].forEach(function (sel) {
            var part = doc.querySelector("body > " + sel);
            if (part) document.body.insertBefore(document.importNode(part, true), first);
          });
          document.body.className = doc.body.className;
          document.title = doc.title;
          $$("body > [data-saved-toast]").forEach(function (t) { t.remove(); });  // said
          if (answer[1] === window.location.href) window.history.replaceState({ kc: "board" }, "", answer[1]);
          else window.history.pushState({ kc: "board" }, "", answer[1]);
          swapped = true;
          pageShown = Math.max(pageShown, ticket);
          window.scrollTo(0, 0);
          watch = $("[data-live-version]") || watch;
          version = watch.dataset.liveVersion || version;
          document.dispatchEvent(new CustomEvent("kc:refreshed"));
          done();
        })
        .catch(again);
    };
    /* The hand form's Save, and Undo after a save: sent in place (data-board). */
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.hasAttribute || !form.hasAttribute("data-board")) return;
      if (event.defaultPrevented || !form.dataset.sent) return;
      if (navigator.onLine === false) return;  // offline.js keeps a hand on this phone
      event.preventDefault();
      sendHand(form);
    });
    /* A player's own part of the hand (a seated phone's keys): each tap is sent at once and
       the scoreboard refreshed in place. With no connection the part waits on this phone
       (the latest tap of each seat) and is sent once the connection is back; sending it
       twice changes nothing. */
    var PARTS = "kc-parts";
    var waitingParts = function () {
      try { return JSON.parse(window.localStorage.getItem(PARTS)) || {}; } catch (e) { return {}; }
    };
    var keepParts = function (all) {
      try {
        if (Object.keys(all).length) window.localStorage.setItem(PARTS, JSON.stringify(all));
        else window.localStorage.removeItem(PARTS);
      } catch (e) { /* private mode, or full: sent now or not at all */ }
    };
    var partSaid = function (form, text, bad) {
      var line = $("[data-part-said]", form);
      if (!line) {
        line = document.createElement("p");
        line.setAttribute("data-part-said", "");
        line.setAttribute("role", "alert");
        form.insertBefore(line, form.firstChild);
      }
      line.className = bad ? "error" : "flash";
      line.textContent = text;
    };
    /* What the machine said of a part. Refused before the view, the answer is a line of
       text (the passcode) or a page (an expired token): its heading, never its markup. */
    var answerOf = function (r) {
      var type = r.headers.get("Content-Type") || "";
      if (/json/.test(type)) return r.json();
      return r.text().then(function (text) {
        if (/^text\/plain/.test(type) && text.length < 200) return { message: text.trim() };
        var doc = new DOMParser().parseFromString(text, "text/html");
        var head = doc.querySelector("main h1");
        var what = head ? head.textContent.replace(/\s+/g, " ").trim() : "";
        return { message: (what && what.length < 80 ? what + ". " : "") + say("part_failed") };
      });
    };
    /* A part refused (its hand recorded meanwhile, a page expired, a count that cannot be):
       the hand as it is now (its keys, the scoreboard, a fresh token), then why. */
    var refused = function (text) {
      return refreshPage(version, true).catch(function () {}).then(function () {
        var form = $("form[data-part]");
        if (form) {
          partSaid(form, text, true);
          return;
        }
        var line = document.createElement("p");
        line.className = "error";
        line.setAttribute("role", "alert");
        line.setAttribute("data-part-said", "");
        line.textContent = text;
        $("main").insertBefore(line, $("main").firstChild);
      });
    };
    var sending = {};  // the parts on their way now, by action#seat
    var sendPart = function (action, body) {
      var key = action + "#" + new URLSearchParams(body).get("seat");
      sending[key] = (sending[key] || 0) + 1;
      var gone = function () { if (!--sending[key]) delete sending[key]; };
      return fetch(action, { method: "POST", body: body, credentials: "same-origin",
                             headers: { "Content-Type": "application/x-www-form-urlencoded",
                                        "X-Part": "1", "X-Live-Panel": "1" } })
        .then(function (r) { gone(); return r; }, function (error) { gone(); throw error; })
        .then(function (r) {
          var all = waitingParts();
          delete all[key];
          keepParts(all);
          return answerOf(r).then(function (answer) {
            if (document.activeElement) document.activeElement.blur();
            if (!r.ok) return refused(answer.message || say("part_failed"));
            return refreshPage(version, true).then(function () {  // this part: shown at once
              if (!answer.saved || !answer.message) return;
              var line = document.createElement("p");  // "Hand 3 saved from everyone's phones."
              line.className = "flash";
              line.setAttribute("role", "status");
              line.textContent = answer.message;
              $("main").insertBefore(line, $("main").firstChild);
            });
          });
        });
    };
    var sendMine = function (form, key) {  // key: the button tapped, if any
      var data = new URLSearchParams(new FormData(form));
      if (key && key.name) data.set(key.name, key.value);
      if (key && key.name === "cards") data.delete("cards_more");
      var body = data.toString();
      var all = waitingParts();
      all[form.action + "#" + data.get("seat")] = body;
      keepParts(all);
      sendPart(form.action, body).catch(function () {
        partSaid(form, say("part_waits"), false);
        delete form.dataset.sent;
      });
    };
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.hasAttribute || !form.hasAttribute("data-part")) return;
      event.preventDefault();
      sendMine(form, event.submitter);
    });
    /* Enter in the "11 or more" box sends that count alone: the browser would send the
       form's first button with it, "I went out". */
    document.addEventListener("keydown", function (event) {
      var box = event.target;
      if (event.key !== "Enter" || event.isComposing || box.name !== "cards_more" ||
          !box.form || !box.form.hasAttribute("data-part")) return;
      event.preventDefault();
      if (box.value.trim()) sendMine(box.form, null);
    });
    document.addEventListener("change", function (event) {
      var form = event.target.form;
      if (form && form.hasAttribute("data-part")) form.setAttribute("data-dirty", "");
    });
    /* Sent again once the connection is back: when the phone says so, and when the
       machine answers a poll (a phone on a weak signal may never have said it was off). */
    var sendWaitingParts = function () {
      var all = waitingParts();
      Object.keys(all).forEach(function (key) {
        if (sending[key]) return;
        sendPart(key.split("#")[0], all[key]).catch(function () {});
      });
    };
    window.addEventListener("online", sendWaitingParts);
    sendWaitingParts();
    /* "You deal hand 5": once, with a short buzz where the phone can. */
    var dealCue = function () {
      var cue = $("[data-my-deal]");
      if (!cue) return;
      var said = "kc-deal-" + cue.getAttribute("data-my-deal");
      try {
        if (window.sessionStorage.getItem(said)) return;
        window.sessionStorage.setItem(said, "1");
      } catch (e) { /* private mode: buzz anyway */ }
      if (navigator.vibrate) navigator.vibrate(200);
      cue.classList.add("new");
    };
    document.addEventListener("kc:refreshed", dealCue);
    dealCue();
    // The back button from the scoreboard opened in place: the page it names, afresh.
    window.addEventListener("popstate", function () { if (swapped) window.location.reload(); });
    var changed = function (seen) {
      if (watch.dataset.onChange === "notice") {
        version = seen;
        return fetch(watch.dataset.notice, { credentials: "same-origin", cache: "no-store" })
          .then(function (r) { return r.ok ? r.text() : ""; })
          .then(function (html) { place(html, hand || document); });
      }
      if (busyHere()) return Promise.resolve();  // asked again at the next tick
      return refreshPage(seen);
    };
    /* The game is over and another has started (a rematch, the next game of the night):
       a watch-only screen moves on to it by itself; a phone is offered it. */
    var followed = function (now) {
      if (watch.dataset.watching) {
        window.location.href = now.url + "?watch=1";
        return;
      }
      if ($("[data-next-game]")) return;
      var line = document.createElement("p");
      line.className = "flash next-game";
      line.setAttribute("role", "status");
      line.setAttribute("data-next-game", "");
      line.appendChild(document.createTextNode(say("next_game") + " "));
      var open = document.createElement("a");
      open.href = now.url;
      open.textContent = say("off_open");
      line.appendChild(open);
      var main = $("main");
      main.insertBefore(line, main.firstChild);
    };
    /* A question still on its way when the page is left is called off (WebKit otherwise
       reports the cut-short request as an error). */
    var inFlight = null;
    window.addEventListener("pagehide", function () { if (inFlight) inFlight.abort(); });
    /* A question unanswered after ASK_MS is called off and asked again: a connection that
       went quiet without failing would otherwise leave the phone behind for good. */
    var ASK_MS = 8000;
    var poll = function () {
      if (document.hidden || asking || ownOut) return;
      asking = true;
      var before = pageAsked;  // a refresh asked for meanwhile answers this question itself
      var control = window.AbortController ? new AbortController() : null;
      inFlight = control;
      var quiet = control && window.setTimeout(function () { control.abort(); }, ASK_MS);
      fetch(watch.dataset.url + "?since=" + encodeURIComponent(version),
            { credentials: "same-origin", cache: "no-store",
              signal: control ? control.signal : undefined })
        .then(function (r) {
          if (r.status === 404) { window.location.reload(); return null; }  // deleted meanwhile
          if (r.ok) sendWaitingParts();
          return r.status === 200 ? r.json() : null;
        })
        .then(function (now) {
          if (!now || pageAsked !== before) return;
          if (now.next) return followed(now);
          if (String(now.version) !== String(version)) return changed(String(now.version));
        })
        .catch(function () { /* no connection: ask again at the next tick */ })
        .then(function () { asking = false; window.clearTimeout(quiet); });
    };
    /* A change this phone made itself is not news to it; a bigger step was another phone's. */
    document.addEventListener("kc:seen", function (event) {
      if (Number(event.detail) === Number(version) + 1) version = String(event.detail);
    });
    window.setInterval(poll, POLL_MS);
    document.addEventListener("visibilitychange", poll);
    window.addEventListener("online", poll);
  }
})();
