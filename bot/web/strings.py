"""The words of the Activity's page, in the reader's language: sent with the welcome, so the
page carries no catalogue of its own and every sentence stays in the bot's catalogues."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import tr

# Each entry: the key the page looks it up by, and the sentence (made in the language in
# force when the welcome is sent). ``{n}``, ``{name}``, ``{time}`` are filled in by the page.
_STRINGS: dict[str, Callable[[], str]] = {
    # TRANSLATORS: the Activity's page: the face-down pile players draw from.
    "stock": lambda: tr("Stock"),
    # TRANSLATORS: the Activity's page: the face-up pile of discards.
    "pile": lambda: tr("Discard pile"),
    # TRANSLATORS: the Activity's page: the discard pile holds no card.
    "pile_empty": lambda: tr("empty"),
    # TRANSLATORS: the Activity's page: how many cards are left in the stock.
    "stock_left": lambda: tr("{n} left"),
    # TRANSLATORS: the Activity's page: the heading over the player's own cards.
    "your_hand": lambda: tr("Your hand"),
    # TRANSLATORS: the Activity's page: the player's unmatched cards and their value.
    "deadwood": lambda: tr("Deadwood {n}"),
    # TRANSLATORS: the Activity's page: how many cards another player holds.
    "cards_held": lambda: tr("{n} cards"),
    # TRANSLATORS: the Activity's page: a seat played by the bot.
    "bot": lambda: tr("bot"),
    # TRANSLATORS: the Activity's page: a seat that is not in this hand (three players).
    "sitting_out": lambda: tr("sits out"),
    # TRANSLATORS: the Activity's page: an elimination player who went out.
    "out": lambda: tr("out"),
    # TRANSLATORS: the Activity's page: a player who left the match.
    "left": lambda: tr("left"),
    # TRANSLATORS: the Activity's page: a teams seat's side.
    "team": lambda: tr("Team {n}"),
    # TRANSLATORS: the Activity's page: the time left for the player's turn ("4:32 left").
    "time_left": lambda: tr("{time} left"),
    # TRANSLATORS: the Activity's page: the heading of the last moves.
    "log": lambda: tr("Last moves"),
    # TRANSLATORS: the Activity's page: a card just drawn, marked in the hand.
    "drawn": lambda: tr("just drawn"),
    # TRANSLATORS: the Activity's page: the player watches and plays no seat.
    "watching": lambda: tr("You are watching this table."),
    # TRANSLATORS: the Activity's page: the connection to the bot is being made again.
    "reconnecting": lambda: tr("Connection lost: reconnecting…"),
    # TRANSLATORS: the Activity's page: before the table appears.
    "connecting": lambda: tr("Connecting to the table…"),
    # TRANSLATORS: the Activity's page: closes the showdown's panel.
    "close": lambda: tr("Close"),
    # TRANSLATORS: the Activity's page: the button that asks for a rematch.
    "rematch": lambda: tr("Rematch"),
    # TRANSLATORS: the Activity's page: accepts a challenge.
    "accept": lambda: tr("Accept"),
    # TRANSLATORS: the Activity's page: declines a challenge.
    "decline": lambda: tr("Decline"),
    # TRANSLATORS: the Activity's page: how to play with the keyboard, read by screen readers.
    "keys": lambda: tr(
        "Keys: S draws from the stock, P takes the discard pile, arrows move between your "
        "cards, Enter discards the chosen card, K knocks the best way."
    ),
    # TRANSLATORS: the Activity's page: a card of the player's hand, for a screen reader;
    # {card} is the card, {group} says where it lies ("in a meld", "deadwood").
    "card_in": lambda: tr("{card}, {group}"),
    # TRANSLATORS: the Activity's page: a card that is part of a meld, for a screen reader.
    "in_meld": lambda: tr("in a meld"),
    # TRANSLATORS: the Activity's page: a card that is not part of a meld.
    "in_deadwood": lambda: tr("deadwood"),
    # TRANSLATORS: the Activity's page: the page could not sign in with Discord.
    "auth_failed": lambda: tr(
        "Discord did not let me sign you in. Close the Activity and open it again."
    ),
}


def strings() -> dict[str, str]:
    """The page's words in the language in force."""
    return {key: make() for key, make in _STRINGS.items()}
