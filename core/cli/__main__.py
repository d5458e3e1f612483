"""`python -m core.cli` runs the command line."""
import sys

from core.cli.main import main

sys.exit(main())
