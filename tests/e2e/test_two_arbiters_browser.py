"""Two arbiters at once, in two browsers, on PostgreSQL (issue 31, point 3; SPEC §11: nothing is overwritten
without an explicit act).

Alice owns the tournament, Bruno is its co-arbiter. Both open the same player's form and change his name: the
later save is refused with the French 409 that shows what Alice saved and keeps what Bruno typed; Bruno's
second « Enregistrer », having seen it, replaces it. Then both press « Publier les résultats » at the same
moment, and send bursts of publish / time zone / tables' options at once: no request answers 500.
Screenshots at 390 and 1920 px go to the test's tmp dir.
"""

from __future__ import annotations

import pytest

from live import LiveServer, create_users, pg_schema, postgres_reachable
from screens import PASSWORD, create_tournament, shots, sign_in

BURST = """async ([tid, zone, rounds]) => {
  const token = document.querySelector("input[name=csrf_token]").value;
  const post = (path, fields) => fetch(path, {method: "POST", body: new URLSearchParams({csrf_token: token, ...fields})})
    .then(response => response.status, () => -1);
  const sent = [];
  for (let i = 0; i < rounds; i++) {
    sent.push(post(`/arbitre/tournois/${tid}/publication`, {publier: i % 2 ? "1" : "0"}));
    sent.push(post(`/arbitre/tournois/${tid}/fuseau`, {timezone: zone}));
    sent.push(post(`/arbitre/tournois/${tid}/tables`, i % 2 ? {position: "", results_visible: "y"} : {position: ""}));
  }
  window.burst = Promise.all(sent);
  return sent.length;
}"""


@pytest.fixture
def postgres_url():
    if not postgres_reachable():
        pytest.skip("PostgreSQL injoignable sur 127.0.0.1:5432")
    with pg_schema("two_arbiters") as url:
        yield url


def test_two_arbiters_edit_and_publish_at_once(postgres_url, new_page, tmp_path):
    create_users(postgres_url, ("alice", PASSWORD, "arbiter"), ("bruno", PASSWORD, "arbiter"))
    with LiveServer(postgres_url, tmp_path / "server.log") as server:
        base = server.url
        alice, bruno = new_page(), new_page()
        sign_in(alice, base, "alice")
        sign_in(bruno, base, "bruno")
        tid = create_tournament(alice, base, "Tournoi à deux arbitres", "individual", "2026-11-28", "Club")
        alice.goto(f"{base}/arbitre/tournois/{tid}/joueurs")
        alice.fill("#licence", "1234567")
        alice.fill("#surname", "LEROY")
        alice.fill("#first_name", "Paul")
        alice.fill("#club", "Les Excuses")
        alice.click("button:has-text('Inscrire')")
        alice.goto(f"{base}/arbitre/tournois/{tid}/acces")
        alice.fill("#grant-username", "bruno")
        alice.click("button:has-text('Donner l’accès')")
        assert "bruno a désormais accès au tournoi" in alice.inner_text("body"), alice.inner_text("main")

        # both open the same player's form
        alice.goto(f"{base}/arbitre/tournois/{tid}/changements")
        player_path = alice.locator("a:has-text('Modifier')").first.get_attribute("href")
        assert player_path and "/joueurs/" in player_path
        alice.goto(base + player_path)
        bruno.goto(base + player_path)
        assert bruno.input_value("#surname") == "LEROY"

        # both change the name; Alice saves first
        alice.fill("#surname", "DURAND")
        bruno.fill("#surname", "MARTIN")
        bruno.fill("#first_name", "Pierre")
        alice.click("button:has-text('Enregistrer')")
        assert "Joueur" in alice.inner_text("body") and "enregistré" in alice.inner_text("body")
        with bruno.expect_response(lambda response: response.request.method == "POST") as answer:
            bruno.click("button:has-text('Enregistrer')")
        assert answer.value.status == 409
        text = bruno.inner_text("main")
        assert "Un autre arbitre a enregistré ce formulaire pendant que vous le remplissiez" in text, text
        assert "Enregistré entre-temps par un autre arbitre : « DURAND »" in text
        assert "Vous avez tapé : « MARTIN »" in text
        assert bruno.input_value("#surname") == "MARTIN"  # his typing kept
        assert bruno.input_value("#first_name") == "Pierre"
        shots(bruno, tmp_path, "deux-arbitres-409-joueur")
        alice.goto(base + player_path)
        assert alice.input_value("#surname") == "DURAND"  # nothing overwritten
        assert alice.input_value("#first_name") == "Paul"

        # Bruno has seen Alice's name: his second « Enregistrer » is the explicit act that replaces it
        bruno.click("button:has-text('Enregistrer')")
        assert "enregistré" in bruno.inner_text("body")
        bruno.goto(base + player_path)
        assert (bruno.input_value("#surname"), bruno.input_value("#first_name")) == ("MARTIN", "Pierre")
        bruno.goto(f"{base}/arbitre/tournois/{tid}/journal")
        journal = bruno.inner_text("main")
        assert "DURAND" in journal and "MARTIN" in journal  # both changes journalled

        # both press « Publier les résultats » at the same moment
        for page in (alice, bruno):
            page.goto(f"{base}/arbitre/tournois/{tid}/")
        statuses = []
        for page in (alice, bruno):
            page.on("response", lambda response: statuses.append(response.status)
                    if response.request.method == "POST" else None)
        alice.click("button:has-text('Publier les résultats')", no_wait_after=True)
        bruno.click("button:has-text('Publier les résultats')", no_wait_after=True)
        for page in (alice, bruno):
            page.wait_for_load_state()
            page.wait_for_selector("text=Retirer la publication")
            assert "Erreur interne" not in page.inner_text("body")
        assert statuses and 500 not in statuses, statuses
        shots(alice, tmp_path, "deux-arbitres-publication")

        # bursts from both browsers at once: publish, time zone, tables' options
        counts = [alice.evaluate(BURST, [tid, "Europe/Paris", 10]), bruno.evaluate(BURST, [tid, "Indian/Reunion", 10])]
        answers = alice.evaluate("() => window.burst") + bruno.evaluate("() => window.burst")
        assert len(answers) == sum(counts) == 60
        assert set(answers) == {200}, sorted(answers)  # redirected to the dashboard or the tables: never a 500
        assert "StaleDataError" not in server.log() and "Traceback" not in server.log(), server.log()
        print("screenshots:", sorted(str(p) for p in tmp_path.glob("*.png")))
