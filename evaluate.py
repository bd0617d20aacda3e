"""Evaluate labellers per label: the same as `scilabel evaluate` (see --help)."""
import sys

from scilabel.cli import main

if __name__ == "__main__":
    sys.exit(main(["evaluate", *sys.argv[1:]]))
