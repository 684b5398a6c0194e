"""The players list a club imports, or its teams' list (issue 15 point 4; SPEC §9 names no CSV): its text
decoded (`decode_text`), its separator and header found, its rows read (`parse_players_csv`). The
operations register what it reads (`operations._entrants`, `operations._team_csv`).
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import unicodedata

CSV_COLUMNS = ("licence", "surname", "first_name", "club")
_HEADER_WORDS = {
    "licence": "licence", "license": "licence", "n licence": "licence", "no licence": "licence",
    "numero de licence": "licence", "numero licence": "licence", "licence number": "licence",
    "nom": "surname", "surname": "surname", "last name": "surname", "lastname": "surname",
    "family name": "surname", "nom de famille": "surname",
    "prenom": "first_name", "first name": "first_name", "firstname": "first_name", "first_name": "first_name",
    "given name": "first_name", "club": "club",
    "equipe": "team", "team": "team", "nom equipe": "team", "nom de l equipe": "team", "team name": "team",
}
#: A teams list (issue 15 point 4): the players list with the team's name first.
TEAMS_CSV_COLUMNS = ("team", *CSV_COLUMNS)


def _header_key(cell: str) -> str | None:
    plain = unicodedata.normalize("NFKD", cell).encode("ascii", "ignore").decode().casefold()
    plain = re.sub(r"[^a-z_ ]+", " ", plain).strip()
    return _HEADER_WORDS.get(re.sub(r"\s+", " ", plain))


def decode_text(raw: bytes) -> str:
    """The text of a file as clubs make them: UTF-8 (with or without BOM), else Windows-1252 (what Excel
    on a French Windows saves as « CSV (séparateur : point-virgule) »); UTF-16 when it starts with its BOM.  Raises ValueError (French)
    when neither reads it.  Choice: UTF-8 first, since a Windows-1252 file with accents is never valid
    UTF-8, while the reverse guess would turn « é » into « Ã© »."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return raw.decode("utf-16")  # Excel's « Texte Unicode »
        except UnicodeDecodeError:
            pass
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        raise ValueError("le fichier n’est ni en UTF-8 ni en Windows-1252 (enregistrez-le en « CSV UTF-8 »)") \
            from None


#: Separators a players list may use: « ; » (French Excel), « , », a tab (cells pasted from a sheet).
CSV_SEPARATORS = (";", ",", "\t")


def _separator(lines: list[str], most: int = 4) -> str:
    """The separator that gives the most of the first lines 2 to 4 cells (``;`` first on a tie): a
    comma inside a club name (« Paris, 15e ») does not outvote the semicolons of the whole file."""
    sample = [line for line in lines if line.strip()][:20]

    def fits(separator: str) -> int:
        counts = [len(next(csv.reader([line], delimiter=separator))) for line in sample]
        return sum(2 <= n <= most for n in counts) * 2 + sum(n == counts[0] for n in counts)

    return max(CSV_SEPARATORS, key=lambda sep: (fits(sep), -CSV_SEPARATORS.index(sep)))


def parse_players_csv(text: str | bytes, columns: tuple[str, ...] = CSV_COLUMNS
                      ) -> tuple[list[tuple[int, dict]], list[tuple[int, str]]]:
    """Read a players list: columns licence;surname;first_name;club (``columns``: `TEAMS_CSV_COLUMNS`
    for a teams list, « Équipe;Licence;Nom;Prénom;Club », whose header must then name the team column).

    The separator is ``;``, ``,`` or a tab (`_separator`); a first line naming the columns (French or
    English: « Licence;Nom;Prénom;Club », « licence,surname,first_name,club ») is a header and may give
    them in another order; bytes are decoded by `decode_text` (UTF-8 with or without BOM, else
    Windows-1252); an empty line — blank, or only separators and blank cells, as the trailing « ;;; » row
    Excel leaves — is skipped and counted, never refused. Returns ``(rows, errors, empty)``: rows are
    ``(line number, {licence, surname, first_name, club})`` with stripped text, errors ``(line number,
    French message)`` for lines that cannot be read, ``empty`` the number of empty lines skipped. Checking
    the values is the caller's business (`operations.import_players_csv`).
    """
    if isinstance(text, bytes):
        try:
            text = decode_text(text)
        except ValueError as error:
            return [], [(0, str(error))], 0
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        return [], [(0, "le fichier est vide")], 0
    delimiter = _separator(lines, max(4, len(columns)))
    rows, errors, empty = [], [], 0
    expected = columns
    header_seen = False
    for number, line in enumerate(lines, start=1):
        cells = [cell.strip() for cell in next(csv.reader(io.StringIO(line), delimiter=delimiter), [])]
        if not any(cells):
            empty += 1
            continue
        if not header_seen:
            header_seen = True
            keys = [_header_key(cell) for cell in cells]
            if any(keys):
                if None in keys or len(set(keys)) != len(keys) or not {"surname", "first_name"} <= set(keys) \
                        or ("team" in expected) != ("team" in keys):
                    names = {"team": "équipe", "licence": "licence", "surname": "nom", "first_name": "prénom",
                             "club": "club"}
                    errors.append((number, "en-tête non reconnu : colonnes attendues "
                                           + ";".join(names[c] for c in expected)))
                    return rows, errors, empty
                columns = tuple(keys)
                continue
        while len(cells) > len(columns) and cells[-1] == "":
            cells.pop()  # a trailing separator
        if len(cells) != len(columns):
            shown = "tabulation" if delimiter == "\t" else delimiter
            errors.append((number, f"{len(cells)} colonne{'s' if len(cells) > 1 else ''} au lieu de {len(columns)} "
                                   f"({';'.join(columns)}), séparateur « {shown} »"))
            continue
        row = dict.fromkeys(expected, "")
        row.update(zip(columns, cells))
        rows.append((number, row))
    return rows, errors, empty
