"""The tournament menu of the arbiter's pages (issue 29 point 15), defined here once: the links grouped by
the evening — « Préparer », « Jouer », « Résultats » — then « Tournoi », what concerns the tournament as a
whole. A link is shown where its page serves the tournament (`freeplay.guard.serves`: free play's pages,
the duplicate's, or both) and where the `Format` question it names, if any, says so (`core.formats`);
``arbiter_menu(tournament)`` gives ``templates/arbiter/layout.html`` the groups of that tournament, its links
in order.

Our choices: « Tableau de bord » opens « Préparer » (it lists the preparation and names the next step);
« Impression » is there too (the pack is printed before play); « Changements » (late players, substitutes,
withdrawals) is in « Jouer »; « Feuilles de route » in « Résultats » (what each player reads of the
evening). Free play has its own screens for the movement, the feuilles de marque and the ranking, and none
of the étuis, the hall's clock, the tables' codes or the competitions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from duplicate.core.formats import Format
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.freeplay.guard import serves


def _teams(fmt: Format) -> bool:
    return fmt.has_teams


def _team_match(fmt: Format) -> bool:
    return fmt.has_team_match_pages


def _always(fmt: Format) -> bool:
    return True


@dataclass(frozen=True)
class MenuLink:
    endpoint: str
    label: str
    shown: Callable[[Format], bool] = _always


MENU: tuple[tuple[str, tuple[MenuLink, ...]], ...] = (
    ("Préparer", (
        MenuLink("arbiter.dashboard", "Tableau de bord"),
        MenuLink("arbiter.players", "Joueurs"),
        MenuLink("arbiter.teams", "Équipes", _teams),
        MenuLink("arbiter.draw", "Placement"),
        MenuLink("arbiter.boards", "Étuis"),
        MenuLink("arbiter.movement", "Mouvement"),
        MenuLink("arbiter.free_movement", "Mouvement"),
        MenuLink("arbiter.team_match", "Match", _team_match),
        MenuLink("arbiter.tables", "Tables"),
        MenuLink("printing.index", "Impression"),
    )),
    ("Jouer", (
        MenuLink("arbiter.live_room", "Salle"),
        MenuLink("scoring.overview", "Saisie"),
        MenuLink("arbiter.evening", "Changements"),
        MenuLink("arbiter.team_match_sheet", "Feuille de marque", _team_match),
        MenuLink("arbiter.free_sheets", "Feuilles de marque"),
    )),
    ("Résultats", (
        MenuLink("arbiter.results_overview", "Résultats"),
        MenuLink("arbiter.free_ranking", "Classement"),
        MenuLink("web.results", "Classements publics"),
        MenuLink("arbiter.private_links", "Feuilles de route"),
    )),
    ("Tournoi", (
        MenuLink("arbiter.tournament_series", "Compétition"),
        MenuLink("arbiter.journal", "Journal"),
        MenuLink("arbiter.access", "Accès"),
        MenuLink("arbiter.export_tournament", "Exporter (JSON)"),
    )),
)


@bp.app_template_global("arbiter_menu")
def arbiter_menu(tournament) -> list[tuple[str, list[MenuLink]]]:
    """The menu's groups for ``tournament``: (heading, links shown) — the links of the pages that serve it
    (`freeplay.guard.serves`: the duplicate's or free play's) and that its format asks for."""
    fmt = tournament.format
    return [(title, [link for link in links if serves(link.endpoint, tournament) and link.shown(fmt)])
            for title, links in MENU]
