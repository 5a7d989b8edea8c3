/* Keep the screen on during a game, on pages with a [data-awake] switch.
   - Where the page is a secure context (HTTPS, or this machine): the Screen Wake Lock API,
     asked again whenever the page comes back into view.
   - Elsewhere (plain HTTP on the LAN, where that API does not exist): the NoSleep approach,
     a tiny silent video looping, started by the first tap (browsers only play on a tap).
   The switch shows the state and turns it off or on; the choice is kept on this phone. */
(function () {
  "use strict";
  var toggle = document.querySelector("[data-awake]");
  if (!toggle) return;
  var KEY = "kings-corners:awake";
  var native = window.isSecureContext && "wakeLock" in navigator;
  var lock = null;
  var video = null;
  // The switch's words come in the page's language (templates/_awake.html).
  var WORDS = { on: toggle.dataset.wordOn || "Screen stays on",
                off: toggle.dataset.wordOff || "Screen may sleep",
                waiting: toggle.dataset.wordWaiting || "Screen stays on from your next tap" };

  var wanted = function () {
    try { return localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  };
  var remember = function (on) {
    try { if (on) localStorage.removeItem(KEY); else localStorage.setItem(KEY, "off"); } catch (e) { /* private mode */ }
  };
  var state = "waiting";
  var show = function (now) {
    state = now;
    toggle.dataset.state = now;
    toggle.setAttribute("aria-pressed", now === "off" ? "false" : "true");
    toggle.querySelector("[data-awake-label]").textContent = WORDS[now];
  };

  var video_ = function () {
    if (video) return video;
    video = document.createElement("video");
    video.muted = true;
    video.setAttribute("muted", "");
    video.setAttribute("playsinline", "");
    video.setAttribute("loop", "");
    [["webm", toggle.dataset.webm], ["mp4", toggle.dataset.mp4]].forEach(function (pair) {
      var source = document.createElement("source");
      source.type = "video/" + pair[0];
      source.src = pair[1];
      video.appendChild(source);
    });
    // Stopped by the browser (not by the switch): say so, and a tap starts it again.
    video.addEventListener("pause", function () { if (state === "on") show("waiting"); });
    return video;
  };

  var start = function (tapped) {
    if (!wanted()) { show("off"); return; }
    if (native) {
      if (lock) { show("on"); return; }
      navigator.wakeLock.request("screen").then(function (held) {
        lock = held;
        show("on");
        held.addEventListener("release", function () {
          lock = null;
          if (wanted()) show("waiting");  // hidden, or taken back: asked again on return
        });
      }, function () { show("waiting"); });
      return;
    }
    // As NoSleep does: the video is started by a tap, the only start every browser honours.
    if (!tapped) { show("waiting"); return; }
    var playing = video_().play();
    if (playing && playing.then) {
      playing.then(function () { show("on"); }, function () { show("waiting"); });
    } else {
      show("on");
    }
  };

  var stop = function () {
    show("off");
    if (lock) { lock.release(); lock = null; }
    if (video) video.pause();
  };

  toggle.hidden = false;
  // The switch's tap is its own; a tap anywhere else starts what needs one (the video), or
  // asks again after a refusal. Listened for on the document: a page refreshed in place
  // brings a new switch.
  document.addEventListener("click", function (event) {
    if (toggle.contains(event.target)) {
      var on = state !== "off";
      remember(!on);
      if (on) stop(); else start(true);
      return;
    }
    if (wanted() && state !== "on") start(true);
  }, true);
  // Another phone's save refreshed the page in place (app.js): the lock or the video goes
  // on as it was; the new switch shows it.
  document.addEventListener("kc:refreshed", function () {
    var fresh = document.querySelector("[data-awake]");
    if (!fresh) return;
    toggle = fresh;
    toggle.hidden = false;
    show(state);
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wanted() && native) start();
  });
  show(wanted() ? "waiting" : "off");
  start(false);
})();
