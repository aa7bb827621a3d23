"""The page the bot serves (bot/web/static, committed so that the README's commands need no
Node.js) is the one its sources build: a fresh `npm ci` and `vite build` of activity/ gives the
very same files, and the page with the SDK stays within 150 KB gzipped."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "activity"
SERVED = ROOT / "bot" / "web" / "static"
LARGEST = 150 * 1024  # bytes gzipped: the page, its styles and the SDK together


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_served_page_is_small() -> None:
    served = files(SERVED)
    assert "index.html" in served and any(name.endswith(".js") for name in served)
    size = sum(len(gzip.compress(data, 9)) for data in served.values())
    assert size <= LARGEST, f"{size} bytes gzipped"


def test_the_served_page_is_built_from_the_sources(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("GIN_REQUIRE_BROWSER") == "1":
            pytest.fail("the page's build check needs Node.js 20 and npm", pytrace=False)
        pytest.skip("the page's build check needs Node.js 20 and npm")
    work = tmp_path / "activity"
    work.mkdir()
    for name in (
        "package.json",
        "package-lock.json",
        "index.html",
        "vite.config.ts",
        "tsconfig.json",
    ):
        shutil.copy(SOURCES / name, work / name)
    shutil.copytree(SOURCES / "src", work / "src")
    quiet = {"capture_output": True, "text": True, "cwd": work, "timeout": 240}
    installed = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], check=False, **quiet)
    assert installed.returncode == 0, installed.stderr[-2000:]
    checked = subprocess.run([npm, "exec", "--", "tsc", "--noEmit"], check=False, **quiet)
    assert checked.returncode == 0, checked.stdout[-2000:]
    out = tmp_path / "built"
    built = subprocess.run(
        [npm, "exec", "--", "vite", "build", "--outDir", str(out), "--emptyOutDir"],
        check=False,
        **quiet,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    fresh, served = files(out), files(SERVED)
    assert sorted(fresh) == sorted(served), "rebuild it: cd activity && npm ci && npm run build"
    for name, data in fresh.items():
        assert served[name] == data, f"{name} differs from a fresh build: npm run build"
