/* Progressive enhancement only: every page works without this file. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };

  /* One submit per form: a double tap sends once (the server also ignores repeats). */
  $$("form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var ask = form.getAttribute("data-confirm");
      if (ask && !window.confirm(ask)) { event.preventDefault(); return; }
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
      $$("button[type=submit]", form).forEach(function (b) { b.setAttribute("aria-busy", "true"); });
    });
  });
  /* Coming back with the back button must not leave a form stuck as sent. */
  window.addEventListener("pageshow", function () {
    $$("form").forEach(function (f) { delete f.dataset.sent; });
  });

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
    /* Say which games fit the players seated: coronation is for exactly two. */
    var showFit = function () {
      var seated = seats.filter(function (s) { return s.value.trim(); }).length;
      $$("[data-players]", newGame).forEach(function (option) {
        var range = option.dataset.players.split("-").map(Number);
        var line = $("[data-fit]", option);
        var exact = range[0] === range[1];
        var wants = exact ? "exactly " + range[0] : range[0] + " to " + range[1];
        var text = "";
        if (seated > range[1] || (seated >= 2 && seated < range[0])) {
          text = "⚠ For " + wants + " players; " + seated + " are seated";
        } else if (exact && seated === range[0]) {
          text = "✓ Fits your " + seated + " players";
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
     The scoring lives on the server only: each change posts the form to the preview URL,
     which answers with [data-slot] elements that replace the ones of the same name. */
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
    var place = function (html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      $$("[data-slot]", holder).forEach(function (fresh) {
        var slot = $('[data-slot="' + fresh.dataset.slot + '"]', hand);
        if (!slot) return;
        slot.innerHTML = fresh.innerHTML;
        Array.prototype.forEach.call(fresh.attributes, function (a) {
          if (a.name.indexOf("data-") === 0 && a.name !== "data-slot") slot.setAttribute(a.name, a.value);
        });
        slot.hidden = fresh.hidden;
      });
    };
    var preview = function () {
      outChanged();
      if (!hand.dataset.preview || !window.fetch) return;
      var mine = ++asked;
      hand.setAttribute("data-previewing", "");
      fetch(hand.dataset.preview, { method: "POST", body: new FormData(hand), credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) { if (mine === asked) place(html); })
        .catch(function () { /* no connection: the preview waits for the next tap */ })
        .then(function () { if (mine === asked) hand.removeAttribute("data-previewing"); });
    };
    hand.addEventListener("change", preview);
    hand.addEventListener("input", preview);
    preview();
  }
})();
