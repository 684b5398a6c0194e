/* The arbiter's live room (issues 13 and 30): asks salle.json every half second — sending back the ETag
   of its last answer, so that the server answers « 304, nothing new » at once — and repaints the grid —
   each cell's status and count, each étui's status, the late tables, the counts — and the countdown
   (countdown.js). A cell comes as one text (web/arbiter/live.py `_cell_text`): its status letter, a flag (L late,
   U upcoming, - neither), one letter per line in the page's order. No page reload; when the server cannot
   be reached the page says so and keeps asking. No dependency. */
(function () {
  "use strict";
  var LABELS = { done: "saisi", pending: "en attente", conflict: "conflit", missing: "manquant" };
  var LETTERS = { d: "done", p: "pending", c: "conflict", m: "missing" };
  var CLOCK = { idle: "pas lancé", running: "en cours", paused: "en pause", over: "temps écoulé" };

  function live(name) { return document.querySelector("[data-live='" + name + "']"); }
  function setText(element, text) { if (element && element.textContent !== text) { element.textContent = text; } }

  var clockElement = document.querySelector("[data-countdown]");
  function showButtons(state) {  // the clock may be run from another device: its buttons follow
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-states]"), function (button) {
      button.hidden = button.getAttribute("data-clock-states").split(" ").indexOf(state) < 0;
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-enabled]"), function (button) {
      button.disabled = state === "idle";
    });
  }

  var countdown = clockElement ? window.Countdown.attach(clockElement, function (state) {
    setText(live("clock-label"), CLOCK[state] || "");
    showButtons(state);
  }) : null;

  var grid = document.querySelector("table.live-grid");
  var url = grid ? grid.getAttribute("data-live-url") : null;
  var pollMs = grid ? Number(grid.getAttribute("data-poll-ms")) || 1000 : 0;
  var etag = null;  // the version of the last answer painted

  function setStatus(element, status) {
    ["done", "pending", "conflict", "missing"].forEach(function (name) {
      element.classList.toggle("status-" + name, name === status);
    });
  }

  function paintCell(key, text) {
    var td = grid.querySelector("td[data-cell='" + key + "']");
    if (!td) { return false; }
    var status = LETTERS[text.charAt(0)], upcoming = text.charAt(1) === "U", lines = text.slice(2);
    var chips = td.querySelectorAll("[data-line]");
    if (chips.length !== lines.length) { return false; }
    setStatus(td, status);
    td.classList.toggle("late", text.charAt(1) === "L");
    td.classList.toggle("upcoming", upcoming);
    setText(td.querySelector(".cell-status"), upcoming ? "à venir" : LABELS[status]);
    var missing = lines.split("m").length - 1;
    setText(td.querySelector(".cell-count"), (lines.length - missing) + "/" + lines.length);  // lines in
    Array.prototype.forEach.call(chips, function (chip, i) {
      var line = LETTERS[lines.charAt(i)];
      setStatus(chip, line);
      chip.title = "Étui " + chip.getAttribute("data-line").split("-")[0] + " : " + LABELS[line];
    });
    return true;
  }

  function paint(data) {
    var known = true;
    Object.keys(data.cells).forEach(function (key) { known = paintCell(key, data.cells[key]) && known; });
    if (!known) { window.location.reload(); return; }  // the movement changed: draw the grid again
    Array.prototype.forEach.call(grid.querySelectorAll("tbody tr[data-table]"), function (row) {
      row.classList.toggle("late", data.late_tables.indexOf(Number(row.getAttribute("data-table"))) >= 0);
    });
    Array.prototype.forEach.call(grid.querySelectorAll("thead th[data-position]"), function (th) {
      th.classList.toggle("in-play", Number(th.getAttribute("data-position")) === data.position);
    });
    Object.keys(data.counts).forEach(function (status) {
      setText(document.querySelector("[data-count='" + status + "']"), String(data.counts[status]));
    });
    var late = data.late_tables;
    setText(live("late"), late.length ? "En retard : table" + (late.length > 1 ? "s " : " ") + late.join(", ") + "." : "");
    setText(live("position"), data.position ? String(data.position) : "—");
    if (countdown) { countdown.update(data.clock); }
  }

  function poll() {
    var headers = { "Accept": "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304) { return null; }  // nothing new since the last answer
        if (!response.ok || (response.headers.get("Content-Type") || "").indexOf("json") < 0) { throw new Error(); }
        var version = response.headers.get("ETag");
        return response.json().then(function (data) { return { data: data, version: version }; });
      })
      .then(function (answer) {
        setText(live("connection"), "");
        if (answer) { paint(answer.data); etag = answer.version; }
      })
      .catch(function () { setText(live("connection"), "Serveur injoignable : nouvel essai dans quelques secondes."); })
      .then(function () { window.setTimeout(poll, pollMs); });
  }
  if (grid && url) { window.setTimeout(poll, pollMs); }
})();
