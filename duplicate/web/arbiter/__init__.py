"""The arbiter's screens, under ``/arbitre`` (the ``arbiter`` blueprint): one module per concern —
`tournaments` (list, creation, dashboard, publication, time zone), `registration` (players, teams, draw),
`boards` (étuis), `movement`, `interchange` (import and export), `players` (the evening's changes),
`results`, `journal`, `tables`, `team_match`, `teams_csv`, `attackers`, `accounts`, `live` (the live room),
`printing` and `menu` (the tournament menu of every arbiter page). The package imports none of them:
`duplicate.web.init_app` does."""
