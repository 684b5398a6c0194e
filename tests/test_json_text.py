"""`duplicate.json_text.dumps` writes the text of ``json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)``."""

import json

import pytest

from duplicate.json_text import dumps


def test_a_ranking_row_as_a_person_reads_it():
    row = {"id": "N1", "name": "Zoé « 100 % »", "rank": 1, "global": 62.5, "flagged": False, "alternated_rank": None}
    assert dumps({"ranking": [row], "boards": []}) == (
        '{\n'
        '  "ranking": [\n'
        '    {\n'
        '      "id": "N1",\n'
        '      "name": "Zoé « 100 % »",\n'
        '      "rank": 1,\n'
        '      "global": 62.5,\n'
        '      "flagged": false,\n'
        '      "alternated_rank": null\n'
        '    }\n'
        '  ],\n'
        '  "boards": []\n'
        '}')


@pytest.mark.parametrize("data", [
    {}, [], "texte", 3, None, [[[]]], {"a": {}}, {"a": []}, {"a": {"b": {"c": [{}]}}},
    {"%s": "%", "x%y": [1, 2.5, None, True, False], "%(a)s": "%d"},
    [1e300, -0.0, 0.1 + 0.2],
    {"c": "nan", "d": "inf", "e": 2.5, "f": "-inf"},
    {"é\n\"<\\": "\u2028\x00\t"}, {"a": (1, 2)},
    [{"a": 1}, {"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": {"b": 1}}, {"a": [1, {"c": 2}]}],
    {1: 2}, {True: 1}, {None: 1}, {1.5: [{2: 3}]},  # keys json.dumps converts: left to it
])
def test_same_text_as_json_dumps(data):
    assert dumps(data) == json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)


@pytest.mark.parametrize("data", [
    [float("nan")], [1.0, float("inf")], {"a": -float("inf")}, {"a": 1, "b": float("nan")}, {"a": [{"b": float("inf")}]},
])
def test_nan_and_infinity_are_not_json(data):
    with pytest.raises(ValueError):
        json.dumps(data, allow_nan=False)
    with pytest.raises(ValueError):
        dumps(data)


def test_what_json_refuses_it_refuses():
    with pytest.raises(TypeError):
        dumps({"a": object()})
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError):
        dumps(loop)
