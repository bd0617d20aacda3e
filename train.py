"""Train a zone labeller: the same as `scilabel train` (see --help)."""
import sys

from scilabel.cli import main

if __name__ == "__main__":
    sys.exit(main(["train", *sys.argv[1:]]))
