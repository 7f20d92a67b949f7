"""``python -m controller`` runs the command line."""

import sys

from controller.cli import main

sys.exit(main())
