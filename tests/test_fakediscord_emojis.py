"""The fake's application emojis, driven through the real discord.py client: routes and limits."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, patch_discord
from tests.fakediscord.models import png_bytes
from tests.fakediscord.validation import EMOJI_IMAGE_LIMIT, EMOJI_NAME_TAKEN

TOKEN = "fake-emoji-token"
LIST = "GET /applications/{}/emojis"
CREATE = "POST /applications/{}/emojis"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A discord.py client logged in to the fake (REST only: emojis need no gateway)."""
    with patch_discord(fake.http_base, fake.gateway_url):
        client = await logged_in()
        try:
            yield client
        finally:
            await client.close()
    assert fake.unknown_routes == []


async def logged_in(**options: Any) -> discord.Client:
    client = discord.Client(intents=discord.Intents.none(), **options)
    await client.login(TOKEN)
    return client


async def refused(fake: FakeDiscord, name: str, image: bytes) -> discord.HTTPException:
    """The error creating this emoji gets (it must fail)."""
    with patch_discord(fake.http_base, fake.gateway_url):
        client = await logged_in()
        try:
            with pytest.raises(discord.HTTPException) as caught:
                await client.create_application_emoji(name=name, image=image)
        finally:
            await client.close()
    return caught.value


def field_codes(fake: FakeDiscord) -> dict[str, list[str]]:
    """The Discord error codes per field of the fake's last error answer."""
    *_, body = fake.errors[-1]
    return {name: [e["code"] for e in found["_errors"]] for name, found in body["errors"].items()}


async def test_create_then_list(fake: FakeDiscord, client: discord.Client) -> None:
    image = png_bytes(2, 2, (200, 0, 0))
    created = await client.create_application_emoji(name="gin_7H", image=image)
    assert created.name == "gin_7H"
    assert created.is_application_owned()
    assert str(created) == f"<:gin_7H:{created.id}>"
    assert created.require_colons and not created.managed and not created.animated
    assert created.available
    assert created.user is not None and created.user.id == fake.bot.id
    [listed] = await client.fetch_application_emojis()
    assert (listed.id, listed.name) == (created.id, "gin_7H")
    [stored] = fake.application_emojis()
    assert stored.image == image and stored.content_type == "image/png"
    assert stored.payload() == {
        "id": str(created.id),
        "name": "gin_7H",
        "roles": [],
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
        "user": fake.bot.payload(),
    }
    assert await created.read() == image  # served at Emoji.url by the fake's CDN
    assert fake.rest.requests[CREATE] == 1
    assert fake.rest.requests[LIST] == 1


async def test_fetch_rename_and_delete(fake: FakeDiscord, client: discord.Client) -> None:
    created = await client.create_application_emoji(name="gin_KS", image=png_bytes())
    fetched = await client.fetch_application_emoji(created.id)
    assert fetched.name == "gin_KS"
    renamed = await fetched.edit(name="gin_KC")
    assert renamed.name == "gin_KC" and renamed.id == created.id
    assert [e.name for e in fake.application_emojis()] == ["gin_KC"]
    await renamed.delete()
    assert fake.application_emojis() == []
    assert await client.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound) as caught:
        await client.fetch_application_emoji(created.id)
    assert caught.value.code == 10014
    counted = fake.rest.requests
    assert counted["PATCH /applications/{}/emojis/{}"] == 1
    assert counted["DELETE /applications/{}/emojis/{}"] == 1
    assert counted["GET /applications/{}/emojis/{}"] == 2


async def test_emojis_outlive_the_bot(fake: FakeDiscord) -> None:
    with patch_discord(fake.http_base, fake.gateway_url):
        first = await logged_in()
        made = await first.create_application_emoji(name="gin_back", image=png_bytes())
        await first.close()
        second = await logged_in()
        try:
            listed = await second.fetch_application_emojis()
        finally:
            await second.close()
    assert [(e.id, e.name) for e in listed] == [(made.id, "gin_back")]


@pytest.mark.refused_on_purpose
@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("a", "BASE_TYPE_BAD_LENGTH"),
        ("x" * 33, "BASE_TYPE_BAD_LENGTH"),
        ("gin-7H", "STRING_TYPE_REGEX"),
        ("gin 7H", "STRING_TYPE_REGEX"),
        ("gin_7♥", "STRING_TYPE_REGEX"),
    ],
)
async def test_bad_names_are_refused(fake: FakeDiscord, name: str, code: str) -> None:
    error = await refused(fake, name, png_bytes())
    assert (error.status, error.code) == (400, 50035)
    assert "In name:" in error.text
    assert field_codes(fake) == {"name": [code]}
    assert fake.application_emojis() == []


async def test_names_of_2_and_32_characters_are_fine(client: discord.Client) -> None:
    for name in ("ab", "Z" * 32, "gin_10H", "_9"):
        assert (await client.create_application_emoji(name=name, image=png_bytes())).name == name


async def test_a_name_is_unique_per_application(fake: FakeDiscord, client: discord.Client) -> None:
    await client.create_application_emoji(name="gin_7H", image=png_bytes())
    with pytest.raises(discord.HTTPException) as caught:
        await client.create_application_emoji(name="gin_7H", image=png_bytes(1, 1, (9, 9, 9)))
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert field_codes(fake) == {"name": [EMOJI_NAME_TAKEN]}
    other = await client.create_application_emoji(name="gin_8H", image=png_bytes())
    with pytest.raises(discord.HTTPException):
        await other.edit(name="gin_7H")
    assert field_codes(fake) == {"name": [EMOJI_NAME_TAKEN]}
    assert sorted(e.name for e in fake.application_emojis()) == ["gin_7H", "gin_8H"]
    assert (await other.edit(name="gin_8H")).name == "gin_8H"  # its own name is no clash


async def test_png_gif_jpeg_and_webp_are_taken(fake: FakeDiscord, client: discord.Client) -> None:
    images = {
        "png": png_bytes(),
        "gif": b"GIF89a" + bytes(20),
        "jpeg": b"\xff\xd8\xff\xe0" + bytes(20),
        "webp": b"RIFF\x00\x00\x00\x00WEBPVP8 " + bytes(20),
    }
    for name, image in images.items():
        await client.create_application_emoji(name=name, image=image)
    types = {e.name: e.content_type for e in fake.application_emojis()}
    assert types == {n: f"image/{n}" for n in images}
    gif = fake.application_emoji("gif")
    assert gif is not None and gif.animated


@pytest.mark.refused_on_purpose
async def test_the_image_must_be_at_most_256_kib(fake: FakeDiscord, client: discord.Client) -> None:
    exactly = png_bytes() + bytes(EMOJI_IMAGE_LIMIT - len(png_bytes()))
    assert len(exactly) == EMOJI_IMAGE_LIMIT
    await client.create_application_emoji(name="biggest", image=exactly)
    error = await refused(fake, "too_big", exactly + b"\x00")
    assert (error.status, error.code) == (400, 50035)
    assert field_codes(fake) == {"image": ["BINARY_TYPE_MAX_SIZE"]}
    assert [e.name for e in fake.application_emojis()] == ["biggest"]


@pytest.mark.refused_on_purpose
@pytest.mark.parametrize(
    "image",
    [
        "",
        "iVBORw0KGgo=",  # base64 without the data: prefix
        "data:image/bmp;base64," + base64.b64encode(b"BM" + bytes(20)).decode(),
        "data:image/png;base64,not base64!",
        "data:image/png;base64," + base64.b64encode(b"plain text, not a picture").decode(),
    ],
)
async def test_the_image_must_be_an_image_data_uri(fake: FakeDiscord, image: str) -> None:
    with patch_discord(fake.http_base, fake.gateway_url):
        client = await logged_in()
        try:
            with pytest.raises(discord.HTTPException) as caught:
                await client.http.create_application_emoji(fake.app_id, "gin_QD", image)
        finally:
            await client.close()
    assert (caught.value.status, caught.value.code) == (400, 50035)
    codes = field_codes(fake)["image"]
    assert codes == (["BASE_TYPE_REQUIRED"] if not image else ["IMAGE_INVALID"])
    assert fake.application_emojis() == []


@pytest.mark.refused_on_purpose
async def test_both_fields_are_reported_at_once(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {TOKEN}"}
    url = f"{fake.http_base}/applications/{fake.app_id}/emojis"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"name": "x"}, headers=headers) as response,
    ):
        assert response.status == 400
        assert (await response.json())["code"] == 50035
    expected = {"name": ["BASE_TYPE_BAD_LENGTH"], "image": ["BASE_TYPE_REQUIRED"]}
    assert field_codes(fake) == expected
    assert fake.application_emojis() == []


async def test_at_most_2000_emojis(fake: FakeDiscord, client: discord.Client) -> None:
    for number in range(1999):
        fake.add_application_emoji(f"seeded_{number}")
    await client.create_application_emoji(name="the_last", image=png_bytes())
    with pytest.raises(discord.HTTPException) as caught:
        await client.create_application_emoji(name="one_more", image=png_bytes())
    assert (caught.value.status, caught.value.code) == (400, 30008)
    assert len(await client.fetch_application_emojis()) == 2000
    await (await client.fetch_application_emoji(fake.application_emojis()[0].id)).delete()
    assert (await client.create_application_emoji(name="one_more", image=png_bytes())).name


async def test_another_application_is_unknown(fake: FakeDiscord, client: discord.Client) -> None:
    made = fake.add_application_emoji("gin_AS")
    other = fake.app_id + 1
    calls = [
        client.http.get_application_emojis(other),
        client.http.create_application_emoji(other, "gin_2S", "data:image/png;base64,AA=="),
        client.http.get_application_emoji(other, made.id),
        client.http.edit_application_emoji(other, made.id, payload={"name": "gin_3S"}),
        client.http.delete_application_emoji(other, made.id),
    ]
    for call in calls:
        with pytest.raises(discord.NotFound) as caught:
            await call
        assert caught.value.code == 10002
    assert [e.name for e in fake.application_emojis()] == ["gin_AS"]


async def test_without_the_token_nothing_is_listed(fake: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{fake.http_base}/applications/{fake.app_id}/emojis") as resp,
    ):
        assert resp.status == 401


async def test_faults_and_rate_limits_apply(fake: FakeDiscord, client: discord.Client) -> None:
    rule = fake.inject_fault("GET", "/emojis", status=503)
    with pytest.raises(discord.DiscordServerError):
        await client.fetch_application_emojis()
    assert rule.hits == 1
    refusal = fake.inject_fault("POST", "/emojis", status=403, code=50013)
    with pytest.raises(discord.Forbidden):
        await client.create_application_emoji(name="gin_JH", image=png_bytes())
    assert refusal.hits == 1 and fake.application_emojis() == []
    limit = fake.inject_rate_limit("POST", "/emojis", count=2, retry_after=0.01)
    made = await client.create_application_emoji(name="gin_JH", image=png_bytes())
    assert limit.hits == 2 and made.name == "gin_JH"
    assert fake.rest.requests[CREATE] == 4  # refused, twice limited, created
    assert fake.rest.requests[LIST] == 1


async def test_a_long_rate_limit_raises_when_the_client_caps_waits(fake: FakeDiscord) -> None:
    fake.inject_rate_limit("POST", "/emojis", retry_after=120.0)
    with patch_discord(fake.http_base, fake.gateway_url):
        client = await logged_in(max_ratelimit_timeout=30.0)
        try:
            with pytest.raises(discord.RateLimited) as caught:
                await client.create_application_emoji(name="gin_JH", image=png_bytes())
        finally:
            await client.close()
    assert caught.value.retry_after == 120.0
    assert fake.application_emojis() == []
