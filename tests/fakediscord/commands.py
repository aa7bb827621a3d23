"""Registered application commands, and turning a test's call into Discord's option payload."""

from __future__ import annotations

from typing import Any, NoReturn

from .errors import CommandError
from .models import Channel, Guild, Member, Payload, Role, User

OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP = 1, 2
OPT_STRING, OPT_INTEGER, OPT_BOOLEAN, OPT_USER = 3, 4, 5, 6
OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = 7, 8, 9, 10, 11

Scope = int | None  # a guild id, or None for global commands


class CommandRegistry:
    """What the bot synced: bulk overwrites keep a command's id when its name and type stay."""

    def __init__(self) -> None:
        self.scopes: dict[Scope, dict[str, Payload]] = {}
        self.sync_count = 0

    def overwrite(
        self, scope: Scope, app_id: int, commands: list[Payload], new_id: Any
    ) -> list[Payload]:
        old = self.scopes.get(scope, {})
        stored: dict[str, Payload] = {}
        for command in commands:
            kind = int(command.get("type", 1))
            previous = old.get(command["name"])
            same = previous is not None and previous["type"] == kind
            command_id = previous["id"] if same and previous else str(new_id())
            entry = dict(
                command, id=command_id, application_id=str(app_id), type=kind, version=str(new_id())
            )
            entry.setdefault("description", "")
            entry.setdefault("options", [])
            entry.setdefault("default_member_permissions", None)
            entry.setdefault("nsfw", False)
            if scope is not None:
                entry["guild_id"] = str(scope)
            stored[command["name"]] = entry
        self.scopes[scope] = stored
        self.sync_count += 1
        return list(stored.values())

    def list(self, scope: Scope) -> list[Payload]:
        return list(self.scopes.get(scope, {}).values())

    def find(self, name: str, guild_id: int | None, *, forge: bool = False) -> Payload | None:
        """Guild commands win over global ones; DMs only see global commands, and only those
        allowed in DMs unless `forge` (what a modified client or a stale cache can send)."""
        if guild_id is not None and name in self.scopes.get(guild_id, {}):
            return self.scopes[guild_id][name]
        command = self.scopes.get(None, {}).get(name)
        if command is not None and guild_id is None and not forge:
            contexts = command.get("contexts") or [0, 1]
            if 1 not in contexts or command.get("dm_permission") is False:
                return None
        return command


class Resolver:
    """Collects the `resolved` block that Discord sends for user, channel and role options."""

    def __init__(self, guild: Guild | None) -> None:
        self.guild = guild
        self.data: dict[str, dict[str, Payload]] = {}

    def user(self, value: User | Member | int, users: dict[int, User]) -> str:
        user = value.user if isinstance(value, Member) else value
        if isinstance(user, int):
            found = users.get(user)
            if found is None:
                _fail(f"unknown user id {user}")
            user = found
        self.data.setdefault("users", {})[str(user.id)] = user.payload()
        member = self.guild.members.get(user.id) if self.guild else None
        if member is not None:
            member_data = member.payload(with_user=False, with_permissions=True)
            self.data.setdefault("members", {})[str(user.id)] = member_data
        return str(user.id)

    def channel(self, value: Channel | int, channels: dict[int, Channel]) -> str:
        channel = channels.get(value) if isinstance(value, int) else value
        if channel is None:
            _fail(f"unknown channel id {value}")
        entry: Payload = {
            "id": str(channel.id),
            "type": channel.type,
            "permissions": str((1 << 51) - 1),
        }
        entry["name"] = channel.name or ""
        if channel.guild_id is not None:
            entry["guild_id"] = str(channel.guild_id)
        self.data.setdefault("channels", {})[str(channel.id)] = entry
        return str(channel.id)

    def role(self, value: Role | int) -> str:
        role = self.guild.roles.get(value) if isinstance(value, int) and self.guild else value
        if not isinstance(role, Role):
            _fail(f"unknown role {value!r}")
        self.data.setdefault("roles", {})[str(role.id)] = role.payload()
        return str(role.id)


def build_command_data(
    command: Payload,
    path: list[str],
    values: dict[str, Any],
    resolver: Resolver,
    world: tuple[dict[int, User], dict[int, Channel]],
    *,
    focused: str | None = None,
) -> Payload:
    """The `data` of an APPLICATION_COMMAND or AUTOCOMPLETE interaction for `/name sub ... `."""
    label = "/" + " ".join([command["name"], *path])
    schema: list[Payload] = command.get("options") or []
    leaf_holder: Payload = {}
    top: Payload = {"id": command["id"], "name": command["name"], "type": command.get("type", 1)}
    current = top
    for part in path:
        option = next(
            (o for o in schema if o["name"] == part and o["type"] in (1, 2)),
            None,
        )
        if option is None:
            names = [o["name"] for o in schema if o["type"] in (1, 2)]
            raise CommandError(f"{label}: no subcommand {part!r} (registered: {names})")
        nested: Payload = {"name": part, "type": option["type"], "options": []}
        current["options"] = [nested]
        current = nested
        schema = option.get("options") or []
    if any(o["type"] in (1, 2) for o in schema):
        names = [o["name"] for o in schema if o["type"] in (1, 2)]
        raise CommandError(f"{label} is a group: name one of its subcommands {names}")
    leaf_holder = current
    registered = [o["name"] for o in schema]
    unknown = set(values) - set(registered)
    if unknown:
        raise CommandError(f"{label}: unknown options {sorted(unknown)} (registered: {registered})")
    if focused is not None and focused not in {o["name"] for o in schema}:
        raise CommandError(f"{label}: cannot focus unknown option {focused!r}")
    options: list[Payload] = []
    for option in schema:
        name = option["name"]
        if name == focused:
            if not option.get("autocomplete"):
                raise CommandError(f"{label}: option {name!r} has no autocomplete")
            raw = values.get(name, "")
            options.append(
                {"name": name, "type": option["type"], "value": str(raw), "focused": True}
            )
            continue
        if name not in values:
            if option.get("required") and focused is None:
                raise CommandError(f"{label}: required option {name!r} is missing")
            continue
        value = _convert(label, option, values[name], resolver, world)
        options.append({"name": name, "type": option["type"], "value": value})
    leaf_holder["options"] = options
    if resolver.data:
        top["resolved"] = resolver.data
    return top


def _convert(
    label: str,
    option: Payload,
    value: Any,
    resolver: Resolver,
    world: tuple[dict[int, User], dict[int, Channel]],
) -> Any:
    kind, name = option["type"], option["name"]
    where = f"{label}: option {name!r}"
    if kind == OPT_STRING:
        text = str(value)
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(text) <= high:
            raise CommandError(f"{where}: length must be {low}..{high}")
        return _check_choice(where, option, text)
    if kind in (OPT_INTEGER, OPT_NUMBER):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CommandError(f"{where}: expected a number, got {value!r}")
        if kind == OPT_INTEGER and int(value) != value:
            raise CommandError(f"{where}: expected an integer, got {value!r}")
        number = int(value) if kind == OPT_INTEGER else float(value)
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and number < low) or (high is not None and number > high):
            raise CommandError(f"{where}: {number} is outside {low}..{high}")
        return _check_choice(where, option, number)
    if kind == OPT_BOOLEAN:
        return bool(value)
    if kind == OPT_USER:
        return resolver.user(value, world[0])
    if kind == OPT_CHANNEL:
        return resolver.channel(value, world[1])
    if kind == OPT_ROLE:
        return resolver.role(value)
    if kind == OPT_MENTIONABLE:
        if isinstance(value, Role):
            return resolver.role(value)
        return resolver.user(value, world[0])
    raise CommandError(f"{where}: option type {kind} is not supported by the fake")


def _check_choice(where: str, option: Payload, value: Any) -> Any:
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise CommandError(f"{where}: {value!r} is not one of {[c['value'] for c in choices]}")
    return value


def _fail(message: str) -> NoReturn:
    raise CommandError(message)
