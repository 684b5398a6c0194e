"""The tournament menu of the arbiter's pages (issue 29 point 15), defined here once: the links grouped by
the evening — « Préparer », « Jouer », « Résultats » — then « Tournoi », what concerns the tournament as a
whole. Each link names the `Format` flag its screen needs (`core.formats`); ``arbiter_menu(tournament)``
gives ``templates/arbiter/layout.html`` the groups of that tournament, its links in order.

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


def _duplicate(fmt: Format) -> bool:
    return not fmt.free_play


def _free(fmt: Format) -> bool:
    return fmt.free_play


def _teams(fmt: Format) -> bool:
    return not fmt.ranks_players


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
        MenuLink("arbiter.draw", "Placement", _duplicate),
        MenuLink("arbiter.boards", "Étuis", _duplicate),
        MenuLink("arbiter.movement", "Mouvement", _duplicate),
        MenuLink("arbiter.free_movement", "Mouvement", _free),
        MenuLink("arbiter.team_match", "Match", _team_match),
        MenuLink("arbiter.tables", "Tables", _duplicate),
        MenuLink("printing.index", "Impression"),
    )),
    ("Jouer", (
        MenuLink("arbiter.live_room", "Salle", _duplicate),
        MenuLink("scoring.overview", "Saisie", _duplicate),
        MenuLink("arbiter.evening", "Changements", _duplicate),
        MenuLink("arbiter.team_match_sheet", "Feuille de marque", _team_match),
        MenuLink("arbiter.free_sheets", "Feuilles de marque", _free),
    )),
    ("Résultats", (
        MenuLink("arbiter.results_overview", "Résultats", _duplicate),
        MenuLink("arbiter.free_ranking", "Classement", _free),
        MenuLink("web.results", "Classements publics"),
        MenuLink("arbiter.private_links", "Feuilles de route", _duplicate),
    )),
    ("Tournoi", (
        MenuLink("arbiter.tournament_series", "Compétition", _duplicate),
        MenuLink("arbiter.journal", "Journal"),
        MenuLink("arbiter.access", "Accès"),
        MenuLink("arbiter.export_tournament", "Exporter (JSON)"),
    )),
)


@bp.app_template_global("arbiter_menu")
def arbiter_menu(tournament) -> list[tuple[str, list[MenuLink]]]:
    """The menu's groups for ``tournament``'s format: (heading, links shown)."""
    fmt = tournament.format
    return [(title, [link for link in links if link.shown(fmt)]) for title, links in MENU]
