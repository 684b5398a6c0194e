"""The journal speaks French (issue 29 point 9): it showed « published : False » and codes as stored. Every
action the operations can journal is walked in their source (each ``journal(…)`` call and each refusal
journalled through ``_refuse``), with the keys of its « Avant » / « Après »; each key must be one the
journal page words (`web.arbiter.journal.KEYS`). Then the values and the page itself, by hand:
« résultats publiés : Non », « place Est », « faute : Téléphone qui sonne »."""

import ast
import pathlib

import duplicate
from duplicate.web.arbiter.journal import KEYS, journal_lines
from pages import without_tokens
from scoring_helpers import publish, ready

SOURCE = pathlib.Path(duplicate.__file__).parent


def _strings(node, scope, module) -> set[str] | None:
    """The string values an action argument may take (None: not resolvable here)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        a, b = _strings(node.body, scope, module), _strings(node.orelse, scope, module)
        return None if a is None or b is None else a | b
    if isinstance(node, ast.Name):
        found = set()
        for assignments in (list(ast.walk(scope)), module.body):  # the function's, else the module's constants
            for sub in assignments:
                if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id for t in sub.targets):
                    values = _strings(sub.value, scope, module)
                    if values:
                        found |= values
            if found:
                return found
    return None


def _functions(module) -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in ast.walk(module) if isinstance(node, ast.FunctionDef)}


def _keys(node, scope, module) -> set[str] | None:
    """The keys a before/after argument may hold, nested mappings included (None: not resolvable)."""
    if node is None or isinstance(node, ast.Constant) and node.value is None:
        return set()
    if isinstance(node, ast.IfExp):
        a, b = _keys(node.body, scope, module), _keys(node.orelse, scope, module)
        return None if a is None or b is None else a | b
    if isinstance(node, ast.Dict):
        keys = set()
        for key, value in zip(node.keys, node.values):
            inner = _keys(value, scope, module) if key is None or isinstance(value, (ast.Dict, ast.IfExp)) else set()
            if inner is None:
                return None
            if key is not None:
                keys.add(key.value)
            keys |= inner
        return keys
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "dict":
            return set() if not node.args else _keys(node.args[0], scope, module)
        function = _functions(module).get(node.func.id)
        if function is not None and isinstance(function.body[-1], ast.Return):
            return _keys(function.body[-1].value, function, module)
        return None
    if isinstance(node, ast.Name):
        keys, found = set(), False
        for sub in ast.walk(scope):
            if isinstance(sub, ast.Assign):
                for target in sub.targets:
                    if isinstance(target, ast.Name) and target.id == node.id:
                        found = True
                        value = _keys(sub.value, scope, module)
                        if value is None:
                            return None
                        keys |= value
                    if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                            and target.value.id == node.id and isinstance(target.slice, ast.Constant)):
                        keys.add(target.slice.value)
        return keys if found else None
    return set()  # a value, not a mapping (a list, a comprehension: see `journalled`)


def journalled() -> dict[str, set[str]]:
    """Every action the code can journal → the keys of its before/after."""
    found: dict[str, set[str]] = {}
    unresolved = []
    for path in sorted(SOURCE.rglob("*.py")):
        module = ast.parse(path.read_text(encoding="utf-8"))
        for scope in _functions(module).values():
            for call in ast.walk(scope):
                if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                    continue
                kwargs = {k.arg: k.value for k in call.keywords}
                if call.func.id == "journal" and "action" in kwargs:
                    action, mappings = kwargs["action"], [kwargs.get("before"), kwargs.get("after")]
                elif call.func.id == "_refuse" and len(call.args) >= 5:
                    action, mappings = call.args[2], [call.args[4]]
                else:
                    continue
                actions = _strings(action, scope, module)
                if actions is None:  # the action is the caller's (`_refuse`): its callers are walked
                    continue
                keys = set()
                for mapping in mappings:
                    more = _keys(mapping, scope, module)
                    if more is None:
                        unresolved.append((path.name, sorted(actions)))
                        more = set()
                    keys |= more
                for name in actions:
                    found.setdefault(name, set()).update(keys)
    # a comprehension or a list of mappings is a value to the walk; checked by hand in
    # `test_every_journalled_key_is_worded_in_french`: the team match's bonus (a mapping per team « A »,
    # « B »), the coefficients (lists of « position », « coefficient », « eliminated »), the free-play sheets
    # (lists of deals: `operations._freeplay.parse_row`)
    assert unresolved == [], unresolved
    return found


def test_every_journalled_key_is_worded_in_french():
    found = journalled()
    assert len(found) >= 40, sorted(found)  # the walk sees the evening's actions (41 on 27 November 2026)
    for expected in ("results.publish", "results.withdraw", "table.confirm", "freeplay.table.confirm",
                     "penalty.add", "result.conflict", "player.late", "access.grant", "table.settings",
                     "freeplay.movement"):
        assert expected in found
    assert found["results.publish"] == {"published"} and "seat" in found["freeplay.table.code_refused"]
    assert {"étuis", "salle ouverte", "attaquant A", "attaquant B"} <= found["team_match.quarter"]
    unknown = {action: sorted(keys - set(KEYS)) for action, keys in found.items() if keys - set(KEYS)}
    assert not unknown, unknown
    by_hand = {"A", "B", "position", "coefficient", "eliminated", "deal", "taker", "partner", "contract",
               "points", "bouts", "poignees", "petit_au_bout", "chelem"}
    assert by_hand <= set(KEYS)


def test_values_are_worded_in_french():
    assert journal_lines({"published": False}) == ["résultats publiés : Non"]
    assert journal_lines({"archivé": True, "forfait": None}) == ["archivé : Oui", "forfait : —"]
    assert journal_lines({"entrant": "W4", "fault": "telephone_sonne", "points": 500, "warning": True}) == [
        "participant : O4", "faute : Téléphone qui sonne", "points : 500", "avertissement : Oui"]
    assert journal_lines({"étui": 3, "table": 2, "score": "+82", "source": "paper"})[-1] == "source : fiche papier"
    assert journal_lines({"statut": "confirmé", "confirmé par": {"place": "E", "joueur": "E3", "nom": "DUPONT Jean"}}) == [
        "statut : confirmé", "confirmé par : place Est, joueur E3, nom DUPONT Jean"]
    assert journal_lines({"table": 1, "position": 2, "seat": "W"}) == ["table : 1", "position : 2", "place : Ouest"]
    assert journal_lines({"minutes": 7, "points": 1.5}) == ["minutes : 7", "points : 1,50"]
    assert journal_lines({"donnes": [{"deal": 1, "taker": "J3", "partner": None, "contract": "garde_sans",
                                      "points": 45, "bouts": 2, "poignees": ["simple"], "petit_au_bout": "taker",
                                      "chelem": None}]}) == [
        "donnes : donne 1, preneur J3, partenaire —, contrat Garde sans, points 45, bouts 2, poignées simple, "
        "petit au bout attaque, chelem —"]
    assert journal_lines({"mouvement": "parallel"}) == ["mouvement : 4 tournois en parallèle"]
    assert journal_lines({"A": "2,000", "B": "0,000"}) == ["équipe A : 2,000", "équipe B : 0,000"]


def test_the_journal_page_shows_a_publication_in_french(app, arbiter):
    tid = ready(app)
    publish(app, tid)
    publish(app, tid, False)
    page = arbiter.get(f"/arbitre/tournois/{tid}/journal").get_data(as_text=True)
    assert "résultats publiés : Non" in page and "résultats publiés : Oui" in page
    bare = without_tokens(page)  # a CSRF token may hold « True »: the rest of the page may not
    assert "published" not in bare and "False" not in bare and "True" not in bare
