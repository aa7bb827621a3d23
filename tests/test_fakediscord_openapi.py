"""The fake refuses what Discord's published spec and documented limits refuse, and says where."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.conftest import violations_report
from tests.fakediscord import FakeDiscord
from tests.fakediscord.openapi import ALLOWANCES, DiscordSpec, Violation

TOKEN = "fake-bot-token"
MESSAGES = "/api/v10/channels/123/messages"
CALLBACK = "/api/v10/interactions/456/a-token/callback"


@pytest.fixture(scope="module")
def spec() -> DiscordSpec:
    return DiscordSpec.load()


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def one(violations: list[Violation]) -> Violation:
    assert len(violations) == 1, violations
    return violations[0]


def test_a_well_formed_message_passes(spec: DiscordSpec) -> None:
    body = {
        "content": "Your turn",
        "embeds": [{"title": "Hand", "description": "7♦ 8♦ 9♦", "color": 0x2E7D32}],
        "components": [row(button("gin:mv:1:2:draw"))],
        "allowed_mentions": {"parse": [], "users": [42]},
    }
    assert spec.check("POST", MESSAGES, {}, body) == []


def test_a_custom_id_of_101_characters_is_refused_with_its_path(spec: DiscordSpec) -> None:
    body = {"components": [row(button("x" * 100), button("y" * 101))]}
    found = one(spec.check("POST", MESSAGES, {}, body))
    assert found.route == "POST /channels/{channel_id}/messages"
    assert found.where == "body.components[0].components[1].custom_id"
    assert found.rule == "maxLength: 100"
    assert "101 characters" in found.value


def test_26_select_options_are_refused(spec: DiscordSpec) -> None:
    options = [{"label": f"card {i}", "value": str(i)} for i in range(26)]
    select = {"type": 3, "custom_id": "gin:sel:1", "options": options}
    body = {"type": 4, "data": {"flags": 64, "components": [row(select)]}}
    found = one(spec.check("POST", CALLBACK, {"with_response": "1"}, body))
    assert found.where == "body.data.components[0].components[0].options"
    assert found.rule == "maxItems: 25"
    assert "26 items" in found.value
    body["data"]["components"][0]["components"][0]["options"] = options[:25]
    assert spec.check("POST", CALLBACK, {"with_response": "1"}, body) == []


def test_an_embed_description_of_4097_characters_is_refused(spec: DiscordSpec) -> None:
    body = {"type": 7, "data": {"embeds": [{"description": "d" * 4097}]}}
    found = one(spec.check("POST", CALLBACK, {}, body))
    assert (found.where, found.rule) == ("body.data.embeds[0].description", "maxLength: 4096")


def test_an_integer_option_past_2_53_minus_1_is_refused(spec: DiscordSpec) -> None:
    option = {"type": 4, "name": "match", "description": "Which match", "max_value": 2**53}
    command = {"name": "gin", "description": "Play", "type": 1, "options": [option]}
    found = one(spec.check("PUT", "/api/v10/applications/1/commands", {}, [command]))
    assert found.where == "body[0].options[0].max_value"
    assert found.rule == "maximum: 9007199254740991"
    option["max_value"] = 2**53 - 1
    assert spec.check("PUT", "/api/v10/applications/1/commands", {}, [command]) == []


def test_an_unknown_route_is_refused(spec: DiscordSpec) -> None:
    found = one(spec.check("POST", "/api/v10/channels/1/gin", {}, {}))
    assert (found.route, found.where) == ("POST /channels/1/gin", "route")
    assert one(spec.check("PUT", "/api/v10/users/@me", {}, {})).where == "route"  # no PUT


def test_path_and_query_parameters_are_checked(spec: DiscordSpec) -> None:
    found = spec.check("GET", "/api/v10/channels/general/messages", {"limit": "500"}, None)
    assert [(v.where, v.rule) for v in found] == [
        ("path.channel_id", "pattern: ^(0|[1-9][0-9]*)$"),
        ("query.limit", "maximum: 100"),
    ]
    unknown = one(spec.check("GET", "/api/v10/channels/1/messages", {"newest": "1"}, None))
    assert (unknown.where, unknown.rule) == ("query.newest", "not a parameter of this route")


def test_a_literal_segment_wins_over_a_parameter(spec: DiscordSpec) -> None:
    found = spec.find("PATCH", "/api/v10/webhooks/1/tok/messages/@original")
    assert found is not None and found[0].template.endswith("/messages/@original")
    found = spec.find("GET", "/api/v10/users/@me")
    assert found is not None and found[0].template == "/users/@me"


def test_unknown_fields_are_refused_by_name(spec: DiscordSpec) -> None:
    found = one(spec.check("POST", MESSAGES, {}, {"content": "hi", "colour": 3}))
    assert (found.where, found.rule) == ("body.colour", "unknown field")


def test_inside_a_union_the_branch_the_value_was_meant_for_is_explained(
    spec: DiscordSpec,
) -> None:
    # A button (type 2) in a row: the report speaks of the button, not of every other kind
    # of component the row might have held.
    body = {"components": [row({"type": 2, "style": 1, "label": "x" * 81, "custom_id": "a"})]}
    found = one(spec.check("POST", MESSAGES, {}, body))
    assert (found.where, found.rule) == ("body.components[0].components[0].label", "maxLength: 80")


def test_the_named_allowances_and_nothing_else(spec: DiscordSpec) -> None:
    emoji = {"id": 1234, "name": "gin_7D"}
    select = {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": "7", "value": "7", "emoji": emoji}],
    }
    body = {"components": [row(select)], "allowed_mentions": {"users": [5], "roles": [6]}}
    assert spec.check("POST", MESSAGES, {}, body) == []
    button = {"type": 2, "style": 1, "label": "7", "custom_id": "b", "emoji": emoji}
    assert spec.check("POST", MESSAGES, {}, {"components": [row(button)]}) == []
    # An integer snowflake where no allowance names it is refused.
    reference = {"message_reference": {"message_id": 1234}}
    found = one(spec.check("POST", MESSAGES, {}, reference))
    assert found.where == "body.message_reference.message_id"
    # Booleans as 1/0 in the query strings discord.py sends them in, and only there.
    assert spec.check("POST", CALLBACK, {"with_response": "1"}, {"type": 6}) == []
    assert one(spec.check("POST", CALLBACK, {"with_response": "yes"}, {"type": 6})).where == (
        "query.with_response"
    )
    # tts: false on an edit is ignored by Discord; tts: true is not an edit's to make.
    edit = "/api/v10/webhooks/1/tok/messages/@original"
    assert spec.check("PATCH", edit, {}, {"content": "x", "tts": False}) == []
    assert one(spec.check("PATCH", edit, {}, {"content": "x", "tts": True})).where == "body.tts"
    assert all(a.reason for a in ALLOWANCES)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN) as fake:
        yield fake


async def _post(fake: FakeDiscord, path: str, body: Any) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {TOKEN}", "Content-Type": "application/json"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(fake.root_url + path, data=json.dumps(body), headers=headers) as response,
    ):
        return response.status, await response.json()


async def test_the_fake_refuses_a_bad_body_and_keeps_the_violation(fake: FakeDiscord) -> None:
    owner = fake.add_user("owner")
    channel = fake.add_channel(fake.add_guild("Room", owner), "gin")
    status, answer = await _post(
        fake, f"/api/v10/channels/{channel.id}/messages", {"components": [row(button("z" * 101))]}
    )
    assert status == 400 and answer["code"] == 50035
    # Nested by field as Discord reports it (discord.py shows "In components.0...").
    reason = answer["errors"]["components"]["0"]["components"]["0"]
    assert "maxLength: 100" in reason["custom_id"]["_errors"][0]["message"]
    assert fake.channel_messages(channel) == []
    [violation] = fake.take_violations()
    assert violation.where == "body.components[0].components[0].custom_id"
    assert fake.violations == []


async def test_a_2001_character_message_is_a_violation_of_the_documented_limit(
    fake: FakeDiscord,
) -> None:
    owner = fake.add_user("owner")
    channel = fake.add_channel(fake.add_guild("Room", owner), "gin")
    status, _ = await _post(
        fake, f"/api/v10/channels/{channel.id}/messages", {"content": "c" * 2001}
    )
    assert status == 400
    [violation] = fake.take_violations()
    assert violation.rule == "documented limit" and "2000" in violation.value
    status, _ = await _post(
        fake, f"/api/v10/channels/{channel.id}/messages", {"content": "c" * 2000}
    )
    assert status == 200 and fake.violations == []


async def test_the_fake_refuses_a_route_discord_does_not_have(fake: FakeDiscord) -> None:
    status, _ = await _post(fake, "/api/v10/applications/1/gin-tables", {})
    assert status == 404
    assert one(fake.take_violations()).where == "route"


async def test_a_planned_fault_is_no_violation(fake: FakeDiscord) -> None:
    owner = fake.add_user("owner")
    channel = fake.add_channel(fake.add_guild("Room", owner), "gin")
    fake.inject_fault("POST", "/messages", status=400, code=50035)
    status, _ = await _post(fake, f"/api/v10/channels/{channel.id}/messages", {"content": "hi"})
    assert status == 400 and fake.violations == []


def test_the_report_fails_a_test_with_route_path_rule_and_value() -> None:
    violation = Violation("POST /channels/{channel_id}/messages", "body.content", "maxLength", "x")
    report = violations_report([violation] * 22)
    assert report is not None
    assert "POST /channels/{channel_id}/messages: body.content: maxLength (got x)" in report
    assert "and 2 more" in report
    assert violations_report([]) is None
