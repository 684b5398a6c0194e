"""Issue 31: the hostile corpus over the table API and every POST form of the application, in process (the
test client, no live server), on one SQLite database per test — the route walk (`test_routes`) and the
fuzz (`test_fuzz`) cover PostgreSQL.

* The table API and the table pages, duplicate and free play: hostile secrets (« ² », Arabic-Indic digits,
  non-ASCII characters, a valid secret cut or lengthened, random text) on every address that takes one,
  GET and POST; hostile bodies on the real link of a table whose position is in play (``"contract": []``,
  ``"points": "٣٣"``, 30,000 nested ``[``, objects of every shape, not JSON at all).
* Every POST form of the `url_map`, as an anonymous visitor, a scorer and an arbiter: the fields the form's
  own page names (and a pool of every field name of the arbiter's pages), with hostile values.

Each request answers below 500, a JSON error (in French) on the API; the database stays sound. Every
request is counted in the corpus (`corpus`). Derandomised; ``HYPOTHESIS_EXPLORE=1`` searches afresh."""

from __future__ import annotations

import json
import os
import re
import threading
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlmodel import Session, select

from corpus import record
from factories import demo_tournament
from hostile_data import PASSWORD, integrity

from duplicate import db, operations
from duplicate.core.scoring import Contract, reachable_scores
from duplicate.models import TournamentAccess, User
from duplicate.printing import pack

EXPLORE = bool(os.environ.get("HYPOTHESIS_EXPLORE"))
ALLOWED = sorted(s for s, theoretical in reachable_scores(Contract.GARDE).items() if not theoretical and -150 <= s <= 200)


def corpus(examples: int):
    return settings(max_examples=examples * (4 if EXPLORE else 1), deadline=None, derandomize=not EXPLORE,
                    database=None, suppress_health_check=list(HealthCheck))


ODD = ["²", "٣", "١٢", "é", "\u00a0", " ", ".", "..", "%", "\u202e", "😀", "x" * 300, "9" * 12, "0", "-1", "+1",
       "\ufeff", "\r\n", "\t", "<b>", "'", '"', "\\", "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace")]
text = st.one_of(st.text(max_size=12), st.sampled_from(ODD + ["", "N", "S", "E", "W", "1234", "garde", "simple"]))
number = st.one_of(st.integers(-5, 120), st.sampled_from([2**31, 2**63, -(2**63) - 1, 10**30, 1e308, -0.0, 0.5,
                                                          float("nan"), float("inf"), True, False]))
scalar = st.one_of(st.none(), number, text, st.sampled_from(["٣٣", "²", "−42", "+56", "56", "1e3", "0x10"]))
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(text, inner, max_size=3)), max_leaves=5)
#: The fields a table sends, each present or not, plausible or hostile.
TABLE_FIELDS = {
    "board": st.integers(0, 12), "score": st.sampled_from(ALLOWED),
    "contract": st.sampled_from(["garde", "garde_sans", "garde_contre", "prise"]), "points": st.integers(0, 91),
    "bouts": st.integers(0, 3), "poignees": st.lists(st.sampled_from(["simple", "double", "triple"]), max_size=2),
    "petit_au_bout": st.sampled_from(["taker", "defence"]),
    "chelem": st.sampled_from([True, False, "announced_made", "defence"]), "attacker": st.sampled_from(["N1", "S2"]),
    "seat": st.sampled_from(["N", "S", "E", "W"]), "code": st.from_regex(r"[0-9]{4}", fullmatch=True),
}
table_body = st.fixed_dictionaries({}, optional={name: st.one_of(plausible, plausible, value)
                                                 for name, plausible in TABLE_FIELDS.items()})
RAW_BODIES = ["[" * 30_000 + "]" * 30_000, "{" * 5000, '{"board": 1, "contract": []}', '{"board": 1, "points": "٣٣"}',
              '{"board": 1e999}', '{"board": NaN}', '{"score": "\\ud800"}', "", "null", "nul", "\xff", "[1,]",
              '{"board": 1' + "0" * 5000 + "}"]
#: What a table in play really sends: some are stored (pending), a different score then conflicts (409).
plausible_body = st.fixed_dictionaries({"board": st.integers(1, 4), "score": st.sampled_from(ALLOWED)},
                                       optional={"chelem": st.booleans(), "contract": st.just("garde")})
body = st.one_of(plausible_body, table_body, table_body, value, st.sampled_from(RAW_BODIES))


def _mangled(secret: str):
    """Secrets near the real one (a character put in, a part replaced, cut, lengthened) or anything."""
    parts = secret.split(".")
    near = st.tuples(st.integers(0, len(secret)), st.integers(0, 3), st.sampled_from(ODD)).map(
        lambda edit: secret[:edit[0]] + edit[2] + secret[edit[0] + edit[1]:])
    swapped = st.tuples(st.integers(0, 2), st.sampled_from(ODD)).map(
        lambda edit: ".".join(edit[1] if i == edit[0] else part for i, part in enumerate(parts)))
    return st.one_of(near, swapped, st.just(secret), st.just(secret[:-1]), st.just(secret + "A"),
                     st.text(min_size=1, max_size=40))


def _tally(family: str, response, api: bool) -> None:
    """Below 500, no traceback; a French JSON error under the API, a French page elsewhere; counted (accepted:
    below 400, but for a redirection to the sign-in page)."""
    assert response.status_code < 500, (family, response.status_code, response.get_data(as_text=True)[:400])
    page = response.get_data(as_text=True)
    assert "Traceback" not in page and "erreur inattendue" not in page, (family, page[:400])
    if api and response.status_code >= 400 and response.is_json:
        error = response.get_json().get("error")
        assert isinstance(error, str) and error, (family, page[:400])
    elif response.status_code >= 400 and response.mimetype == "text/html":
        assert '<html lang="fr">' in page, (family, page[:400])
    signed_out = response.status_code == 302 and "/connexion" in response.headers.get("Location", "")
    record(family, response.status_code < 400 and not signed_out)  # sent to the sign-in page: refused


def _ready(session: Session, kind: str = "individual") -> int:
    """A tournament with players, draw, étuis and movement, no result, position 1 launched; its id."""
    tournament = operations.create_tournament(session, name="Table", kind=kind)
    for i in range(20):
        operations.register_player(session, tournament, licence=f"{i:07d}", surname=f"NOM{i}", first_name="Zoé",
                                   club="Club")
    operations.draw_places(session, tournament, seed="corpus")
    movement = operations.choose_movement(session, tournament, positions=5)
    count = max(int(b) for r in movement.data["rounds"] for b in r["boards"])
    operations.generate_boards(session, tournament, count=count, seed="corpus")
    operations.choose_movement(session, tournament, positions=5)
    operations.start_position(session, tournament, 1)
    return tournament.id


@pytest.fixture
def evening(sqlite_copy):
    """An app on a fresh SQLite file: accounts (a victim scorer first, so that the fuzzed ``<user_id>`` 1 is
    never the arbiter's own), the scored demo, a tournament in play, a free tournament with its movement;
    signed-in clients."""
    from duplicate import create_app

    app = create_app({"DATABASE_URL": sqlite_copy("corpus.sqlite3")})
    with app.app_context(), Session(db.get_engine(app)) as session:
        operations.create_user(session, "victime", PASSWORD, "scorer")
        operations.create_user(session, "marqueur", PASSWORD, "scorer")
        operations.create_user(session, "arbitre", PASSWORD, "arbiter")
        demo = demo_tournament(session).id
        live = _ready(session)
        free = operations.create_tournament(session, name="Libre", kind="free")
        for i in range(16):
            operations.register_player(session, free, licence=f"9{i:06d}", surname=f"LIBRE{i}", first_name="Léa",
                                       club="Club")
        free = free.id
        session.commit()
    clients = {"anonymous": app.test_client(), "scorer": app.test_client(), "arbiter": app.test_client()}
    for who, username in (("scorer", "marqueur"), ("arbiter", "arbitre")):
        assert clients[who].post("/connexion", data={"username": username, "password": PASSWORD}).status_code == 302
    assert clients["arbiter"].post(f"/arbitre/tournois/{free}/libre/mouvement",
                                   data={"seed": "corpus"}).status_code == 302
    with Session(db.get_engine(app)) as session:
        scorer = session.exec(select(User).where(User.username == "marqueur")).one()
        session.add_all(TournamentAccess(tournament_id=tid, user_id=scorer.id, granted_by="corpus")
                        for tid in (demo, live, free))
        session.commit()
        secrets = {"table": operations.table_secret(operations.get_tournament(session, live), 1),
                   "free": operations.freeplay_table.table_links(session, operations.get_tournament(session, free))[0]
                   ["secret"]}
    yield app, clients, {"demo": demo, "live": live, "free": free}, secrets
    db.get_engine(app).dispose()


def test_the_table_api_and_pages_with_hostile_secrets_and_bodies(evening):
    app, clients, ids, secrets = evening
    client = clients["anonymous"]
    real, free = secrets["table"], secrets["free"]

    @corpus(1000)
    @given(st.one_of(_mangled(real), _mangled(free)), body, st.integers(0, 12), st.sampled_from(
        ["1", "2", "9" * 30, "²", "-1", "x", ""]), st.booleans(), st.dictionaries(
        st.sampled_from(["seat", "code", "rows", "taker-0", "contract-0", "points-0", "bouts-0", "chelem-0",
                         "version"]), text, max_size=5))
    def check(secret, sent, board, position, as_json, form):
        path = quote(secret, safe="")
        data = sent if isinstance(sent, str) else json.dumps(sent, allow_nan=True)
        kind = "application/json" if as_json else "text/plain"
        # the hostile secret on every address that takes one
        for method, address, api in (("get", f"/api/table/{path}?position={position}", True),
                                     ("get", f"/table/{path}", False),
                                     ("post", f"/api/table/{path}/results", True),
                                     ("get", f"/table/libre/{path}?position={position}", False),
                                     ("post", f"/table/libre/{path}/1", False)):
            if method == "get":
                response = client.get(address)
            elif api:
                response = client.post(address, data=data, content_type=kind)
            else:
                response = client.post(address, data=form)
            _tally("table secrets", response, api)
        # the hostile body on the real links, where it reaches the checks
        for address in (f"/api/table/{real}/results", f"/api/table/{real}/results/{board}/confirm"):
            _tally("table API bodies", client.post(address, data=data, content_type=kind), True)
        _tally("table API bodies", client.get(f"/api/table/{real}/boards/{board}"), True)
        for address in (f"/table/libre/{free}/{position if position.isdigit() and len(position) < 4 else 1}",
                        f"/table/libre/{free}/1/confirmer"):
            _tally("table API bodies", client.post(address, data=form), False)

    check()
    integrity(app)


#: Addresses that end the walk's session or a tournament: walked by `test_routes`, not fuzzed here.
ENDING = ("auth.logout", "arbiter.delete", "arbiter.archive", "arbiter.restore")


def _address(rule, ids: dict, secrets: dict) -> str:
    """The rule's path with valid values: a free-play address on the free tournament, the others on the
    scored demo; the table's link for ``<secret>``."""
    free = "/libre/" in rule.rule
    values = {"tournament_id": str(ids["free" if free else "demo"]), "secret": secrets["free" if free else "table"],
              "kind": "etiquettes", "action": "adjust", "act": "desactiver"}
    return re.sub(r"<(?:[^:>]+(?:\([^)]*\))?:)?(\w+)>", lambda m: values.get(m.group(1), "1"), rule.rule)


def test_every_post_form_as_anonymous_scorer_and_arbiter(evening, monkeypatch):
    app, clients, ids, secrets = evening
    # « Tout imprimer » renders the whole evening off the request, in a thread and its child processes: about
    # 13 s of CPU a pack, seven packs, 85 % of this test's CPU, of which the test read nothing (the renders
    # outlived it). The posted fields reach a pack as its table (one of the movement's, or none: the view
    # checks it); the demo's pack is rendered by tests/printing. Each pack asked for is recorded instead.
    packs = []
    monkeypatch.setattr(pack, "render_pack_to_file",
                        lambda export, ranking, out_path, *, table=None, **options: packs.append((export, table)) or 0)
    rules = sorted((rule for rule in app.url_map.iter_rules() if "POST" in rule.methods and rule.endpoint not in ENDING),
                   key=lambda rule: rule.rule)
    forms, pool = [], set()
    for rule in rules:
        address = _address(rule, ids, secrets)
        names = set()
        if "GET" in rule.methods:
            names = set(re.findall(r'name="([^"]+)"', clients["arbiter"].get(address).get_data(as_text=True)))
        names.discard("csrf_token")
        pool |= names
        forms.append((rule.endpoint, address, sorted(names)))
    for address in (f"/arbitre/tournois/{ids['demo']}/resultats", f"/arbitre/tournois/{ids['demo']}/changements",
                    f"/arbitre/tournois/{ids['free']}/libre/classement", f"/arbitre/tournois/{ids['demo']}/acces",
                    "/arbitre/comptes", f"/arbitre/tournois/{ids['demo']}/"):
        pool |= set(re.findall(r'name="([^"]+)"', clients["arbiter"].get(address).get_data(as_text=True)))
    pool = sorted(pool - {"csrf_token"})
    assert len(forms) >= 60 and len(pool) >= 40, (len(forms), len(pool))
    hostile = st.one_of(text, st.sampled_from(["", "9" * 30, "1e308", "NaN", "-Infinity", "2,5", "−2,5", "1", "0",
                                               "N1", "x" * 5000, "[" * 3000, "٣", "²", "1\r\nX-Evil: 1", "on"]))

    @corpus(1200)
    @given(st.integers(0, len(forms) - 1), st.sampled_from(["anonymous", "scorer", "arbiter", "arbiter"]), st.data())
    def check(index, who, data):
        endpoint, address, names = forms[index]
        fields = data.draw(st.dictionaries(st.sampled_from(names or pool), hostile, max_size=6)
                           if names else st.dictionaries(st.sampled_from(pool), hostile, max_size=4))
        fields.update(data.draw(st.dictionaries(st.sampled_from(pool), hostile, max_size=2)))
        response = clients[who].post(address, data=fields)
        _tally(f"POST forms ({who})", response, address.startswith("/api/"))
        if who != "anonymous" and response.status_code == 302 and "/connexion" in response.headers.get("Location", ""):
            username = "arbitre" if who == "arbiter" else "marqueur"  # a form ended the session: sign in again
            clients[who].post("/connexion", data={"username": username, "password": PASSWORD})

    check()
    for thread in threading.enumerate():
        if thread.name == "impression-pack":
            thread.join()
    assert all(table is None or table in pack.tables_of(export) for export, table in packs), packs
    integrity(app)
    assert clients["arbiter"].get(f"/arbitre/tournois/{ids['demo']}/resultats").status_code == 200

