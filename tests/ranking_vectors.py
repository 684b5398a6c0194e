"""Two small tournaments whose rankings were worked out BY HAND from the seed's rules, shared by the
core, API, CLI and printed-ranking tests (issue 17: the weights must be pinned at every layer).

Sources: ``seeds/duplicate-tournaments.txt`` (« 1ère étape : topage », « 2ème étape », « 3ème étape »,
« Le classement en triplettes ») and SPEC §4–§5.  Nothing here calls the application: the expected
values below are typed in, derived in the comments.

INDIVIDUAL — 3 tables, 4 étuis, every player stays at his table (the reader does not need a movement);
the taker of étui 1 is North, of 2 South, of 3 East, of 4 West.  N4 is registered and plays nothing.

    scores (taker's, per defender)        topage with n = 3: best 100, middle 50, worst 0;
                 table 1  table 2  table 3    two equal best share 100 + 50 → 75 each, two equal
    étui 1 (N)       56       62      -56     worst share 50 + 0 → 25 each
    étui 2 (S)       80       80      -52
    étui 3 (E)      -76       60       70
    étui 4 (W)      106      -58      -58

    taker notes T   table 1  table 2  table 3
    étui 1 (N)       50      100        0       (62 > 56 > −56)
    étui 2 (S)       75       75        0       (80 = 80 > −52)
    étui 3 (E)        0       50      100       (70 > 60 > −76)
    étui 4 (W)      100       25       25       (106 > −58 = −58)

Each player attacks once (his line's étui) and defends the three others; a defender's note is
100 − T.  Global = ¼ attack + ¾ defence (individual).

    N1: A 50;  D (100−75 + 100−0 + 100−100)/3 = 125/3;  G = 12.5 + 31.25 = 43.75
    S1: A 75;  D (100−50 + 100−0 + 0)/3 = 150/3 = 50;   G = 18.75 + 37.5 = 56.25
    E1: A 0;   D (50 + 25 + 0)/3 = 25;                  G = 0 + 18.75 = 18.75
    W1: A 100; D (50 + 25 + 100)/3 = 175/3;             G = 25 + 43.75 = 68.75
    N2: A 100; D (25 + 50 + 75)/3 = 50;                 G = 25 + 37.5 = 62.5
    S2: A 75;  D (0 + 50 + 75)/3 = 125/3;               G = 18.75 + 31.25 = 50
    E2: A 50;  D (0 + 25 + 75)/3 = 100/3;               G = 12.5 + 25 = 37.5
    W2: A 25;  D (0 + 25 + 50)/3 = 25;                  G = 6.25 + 18.75 = 25
    N3: A 0;   D (100 + 0 + 75)/3 = 175/3;              G = 0 + 43.75 = 43.75
    S3: A 0;   D (100 + 0 + 75)/3 = 175/3;              G = 43.75
    E3: A 100; D (100 + 100 + 75)/3 = 275/3;            G = 25 + 68.75 = 93.75
    W3: A 25;  D (100 + 100 + 0)/3 = 200/3;             G = 6.25 + 50 = 56.25
    N4: no deal: A and D none, G = 0, flagged (our reading of SPEC §5; `core.ranking`).

    (With ⅓ + ⅔ instead, N1 would be 50/3 + 250/9 = 44.44…, E3 33.33 + 61.11 = 94.44…: every row
    with A ≠ D moves.)

General ranking, ex æquo share the place: E3 93.75 (1), W1 68.75 (2), N2 62.5 (3), S1 = W3 56.25
(4, 4), S2 50 (6), N1 = N3 = S3 43.75 (7, 7, 7), E2 37.5 (10), W2 25 (11), E1 18.75 (12), N4 0 (13).

Alternated ranking: by line, best first (ties inside a line by id): N: N2, N1, N3, N4;
S: S1, S2, S3; E: E3, E2, E1; W: W1, W3, W2.
    firsts:  E3 93.75, W1 68.75, N2 62.5, S1 56.25            → 1, 2, 3, 4
    seconds: W3 56.25, S2 50, N1 43.75, E2 37.5               → 5, 6, 7, 8
    thirds:  N3 43.75 = S3 43.75, W2 25, E1 18.75             → 9, 9 (ex æquo), 11, 12
    fourths: N4                                               → 13
So W3 is 4th in the general ranking but 5th in the alternated one, S3 7th but 9th.

WITH PENALTIES (the same file plus): N2 loses 10 points on étui 1, where he is the TAKER (note
100 → 90); S3 loses 2 and then 3 points on étui 1, where he DEFENDS (note 100 → 95, two penalties
on one étui add up); E3 loses 1.5 and then 2 points off his global % (repeated: 3.5 in all).

    N2: A 90;  D 50;          G = 22.5 + 37.5 = 60
    S3: A 0;   D (95 + 0 + 75)/3 = 170/3;  G = 42.5
    E3: G = 93.75 − 3.5 = 90.25, penalty 3.5 (the per-étui penalties show in the notes, not here)

    general: E3 90.25 (1), W1 (2), N2 60 (3), S1 = W3 (4, 4), S2 (6), N1 = N3 43.75 (7, 7),
             S3 42.5 (9), E2 (10), W2 (11), E1 (12), N4 (13)
    alternated: firsts E3, W1, N2, S1 → 1–4; seconds W3, S2, N1, E2 → 5–8;
                thirds N3 43.75, S3 42.5, W2, E1 → 9, 10, 11, 12; N4 → 13

TRIPLETTES — 3 tables, 4 étuis; NS triplettes attack on étuis 1 and 3, EW on 2 and 4; NSt meets EWt.

    scores          table 1  table 2  table 3   taker notes  t1   t2   t3
    étui 1 (NS)         56       62      -56                 50  100    0
    étui 2 (EW)         80      -52       60                100    0   50
    étui 3 (NS)        -68       70       70                  0   75   75
    étui 4 (EW)        -58      -58       92                 25   25  100

Global = ½ attack + ½ defence.
    NS1: A (50 + 0)/2 = 25;     D (0 + 75)/2 = 37.5;     G 31.25
    NS2: A (100 + 75)/2 = 87.5; D (100 + 75)/2 = 87.5;   G 87.5
    NS3: A (0 + 75)/2 = 37.5;   D (50 + 0)/2 = 25;       G 31.25
    EW1: A (100 + 25)/2 = 62.5; D (50 + 100)/2 = 75;     G 68.75
    EW2: A (0 + 25)/2 = 12.5;   D (0 + 25)/2 = 12.5;     G 12.5
    EW3: A (50 + 100)/2 = 75;   D (100 + 25)/2 = 62.5;   G 68.75
    (With ⅖ + ⅗: NS1 32.5, NS3 30 — the tie breaks.)
    general: NS2 (1), EW1 = EW3 (2, 2), NS1 = NS3 (4, 4), EW2 (6)
    alternated: NS: NS2, NS1, NS3; EW: EW1, EW3, EW2 (ties by id)
        firsts NS2 87.5, EW1 68.75 → 1, 2; seconds EW3 68.75, NS1 31.25 → 3, 4;
        thirds NS3 31.25, EW2 12.5 → 5, 6
"""

from __future__ import annotations

import copy
from fractions import Fraction as F

LINES = "NSEW"
TAKER_LINE = {1: "N", 2: "S", 3: "E", 4: "W"}
INDIVIDUAL_SCORES = {1: (56, 62, -56), 2: (80, 80, -52), 3: (-76, 60, 70), 4: (106, -58, -58)}

# id → (attack, defence, global, general rank, alternated rank); attack/defence None = no deal.
INDIVIDUAL = {
    "N1": (F(50), F(125, 3), F(4375, 100), 7, 7),
    "S1": (F(75), F(50), F(5625, 100), 4, 4),
    "E1": (F(0), F(25), F(1875, 100), 12, 12),
    "W1": (F(100), F(175, 3), F(6875, 100), 2, 2),
    "N2": (F(100), F(50), F(625, 10), 3, 3),
    "S2": (F(75), F(125, 3), F(50), 6, 6),
    "E2": (F(50), F(100, 3), F(375, 10), 10, 8),
    "W2": (F(25), F(25), F(25), 11, 11),
    "N3": (F(0), F(175, 3), F(4375, 100), 7, 9),
    "S3": (F(0), F(175, 3), F(4375, 100), 7, 9),
    "E3": (F(100), F(275, 3), F(9375, 100), 1, 1),
    "W3": (F(25), F(200, 3), F(5625, 100), 4, 5),
    "N4": (None, None, F(0), 13, 13),
}

INDIVIDUAL_PENALTIES = [
    {"player": "N2", "points": 10, "board": 1, "reason": "retard"},
    {"player": "S3", "points": 2, "board": 1, "reason": "donne mal jouée"},
    {"player": "S3", "points": 3, "board": 1, "reason": "récidive"},
    {"player": "E3", "points": 1.5, "reason": "bavardage"},
    {"player": "E3", "points": 2, "reason": "bavardage, deuxième fois"},
]
# What changes with the penalties: id → (attack, defence, global, penalty, general, alternated).
PENALISED = {
    "N2": (F(90), F(50), F(60), F(0), 3, 3),
    "S3": (F(0), F(170, 3), F(425, 10), F(0), 9, 10),
    "E3": (F(100), F(275, 3), F(9025, 100), F(35, 10), 1, 1),
    "N1": (F(50), F(125, 3), F(4375, 100), F(0), 7, 7),
    "N3": (F(0), F(175, 3), F(4375, 100), F(0), 7, 9),
}

TRIPLETTES_SCORES = {1: (56, 62, -56), 2: (80, -52, 60), 3: (-68, 70, 70), 4: (-58, -58, 92)}
TRIPLETTES = {
    "NS1": (F(25), F(375, 10), F(3125, 100), 4, 4),
    "NS2": (F(875, 10), F(875, 10), F(875, 10), 1, 1),
    "NS3": (F(375, 10), F(25), F(3125, 100), 4, 5),
    "EW1": (F(625, 10), F(75), F(6875, 100), 2, 2),
    "EW2": (F(125, 10), F(125, 10), F(125, 10), 6, 6),
    "EW3": (F(75), F(625, 10), F(6875, 100), 2, 3),
}


def individual_file(penalties: bool = False) -> dict:
    """The individual tournament as a SPEC §9 ``tarot-tournament/1`` dict."""
    players = [{"id": f"{line}{table}", "name": f"JOUEUR {line}{table}", "line": line}
               for table in (1, 2, 3) for line in LINES]
    players.append({"id": "N4", "name": "JOUEUR N4", "line": "N"})
    results = []
    for board, scores in INDIVIDUAL_SCORES.items():
        for table, score in enumerate(scores, start=1):
            taker = f"{TAKER_LINE[board]}{table}"
            defenders = [f"{line}{table}" for line in LINES if line != TAKER_LINE[board]]
            results.append({"board": board, "table": table, "position": 1, "taker": taker,
                            "defenders": defenders, "score": score})
    data = {"format": "tarot-tournament/1", "name": "Poids à la main", "kind": "individual",
            "players": players, "boards": [{"number": b, "taker": TAKER_LINE[b]} for b in INDIVIDUAL_SCORES],
            "results": results}
    if penalties:
        data["penalties"] = copy.deepcopy(INDIVIDUAL_PENALTIES)
    return data


def triplettes_file() -> dict:
    """The triplettes tournament as a SPEC §9 ``tarot-tournament/1`` dict."""
    players, teams = [], []
    for table in (1, 2, 3):
        for line in ("NS", "EW"):
            members = [f"{line}{table}-{k}" for k in (1, 2, 3)]
            players += [{"id": m, "name": f"JOUEUR {m}"} for m in members]
            teams.append({"id": f"{line}{table}", "name": f"ÉQUIPE {line}{table}", "line": line,
                          "members": members})
    results = []
    for board, scores in TRIPLETTES_SCORES.items():
        attack, defence = ("NS", "EW") if board % 2 else ("EW", "NS")
        for table, score in enumerate(scores, start=1):
            results.append({"board": board, "table": table, "position": 1, "taker_team": f"{attack}{table}",
                            "defence_team": f"{defence}{table}", "score": score})
    return {"format": "tarot-tournament/1", "name": "Triplettes à la main", "kind": "triplettes",
            "players": players, "teams": teams,
            "boards": [{"number": b, "taker": "N" if b % 2 else "E"} for b in TRIPLETTES_SCORES],
            "results": results}


def french(value: F) -> str:
    """Two decimals, half away from zero, decimal comma — typed here, not taken from the app."""
    hundredths = value * 100
    whole = int(hundredths)  # toward zero
    if abs(hundredths - whole) >= F(1, 2):
        whole += 1 if hundredths > 0 else -1
    sign = "-" if whole < 0 else ""
    whole = abs(whole)
    return f"{sign}{whole // 100},{whole % 100:02d}"
