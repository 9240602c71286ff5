"""`python -m kit_lsp` = `kit-lsp`."""

import sys

if any(a in ("-version", "--version", "-v") for a in sys.argv[1:]):
    from kit_core import __version__

    print(f"kit-lsp {__version__}")  # without importing the server (fast)
    sys.exit(0)

from kit_lsp.server import main  # noqa: E402

main()
