"""The project's Docker image, built from its own Dockerfile and run as Docker would run it.

Docker's daemon cannot run on the machines this project is built on; Debian's `buildah` builds
and runs the same image (see the README's "Testing the image"). The stand-in for the
`python:3.11-slim` base is made once from Debian's packages (bookworm ships Python 3.11) and
kept outside the clone, in `GIN_IMAGE_CACHE` (default `/var/cache/gin-image`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("GIN_IMAGE_CACHE", "/var/cache/gin-image"))
BASE = "docker.io/library/python:3.11-slim"
TOOLS = ("buildah", "podman", "debootstrap")
DEBIAN_MIRROR = "http://deb.debian.org/debian"
# buildah's defaults ask for more processes and files than these machines allow.
CONTAINERS_CONF = """\
[containers]
default_ulimits = ["nproc=32768:32768", "nofile=20000:20000"]
pids_limit = 0
"""


class ImageError(AssertionError):
    """The image could not be made or run; the message says which step and why."""


def environment() -> dict[str, str]:
    """The environment buildah and podman run in here."""
    CACHE.mkdir(parents=True, exist_ok=True)
    conf = CACHE / "containers.conf"
    if not conf.exists() or conf.read_text() != CONTAINERS_CONF:
        conf.write_text(CONTAINERS_CONF)
    return {**os.environ, "CONTAINERS_CONF": str(conf)}


def _run(args: list[str], *, timeout: float = 600, what: str) -> str:
    done = subprocess.run(
        args, env=environment(), capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr)[-3000:]
        raise ImageError(f"{what} failed (exit {done.returncode}): {' '.join(args)}\n{tail}")
    return done.stdout


def check_tools() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        raise ImageError(
            f"{', '.join(missing)} missing: apt-get install -y podman buildah debootstrap"
        )


def ensure_base() -> None:
    """The stand-in for python:3.11-slim, made once (about a minute) and kept."""
    exists = subprocess.run(
        ["podman", "image", "exists", BASE], env=environment(), check=False
    ).returncode
    if exists == 0:
        return
    archive = CACHE / "python-3.11-slim.tar"
    if not archive.exists():
        rootfs = CACHE / "rootfs"
        shutil.rmtree(rootfs, ignore_errors=True)
        packages = "python3,python3-pip,python3-venv,ca-certificates,passwd"
        _run(
            [
                "debootstrap",
                "--variant=minbase",
                f"--include={packages}",
                "bookworm",
                str(rootfs),
                DEBIAN_MIRROR,
            ],
            what="debootstrap of the base image",
        )
        (rootfs / "usr/bin/python").symlink_to("python3")
        (rootfs / "usr/lib/python3.11/EXTERNALLY-MANAGED").unlink(missing_ok=True)
        for leftover in [
            *(rootfs / "var/lib/apt/lists").glob("*_*"),
            *(rootfs / "var/cache/apt/archives").glob("*.deb"),
        ]:
            leftover.unlink()
        partial = archive.with_suffix(".partial")
        _run(["tar", "-C", str(rootfs), "-cf", str(partial), "."], what="packing the base")
        partial.rename(archive)
        shutil.rmtree(rootfs, ignore_errors=True)
    _run(
        [
            "podman",
            "import",
            "--change",
            'CMD ["python3"]',
            "--change",
            "ENV LANG=C.UTF-8",
            str(archive),
            BASE,
        ],
        what="importing the base image",
    )


def build(tag: str) -> None:
    """`docker build -t TAG .`, from the project's own Dockerfile, as buildah does it."""
    mounts = ["-v", "/etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro"]
    if Path("/etc/pip.conf").exists():  # the machine's way to the package index
        mounts += ["-v", "/etc/pip.conf:/etc/pip.conf:ro"]
    _run(
        [
            "buildah",
            "bud",
            "--isolation",
            "chroot",
            "--pull=never",
            "--format",
            "docker",
            *mounts,
            "-t",
            tag,
            str(ROOT),
        ],
        what="building the image",
    )


@dataclass(frozen=True)
class ImageConfig:
    entrypoint: list[str]
    cmd: list[str]
    user: str
    workdir: str
    env: dict[str, str]
    volumes: list[str]
    stop_signal: str


def inspect(tag: str) -> ImageConfig:
    data = json.loads(_run(["buildah", "inspect", "--type", "image", tag], what="inspect"))
    config = data["OCIv1"]["config"]
    env = dict(item.split("=", 1) for item in config.get("Env") or [])
    return ImageConfig(
        entrypoint=list(config.get("Entrypoint") or []),
        cmd=list(config.get("Cmd") or []),
        user=config.get("User", ""),
        workdir=config.get("WorkingDir", ""),
        env=env,
        volumes=sorted(config.get("Volumes") or {}),
        stop_signal=config.get("StopSignal", ""),
    )


def env_file(path: Path) -> dict[str, str]:
    """What `docker run --env-file PATH` sets: each `NAME=VALUE` line as it is (no quotes
    removed, nothing expanded); blank lines and `#` comments skipped."""
    values: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, value = line.partition("=")
        values[name] = value
    return values


@dataclass
class Running:
    """One `docker run` of the image: its process (buildah's) and its output."""

    process: subprocess.Popen[bytes]
    log: Path

    def init_pid(self, timeout: float = 30) -> int:
        """The container's PID 1 (the image's entrypoint, which `docker stop` signals)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for pid in _descendants(self.process.pid):
                try:
                    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if argv and Path(argv[0].decode()).name == "dumb-init":
                    return pid
            if self.process.poll() is not None:
                raise ImageError(f"the container exited first:\n{self.output()}")
            time.sleep(0.05)
        raise ImageError("the container's init did not start")

    def stop(self) -> None:
        """`docker stop`: SIGTERM to the container's PID 1."""
        os.kill(self.init_pid(), signal.SIGTERM)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def run(
    tag: str,
    command: list[str],
    *,
    env: Mapping[str, str],
    volumes: Mapping[Path, str],
    log: Path,
) -> Iterator[Running]:
    """`docker run --network host -v ... --env ... TAG COMMAND` (the command replaces the
    image's CMD and runs under its ENTRYPOINT, as Docker runs it)."""
    container = _run(["buildah", "from", "--pull=never", tag], what="buildah from").strip()
    try:
        # Without this buildah mounts an anonymous volume of its own over the one given.
        for target in volumes.values():
            _run(["buildah", "config", "--volume", f"{target}-", container], what="config")
        args = ["buildah", "run", "--isolation", "chroot", "--network", "host"]
        for source, target in volumes.items():
            args += ["-v", f"{source}:{target}"]
        for name, value in env.items():
            args += ["--env", f"{name}={value}"]
        entrypoint = inspect(tag).entrypoint
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [*args, container, "--", *entrypoint, *command],
                env=environment(),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            yield Running(process, log)
        finally:
            if process.poll() is None:
                for pid in reversed(_descendants(process.pid)):
                    _kill(pid)
                process.kill()
            process.wait(timeout=30)
    finally:
        subprocess.run(
            ["buildah", "rm", container], env=environment(), capture_output=True, check=False
        )


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _kill(pid: int) -> None:
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
