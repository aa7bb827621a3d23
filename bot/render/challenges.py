"""Challenges, the rules at a table and a server's settings."""

from __future__ import annotations

from bot.gin.settings import OklahomaAce, Settings, Variant
from bot.i18n import LANGUAGES, tr, tr_n
from bot.render.common import Panel, on_off
from bot.server_settings import ServerSettings, duration


def rules_panel(settings: Settings) -> Panel:
    s = settings
    if s.knock_limit:
        knock = tr(
            "**Knock** when your deadwood is {limit} or less: your opponent lays off cards on "
            "your melds; lower deadwood scores the difference. If the defender ties or beats "
            "you it's an **undercut** (+{bonus}).",
            limit=s.knock_limit,
            bonus=s.undercut_bonus,
        )
    else:
        knock = tr(
            "**Knock** when your deadwood is 0 (this table plays gin only): your opponent lays "
            "off cards on your melds; lower deadwood scores the difference. If the defender "
            "ties or beats you it's an **undercut** (+{bonus}).",
            bonus=s.undercut_bonus,
        )
    if s.big_gin:
        gin = tr(
            "**Gin** (no deadwood): +{bonus} and no lay-offs. **Big Gin** (all 11 cards meld): "
            "on, bonus {big_gin}.",
            bonus=s.gin_bonus,
            big_gin=s.big_gin_bonus,
        )
    else:
        gin = tr(
            "**Gin** (no deadwood): +{bonus} and no lay-offs. **Big Gin** (all 11 cards meld): "
            "off.",
            bonus=s.gin_bonus,
        )
    body = "\n".join(
        [
            tr(
                "Each player gets 10 cards. On your turn draw one (stock or discard pile), then "
                "discard one. Make **melds**: sets of 3–4 of a rank, or runs of 3+ in one suit "
                "(aces low). Unmatched cards are **deadwood** (A=1, faces=10)."
            ),
            knock,
            gin,
            tr(
                "The hand is void if the stock runs down to {stock} without a knock.",
                stock=s.void_stock,
            ),
            tr(
                "First to **{target}** wins; game bonus {game_bonus} (doubled for a shutout), "
                "{box_bonus} per hand won.",
                target=s.target,
                game_bonus=s.game_bonus,
                box_bonus=s.box_bonus,
            ),
            *variant_rules(s),
        ]
    )
    return Panel(tr("Gin Rummy rules at this table"), body, tr("Commands: /gin hand, /gin draw, …"))


def rules_summary(rules: Settings) -> list[tuple[str, str]]:
    """Every rule setting as (label, value), in the order players care about."""
    big_gin = tr("on, bonus {bonus}", bonus=rules.big_gin_bonus) if rules.big_gin else on_off(False)
    # TRANSLATORS: the knock limit setting at 0: only gin ends a hand.
    knock = str(rules.knock_limit) if rules.knock_limit else tr("0 (gin only)")
    if rules.next_dealer.value == "loser":
        next_dealer = tr("the loser of the hand")
    elif rules.next_dealer.value == "winner":
        next_dealer = tr("the winner of the hand")
    else:
        # TRANSLATORS: the next dealer setting: the players take turns to deal.
        next_dealer = tr("alternate")
    # TRANSLATORS: three players: who deals next and sits the hand out ("the next player
    # (rotate)": the deal passes to the left every hand).
    sit_out = tr("the loser") if rules.sit_out == "loser" else tr("the next player (rotate)")
    # TRANSLATORS: elimination, played with several decks: whether a set may hold identical cards.
    set_suits = tr("allowed") if rules.set_suits == "any" else tr("no, suits must differ")
    return [
        (tr("Two-player variant"), variant_text(rules)),
        (tr("Target"), str(rules.target)),
        (tr("Gin bonus"), str(rules.gin_bonus)),
        (tr("Undercut bonus"), str(rules.undercut_bonus)),
        (tr("Big Gin"), big_gin),
        (tr("Knock limit"), knock),
        (tr("Hand void with stock left"), str(rules.void_stock)),
        (tr("Next dealer"), next_dealer),
        (tr("Game bonus / box bonus"), f"{rules.game_bonus} / {rules.box_bonus}"),
        (tr("Three players: next to deal and sit out"), sit_out),
        (
            tr("Teams: target / switch opponents"),
            f"{rules.team_target} / {on_off(rules.rotate_opponents)}",
        ),
        (tr("Elimination: sets of identical cards"), set_suits),
    ]


def variant_rules(s: Settings) -> list[str]:
    """The two-player variant's rules, as the rules panel tells them (none for classic)."""
    if s.variant is Variant.OKLAHOMA:
        if s.ace is OklahomaAce.GIN:
            text = tr(
                "**Oklahoma:** the first upcard of each hand sets that hand's knock limit (its "
                "value, face cards 10); an ace upcard means gin only."
            )
        else:
            text = tr(
                "**Oklahoma:** the first upcard of each hand sets that hand's knock limit (its "
                "value, face cards 10); an ace upcard means a knock with 1 or less."
            )
        if s.spades_double:
            spades = tr(
                "A spade upcard doubles every score of its hand (the box bonuses count once)."
            )
            text = f"{text} {spades}"
        return [text]
    if s.variant is Variant.HOLLYWOOD:
        return [
            tr(
                "**Hollywood:** three games are scored at once. Your first hand won scores in "
                "game 1, your second in games 1 and 2, the later ones in all three (only games "
                "still open). Each game ends at {target} with its own bonuses; win two of the "
                "three to win the match.",
                target=s.target,
            )
        ]
    return []


def variant_text(s: Settings) -> str:
    """The variant as a few words: `classic`, `Oklahoma (ace: gin only, spades double)`."""
    if s.variant is Variant.OKLAHOMA:
        if s.ace is OklahomaAce.GIN:
            if s.spades_double:
                return tr("Oklahoma (ace: gin only, spades double)")
            return tr("Oklahoma (ace: gin only)")
        if s.spades_double:
            return tr("Oklahoma (ace: knock at 1, spades double)")
        return tr("Oklahoma (ace: knock at 1)")
    if s.variant is Variant.HOLLYWOOD:
        return tr("Hollywood (three games at once)")
    # TRANSLATORS: the two-player variant: plain Gin Rummy, neither Oklahoma nor Hollywood.
    return tr("classic")


def challenge_panel(
    challenger: str, opponent: str, server: ServerSettings, changed: set[str] | None = None
) -> Panel:
    """The public challenge, with the settings the opponent is accepting."""
    rules = server.rules
    if rules.variant is Variant.CLASSIC:
        invitation = tr_n(
            "{challenger} challenges {opponent} to a game of Gin Rummy to {n} point.",
            "{challenger} challenges {opponent} to a game of Gin Rummy to {n} points.",
            rules.target,
            challenger=challenger,
            opponent=opponent,
        )
    else:
        # TRANSLATORS: {variant} is "Oklahoma (ace: gin only)" or "Hollywood (three games at
        # once)".
        invitation = tr_n(
            "{challenger} challenges {opponent} to a game of {variant} Gin Rummy to {n} point.",
            "{challenger} challenges {opponent} to a game of {variant} Gin Rummy to {n} points.",
            rules.target,
            challenger=challenger,
            opponent=opponent,
            variant=variant_text(rules),
        )
    terms = [
        tr("Gin bonus {bonus}", bonus=rules.gin_bonus),
        tr("undercut bonus {bonus}", bonus=rules.undercut_bonus),
        tr("Big Gin on ({bonus})", bonus=rules.big_gin_bonus)
        if rules.big_gin
        else tr("Big Gin off"),
        tr("the upcard sets the knock limit")
        if rules.variant is Variant.OKLAHOMA
        else tr("knock at {limit} or less", limit=rules.knock_limit),
        # TRANSLATORS: the turn timer, "2 minutes per turn".
        tr("{duration} per turn", duration=duration(server.turn_seconds)),
    ]
    lines = [invitation, " · ".join(terms)]
    if changed:
        # The settings' names as the challenge command's options spell them (kept in English).
        names = ", ".join(sorted(n.replace("_", " ") for n in changed))
        lines.append(tr("*Changed for this match:* {settings}", settings=names))
    lines.append(
        tr(
            "{opponent}, press **Accept** or **Decline** (or use `/gin accept` / `/gin decline`). "
            "The challenge expires in {duration}.",
            opponent=opponent,
            duration=duration(server.challenge_seconds),
        )
    )
    return Panel(tr("Gin Rummy challenge"), "\n".join(lines))


def settings_panel(server: ServerSettings) -> Panel:
    rows = [
        *rules_summary(server.rules),
        (tr("Turn timer"), duration(server.turn_seconds)),
        (tr("Challenge expiry"), duration(server.challenge_seconds)),
        (tr("Discard hint in private hands"), on_off(server.hints)),
        (tr("Matches before being ranked"), str(server.provisional_matches)),
        (tr("Showdown pictures"), on_off(server.images)),
        (
            # TRANSLATORS: the setting of the language the channel's messages are in.
            tr("Channel language"),
            LANGUAGES.get(server.language) or tr("the server's Discord language"),
        ),
    ]
    # TRANSLATORS: a settings line, "**Target:** 100".
    body = "\n".join(tr("**{label}:** {value}", label=label, value=value) for label, value in rows)
    return Panel(
        tr("Gin Rummy settings for this server"),
        body,
        tr(
            "Members with Manage Server can change them with /gin settings set. "
            "Matches already started keep their settings."
        ),
    )
