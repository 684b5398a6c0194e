"""Issue 14, points 1 and 6: ``rank`` and ``import`` never crash on a file a careless or hostile user
hands over; each refusal is exit 1 and one French line naming the place (line, result, field). Every
case here printed a Python traceback (or accepted the file) before."""

from __future__ import annotations

import json

import pytest

from hostile_files import assert_clean_refusal, individual, line_of, one_per_line, rank, team_match

from duplicate.core.filetext import MAX_FILE_BYTES


def _with(field_text: str) -> str:
    """The valid individual file, one entry per line, with ``"x": <field_text>`` added to result n° 2."""
    text = one_per_line(individual())
    first = text.index('"board": 1, "table": 2')
    return text[:first] + f'"x": {field_text}, ' + text[first:]


HOSTILE_VALUES = [  # (what is typed in result n° 2, a fragment of the French message)
    ("1" + "0" * 5000, "plus de 20 chiffres"),                     # an integer of 5,000 digits
    ("[" * 100_000 + "]" * 100_000, "niveaux de crochets"),        # JSON nested 100,000 deep
    ('"\\ud800"', "demi-paire"),                                   # a lone surrogate
    ("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "Infinity"),
    ("1e999", "hors limites"),
]


@pytest.mark.parametrize("value, message", HOSTILE_VALUES, ids=["digits", "deep", "surrogate", "nan", "inf",
                                                                "-inf", "1e999"])
def test_rank_refuses_hostile_json_in_one_french_line_with_its_line(tmp_path, value, message):
    text = _with(value)
    line = assert_clean_refusal(rank(tmp_path, text), message)
    assert line.startswith("Erreur : ligne %d : " % line_of(text, '"x"'))


@pytest.mark.parametrize("points", ["NaN", "Infinity", "1e308"])
def test_rank_never_prints_infinity(tmp_path, points):
    """A penalty of NaN or Infinity was ranked and printed ``Infinity`` (not JSON); 1e308 twice overflowed."""
    text = one_per_line(individual(penalties=[{"player": "N1", "points": 1}]))
    text = text.replace('"points": 1', f'"points": {points}') .replace(
        '{"player": "N1", "points": 1e308}', '{"player": "N1", "points": 1e308},\n{"player": "N1", "points": 1e308}')
    result = rank(tmp_path, text)
    assert "Infinity" not in result.stdout and "NaN" not in result.stdout
    assert_clean_refusal(result, "ligne %d" % line_of(text, '"player": "N1"'))


def test_a_byte_order_mark_is_accepted_by_rank_and_import_alike(tmp_path, runner):
    """Was: ``import`` accepted it, ``rank`` refused it."""
    text = "\ufeff" + one_per_line(individual())
    ranked = rank(tmp_path, text)
    assert ranked.exit_code == 0, ranked.stderr
    assert json.loads(ranked.stdout)["kind"] == "individual"
    path = tmp_path / "bom.json"
    path.write_text(text, encoding="utf-8")
    imported = runner.invoke(args=["import", str(path)])
    assert imported.exit_code == 0, imported.output


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path, runner):
    big = b'{"kind": "individual", "name": "' + b"x" * MAX_FILE_BYTES + b'"}'
    assert_clean_refusal(rank(tmp_path, big), "fichier trop gros", "8 Mio")
    path = tmp_path / "big.json"
    path.write_bytes(big)
    imported = runner.invoke(args=["import", str(path)])
    assert imported.exit_code == 1 and "fichier trop gros" in imported.output
    assert imported.exception is None or isinstance(imported.exception, SystemExit)


def test_a_file_that_is_not_utf8_names_its_line(tmp_path):
    text = one_per_line(individual())
    raw = text.encode().replace(b"JOUEUR2 N", b"JOUEUR2 \xe9")
    assert_clean_refusal(rank(tmp_path, raw), "ligne %d : le fichier n’est pas en UTF-8" % line_of(text, "JOUEUR2 N"))


@pytest.mark.parametrize("value, message", HOSTILE_VALUES[:4], ids=["digits", "deep", "surrogate", "nan"])
def test_import_refuses_the_same_values_cleanly(tmp_path, runner, value, message):
    path = tmp_path / "t.json"
    text = _with(value)
    path.write_bytes(text.encode("utf-8"))
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert message in result.output and "ligne %d :" % line_of(text, '"x"') in result.output


def test_every_rank_error_names_its_place(tmp_path):
    """Point 6: errors about a whole field name the line of its key, errors about an entry its line and
    its number (« résultat n° 2 ») — no message without a place."""
    cases = [
        (one_per_line(individual(kind="libre")), '"kind"'),
        (one_per_line(individual(players=[{"id": "N1"}], teams={"a": 1})), '"teams"'),
        (one_per_line(individual(movement={"rounds": 3})), '"movement"'),
        (one_per_line(individual(results="aucun")), '"results"'),
    ]
    for text, key in cases:
        line = assert_clean_refusal(rank(tmp_path, text))
        assert line.startswith(f"Erreur : ligne {line_of(text, key)} : "), line
    text = one_per_line(individual())
    text = text.replace('"score": -52}', '"score": 31}', 1)
    line = assert_clean_refusal(rank(tmp_path, text), "résultat n° 2", "score +31")
    assert line.startswith("Erreur : ligne %d : " % line_of(text, '"score": 31'))


def test_a_long_or_multiline_value_stays_one_short_line(tmp_path):
    text = one_per_line(individual(kind="x\n" * 3000))
    line = assert_clean_refusal(rank(tmp_path, text), "type de tournoi inconnu")
    assert len(line) < 400


def test_theoretical_scores_are_warned_on_stderr_with_exit_0(tmp_path):
    """Point 4: +216 in a Garde needs 17 tricks with the 3 bouts and only four low cards left to the
    defence — accepted, but the arbiter is warned (SPEC §3)."""
    data = individual()
    data["results"][0]["score"] = 216
    result = rank(tmp_path, one_per_line(data))
    assert result.exit_code == 0
    assert result.stderr.splitlines() == ["Attention : résultat n° 1 (étui 1, table 1) : score +216 possible en "
                                          "théorie seulement pour une Garde (répartition extrême des cartes) : "
                                          "à vérifier par l’arbitre"]
    assert json.loads(result.stdout)["kind"] == "individual"
    assert rank(tmp_path, one_per_line(individual())).stderr == ""


def test_a_team_match_result_is_placed_by_its_room(tmp_path):
    """SPEC §9: a team-match result names ``room`` (and ``quarter``); ``table`` is not required."""
    result = rank(tmp_path, json.dumps(team_match()))
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["boards"][0]["results"]
    assert sorted(row["room"] for row in rows) == ["closed", "open"]
