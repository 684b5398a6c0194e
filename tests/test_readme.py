"""The README tells the evening as it is (issue 29 point 16): scorer accounts are made on the tournament's
« Accès » page, said in the step-by-step evening; `make run` and `make test` stay its only set-up commands."""

import pathlib
import re

README = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_evening_says_where_scorer_accounts_are_made():
    evening = " ".join(_section("A tournament evening, step by step").split())
    assert "« Accès » page, « Nouveau compte de marqueur »" in evening


def test_make_run_and_make_test_are_the_only_set_up_commands():
    setup = README.split("## A tournament evening", 1)[0]
    commands = re.findall(r"^(make \w+)", setup, re.M)
    assert sorted(set(commands)) == ["make run", "make test"]
