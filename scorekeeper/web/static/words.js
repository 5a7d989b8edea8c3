/* The words the app's scripts say, in the page's language: base.html puts them on the
   body (data-words, JSON, with {name} placeholders); a script asks for one by key, with
   its English as the fallback: KingsCorners.say("pass", "Pass", {n: 1}). Loaded first. */
(function () {
  "use strict";
  var words = null;
  window.KingsCorners = window.KingsCorners || {};
  window.KingsCorners.say = function (key, english, vars) {
    if (words === null) {
      try { words = JSON.parse(document.body.dataset.words) || {}; } catch (e) { words = {}; }
    }
    var text = words[key] || english;
    Object.keys(vars || {}).forEach(function (k) { text = text.split("{" + k + "}").join(vars[k]); });
    return text;
  };
})();
