/* The countdown of the position in play (issue 13): every screen computes it from what the server stored —
   the moment time is up while it runs, the seconds left while paused — and from the server's clock
   (`now`), so that a projector or a phone whose own clock is wrong still shows the hall's time.
   Shared by the projector and the arbiter's live room. No dependency. */
(function () {
  "use strict";

  function format(seconds) {
    if (seconds === null || seconds === undefined || isNaN(seconds)) { return "—:——"; }
    var minutes = Math.floor(seconds / 60), rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function attach(element, onState) {
    var state = {
      state: element.getAttribute("data-state") || "idle",
      remaining: element.getAttribute("data-remaining") === "" ? null : Number(element.getAttribute("data-remaining")),
      ends_at: element.getAttribute("data-ends-at") || null,
      now: element.getAttribute("data-now") || null
    };
    var offset = 0;  // server time − this screen's time, in ms

    function current() {
      if ((state.state === "running" || state.state === "over") && state.ends_at) {
        var left = Math.ceil((Date.parse(state.ends_at) - (Date.now() + offset)) / 1000);
        return { state: left > 0 ? "running" : "over", remaining: Math.max(0, left) };
      }
      return { state: state.state, remaining: state.remaining };
    }

    var shown = null;
    function paint() {
      var now = current();
      var text = format(now.remaining);
      if (element.textContent !== text) { element.textContent = text; }
      if (shown !== now.state) {
        shown = now.state;
        element.setAttribute("data-state", now.state);
        if (onState) { onState(now.state); }
      }
    }

    function update(next) {
      state = next;
      if (next.now) { offset = Date.parse(next.now) - Date.now(); }
      paint();
    }

    if (state.now) { offset = Date.parse(state.now) - Date.now(); }
    paint();
    window.setInterval(paint, 250);
    return { update: update };
  }

  window.Countdown = { attach: attach, format: format };
})();
