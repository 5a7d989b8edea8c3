/* Light or dark: as the phone is set (prefers-color-scheme), unless this phone chose one with
   the header's theme key, remembered in localStorage. Loaded in <head> without defer, so the
   choice is on <html> (data-theme) before the first paint: no flash of the other theme. */
(function () {
  "use strict";
  var KEY = "kings-corners:theme";
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: light)") : null;
  // The browser's bar above the page, in each theme (the page's background).
  var BAR = { light: "#f2f4f7", dark: "#11161d" };
  var ICON = { auto: "◐", light: "☀︎", dark: "☾" };

  var chosen = function () {
    try {
      var saved = window.localStorage.getItem(KEY);
      return saved === "light" || saved === "dark" ? saved : "auto";
    } catch (e) { return "auto"; }  // storage refused (private mode): follow the phone
  };
  var phone = function () { return system && system.matches ? "light" : "dark"; };
  var shown = function (choice) { return choice === "auto" ? phone() : choice; };

  var apply = function (choice) {
    if (choice === "auto") delete root.dataset.theme;
    else root.dataset.theme = choice;
    // Both theme-color metas (one per prefers-color-scheme) take the colour shown.
    var metas = document.querySelectorAll('meta[name="theme-color"]');
    for (var i = 0; i < metas.length; i++) {
      var m = metas[i];
      m.setAttribute("content", choice === "auto"
        ? BAR[m.getAttribute("media").indexOf("light") >= 0 ? "light" : "dark"] : BAR[choice]);
    }
  };

  /* One tap always changes what is shown first: from "as the phone is set" to the other
     theme, then to the phone's own, then back to following the phone. */
  var next = function (choice) {
    if (choice === "auto") return phone() === "dark" ? "light" : "dark";
    return choice === phone() ? "auto" : phone();
  };

  /* The words in the page's language: words.js (deferred) has run by DOMContentLoaded,
     when the key is first labelled. */
  var say = function (key, vars) {
    return window.KingsCorners.say(key, vars);
  };
  var named = function (theme) {
    return theme === "light" ? say("theme_light") : say("theme_dark");
  };

  var label = function (button, choice) {
    var then = next(choice);
    var text = choice === "auto"
      ? say("theme_auto",
            { shown: named(shown(choice)), next: named(then) })
      : then === "auto"
        ? say("theme_back",
              { chosen: named(choice) })
        : say("theme_chosen",
              { chosen: named(choice), next: named(then) });
    button.setAttribute("aria-label", text);
    button.title = text;
    button.dataset.choice = choice;
    button.querySelector("[data-theme-icon]").textContent = ICON[choice];
  };

  apply(chosen());

  var bind = function () {
    var button = document.querySelector("[data-theme-toggle]");
    if (!button || button.dataset.bound) return;
    button.dataset.bound = "1";
    label(button, chosen());
    button.hidden = false;
    button.addEventListener("click", function () {
      var choice = next(chosen());
      try {
        if (choice === "auto") window.localStorage.removeItem(KEY);
        else window.localStorage.setItem(KEY, choice);
      } catch (e) { /* not remembered; shown until the next page all the same */ }
      apply(choice);
      label(button, choice);
    });
  };
  // The phone switching (at dusk, say) changes a page that follows it, and its label.
  if (system && system.addEventListener) {
    system.addEventListener("change", function () {
      apply(chosen());
      var button = document.querySelector("[data-theme-toggle]");
      if (button) label(button, chosen());
    });
  }
  document.addEventListener("DOMContentLoaded", bind);
  // A page opened in place (a hand saved: app.js) brings a new key.
  document.addEventListener("kc:refreshed", bind);
}());
