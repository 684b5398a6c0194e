/* The hall's projector (issues 13 and 30): asks projecteur.json every second — sending back the ETag of
   its last answer: « 304, nothing new » costs the server next to nothing — and repaints the position, the
   countdown (countdown.js), the next move and the entry's progress; reloads itself when the results are
   published or withdrawn (the rankings are drawn by the server, only once published); once published,
   when the JSON names a newer ranking than the one shown (data-ranking), asks for the rankings again and
   puts them in place, on the page it was showing; turns the ranking pages. A lost connection changes
   nothing on screen: the countdown goes on from what it had. */
(function () {
  "use strict";
  var body = document.body;
  var url = body.getAttribute("data-url");
  var pollMs = Number(body.getAttribute("data-poll-ms")) || 1000;
  var rankingUrl = body.getAttribute("data-ranking-url");
  var etag = null;  // the version of the last answer painted
  var wanted = null;  // the newest ranking projecteur.json named
  var LABELS = { idle: "Position pas encore lancée", running: "", paused: "En pause", over: "Temps écoulé" };

  function live(name) { return document.querySelector("[data-live='" + name + "']"); }

  function setText(name, text) {
    var element = live(name);
    if (element && element.textContent !== text) { element.textContent = text; }
  }

  var clockElement = document.querySelector("[data-countdown]");
  var countdown = clockElement ? window.Countdown.attach(clockElement, function (state) {
    setText("clock-label", LABELS[state] || "");
  }) : null;

  var masculine = body.getAttribute("data-masculine") === "true";  // « 1er quart temps », « 1re position »
  function ordinal(n) { return n === 1 ? (masculine ? "1er" : "1re") : n + "e"; }

  function paintMove(data) {
    var section = document.querySelector(".p-move");
    var last = live("last");
    if (!section) { return; }
    var move = data.move;
    section.hidden = !move || !move.parts.length;
    if (last) { last.hidden = !data.position || !!move; }
    var list = live("parts");
    var parts = move ? move.parts : [];
    if (list.getAttribute("data-text") !== parts.join("|")) {
      list.setAttribute("data-text", parts.join("|"));
      while (list.firstChild) { list.removeChild(list.firstChild); }
      parts.forEach(function (part) {
        var item = document.createElement("li");
        item.textContent = part;
        list.appendChild(item);
      });
    }
    setText("relais", move ? move.relais : "");  // worded by the server (`operations.move_after`)
  }

  function paint(data) {
    var published = data.published ? "true" : "false";
    if (published !== body.getAttribute("data-published")) { window.location.reload(); return; }
    if (data.position && String(data.position) !== body.getAttribute("data-position")) {
      body.setAttribute("data-position", String(data.position));
      // the movement has just been chosen: draw the page again — unless it shows the rankings (published),
      // which a position launched leaves as they are
      if (!live("ordinal") && !data.published) { window.location.reload(); return; }
      setText("ordinal", ordinal(data.position));
      setText("of", "sur " + data.positions);
    }
    setText("progress", data.progress.lines ? "Fiches : " + data.progress.entered + " / " + data.progress.lines +
      " lignes saisies" : "");
    paintMove(data);
    if (countdown) { countdown.update(data.clock); }
  }

  // the rankings shown: asked for again while older than the newest one named (the server may still be
  // drawing it: the next poll asks again)
  function shownRanking() {
    var shown = document.querySelector(".p-rankings");
    return shown ? Number(shown.getAttribute("data-ranking")) : null;
  }

  function refreshRankings() {
    var shown = shownRanking();
    if (wanted === null || shown === null || shown >= wanted) { return Promise.resolve(); }
    return fetch(rankingUrl, { headers: { "Accept": "text/html" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var current = document.querySelector(".p-rankings");
        if (!html || !current) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector(".p-rankings");
        if (!fresh || Number(fresh.getAttribute("data-ranking")) <= shownRanking()) { return; }
        current.parentNode.replaceChild(document.importNode(fresh, true), current);
        rotate(shownPage);
      });
  }

  function poll() {
    var headers = { "Accept": "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(url, { headers: headers, cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { return null; }  // 304: nothing new since the last answer
        var version = response.headers.get("ETag");
        return response.json().then(function (data) { paint(data); etag = version; wanted = data.ranking; });
      })
      .then(refreshRankings)
      .catch(function () { /* offline for now: the countdown goes on, the next poll will catch up */ })
      .then(function () { window.setTimeout(poll, pollMs); });
  }
  window.setTimeout(poll, pollMs);

  // « Plein écran » (a browser enters full screen only on a click); hidden once full screen
  var full = document.querySelector("[data-fullscreen]");
  if (full && document.documentElement.requestFullscreen) {
    var follow = function () { full.hidden = !!document.fullscreenElement; };
    full.addEventListener("click", function () { document.documentElement.requestFullscreen().catch(function () {}); });
    document.addEventListener("fullscreenchange", follow);
    follow();
  }

  // the ranking pages, one at a time; drawn again (new rankings), the rotation goes on from the page shown
  var shownPage = 0, turning = null;
  function rotate(from) {
    var pages = Array.prototype.slice.call(document.querySelectorAll(".p-page"));
    if (turning) { window.clearInterval(turning); turning = null; }
    shownPage = pages.length ? from % pages.length : 0;
    pages.forEach(function (page, i) { page.hidden = i !== shownPage; });
    if (pages.length > 1) {
      var rotateMs = Number(document.querySelector(".p-rankings").getAttribute("data-rotate-ms")) || 10000;
      turning = window.setInterval(function () {
        pages[shownPage].hidden = true;
        shownPage = (shownPage + 1) % pages.length;
        pages[shownPage].hidden = false;
      }, rotateMs);
    }
  }
  rotate(0);
})();
