"""`python -m hcljson_ls` is the `hcljson-ls` command."""

import sys

from .entry import main

sys.exit(main())
