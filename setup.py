"""Build hook: ship the top-level `grammars/*.lark` inside the package as `hcljson_ls/grammars/`.

All project metadata lives in pyproject.toml; this file only adds the copy step to `build_py`,
so a plain `pip install .` (or `pip wheel .`) puts the grammars where
`importlib.resources.files("hcljson_ls") / "grammars"` finds them. In an editable install
(`pip install -e .`) the package is imported from `server/`, so code that loads a grammar must fall
back to the repository's `grammars/` directory when the packaged copy is absent.
"""

from __future__ import annotations

import glob
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
GRAMMARS = os.path.join(HERE, "grammars")
#: The diagnostics reference, shipped as `hcljson_ls/docs/diagnostics.md`: what `check --format
#: sarif` links each rule to in an installed package (see `cli.default_docs_url`).
DIAGNOSTICS_DOC = os.path.join(HERE, "docs", "diagnostics.md")


class build_py_with_grammars(build_py):
    """`build_py` that also copies `grammars/*.lark` to `<build_lib>/hcljson_ls/grammars/`."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # editable installs import from the source tree
        target = os.path.join(self.build_lib, "hcljson_ls", "grammars")
        self.mkpath(target)
        for source in sorted(glob.glob(os.path.join(GRAMMARS, "*.lark"))):
            self.copy_file(source, os.path.join(target, os.path.basename(source)))
        docs = os.path.join(self.build_lib, "hcljson_ls", "docs")
        self.mkpath(docs)
        self.copy_file(DIAGNOSTICS_DOC, os.path.join(docs, "diagnostics.md"))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        target = os.path.join(self.build_lib, "hcljson_ls", "grammars")
        outputs += [os.path.join(target, os.path.basename(s)) for s in sorted(glob.glob(os.path.join(GRAMMARS, "*.lark")))]
        outputs.append(os.path.join(self.build_lib, "hcljson_ls", "docs", "diagnostics.md"))
        return outputs


setup(cmdclass={"build_py": build_py_with_grammars})
