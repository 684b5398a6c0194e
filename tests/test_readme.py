"""The README tells the evening as it is (issue 29 point 16): scorer accounts are made on the tournament's
« Accès » page, said in the step-by-step evening; `make run` and `make test` stay its only set-up commands.

The README is a front door and `docs/` the reference (issue 32): the README stays short and points at
`docs/`, every page of `docs/` is listed in its index, every relative link of the README and the docs leads to
a file, the layout of the code names every module, and the mutation count said outside
docs/mutation-survivors.md is that page's newest whole run."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"


def _section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_evening_says_where_scorer_accounts_are_made():
    evening = " ".join(_section("A tournament evening, step by step").split())
    assert "« Accès » page, « Nouveau compte de marqueur »" in evening


def test_make_run_and_make_test_are_the_only_set_up_commands():
    setup = README.split("## A tournament evening", 1)[0]
    commands = re.findall(r"^(make \w+)", setup, re.M)
    assert sorted(set(commands)) == ["make run", "make test"]


def test_the_readme_is_a_front_door():
    assert len(README.splitlines()) <= 200
    assert [line for line in README.splitlines() if line.startswith("## ")] == [
        "## A tournament evening, step by step", "## A hosted instance: several processes on PostgreSQL",
        "## Where to read more"]
    assert "(docs/README.md)" in README


def test_every_docs_page_is_in_the_index():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\]\(([\w.-]+\.md)\)", index))
    pages = {path.name for path in DOCS.glob("*.md")} - {"README.md"}
    assert pages - listed == set()


def test_every_relative_link_leads_to_a_file():
    for page in [ROOT / "README.md", *DOCS.glob("*.md")]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            assert (page.parent / target.split("#", 1)[0]).exists(), f"{page.name}: {target}"


def test_the_layout_names_every_module():
    """docs/layout.md's tree: a line's indentation (two spaces a level) says its folder. Under duplicate/ it
    names every module and every folder that holds one, and nothing else; elsewhere, nothing that does not
    exist."""
    tree = (DOCS / "layout.md").read_text(encoding="utf-8").split("```", 2)[1]
    named, path = set(), []
    for line in tree.splitlines():
        found = re.match(r"^( *)([^\s#]+)", line)
        if found:
            path = path[:len(found.group(1)) // 2] + [found.group(2)]
            named.add("".join(path))
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "duplicate").rglob("*.py")}
    folders = {f"{module.rsplit('/', 1)[0]}/" for module in modules}
    assert modules - named == set()
    assert {name for name in named if name.startswith("duplicate/")} - modules - folders == set()
    assert {name for name in named if not (ROOT / name).exists()} == set()


def test_the_mutation_count_is_the_newest_whole_run():
    survivors = (DOCS / "mutation-survivors.md").read_text(encoding="utf-8")
    newest = re.search(r"\*\*all \d+ modules\*\* \| \*\*([\d ]+)\*\*", survivors).group(1)
    for said in ((ROOT / "Makefile").read_text(encoding="utf-8"), (DOCS / "testing.md").read_text(encoding="utf-8")):
        counts = set(re.findall(r"(\d[\d ]*\d) mutants\b", " ".join(said.split())))
        assert newest in counts
    assert "mutants" not in README
