/* Progress of a print job (« Tout imprimer », big batches): polls the job's JSON status
   (data-status-url) every second, moves the progress bar, and reloads the page once the PDF is
   ready or the job failed, so that the server shows the download link or the error.
   Without JavaScript the page refreshes itself (<noscript> meta refresh). */
(function () {
  "use strict";
  var box = document.querySelector("[data-status-url]");
  if (!box) { return; }
  var url = box.getAttribute("data-status-url");
  var bar = box.querySelector("progress");
  var done = box.querySelector("[data-done]");
  var total = box.querySelector("[data-total]");

  function poll() {
    fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (status) {
        if (!status) { window.setTimeout(poll, 3000); return; }
        if (status.state !== "running") { window.location.reload(); return; }
        if (status.total) {
          bar.max = status.total;
          total.textContent = status.total;
        }
        bar.value = status.done;
        done.textContent = status.done;
        window.setTimeout(poll, 1000);
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }
  window.setTimeout(poll, 1000);
}());
