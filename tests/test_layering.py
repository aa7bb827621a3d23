"""The layers stay layers: read from every module's imports (any import, at any depth)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GIN_COGS = "cogs.gin"
SCREENS = "cogs.gin.screens"
# The flows of the Discord layer: what a command or a button sets going.
FLOWS = {
    f"{GIN_COGS}.{name}"
    for name in (
        "cog",
        "moves",
        "challenges",
        "lobby",
        "moderation",
        "records",
        "reviews",
        "settings",
        "timers",
        "after",
        "opponent",
        "tournament_cog",
        "tournament_commands",
        "tournaments",
        "seasons",
        "rounds",
        "permissions",
    )
}
# Inside the screens, each module imports only those below it.
SCREENS_ORDER = [
    SCREENS,
    f"{SCREENS}.channel",
    f"{SCREENS}.pictures",
    f"{SCREENS}.private",
    f"{SCREENS}.replies",
    f"{SCREENS}.notices",
    f"{SCREENS}.hands",
    f"{SCREENS}.handoff",
    f"{SCREENS}.state",
    f"{SCREENS}.messages",
    f"{SCREENS}.refusals",
    f"{SCREENS}.ledger",
]
# What may read and write the store: the table and tournament services, and start-up.
STORE_USERS = (
    "bot.store",
    "bot.tables",
    "bot.tournaments",
    "bot.client",
    "bot.__main__",
    "bot.config",
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: str) -> dict[str, Path]:
    base = ROOT.joinpath(*package.split("."))
    return {module_name(path): path for path in sorted(base.rglob("*.py"))}


def imports(path: Path) -> Iterator[str]:
    """Every module an import in the file names: ``from a import b`` names ``a.b`` when
    that is a module (Python runs the package ``a`` first, as it does for any of its
    modules), else ``a``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            named = [f"{base}.{alias.name}" for alias in node.names]
            submodules = [name for name in named if name in KNOWN]
            yield from submodules or [base]


ALL = {**modules("bot"), **modules("cogs")}
KNOWN = set(ALL)


def project_imports(path: Path, known: set[str]) -> set[str]:
    return {name for name in imports(path) if name in known}


def test_the_engine_imports_nothing_of_the_project_outside_it() -> None:
    for name, path in modules("bot.gin").items():
        outside = {m for m in project_imports(path, KNOWN) if not m.startswith("bot.gin")}
        assert not outside, f"{name} imports {sorted(outside)}"


def test_only_the_service_and_start_up_use_the_store() -> None:
    for name, path in ALL.items():
        if name.startswith(STORE_USERS):
            continue
        found = {m for m in project_imports(path, KNOWN) if m.startswith("bot.store")}
        assert not found, f"{name} imports {sorted(found)}"


@pytest.mark.parametrize("name", sorted(n for n in ALL if n.startswith(f"{GIN_COGS}.views")))
def test_the_components_import_no_flow(name: str) -> None:
    found = project_imports(ALL[name], KNOWN) & FLOWS
    assert not found, f"{name} imports {sorted(found)}"


def test_the_screens_import_no_flow_and_keep_their_order() -> None:
    for name, path in ALL.items():
        if not name.startswith(SCREENS):
            continue
        found = project_imports(path, KNOWN)
        assert not found & FLOWS, f"{name} imports {sorted(found & FLOWS)}"
        below = SCREENS_ORDER[SCREENS_ORDER.index(name) + 1 :]
        inside = {m for m in found if m.startswith(SCREENS)}
        assert inside <= set(below), f"{name} imports {sorted(inside - set(below))} above it"


def test_no_module_of_the_discord_layer_imports_itself_back() -> None:
    graph = {
        name: {m for m in project_imports(path, KNOWN) if m.startswith(GIN_COGS) and m != name}
        for name, path in ALL.items()
        if name.startswith(GIN_COGS)
    }

    def cycle_from(start: str) -> list[str] | None:
        stack = [(start, [start])]
        seen: set[str] = set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    return [*trail, nxt]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*trail, nxt]))
        return None

    for name in graph:
        cycle = cycle_from(name)
        assert cycle is None, " -> ".join(cycle or [])


# Modules that grow past this are doing more than one job: split them by job.
LONGEST_MODULE = 600
# Where the ceiling holds: the services, the renderers, the Discord layer.
SHORT_PACKAGES = ("bot.tables", "bot.tournaments", "bot.render", GIN_COGS)
# A class past this is doing several jobs: give each its own class.
LONGEST_CLASS = 500


def test_no_module_of_the_services_the_renderers_or_the_discord_layer_is_long() -> None:
    long = {
        name: lines
        for name, path in ALL.items()
        if name.startswith(SHORT_PACKAGES)
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE
    }
    assert not long, long


def test_no_class_is_long() -> None:
    long = {
        f"{name}.{node.name}": length
        for name, path in ALL.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > LONGEST_CLASS
    }
    assert not long, long


# The services' own packages: only they change their services' state.
SERVICES = ("bot.tables", "bot.tournaments")
# Names a service goes by where it is used.
SERVICE_NAMES = {"service", "tables", "tournaments", "seasons"}


def _service_held(node: ast.expr) -> bool:
    """Whether an expression names a service (``service``, ``self.tables``, ``app.service``)."""
    if isinstance(node, ast.Name):
        return node.id in SERVICE_NAMES
    return isinstance(node, ast.Attribute) and node.attr in SERVICE_NAMES


def test_no_module_sets_a_service_attribute_from_outside() -> None:
    """Front ends and siblings hear a service through its events (``bot.tables.events``),
    never by assigning its attributes or filling its lists from outside."""
    found = []
    for name, path in ALL.items():
        if name.startswith(SERVICES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"append", "extend", "add", "insert"}
            ):
                targets = [node.func.value]
            for target in targets:
                if isinstance(target, ast.Attribute) and _service_held(target.value):
                    found.append(f"{name}:{node.lineno}")
    assert not found, found


def test_the_tables_and_the_tournaments_meet_only_through_events() -> None:
    """The tournaments hear the tables' events (``bot.tables.events``) and nothing else of
    them; the tables know nothing of the tournaments."""
    for name, path in ALL.items():
        found = project_imports(path, KNOWN)
        if name.startswith("bot.tables"):
            assert not {m for m in found if m.startswith("bot.tournaments")}, name
        if name.startswith("bot.tournaments"):
            tables = {m for m in found if m.startswith("bot.tables")}
            assert tables <= {"bot.tables.events"}, (name, sorted(tables))


# The application's floors, top to bottom: each imports only floors below it (and the shared
# helpers that belong to none: i18n, settings, config, pools, card art, pacing). The README's
# architecture section names them in this order (checked below), so it stays true.
FLOORS = [
    ("start-up", ("bot.__main__", "bot.client")),
    ("front ends", ("cogs", "bot.web")),
    ("renderers", ("bot.render",)),
    ("services", ("bot.tournaments", "bot.coaching")),
    ("tables", ("bot.tables",)),
    ("store", ("bot.store",)),
    ("engine", ("bot.gin",)),
]


def floor_of(module: str) -> int | None:
    for index, (_, packages) in enumerate(FLOORS):
        if any(module == p or module.startswith(f"{p}.") for p in packages):
            return index
    return None


def test_each_floor_imports_only_floors_below_it() -> None:
    found = []
    for name, path in ALL.items():
        here = floor_of(name)
        if here is None:
            continue
        for imported in project_imports(path, KNOWN):
            there = floor_of(imported)
            if there is not None and there < here:
                found.append(f"{name} ({FLOORS[here][0]}) imports {imported} ({FLOORS[there][0]})")
    assert not found, found


def test_the_readme_names_the_floors_in_their_order() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Architecture\n", 1)[1].split("\n## ", 1)[0]
    named = [
        line.split("**")[1]
        for line in section.splitlines()
        if line.startswith("- **") and line.count("**") >= 2
    ]
    assert named == [name for name, _ in FLOORS]


def _calls(path: Path, name: str) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
        for node in ast.walk(tree)
    )


def test_one_way_in_for_components_and_one_way_to_say_a_change_stands() -> None:
    """Every component enters the error funnel in one place (``_Strict.callback``), and every
    flow says its change stands through ``Flow.committed`` (the gate, the sentence a failed
    answer falls back on, and what shows the change after)."""
    funnels = {name for name, path in ALL.items() if _calls(path, "funnel")}
    assert funnels == {f"{GIN_COGS}.views.base"}, funnels
    said = {
        name
        for name, path in ALL.items()
        if "extras[COMMITTED]" in path.read_text(encoding="utf-8")
    }
    assert said == {f"{GIN_COGS}.after"}, said
