"""Presence counts each open page: a table is open for a user until their last page of it
closes, and a channel is watched until its last page closes."""

from __future__ import annotations

from bot.tables.presence import Presence


def test_a_table_is_open_for_a_user_until_their_last_page_closes() -> None:
    presence = Presence()
    heard: list[tuple[int, str]] = []
    stop = presence.listen(lambda table, user: heard.append((table, user)))
    presence.arrive(7, "alice")
    presence.arrive(7, "alice")  # a phone and a desktop
    assert presence.at_table(7, "alice") and presence.followed(7)
    presence.leave(7, "alice")
    assert presence.at_table(7, "alice")
    presence.leave(7, "alice")
    assert not presence.at_table(7, "alice") and not presence.followed(7)
    presence.leave(7, "alice")  # one close too many changes nothing
    assert heard == [(7, "alice"), (7, "alice")]  # told on the first arrival and last leave
    stop()
    presence.arrive(7, "bob")
    assert len(heard) == 2 and presence.users(7) == {"bob"}


def test_a_channel_is_watched_until_its_last_page_closes() -> None:
    presence = Presence()
    assert not presence.watching() and not presence.watches("100")
    presence.look("100")
    presence.look("100")
    presence.look("200")
    presence.look_away("100")
    assert presence.watches("100") and presence.watches("200") and presence.watching()
    presence.look_away("100")
    presence.look_away("200")
    assert not presence.watches("100") and not presence.watching()
    presence.look_away("100")  # one close too many changes nothing
    assert not presence.watching() and not presence.watches("100")
