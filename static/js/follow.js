/* The public results page follows the scoring (issue 30): every 2 s, while the page is in view, it asks
   version.json — sending back the ETag of its last answer, so that « nothing new » is a 304 that costs the
   server next to nothing — and, once the data are newer than the content shown (data-results-version),
   fetches the page again and puts its content in place: no reload, the reader stays where he was. The
   server may still be drawing the newest content (a kept view): the next poll asks again. No dependency. */
(function () {
  "use strict";
  var POLL_MS = 2000;
  var shown = document.querySelector("[data-results-version]");
  if (!shown || !window.fetch || !window.DOMParser) { return; }
  var url = shown.getAttribute("data-version-url");
  var etag = null, wanted = null;

  function version(element) { return Number(element.getAttribute("data-results-version")); }

  function follow() {
    var current = document.querySelector("[data-results-version]");
    if (wanted === null || !current || version(current) >= wanted) { return null; }
    return fetch(window.location.href, { headers: { "Accept": "text/html" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var fresh = html && new DOMParser().parseFromString(html, "text/html").querySelector("[data-results-version]");
        var now = document.querySelector("[data-results-version]");
        if (fresh && now && version(fresh) > version(now)) { now.parentNode.replaceChild(document.importNode(fresh, true), now); }
      });
  }

  function poll() {
    if (document.visibilityState === "hidden") { window.setTimeout(poll, POLL_MS); return; }
    var headers = { "Accept": "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { return null; }  // 304: nothing new since the last answer
        var tag = response.headers.get("ETag");
        return response.json().then(function (data) { etag = tag; wanted = data.version; });
      })
      .then(follow)
      .catch(function () { /* offline for now: the next poll will catch up */ })
      .then(function () { window.setTimeout(poll, POLL_MS); });
  }
  window.setTimeout(poll, POLL_MS);
})();
