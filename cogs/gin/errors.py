"""One way to answer an interaction and one funnel for every error a handler meets.

Slash commands, buttons, menus and page buttons all answer through ``send`` and ``update``,
which work whether the interaction was answered, deferred or not yet touched, and all their
errors end in ``handle_error``: a game error gets its private explanation; anything else is
logged with its context and answered with a short private apology. A watchdog answers any
interaction still unanswered ``WATCHDOG_SECONDS`` after Discord made it (one no handler picked
up, or one whose handler is slow), so nobody ever sees "This interaction failed".

Discord's 3 s run from when it made the interaction, which its id tells, not from when this
process heard of it: a busy process (a long queue on the loop, the gateway behind) hears of
it late. So the watchdog's time is counted from the interaction's id, and a handler that
takes up an interaction already ``LATE_SECONDS`` old defers it at once, before any database
work, rather than answer it after that work, too late.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.gin import GinError
from bot.gin.phrase import Phrase
from bot.i18n import N_, tr, translate
from cogs.gin.languages import heard

log = logging.getLogger(__name__)

ERROR_COLOUR = discord.Colour.red()
# Discord gives an interaction 3 s from its making; a slow handler's is deferred before, with
# time left for that call to arrive from a busy process.
WATCHDOG_SECONDS = 1.5
# An interaction this old when its handler takes it up is deferred at once: the process is
# busy, and the handler's work would take it past the watchdog's time.
LATE_SECONDS = 1.0
DISCORD_SECONDS = 3.0  # older than this, Discord refuses any answer

# Keys in ``Interaction.extras``.
HANDLED = "gin_handled"  # one of our handlers took the interaction
ANSWERING = "gin_answering"  # an answer is on its way (set before its HTTP call)
WATCH = "gin_watch"  # the watchdog's timer, dropped once the interaction has its answer
DEFERRING = "gin_deferring"  # the watchdog is deferring it: answers wait for that to finish
THINKING = "gin_thinking"  # deferred with "thinking…": True when private, False when public
COMMITTED = "gin_committed"  # what a handler changed for good (a move), said with tr()

# In a slash command's ``extras``: its answer is public when all goes well, so a watchdog
# deferral shows "thinking…" to the channel rather than to the player alone.
PUBLIC_ANSWER = "gin_public_answer"

NO_MENTIONS = discord.AllowedMentions.none()

# Sentences translated where they are shown (``refuse`` translates what it is given).
SORRY_NOTHING_CHANGED = N_("Sorry, something went wrong on my side. Nothing was changed.")
UNKNOWN_COMPONENT = N_(
    "That button or menu isn't one I can use (it may be from an old message). "
    "Use `/gin hand` for your latest hand, or `/gin table` to see the table."
)
NO_PRIVATE_MESSAGE = N_(
    "Gin commands work in a server channel, not in direct messages. Open the server "
    "and use `/gin` in the channel you want to play in."
)


def error_embed(reason: str) -> discord.Embed:
    """A refusal's embed; ``reason`` is already in the reader's language."""
    return discord.Embed(description=f"⚠️ {reason}", colour=ERROR_COLOUR)


async def _after_deferral(interaction: discord.Interaction[Any]) -> None:
    deferring = interaction.extras.get(DEFERRING)
    if deferring is not None:
        with contextlib.suppress(Exception):
            await deferring


@dataclass(frozen=True)
class Sent:
    """Where an answer went: the message it made, and whether it is the interaction's own
    response (which its token may edit as "@original"), not a follow-up."""

    message_id: int | None
    by_callback: bool


async def send(
    interaction: discord.Interaction[Any],
    *,
    embeds: list[discord.Embed],
    view: discord.ui.View | None = None,
    ephemeral: bool = True,
    content: str | None = None,
    allowed_mentions: discord.AllowedMentions = NO_MENTIONS,
) -> Sent:
    """Answer with a new message, or follow up when the interaction was answered already.

    After a "thinking…" deferral the first follow-up takes the place of that message and
    keeps its privacy; an answer meant to be seen otherwise (a public challenge after a
    private deferral, a private refusal after a public one) deletes it and follows up anew.
    """
    interaction.extras[ANSWERING] = True
    await _after_deferral(interaction)
    kwargs: dict[str, Any] = {
        "embeds": embeds,
        "ephemeral": ephemeral,
        "allowed_mentions": allowed_mentions,
    }
    if content:
        kwargs["content"] = content
    if view is not None:
        kwargs["view"] = view
    if not interaction.response.is_done():
        response = await interaction.response.send_message(**kwargs)
        return Sent(_message_id(response), by_callback=True)
    thinking = interaction.extras.pop(THINKING, None)
    if thinking is not None and thinking != ephemeral:
        with contextlib.suppress(discord.NotFound):
            await interaction.delete_original_response()
    message = await interaction.followup.send(wait=True, **kwargs)
    return Sent(message.id, by_callback=False)


def _message_id(response: discord.InteractionCallbackResponse[Any] | None) -> int | None:
    return None if response is None else response.message_id


async def update(
    interaction: discord.Interaction[Any],
    *,
    embeds: list[discord.Embed],
    view: discord.ui.View | None,
) -> None:
    """Replace the message a component is on (after a deferral, through the original)."""
    interaction.extras[ANSWERING] = True
    await _after_deferral(interaction)
    if interaction.response.is_done():
        await interaction.edit_original_response(content=None, embeds=embeds, view=view)
        return
    await interaction.response.edit_message(content=None, embeds=embeds, view=view)


def answers_publicly(interaction: discord.Interaction[Any]) -> bool:
    """Whether the slash command's answer is public when all goes well (``PUBLIC_ANSWER``)."""
    command = interaction.command
    return bool(command is not None and command.extras.get(PUBLIC_ANSWER))


async def refuse(interaction: discord.Interaction[Any], reason: str | Phrase | GinError) -> None:
    """A private, friendly refusal; nothing was changed.

    ``reason`` is translated here, in the language in force: a template marked with ``N_``
    (a constant such as ``UNKNOWN_COMPONENT``), or a ``GinError`` or ``Phrase`` with its
    template and values. A sentence made with ``tr`` already may be given too: it is looked
    up as it is and, found in no catalogue, comes back unchanged; with no values to fill in
    nothing is formatted, so braces in it (a name, a card) are safe.
    """
    await send(interaction, embeds=[error_embed(translate(reason))])


def _describe(interaction: discord.Interaction[Any]) -> str:
    """Where an error happened, for the log: no card or other hidden detail."""
    if interaction.command is not None:
        what = f"/{interaction.command.qualified_name}"
    else:
        data: dict[str, Any] = dict(interaction.data or {})
        what = f"component {str(data.get('custom_id', '?'))[:100]!r}"
    return (
        f"{what} from user {interaction.user.id} in channel {interaction.channel_id} "
        f"(guild {interaction.guild_id})"
    )


def unwrap(error: BaseException) -> BaseException:
    """The error a command raised, out of discord.py's wrapper."""
    return getattr(error, "original", None) or error


async def handle_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer an error privately: a game error with its reason, anything else with an
    apology (saying what was done when a move had been committed first)."""
    error = unwrap(error)
    if isinstance(error, GinError):
        await _answer_error(interaction, error)  # its template and values, translated
        return
    if isinstance(error, app_commands.NoPrivateMessage):
        await _answer_error(interaction, NO_PRIVATE_MESSAGE)
        return
    if isinstance(error, app_commands.TransformerError):
        # TRANSLATORS: {value} is what the player typed in a command's option.
        reason = tr(
            "I couldn't read “{value}”. Check that option and try again.", value=error.value
        )
        await _answer_error(interaction, reason)
        return
    log.error("unexpected error in %s", _describe(interaction), exc_info=error)
    committed = interaction.extras.get(COMMITTED)  # a sentence translated when it was set
    text = SORRY_NOTHING_CHANGED if committed is None else committed
    await _answer_error(interaction, text)


async def _answer_error(
    interaction: discord.Interaction[Any], reason: str | Phrase | GinError
) -> None:
    try:
        await refuse(interaction, reason)
    except (discord.HTTPException, discord.InteractionResponded) as failure:
        log.info("could not answer %s: %s", _describe(interaction), failure)


def taken(interaction: discord.Interaction[Any]) -> None:
    """One of our handlers has the interaction (a command, a button, a menu): if it is slow,
    the watchdog defers it for the handler instead of apologising for it; if it is late
    already, it is deferred now, while the handler does its work."""
    interaction.extras[HANDLED] = True
    heard(interaction)  # the answer and any error in the player's own language
    if _watched(interaction) and age(interaction) >= LATE_SECONDS:
        _defer_now(interaction)


def age(interaction: discord.Interaction[Any]) -> float:
    """Seconds since Discord made the interaction (the time in its id), by this machine's
    clock. A clock behind Discord's reads 0; one so far ahead that the interaction would be
    past answering (Discord would not have sent it) reads 0 too, so a wrong clock costs the
    watchdog's timing, never every answer."""
    waited = time.time() - interaction.created_at.timestamp()
    return waited if 0.0 < waited < DISCORD_SECONDS else 0.0


@asynccontextmanager
async def funnel(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Run a component handler: every error it raises gets its private answer."""
    taken(interaction)
    try:
        yield
    except Exception as error:
        await handle_error(interaction, error)
    finally:
        disarm(interaction)


# The watchdogs' deferrals under way (a task is kept only while something refers to it).
_RESCUES: set[asyncio.Task[None]] = set()


def watch(interaction: discord.Interaction[Any]) -> None:
    """Arm the watchdog for one interaction (commands, components and modals only), to go
    off ``WATCHDOG_SECONDS`` after Discord made it."""
    if not _watched(interaction) or WATCH in interaction.extras:
        return
    delay = max(0.0, WATCHDOG_SECONDS - age(interaction))
    loop = asyncio.get_running_loop()
    interaction.extras[WATCH] = loop.call_later(delay, _defer_now, interaction)


def _watched(interaction: discord.Interaction[Any]) -> bool:
    """Commands, components and modals: what a watchdog may defer (not autocomplete)."""
    return interaction.type in (
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    )


def _defer_now(interaction: discord.Interaction[Any]) -> None:
    """Defer the interaction (or apologise for it, if no handler took it) unless its answer
    is on its way or a deferral is already."""
    extras = interaction.extras
    if interaction.response.is_done() or extras.get(ANSWERING) or extras.get(DEFERRING):
        return
    handle = extras.get(WATCH)
    if handle is not None:
        handle.cancel()
    task = asyncio.create_task(_rescue(interaction), name="gin-watchdog")
    extras[DEFERRING] = task
    _RESCUES.add(task)
    task.add_done_callback(_RESCUES.discard)


def disarm(interaction: discord.Interaction[Any]) -> None:
    """Drop the watchdog of an interaction that has its answer: its timer would otherwise
    keep the whole interaction in memory for the full wait, at every move."""
    if interaction.response.is_done():
        handle = interaction.extras.get(WATCH)
        interaction.extras[WATCH] = None  # answered before the watchdog was armed: stay off
        if handle is not None:
            handle.cancel()


async def _rescue(interaction: discord.Interaction[Any]) -> None:
    """An interaction nearly out of time: defer it for a handler still at work (it answers
    later through the same token), or apologise when no handler took it at all."""
    try:
        if interaction.extras.get(HANDLED):
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
                return
            private = not answers_publicly(interaction)
            await interaction.response.defer(ephemeral=private, thinking=True)
            interaction.extras[THINKING] = private
            return
        log.info("nothing handled %s; answering it", _describe(interaction))
        await interaction.response.send_message(
            embed=error_embed(translate(UNKNOWN_COMPONENT)),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
    except (discord.HTTPException, discord.InteractionResponded) as failure:
        log.info("could not rescue %s: %s", _describe(interaction), failure)
