"""``python -m duplicate deal|score|rank|movement ...``: the core commands of SPEC §10 without Flask.

The same commands as ``flask --app app deal|score|rank|movement`` (`duplicate.core_cli`), the same output,
messages and exit statuses. ``rank FILE`` alone runs without click (`duplicate.rank.fast_rank`: only Python
and `duplicate.core` are loaded); anything else goes through click (`duplicate.core_cli.main`).
"""

import sys

from duplicate.rank import fast_rank

if not fast_rank(sys.argv[1:]):
    from duplicate.core_cli import main

    main()
