"""``python -m duplicate deal|score|rank|movement ...``: the core commands of SPEC §10 without Flask.

The same commands as ``flask --app app deal|score|rank|movement`` (`duplicate.core_cli`), the same output and
messages; this way only Python, click and `duplicate.core` are loaded (``flask`` itself costs ~0.1 s to import
before it reads ``--app``), which matters for ``rank`` on a big tournament file.
"""

from duplicate.core_cli import main

main()
