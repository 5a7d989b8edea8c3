/* Coronation: preview a deal's points, winner and victory class while it is tapped.
   The same scoring as rules/coronation.py preview_deal; the server decides on Save. */
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  var box = document.getElementById("deal-preview");
  if (!form || !box) return;
  var CORNERS = 4;
  var INPUTS = ["corner-0", "corner-1", "corner-2", "corner-3", "dragon"];
  var players = JSON.parse(box.dataset.players || "[]");
  var totals = JSON.parse(form.dataset.totals || "{}");
  var settings = JSON.parse(form.dataset.settings || "{}");
  var verdict = box.querySelector(".deal-verdict");

  var picked = function (name) {
    var radio = form.querySelector("input[name='" + name + "']:checked");
    return radio ? radio.value : null;
  };

  /* Absolute: 5-0; incredible: the winner has exactly 4; normal: any other win. */
  var victory = function (points, winner) {
    if (winner === null) return "draw";
    var others = 0;
    points.forEach(function (p, seat) { if (seat !== winner) others += p; });
    if (points[winner] === CORNERS + 1 && others === 0) return "absolute";
    if (points[winner] === CORNERS) return "incredible";
    return "normal";
  };

  var update = function () {
    var points = players.map(function () { return 0; });
    var tapped = 0;
    INPUTS.forEach(function (name) {
      var value = picked(name);
      if (value === null) return;
      tapped += 1;
      if (/^\d+$/.test(value) && +value < players.length) points[+value] += 1;
    });
    var best = Math.max.apply(null, points);
    var leaders = [];
    points.forEach(function (p, seat) { if (p === best) leaders.push(seat); });
    var winner = leaders.length === 1 ? leaders[0] : null;
    var kind = victory(points, winner);
    points.forEach(function (p, seat) {
      var side = box.querySelector(".side[data-seat='" + seat + "']");
      side.querySelector(".points").textContent = p;
      side.classList.toggle("ahead", seat === winner);
    });
    var done = tapped === INPUTS.length;
    var text;
    if (!tapped) text = "Tap who crowned each corner and who slew the dragon.";
    else if (winner === null) text = done ? "A draw: nobody wins this deal." : "Level so far.";
    else {
      var name = players[winner];
      text = name + (done ? " wins the deal" : " leads so far") +
        (done ? ": " + (kind === "normal" ? "a normal" : "an " + kind) + " victory" : "");
      var won = (totals[name] || 0) + 1;
      if (done && box.dataset.decides === "1" && won >= (settings.deals_to_win || 1)) {
        text += ", and the match!";
      } else if (done) text += ".";
    }
    verdict.textContent = text;
    box.dataset.victory = done ? kind : "";
  };

  box.hidden = false;
  form.addEventListener("change", update);
  update();
})();
