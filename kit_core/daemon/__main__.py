import sys

from kit_core.daemon.server import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
