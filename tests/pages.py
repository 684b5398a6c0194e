"""What a person sees of a page: its visible text, for the checks that look for a word on a screen.

A page carries random tokens — the CSRF token of every form (a hidden input), a table's secret in a link —
and a check over the whole HTML can meet them: ``"W2" not in page`` failed once in two clean-clone runs
because that page's token held « W2 » (issue 32). A short text check reads `visible_text(page)` instead:
the text between the tags, without ``<script>``, ``<style>``, ``<template>``, ``<head>`` (its ``<meta>``
and ``<title>`` included) and without any attribute (``value``, ``href``, ``content``, ``data-…``), so no
token can take part in it. Entities are unescaped and white space collapsed to one space.

A check that means « nowhere in the page », attributes included (``"W1" not in page``: neither shown nor in
a form's value), reads `without_tokens(page)`: the whole HTML with the value of every CSRF input blanked.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_CSRF_INPUT = re.compile(r'<input\b[^>]*\bname="(?:[\w-]+-)?csrf_token"[^>]*>')
_VALUE = re.compile(r'\bvalue="[^"]*"')
_HIDDEN = {"script", "style", "template", "head", "noscript"}


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0  # depth inside elements whose content is not shown

    def handle_starttag(self, tag, attrs):
        if tag in _HIDDEN:
            self.hidden += 1
        self.parts.append(" ")  # a tag separates words, as a browser's layout does for blocks

    def handle_endtag(self, tag):
        if tag in _HIDDEN and self.hidden:
            self.hidden -= 1
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(page) -> str:
    """The visible text of ``page`` (a str of HTML, or a test client's response)."""
    if not isinstance(page, str):
        page = page.get_data(as_text=True)
    parser = _Visible()
    parser.feed(page)
    parser.close()
    return re.sub(r"\s+", " ", "".join(parser.parts)).strip()


def without_tokens(page) -> str:
    """The HTML of ``page`` (a str, or a test client's response) with each CSRF input's value blanked."""
    if not isinstance(page, str):
        page = page.get_data(as_text=True)
    return _CSRF_INPUT.sub(lambda tag: _VALUE.sub('value=""', tag.group(0)), page)
