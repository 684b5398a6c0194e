/* Live marks on a feuille de marque (free play, SPEC §13) while it is typed.
 *
 * The form's fields are sent, debounced, to the form's data-marks-url (GET, nothing saved); the server
 * answers with the core's marks for each row, the foot and the sum of the bilans
 * (`operations.freeplay.preview_sheet`), so the rules are written once, in the core. The page shows them in
 * the row's mark cells and the foot; saving stays the ordinary form POST, checked again by the server.
 * No library, no CDN. */
(function () {
  "use strict";
  var form = document.querySelector("form.free-sheet-form[data-marks-url]");
  if (!form || !window.fetch || !window.URLSearchParams) { return; }
  var url = form.getAttribute("data-marks-url");
  var timer = null;
  var asked = 0;

  function query() {
    var params = new URLSearchParams();
    var data = new FormData(form);
    data.forEach(function (value, name) {
      if (name !== "csrf_token") { params.append(name, value); }
    });
    return params.toString();
  }

  function show(answer) {
    var rows = answer.rows || [];
    form.querySelectorAll("tr.free-deal").forEach(function (tr) {
      var row = rows[Number(tr.getAttribute("data-row"))];
      var marks = row && row.marks;
      tr.querySelectorAll("td.live-mark").forEach(function (cell) {
        cell.textContent = marks ? (marks[cell.getAttribute("data-player")] || "") : "";
      });
    });
    form.querySelectorAll("[data-foot]").forEach(function (cell) {
      var foot = (answer.foot || {})[cell.getAttribute("data-player")];
      var text = foot ? foot[cell.getAttribute("data-foot")] : "";
      var target = cell.querySelector("strong") || cell;
      target.textContent = text;
    });
    var balance = form.querySelector(".live-balance");
    if (balance) { balance.textContent = "Somme des bilans : " + answer.balance; }
    var message = form.querySelector(".live-message");
    if (message) { message.textContent = answer.message ? " — " + answer.message : ""; }
    form.setAttribute("data-live", String(asked));
  }

  function refresh() {
    var mine = ++asked;
    fetch(url + "?" + query(), {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) { if (answer && mine === asked) { show(answer); } })
      .catch(function () { /* the server checks again when saving */ });
  }

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, 250);
  }

  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
