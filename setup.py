"""The rules engines' build: compiled to C by mypyc where this machine can, else pure Python.

Everything else about the project is in pyproject.toml; this file only adds the compiled modules.
Which modules are compiled, how the build falls back and how a process chooses a build are in
``rules/build.py`` (read by this file and by ``rules/__init__.py``), and in docs/architecture.md,
"The compiled rules".

``RULES_EXPLORER_BUILD`` at install time:
- ``auto`` (or unset): compile when a C compiler and Python's headers are here, else install the pure
  Python rules and say so in one line (``make`` prints it after installing, from ``rules/_build.json``);
- ``compiled``: compile, or fail the install saying why;
- ``pure``: do not compile.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# rules/build.py, by its path (importing the package would import the rules themselves).
_spec = importlib.util.spec_from_file_location("rules_build", ROOT / "rules" / "build.py")
assert _spec is not None and _spec.loader is not None
rules_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rules_build)


def say(line: str) -> None:
    print(f"rules-explorer: {line}", file=sys.stderr, flush=True)


def compiler_missing() -> str | None:
    """Why C extensions cannot be built here (no compiler, no Python headers), or None when they can:
    a one-line C file that includes Python.h is compiled."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler, get_python_inc

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "probe.c")
        source.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        program = "the C compiler"
        try:
            compiler = new_compiler()
            customize_compiler(compiler)
            program = " ".join(getattr(compiler, "compiler_so", [])[:1]) or program
            compiler.compile([str(source)], output_dir=folder, include_dirs=[get_python_inc()])
        except Exception as error:      # (CompileError, DistutilsPlatformError, OSError..., from either distutils)
            return f"no working C compiler with Python's headers ({program} could not compile one: {type(error).__name__})"
    return None


class BuildRules(build_ext):
    """build_ext that compiles one extension's C files on every core (mypyc writes one C file per
    module, setuptools would compile them one after another), and writes the build's manifest
    (``rules/_build.json``: which build, why, and the SHA-256 of every source of ``rules/``) beside
    the modules; a build that fails leaves the manifest of a pure build (unless compiling was required)."""

    def run(self) -> None:
        global BUILD, REASON
        try:
            super().run()
        except Exception as error:      # (setuptools' CompileError, LinkError...: a build that failed)
            if wanted == "compiled":
                raise
            BUILD, REASON = "pure", f"compiling failed ({type(error).__name__}: {str(error).splitlines()[0][:200]})"
            say(f"{REASON}: the rules are installed as pure Python")
        self.write_manifest()

    def build_extension(self, ext) -> None:
        compile_one = self.compiler.compile

        def in_parallel(sources, *args, **kwargs):
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                parts = pool.map(lambda source: compile_one([source], *args, **kwargs), sources)
                return [obj for part in parts for obj in part]

        self.compiler.compile = in_parallel
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_one

    def write_manifest(self) -> None:
        write_manifest(Path(self.get_ext_fullpath("rules._build")).parent)


def write_manifest(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    manifest = rules_build.manifest(ROOT, BUILD, REASON, SOURCES_READ)
    (folder / rules_build.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")


def compiled_extensions() -> list:
    from mypyc.build import mypycify

    sources = [str(path.relative_to(ROOT)) for path in rules_build.compiled_sources(ROOT)]
    extensions = mypycify(["--config-file", str(ROOT / "pyproject.toml"), *sources], opt_level=rules_build.OPT_LEVEL,
                          debug_level="0", multi_file=True, group_name=rules_build.GROUP)
    # mypyc writes the shared library's headers into build/rules/ (its group lives in the package)
    # but includes them as if they were in build/.
    for extension in extensions:
        extension.include_dirs.append(str(Path("build", *rules_build.GROUP.split(".")[:-1])))
    return extensions


wanted = os.environ.get(rules_build.SWITCH, "auto") or "auto"
#: The sources' digests as the build reads them (before mypyc does): the manifest holds these, so a file
#: edited while the C compiler runs is found changed afterwards, not taken for the one compiled.
SOURCES_READ = rules_build.all_sources(ROOT)
if wanted not in rules_build.CHOICES:
    sys.exit(f"rules-explorer: {rules_build.SWITCH}={wanted!r}: say {', '.join(rules_build.CHOICES[:-1])} or {rules_build.CHOICES[-1]}")
extensions: list = []
BUILD, REASON = "pure", f"{rules_build.SWITCH}=pure"
if wanted != "pure":
    missing = compiler_missing()
    if missing is None:
        extensions = compiled_extensions()
        BUILD, REASON = "compiled", "mypyc"
    elif wanted == "compiled":
        sys.exit(f"rules-explorer: {rules_build.SWITCH}=compiled, but {missing}")
    else:
        REASON = missing
        say(f"{missing}: the rules are installed as pure Python")

if not extensions:      # (no build_ext then: the manifest of the pure build goes beside the sources)
    write_manifest(ROOT / "rules")
setup(ext_modules=extensions, cmdclass={"build_ext": BuildRules})
