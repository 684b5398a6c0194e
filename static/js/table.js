/* The table's phone page (SPEC §12, docs/table-phones.md): the North enters each étui, a defender (not the
 * North, not the taker) confirms it by choosing his seat and typing his personal code.
 *
 * Everything comes from the table API (GET /api/table/<secret>) and goes back to it. What is typed is kept
 * in localStorage (drafts, per étui) and every send goes through a queue kept there too: when the
 * connection is lost the queue waits and is sent again when the network is back (the "online" event, and a
 * retry every few seconds). The server's entry is idempotent (the same content is the same write), so a
 * send repeated after a lost answer never doubles a line. The score of facts is computed by the server
 * (one implementation: duplicate/core/scoring.py); this page only shows what it answers. A confirmation is
 * sent at once and never kept on the phone (it carries the defender's code): without network it is not
 * sent, and the defender confirms again once the network is back. The server decides what is shown: the
 * table's scores at the position in play only, the status elsewhere; no entry at a position not launched.
 * Own code, no library, no network but this site.
 */
(function () {
  "use strict";

  var app = document.getElementById("table-app");
  if (!app) { return; }
  var api = app.getAttribute("data-api");
  var storeKey = "tarot-table:" + app.getAttribute("data-secret");
  var content = document.getElementById("content");
  var banner = document.getElementById("connection");
  var SEATS = { N: "Nord", S: "Sud", E: "Est", W: "Ouest", NS: "Nord-Sud", EW: "Est-Ouest", attack: "Attaque",
    defence: "Défense" };
  var STATUS = { todo: "à jouer", pending: "en attente", done: "confirmé" };
  var CHELEMS = [["", "pas de chelem"], ["announced_made", "annoncé et réussi"],
    ["unannounced_made", "réussi sans annonce"], ["announced_failed", "annoncé et chuté"],
    ["defence", "par la défense"]];
  var POIGNEES = [["", "aucune"], ["simple", "simple"], ["double", "double"], ["triple", "triple"],
    ["simple,simple", "deux simples"]];
  var PETIT = [["", "non"], ["taker", "au preneur"], ["defence", "à la défense"]];
  var CONTRACTS = [["garde", "Garde"], ["garde_sans", "Garde Sans"], ["garde_contre", "Garde Contre"]];
  // offline: the last send or look failed for the network (or the browser says it is offline); only then does
  // a queued score say it leaves when the network is back — while a send is under way it says so (issue 29)
  var state = { position: null, messages: {}, others: {}, confirming: {}, offline: false };
  var flushing = false;

  // --- storage: drafts, queue, last view ---------------------------------------------------------------
  function load() {
    var data = null;
    try { data = JSON.parse(window.localStorage.getItem(storeKey)); } catch (e) { data = null; }
    data = data || {};
    data.queue = (data.queue || []).filter(function (item) { return item.type === "result"; });
    data.drafts = data.drafts || {};
    return data;
  }
  function save(data) {
    try { window.localStorage.setItem(storeKey, JSON.stringify(data)); } catch (e) { /* full: keep going */ }
  }

  // --- DOM helpers (text only: names are never read as HTML) -------------------------------------------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) { return; }
      if (name === "text") { node.textContent = value; } else { node.setAttribute(name, value === true ? "" : value); }
    });
    (children || []).forEach(function (child) {
      if (child) { node.appendChild(typeof child === "string" ? document.createTextNode(child) : child); }
    });
    return node;
  }
  function signed(score) {
    if (score === null || score === undefined) { return "—"; }
    return score > 0 ? "+" + score : (score < 0 ? "−" + (-score) : "0");
  }
  function options(select, pairs, chosen) {
    pairs.forEach(function (pair) {
      select.appendChild(el("option", { value: pair[0], selected: pair[0] === (chosen || "") }, [pair[1]]));
    });
    return select;
  }
  function offline(isOffline, waiting) {
    state.offline = isOffline;
    banner.hidden = !isOffline && !waiting;
    banner.className = "connection" + (isOffline ? " offline" : "");
    banner.textContent = isOffline
      ? "Pas de réseau : vos saisies sont gardées sur ce téléphone et partiront dès le retour du réseau."
      + (waiting ? " (" + waiting + " envoi" + (waiting > 1 ? "s" : "") + " en attente)" : "")
      : (waiting ? "Envoi en cours…" : "");
  }

  // --- the queue --------------------------------------------------------------------------------------
  function enqueue(item) {  // entries only: a confirmation carries a code and is never stored (sendConfirmation)
    var data = load();
    item.id = String(Date.now()) + Math.random().toString(16).slice(2);
    if (item.type === "result") {  // a newer entry of the same étui replaces one not sent yet
      data.queue = data.queue.filter(function (other) { return !(other.type === "result" && other.board === item.board); });
    }
    data.queue.push(item);
    save(data);
    flush();
  }

  function flush() {
    var data = load();
    if (flushing || !data.queue.length) { offline(false, 0); return; }
    flushing = true;
    var item = data.queue[0];
    var url = api + "/results";
    offline(false, data.queue.length);
    window.fetch(url, {
      method: "POST", credentials: "omit", cache: "no-store",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(item.body)
    }).then(function (response) {
      return response.json().then(function (body) { return { status: response.status, body: body }; },
        function () { return { status: response.status, body: {} }; });
    }).then(function (answer) {
      flushing = false;
      if (answer.status >= 500) { offline(true, load().queue.length); return; }  // busy: sent again later
      var data = load();
      data.queue = data.queue.filter(function (other) { return other.id !== item.id; });
      if (answer.status === 200 || answer.status === 202) {
        delete data.drafts[item.board];
        state.messages[item.board] = { kind: "ok", text: "Score " + signed(answer.body.score) + " enregistré : un défenseur le confirme." };
      } else {
        state.messages[item.board] = { kind: "error", text: answer.body.error || "Refusé (" + answer.status + ")." };
      }
      save(data);
      refresh();
      flush();
    }, function () {
      flushing = false;
      offline(true, load().queue.length);
      render();
    });
  }

  // --- the view ----------------------------------------------------------------------------------------
  var asked = { url: null, etag: null };  // the last view's address and version (issue 30)
  function refresh() {
    var url = api + (state.position ? "?position=" + state.position : "");
    var headers = { "Accept": "application/json" };
    if (asked.url === url && asked.etag) { headers["If-None-Match"] = asked.etag; }
    window.fetch(url, { credentials: "omit", cache: "no-store", headers: headers })
      .then(function (response) {
        if (response.status === 304) { return null; }  // nothing new: the view shown stands
        if (!response.ok) {
          return response.json().then(function (body) { throw new Error(body.error || "Erreur " + response.status); });
        }
        var etag = response.headers.get("ETag");
        return response.json().then(function (view) { asked = { url: url, etag: etag }; return view; });
      })
      .then(function (view) {
        var data = load();
        if (view) { data.view = view; save(data); }
        offline(false, data.queue.length);
        if (view) { render(); }
      }, function (error) {
        if (error && error.message && error.message.indexOf("Lien") === 0) {
          content.textContent = error.message;
          return;
        }
        offline(true, load().queue.length);
        render();
      });
  }

  function placeLabel(ident) {  // as french.place_label: ids stay W / EW in data, a French player reads O / EO
    var text = ident == null ? "" : String(ident);
    if (text.indexOf("EW") === 0) { return "EO" + text.slice(2); }
    if (/^W\d*$/.test(text)) { return "O" + text.slice(1); }
    return text;
  }

  function seatList(view) {  // as round the table: North at the top, South facing, East to the right
    var list = el("dl", { "class": "seats", "aria-label": "Qui est assis où" });
    ["N", "W", "E", "S", "NS", "EW", "attack", "defence"].forEach(function (seat) {
      var who = view.seats[seat];
      if (!who) { return; }
      list.appendChild(el("div", { "class": "seat seat-" + seat }, [
        el("dt", { text: SEATS[seat] || seat }),
        el("dd", {}, [el("span", { "class": "name", text: who.name }), " ", el("span", { "class": "ident", text: placeLabel(who.id) })])
      ]));
    });
    return list;
  }

  function field(label, control) {
    return el("label", { "class": "field" }, [el("span", { text: label }), control]);
  }

  function entryForm(view, board, draft) {
    var mode = draft.mode || "score";
    var form = el("form", { "class": "entry", "data-board": board.number, novalidate: true });
    var modes = el("div", { "class": "modes", role: "radiogroup", "aria-label": "Saisir" });
    [["score", "Le score"], ["facts", "Le détail de la donne"]].forEach(function (pair) {
      modes.appendChild(el("label", { "class": "mode" }, [
        el("input", { type: "radio", name: "mode", value: pair[0], checked: mode === pair[0] }), " " + pair[1]]));
    });
    form.appendChild(modes);
    if (board.attackers && board.attackers.length) {  // quadrettes: who of the quadrette took
      form.appendChild(field("Attaquant", options(el("select", { name: "attacker" }),
        [["", "—"]].concat(board.attackers), draft.attacker !== undefined ? draft.attacker : board.attacker)));
    }
    var scoreBox = el("div", { "class": "score-box", hidden: mode !== "score" }, [
      field("Score du preneur (avec son signe)", el("input", {
        name: "score", type: "text", inputmode: "text", autocomplete: "off", placeholder: "+56 ou −42",
        value: draft.score || "", "class": "score" }))
    ]);
    var facts = el("div", { "class": "facts", hidden: mode !== "facts" });
    if (view.kind === "team_match") {
      facts.appendChild(field("Contrat", options(el("select", { name: "contract" }), CONTRACTS, draft.contract || "garde")));
    }
    facts.appendChild(field("Points du preneur", el("input", {
      name: "points", type: "text", inputmode: "numeric", autocomplete: "off", value: draft.points || "" })));
    facts.appendChild(field("Bouts du preneur", options(el("select", { name: "bouts" }),
      [["", "—"], ["0", "0"], ["1", "1"], ["2", "2"], ["3", "3"]], draft.bouts)));
    facts.appendChild(field("Poignée", options(el("select", { name: "poignees" }), POIGNEES, draft.poignees)));
    facts.appendChild(field("Petit au bout", options(el("select", { name: "petit_au_bout" }), PETIT, draft.petit_au_bout)));
    facts.appendChild(field("Chelem", options(el("select", { name: "chelem" }), CHELEMS, draft.chelem)));
    form.appendChild(scoreBox);
    form.appendChild(facts);
    form.appendChild(el("button", { type: "submit", "class": "button primary" }, ["Enregistrer l’étui " + board.number]));
    form.addEventListener("input", function () { keepDraft(form, board.number); });
    form.addEventListener("change", function (event) {
      if (event.target.name === "mode") {
        scoreBox.hidden = event.target.value !== "score";
        facts.hidden = event.target.value !== "facts";
      }
      keepDraft(form, board.number);
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      keepDraft(form, board.number);
      send(board.number, formValues(form));
    });
    return form;
  }

  function formValues(form) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name) { return; }
      if (input.type === "radio") { if (input.checked) { values[input.name] = input.value; } return; }
      values[input.name] = input.value;
    });
    return values;
  }

  function keepDraft(form, number) {
    var data = load();
    data.drafts[number] = formValues(form);
    save(data);
  }

  function number(text) {
    var clean = String(text || "").replace(/\s/g, "").replace("−", "-").replace("–", "-");
    return /^[+-]?\d+$/.test(clean) ? parseInt(clean, 10) : text;
  }

  function send(boardNumber, values) {
    var body = { board: boardNumber };
    if (values.mode === "facts") {
      body.points = number(values.points);
      body.bouts = values.bouts === "" ? null : parseInt(values.bouts, 10);
      body.poignees = values.poignees ? values.poignees.split(",") : [];
      body.petit_au_bout = values.petit_au_bout || null;
      body.chelem = values.chelem || null;
      if (values.contract) { body.contract = values.contract; }
    } else {
      body.score = number(values.score);
    }
    if (values.attacker) { body.attacker = values.attacker; }
    delete state.messages[boardNumber];
    enqueue({ type: "result", board: boardNumber, body: body });
    render();
  }

  function sendConfirmation(board, seat, code) {
    state.messages[board.number] = { kind: "ok", text: "Confirmation en cours…" };
    render();
    window.fetch(api + "/results/" + board.number + "/confirm", {
      method: "POST", credentials: "omit", cache: "no-store",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify({ seat: seat, code: code })
    }).then(function (response) {
      return response.json().then(function (body) { return { status: response.status, body: body }; },
        function () { return { status: response.status, body: {} }; });
    }).then(function (answer) {
      if (answer.status === 200) {
        delete state.confirming[board.number];
        state.messages[board.number] = { kind: "ok", text: "Confirmé par " + SEATS[seat] + "." };
      } else {
        state.confirming[board.number].code = "";
        state.messages[board.number] = { kind: "error", text: answer.body.error || "Refusé (" + answer.status + ")." };
      }
      refresh();
    }, function () {
      state.messages[board.number] = { kind: "error",
        text: "Pas de réseau : la confirmation n’est pas partie. Recommencez quand le réseau revient." };
      offline(true, load().queue.length);
      render();
    });
  }

  function confirmBox(view, board) {
    if (view.locked) {
      return el("p", { "class": "message error locked", role: "alert",
        text: "Trop de codes refusés à cette table pour cette position : le téléphone ne confirme plus, appelez "
          + "l’arbitre, la fiche papier fait foi." });
    }
    var chosen = state.confirming[board.number] = state.confirming[board.number] || { seat: "", code: "" };
    var form = el("form", { "class": "confirm", "data-board": board.number, novalidate: true }, [
      el("p", { "class": "confirm-help", text: "Un défenseur (pas le Nord, qui a saisi) vérifie le score, touche sa "
        + "place et tape son code de confirmation (sur sa fiche individuelle de mouvement)." })]);
    var seats = el("div", { "class": "seat-buttons", role: "radiogroup", "aria-label": "Votre place" });
    board.confirm_seats.forEach(function (seat) {
      var who = view.seats[seat];
      seats.appendChild(el("label", { "class": "seat-choice" }, [
        el("input", { type: "radio", name: "seat", value: seat, "data-seat": seat, checked: chosen.seat === seat }),
        " " + SEATS[seat] + (who ? " — " + who.name : "")]));
    });
    form.appendChild(seats);
    form.appendChild(field("Code de confirmation", el("input", {
      name: "code", type: "text", inputmode: "numeric", autocomplete: "off", maxlength: "8", "class": "code",
      value: chosen.code })));
    form.appendChild(el("button", { type: "submit", "class": "button primary" }, ["Confirmer l’étui " + board.number]));
    form.addEventListener("input", function () { chosen.seat = formValues(form).seat || ""; chosen.code = form.elements.code.value; });
    form.addEventListener("change", function () { chosen.seat = formValues(form).seat || ""; });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      chosen.code = form.elements.code.value;
      if (!chosen.seat) {
        state.messages[board.number] = { kind: "error", text: "Touchez d’abord votre place." };
        render();
        return;
      }
      sendConfirmation(board, chosen.seat, chosen.code);
    });
    return form;
  }

  function othersBox(board) {
    var box = el("div", { "class": "others" });
    var shown = state.others[board.number];
    if (!shown) {
      var button = el("button", { type: "button", "class": "button" }, ["Scores des autres tables"]);
      button.addEventListener("click", function () {
        window.fetch(api + "/boards/" + board.number, { credentials: "omit", cache: "no-store" })
          .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
          .then(function (answer) {
            state.others[board.number] = answer.ok ? answer.body : { error: answer.body.error };
            render();
          }, function () { offline(true, load().queue.length); });
      });
      box.appendChild(button);
      return box;
    }
    if (shown.error) { box.appendChild(el("p", { "class": "message error", text: shown.error })); return box; }
    var list = el("ol", { "class": "other-scores" });
    shown.results.forEach(function (row) {
      list.appendChild(el("li", { "class": row.own ? "own" : "" }, [
        "Table " + row.table + " : ", el("strong", { text: row.annulled ? "donne annulée" : signed(row.score) }),
        row.own ? " (vous)" : ""]));
    });
    box.appendChild(list);
    return box;
  }

  function boardSection(view, board, data) {
    var queued = data.queue.filter(function (item) { return item.board === board.number; });
    var status = board.status;
    var waiting = queued.length && status !== "done";
    var section = el("section", { "class": "board status-" + status, id: "etui-" + board.number, "data-board": board.number });
    section.appendChild(el("h2", {}, ["Étui " + board.number + " ",
      el("span", { "class": "badge badge-" + (waiting ? "queued" : status), text: waiting ? "à envoyer" : STATUS[status] })]));
    section.appendChild(el("p", { "class": "taker" }, ["Preneur : ", el("strong", { text: SEATS[board.taker_seat] || board.taker_seat }),
      " — " + board.taker_name]));
    if (board.attack) {  // who attacks, worded by the server as on the route sheet: a triplette's member in his
      // badge's colour (« DUPONT Jean (Bleu) »), a team match's attacker and room (« DUPONT Jean, salle ouverte »)
      section.appendChild(el("p", { "class": "attack" }, ["Attaque : ", board.attack.colour
        ? el("span", { "class": "badge badge-" + board.attack.colour.toLowerCase(), text: board.attack.label })
        : el("strong", { text: board.attack.label })]));
    }
    if (board.score !== undefined && status !== "todo") {
      section.appendChild(el("p", { "class": "stored" }, [status === "done" ? "Score confirmé : " : "Score saisi : ",
        el("strong", { "class": "stored-score", text: signed(board.score) }), board.chelem ? " (chelem)" : ""]));
    } else if (status !== "todo") {
      section.appendChild(el("p", { "class": "stored hidden-score",
        text: "Score caché : une table ne voit ses scores que pendant la position en cours." }));
    }
    var message = state.messages[board.number];
    if (message) {
      section.appendChild(el("p", { "class": "message " + message.kind, role: message.kind === "error" ? "alert" : "status", text: message.text }));
    }
    if (queued.length) {
      var unsent = state.offline || navigator.onLine === false;
      section.appendChild(el("p", { "class": "queued", text: queued.map(function (item) {
        return "Score " + (item.body.score !== undefined ? signed(item.body.score) : "(détail de la donne)")
          + (unsent ? " à envoyer" : "");
      }).join(" ; ") + (unsent ? " : il partira dès que le réseau revient." : " : envoi en cours…") }));
    }
    if (!view.launched) { return section; }  // nothing is entered before the arbiter launches the position
    if (status === "pending" && !queued.length) { section.appendChild(confirmBox(view, board)); }
    if (status !== "done") {
      var form = entryForm(view, board, data.drafts[board.number] || {});
      if (status === "pending") {
        section.appendChild(el("details", { "class": "correct" }, [el("summary", { text: "Corriger (le Nord)" }), form]));
      } else {
        section.appendChild(el("p", { "class": "who", text: "Le Nord saisit l’étui une fois joué." }));
        section.appendChild(form);
      }
    } else if (view.others_visible) {
      section.appendChild(othersBox(board));
    }
    return section;
  }

  function render() {
    var data = load();
    var view = data.view;
    if (!view) { return; }
    var focused = document.activeElement && document.activeElement.name ? document.activeElement : null;
    var focusBoard = focused && focused.form ? focused.form.getAttribute("data-board") : null;
    var focusName = focused ? focused.name : null;
    content.textContent = "";
    var positions = el("select", { id: "position", "aria-label": "Position" });
    view.positions.forEach(function (p) {
      var when = p === view.in_play ? " — en cours" : (view.in_play === null || p > view.in_play ? " — pas lancée" : "");
      positions.appendChild(el("option", { value: String(p), selected: p === view.position }, [(view.position_noun || "Position") + " " + p + when]));
    });
    positions.addEventListener("change", function () { state.position = parseInt(positions.value, 10); refresh(); });
    content.appendChild(el("div", { "class": "position-bar" }, [positions]));
    content.appendChild(seatList(view));
    if (!view.launched) {
      content.appendChild(el("p", { "class": "message error not-launched", role: "status",
        text: "L’arbitre n’a pas encore lancé la position " + view.position + " : les étuis se saisissent une fois "
          + "la position lancée." }));
    }
    if (!view.boards.length) { content.appendChild(el("p", { text: "Pas d’étui à cette position." })); }
    view.boards.forEach(function (board) { content.appendChild(boardSection(view, board, data)); });
    if (focusBoard && focusName) {  // typing goes on where it was
      var again = content.querySelector("form[data-board='" + focusBoard + "'] [name='" + focusName + "']");
      if (again && again.type !== "radio") { again.focus(); }
    }
  }

  window.addEventListener("online", flush);
  window.addEventListener("offline", function () { offline(true, load().queue.length); });
  window.setInterval(function () { if (load().queue.length) { flush(); } }, 3000);
  // while the table waits for someone else — the arbiter's « Lancer la position », another phone's
  // confirmation, the next position once every étui is in — look again every few seconds (a « nothing
  // new » answer costs the server next to nothing); not while an étui is still to be typed here
  window.setInterval(function () {
    var view = load().view;
    if (!view || document.visibilityState === "hidden") { return; }
    var toType = view.boards.some(function (board) { return board.status === "todo"; });
    if (!view.launched || !toType) { refresh(); }
  }, 3000);
  render();
  refresh();
  flush();
}());
