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
  var label = toggle.querySelector("[data-awake-label]");
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
  var show = function (state) {
    toggle.dataset.state = state;
    toggle.setAttribute("aria-pressed", state === "off" ? "false" : "true");
    label.textContent = WORDS[state];
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
    if (lock) { lock.release(); lock = null; }
    if (video) video.pause();
    show("off");
  };

  toggle.hidden = false;
  toggle.addEventListener("click", function (event) {
    event.stopPropagation();
    var on = toggle.dataset.state !== "off";
    remember(!on);
    if (on) stop(); else start(true);
  });
  // A tap anywhere starts what needs one (the video), or asks again after a refusal.
  document.addEventListener("click", function (event) {
    if (toggle.contains(event.target)) return;  // the switch's own tap is its own
    if (wanted() && toggle.dataset.state !== "on") start(true);
  }, true);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wanted() && native) start();
  });
  show(wanted() ? "waiting" : "off");
  start(false);
})();
