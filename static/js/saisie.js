/* Fiche ambulante entry: each score checked by the server's rules as soon as it is typed (on change),
   and a ± button for touch screens (keyboards type the sign). No dependency; the form works without it. */
(function () {
  "use strict";
  var form = document.querySelector("form.scoring-form");
  if (!form) { return; }
  var url = form.getAttribute("data-check-url");

  function contractOf(input) {
    var row = input.closest("tr");
    var select = row && row.querySelector("select[name^='contract-']");
    return select ? select.value : "garde";
  }

  function chelemOf(input) {
    var row = input.closest("tr");
    var box = row && row.querySelector("input[name^='chelem-']");
    return box && box.checked ? "1" : "";
  }

  function check(input) {
    var message = input.parentNode.querySelector(".check-message");
    var value = input.value.trim();
    if (!value) { input.setCustomValidity(""); if (message) { message.textContent = ""; } return; }
    var query = "?score=" + encodeURIComponent(value) + "&contract=" + encodeURIComponent(contractOf(input)) +
      "&chelem=" + chelemOf(input);
    fetch(url + query, { headers: { "Accept": "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (input.value.trim() !== value) { return; }
        input.setAttribute("aria-invalid", data.ok ? "false" : "true");
        if (message) {
          message.textContent = data.ok ? (data.warning || "") : data.message;
          message.className = "check-message " + (data.ok ? (data.warning ? "warning" : "") : "errors");
        }
      })
      .catch(function () { /* the server checks again when the fiche is saved */ });
  }

  Array.prototype.forEach.call(form.querySelectorAll("input.score-input"), function (input) {
    input.addEventListener("change", function () { check(input); });
    var toggle = input.parentNode.querySelector("button.sign-toggle");
    if (toggle) {
      toggle.hidden = false;
      toggle.addEventListener("click", function () {
        var v = input.value.trim();
        if (v.charAt(0) === "-" || v.charAt(0) === "\u2212") { input.value = "+" + v.slice(1); }
        else if (v.charAt(0) === "+") { input.value = "-" + v.slice(1); }
        else { input.value = "-" + v; }
        input.focus();
        check(input);
      });
    }
  });
})();
