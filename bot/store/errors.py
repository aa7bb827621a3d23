"""Store exceptions the bot reacts to; anything else is a real fault."""


class StoreError(Exception):
    """Base class for conditions a caller is expected to handle."""


class ChannelBusy(StoreError):
    """The channel already has an open table (a challenge or a match in play)."""

    def __init__(self, channel_id: str, match_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an open table ({match_id})")
        self.channel_id = channel_id
        self.match_id = match_id


class StaleMove(StoreError):
    """The match is not where the caller thought: wrong status or seq. Nothing was written."""

    def __init__(self, match_id: int, detail: str) -> None:
        super().__init__(f"match {match_id}: {detail}")
        self.match_id = match_id
        self.detail = detail
