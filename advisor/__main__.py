"""Allow ``python -m advisor``."""

from advisor.cli import main

if __name__ == "__main__":
    main()
