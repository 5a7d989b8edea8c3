/* The words the app's scripts say, in the page's language: base.html puts them on the
   body (data-words, JSON, with {name} placeholders), from one list (js_words in
   scorekeeper/web/i18n.py); a script asks for one by key: KingsCorners.say("taps",
   {n: 2}). Loaded first. */
(function () {
  "use strict";
  var words = null;
  window.KingsCorners = window.KingsCorners || {};
  window.KingsCorners.say = function (key, vars) {
    if (words === null) {
      try { words = JSON.parse(document.body.dataset.words) || {}; } catch (e) { words = {}; }
    }
    var text = words[key] || key;
    Object.keys(vars || {}).forEach(function (k) { text = text.split("{" + k + "}").join(vars[k]); });
    return text;
  };
})();
