/* Forms in the moment of use, progressive enhancement only (every page works without it):
   - a refused form opens at its first error (autofocus does it; this centres it, clear of
     the Save dock);
   - the round form folds "Who went out?" once tapped, so a 4-player hand fits one screen;
   - "Hand 3 saved · Undo" shows for 10 s after a save, then goes. */
(function () {
  "use strict";
  var say = window.KingsCorners.say;  // words.js: in the page's language
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var TOAST_MS = 10000;

  /* Who went out: once tapped, the row of names folds into a button under the heading,
     "Cy went out ✎", that opens it again. */
  var box = $("[data-went-out-box]");
  var chip = $("[data-out-chip]");
  if (box && chip) {
    var fold = function (folded) {
      var picked = $("input[name=went_out]:checked", box);
      folded = folded && !!picked;
      box.toggleAttribute("data-picked", folded);
      chip.hidden = !folded;
      if (!folded) return;
      var name = picked.closest("label").textContent.trim();
      chip.textContent = picked.value === "stalemate" ? say("stalemate_chip")
        : say("went_out_chip", { name: name });
      chip.setAttribute("aria-label", say("change_who", {
        said: picked.value === "stalemate" ? say("nobody_went_out")
          : say("went_out", { name: name }) }));
    };
    box.addEventListener("change", function (event) {
      if (event.target.name === "went_out") fold(true);
    });
    chip.addEventListener("click", function () {
      fold(false);
      var picked = $("input[name=went_out]:checked", box) || $("input[name=went_out]", box);
      if (picked) picked.focus();
    });
    // Opened with it tapped already (a correction, a refused save): folded, unless it is wrong.
    fold(!box.classList.contains("invalid"));
  }

  /* A refused save's message at a player's taps is stale once they change: the preview
     flags what is still impossible from then on. */
  $$(".hand-form .player.invalid").forEach(function (card) {
    card.addEventListener("change", function () {
      card.classList.remove("invalid");
      $$(".error", card).forEach(function (message) { message.remove(); });
    });
  });

  /* The first error: autofocus has focused it; put it in the middle of the screen (once
     the form has folded, so it stays there). */
  var first = $("[autofocus]");
  if (first && $("#error-summary")) {
    if (document.activeElement !== first) first.focus({ preventScroll: true });
    first.scrollIntoView({ block: "center" });
  }

  /* "Hand 3 saved · Undo": kept clear of page refreshes, gone after 10 s; also when it
     comes with a page refreshed in place (a hand saved with no connection, sent later). */
  var float = function () {
    $$("main [data-saved-toast]").forEach(function (toast) {
      $$("body > [data-saved-toast]").forEach(function (old) { old.remove(); });
      document.body.appendChild(toast);
      toast.classList.add("floating");
      window.setTimeout(function () {
        toast.classList.add("leaving");
        window.setTimeout(function () { toast.remove(); }, 400);
      }, TOAST_MS);
    });
  };
  float();
  document.addEventListener("kc:refreshed", float);
})();
