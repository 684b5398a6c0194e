"""Answers of the polled screens that say « nothing new » cheaply (issue 30).

The arbiter's grid, the projector, the tables' phones and the public results page ask again every second or
so. Each answer carries ``ETag: W/"<version>"`` — `operations.hall_version` (the grid, the projector),
`operations.table_watch` (a phone), the data version (the results page) — read before the data, so never
newer than them; a request that sends it back (``If-None-Match``) while it still holds gets ``304`` and no
body, before the view computes anything. Weak tags: the same data compressed or not (Flask-Compress) are
one version.
"""

from flask import make_response, request

from duplicate import operations


def unchanged(version: str):
    """``304`` when the screen already holds what ``version`` names (its ``If-None-Match``), else None."""
    if request.if_none_match.contains_weak(version):
        response = make_response("", 304)
        response.headers["Cache-Control"] = "no-store"
        response.set_etag(version, weak=True)
        return response
    return None


def hall_unchanged(session, tournament):
    """The hall's version (`operations.hall_version`), read before the data, and ``304`` when the screen
    already holds it (else None): the arbiter's grid's and the projector's first question."""
    version = operations.hall_version(session, tournament)
    return version, unchanged(version)


def tagged(response, version: str):
    """A screen's answer with the hall version it was computed from."""
    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    response.set_etag(version, weak=True)
    return response
