"""Reading an interchange file's text without trusting it (`duplicate.core.filetext`, SPEC §9 and the
hostile-input rules): every bound refused with its French message and the line it stands on, every
value under the bound accepted. The expected lines and messages are read off the texts by hand.

These run in tests/core (unlike tests/hostile), so that the mutation run (`make mutation`) exercises them."""

import pytest

from duplicate.core.filetext import (
    MAX_DEPTH, MAX_DIGITS, MAX_FILE_BYTES, FileTextError, _number_token_bad, one_line, parse_json,
)

DIGITS = "nombre de plus de 20 chiffres"
FLOAT = "nombre hors limites (trop grand pour être calculé)"
CONSTANT = "« NaN » et « Infinity » ne sont pas des nombres JSON"
DEPTH = "plus de 32 niveaux de crochets ou d’accolades imbriqués"
SURROGATE = "caractère Unicode invalide (demi-paire « \\ud800 » isolée)"


def refusal(text: str, **kwargs) -> FileTextError:
    with pytest.raises(FileTextError) as caught:
        parse_json(text, **kwargs)
    return caught.value


def test_the_bounds_are_those_the_module_announces():
    assert (MAX_FILE_BYTES, MAX_DEPTH, MAX_DIGITS) == (8 * 1024 * 1024, 32, 20)


def test_an_error_names_its_line_before_its_reason():
    error = FileTextError("JSON mal formé", 3)
    assert (str(error), error.line, error.reason) == ("ligne 3 : JSON mal formé", 3, "JSON mal formé")
    bare = FileTextError("fichier trop gros")
    assert (str(bare), bare.line, bare.reason) == ("fichier trop gros", None, "fichier trop gros")
    assert isinstance(bare, ValueError)


def test_one_line_escapes_what_a_terminal_would_act_on():
    assert one_line("Jean\nDupont\tN1\r\x1b[31m") == "Jean\\nDupont\\tN1\\r\\x1b[31m"
    assert one_line("Hélène « ex æquo » −3") == "Hélène « ex æquo » −3"  # printable: kept as is
    assert one_line("a\ud800b") == "a\\ud800b"  # a lone surrogate cannot be printed


def test_one_line_cuts_a_long_text_to_its_limit_with_an_ellipsis():
    assert one_line("x" * 300) == "x" * 300  # the default limit, reached and not passed: whole
    assert one_line("x" * 301) == "x" * 299 + "…"  # 300 characters, the last one « … »
    assert one_line("abcdefgh", limit=5) == "abcd…"
    assert one_line("abcde", limit=5) == "abcde"
    assert one_line("\n" * 3, limit=4) == "\\n\\…"  # cut after escaping: 6 characters → 3 and « … »


def test_a_sound_file_is_read_whole():
    text = '{"name": "Tournoi de l’Été",\n "players": [{"id": "N1", "score": -126}], "x": 2.5, "ok": true}'
    assert parse_json(text) == {"name": "Tournoi de l’Été", "players": [{"id": "N1", "score": -126}],
                                "x": 2.5, "ok": True}


def test_a_byte_order_mark_is_dropped():
    assert parse_json("\ufeff[1, 2]") == [1, 2]


def test_size_is_refused_before_anything_is_read():
    assert str(refusal("[" + "1," * 10 + "1]", limit=10)) == "fichier trop gros (plus de 0 Mio)"
    big = 1024 * 1024
    assert str(refusal(" " * (big + 1) + "1", limit=big)) == "fichier trop gros (plus de 1 Mio)"
    assert parse_json(" " * (big - 1) + "1", limit=big) == 1  # exactly the limit: read
    # 600,000 « é » are 600,002 characters but 1,200,002 bytes of UTF-8: over 1 Mio
    assert str(refusal('"' + "é" * 600_000 + '"', limit=big)) == "fichier trop gros (plus de 1 Mio)"
    assert parse_json('"' + "é" * 400_000 + '"', limit=big) == "é" * 400_000  # 800,002 bytes


@pytest.mark.parametrize("text, line", [
    ("12345678901234567890123", 1),  # 23 digits, alone
    ('{"a": 1,\n "b": 123456789012345678901}', 2),  # 21 digits on the second line
    ('[1,\n2,\n-123456789012345678901]', 3),  # the minus sign is no digit: 21 digits still
    ('["123456789012345678901234",\n 5,\n 123456789012345678901]', 3),  # digits in a string are text
    ("[\n" + "9" * 5000 + "]", 2),  # past Python's own 4,300-digit limit: the same refusal
])
def test_an_integer_of_more_than_twenty_digits_is_refused_at_its_line(text, line):
    error = refusal(text)
    assert (error.reason, error.line) == (DIGITS, line)


def test_twenty_digits_are_read():
    assert parse_json("[12345678901234567890, -99999999999999999999]") == [12345678901234567890,
                                                                          -99999999999999999999]
    assert parse_json('{"n": 10000000000000000000}') == {"n": 10 ** 19}


@pytest.mark.parametrize("text, line", [("[1,\n1e999]", 2), ("[\n\n-1e400]", 3), ("1e309", 1)])
def test_a_float_out_of_range_is_refused(text, line):
    error = refusal(text)
    assert (error.reason, error.line) == (FLOAT, line)


def test_a_large_finite_float_is_read():
    assert parse_json("[1e308, -2.5e-300]") == [1e308, -2.5e-300]


@pytest.mark.parametrize("text, line", [("[\nNaN]", 2), ('{"a":\n\n Infinity}', 3), ("[1,\n-Infinity]", 2),
                                        ('["NaN is a word here",\n NaN]', 2)])
def test_nan_and_infinity_are_refused(text, line):
    error = refusal(text)
    assert (error.reason, error.line) == (CONSTANT, line)


def test_thirty_two_levels_are_read_and_thirty_three_refused():
    assert parse_json("[" * 32 + "]" * 32) is not None
    nested = parse_json('{"a":' * 31 + "[]" + "}" * 31)  # 31 objects and an array: 32 levels
    assert nested is not None
    error = refusal("[" * 33 + "]" * 33)
    assert (error.reason, error.line) == (DEPTH, 1)
    error = refusal("[" * 32 + "\n[" + "]" * 33)  # the 33rd bracket opens on line 2
    assert (error.reason, error.line) == (DEPTH, 2)
    error = refusal('{"a":\n' * 33 + "1" + "}" * 33)  # objects count too: the 33rd opens on line 33
    assert (error.reason, error.line) == (DEPTH, 33)


def test_a_nesting_deeper_than_python_can_decode_is_refused_as_depth():
    error = refusal("\n" + "[" * 200_000 + "]" * 200_000)
    assert (error.reason, error.line) == (DEPTH, 2)


def test_brackets_inside_strings_are_not_nesting():
    text = '["' + "[" * 40 + '",\n' + "[" * 33 + "]" * 33 + "]"
    error = refusal(text)
    assert (error.reason, error.line) == (DEPTH, 2)  # the string's 40 « [ » did not count
    assert parse_json('["' + "{[" * 40 + '"]') == ["{[" * 40]


@pytest.mark.parametrize("text, line", [
    ('["ok",\n"\\ud800"]', 2),  # an escaped lone high surrogate in a value
    ('{"a": 1,\n\n "\\uDC00": 2}', 3),  # a lone low surrogate, escaped in capitals, in a key
    ('"\\ud834"', 1),  # the whole file a string
    ('["a",\n"\ud800"]', 2),  # not escaped: only a caller's str can hold it
])
def test_a_lone_surrogate_is_refused(text, line):
    error = refusal(text)
    assert (error.reason, error.line) == (SURROGATE, line)


def test_a_surrogate_pair_is_a_character():
    assert parse_json('["\\ud83d\\ude00", {"\\ud83c\\udccf": 1}]') == ["😀", {"🃏": 1}]


def test_malformed_json_names_its_line_and_column():
    error = refusal('{"a": 1,\n}')
    assert str(error) == "ligne 2 : JSON mal formé (Expecting property name enclosed in double quotes, colonne 1)"
    assert refusal("[1, 2").line == 1


@pytest.mark.parametrize("token, bad", [
    ("123456789012345678901", "digits"), ("-123456789012345678901", "digits"), ("12345678901234567890", None),
    ("-12345678901234567890", None), ("1e999", "float"), ("-1e999", "float"), ("1.5", None), ("1e5", None),
    ("1-2", None),  # not a number at all: not this function's refusal
])
def test_number_tokens(token, bad):
    assert _number_token_bad(token) == bad


def test_exactly_ten_to_the_twentieth_has_twenty_one_digits():
    for text in ("[100000000000000000000]", "[-100000000000000000000]", "100000000000000000000",
                 "-100000000000000000000"):
        assert refusal(text).reason == DIGITS, text
    assert parse_json("[99999999999999999999, -99999999999999999999]") == [10 ** 20 - 1, 1 - 10 ** 20]
    assert parse_json("99999999999999999999") == 10 ** 20 - 1


def test_closing_brackets_lower_the_depth():
    # 19 levels, an empty array opened and closed (20, back to 19), then 14 more on line 2: 33 there
    text = "[" * 19 + "[],\n" + "[" * 14 + "]" * 14 + "]" * 19
    assert refusal(text).line == 2
    # 40 empty arrays side by side never go past 2 levels; the 33rd level opens on line 2
    text = "[" + "[]," * 40 + "\n" + "[" * 32 + "]" * 32 + "]"
    assert refusal(text).line == 2


@pytest.mark.parametrize("text, line", [('["\ud800",\n1,\n2]', 1), ('\n["\ud800"]', 2), ('\n\n"\udfff"', 3)])
def test_a_raw_lone_surrogate_is_refused_at_its_own_line(text, line):
    error = refusal(text)
    assert (error.reason, error.line) == (SURROGATE, line)


def test_the_line_is_one_when_the_fault_cannot_be_found_in_the_text():
    from duplicate.core.filetext import _bad_surrogates, _locate

    assert _locate('[1, "a"]', "digits") == 1 and _locate("\n\n[1]", "depth") == 1
    assert _bad_surrogates('"\\ud800"') and not _bad_surrogates('"\\ud800') and not _bad_surrogates('"ok"')
