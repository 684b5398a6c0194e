"""Free play (SPEC §13): the arbiter's pages (`arbiter`), the scorers' entry of the feuilles (`scoring`),
the phone entry at the table (`table`), and the guard that closes the duplicate-only pages to a free-play
tournament and the free-play pages to a duplicate one (`guard`). The package imports none of its views:
`duplicate.web.init_app` does."""
