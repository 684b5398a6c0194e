/* The arbiter's live room (issue 13): asks salle.json every few seconds and repaints the grid — each
   cell's status and count, each étui's status, the late tables, the counts — and the countdown
   (countdown.js). No page reload; when the server cannot be reached the page says so and keeps
   asking. No dependency. */
(function () {
  "use strict";
  var LABELS = { done: "saisi", pending: "en attente", conflict: "conflit", missing: "manquant" };
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
  var pollMs = grid ? Number(grid.getAttribute("data-poll-ms")) || 4000 : 0;

  function setStatus(element, status) {
    ["done", "pending", "conflict", "missing"].forEach(function (name) {
      element.classList.toggle("status-" + name, name === status);
    });
  }

  function paintCell(key, cell) {
    var td = grid.querySelector("td[data-cell='" + key + "']");
    if (!td) { return false; }
    setStatus(td, cell.status);
    td.classList.toggle("late", cell.late);
    td.classList.toggle("upcoming", cell.upcoming);
    setText(td.querySelector(".cell-status"), cell.upcoming ? "à venir" : LABELS[cell.status]);
    setText(td.querySelector(".cell-count"), (cell.total - cell.missing) + "/" + cell.total);  // lines in
    Object.keys(cell.lines).forEach(function (lineKey) {
      var chip = td.querySelector("[data-line='" + lineKey + "']");
      if (chip) {
        setStatus(chip, cell.lines[lineKey]);
        chip.title = "Étui " + lineKey.split("-")[0] + " : " + LABELS[cell.lines[lineKey]];
      }
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
    fetch(url, { headers: { "Accept": "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok || (response.headers.get("Content-Type") || "").indexOf("json") < 0) { throw new Error(); }
        return response.json();
      })
      .then(function (data) { setText(live("connection"), ""); paint(data); })
      .catch(function () { setText(live("connection"), "Serveur injoignable : nouvel essai dans quelques secondes."); })
      .then(function () { window.setTimeout(poll, pollMs); });
  }
  if (grid && url) { window.setTimeout(poll, pollMs); }
})();
