"""The Activity's side of the bot: a web page inside Discord that plays the channel's table.

``app`` serves the page, the OAuth2 code exchange and the websockets; ``auth`` says who is at
the other end of a socket; ``hub`` sends each socket its view after every change; ``view``
makes those views; ``protocol`` holds every frame's schema. Started by the bot only when
``GIN_WEB_PORT`` is set.
"""

from __future__ import annotations

from typing import Any

from bot.web.app import WEB, WebServer
from bot.web.auth import BotInstances, DiscordAuth

__all__ = ["WEB", "WebServer", "web_server"]


def web_server(bot: Any) -> WebServer:
    """The web server of a logged-in bot (its application id is the Activity's client id)."""
    web = bot.config.web
    auth = DiscordAuth(str(bot.application_id), web.client_secret, BotInstances(bot))
    return WebServer(bot.service, bot.service.presence, auth, host=web.host, port=web.port)
