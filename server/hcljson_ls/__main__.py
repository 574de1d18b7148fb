"""`python -m hcljson_ls` is the `hcljson-ls` command."""

import sys

from .cli import main

sys.exit(main())
