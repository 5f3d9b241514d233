"""``python -m citadels``: the same as the ``citadels`` command."""

from citadels.cli import main

if __name__ == "__main__":
    main()
