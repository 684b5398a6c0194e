"""Answers of the polled screens that say « nothing new » cheaply (issue 30).

The arbiter's grid, the projector and the tables' phones ask again every second or so. Each answer carries
``ETag: W/"<hall version>"`` (`operations.hall_version`, read before the data: never newer than them); a
request that sends it back (``If-None-Match``) while it still holds gets ``304`` and no body, before the
view computes anything. Weak tags: the same data compressed or not (Flask-Compress) are one version.
"""

from flask import make_response, request


def unchanged(version: str):
    """``304`` when the screen already holds what ``version`` names (its ``If-None-Match``), else None."""
    if request.if_none_match.contains_weak(version):
        response = make_response("", 304)
        response.headers["Cache-Control"] = "no-store"
        response.set_etag(version, weak=True)
        return response
    return None


def tagged(response, version: str):
    """A screen's answer with the hall version it was computed from."""
    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    response.set_etag(version, weak=True)
    return response
