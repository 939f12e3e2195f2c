"""`python -m beattrainer` runs the command line."""
from beattrainer.cli import main

if __name__ == "__main__":
    main()
