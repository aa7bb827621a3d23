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


class StoreUnavailable(StoreError):
    """The database cannot be opened or created where the settings put it."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(
            f"cannot open or create the database at {where} ({reason}): set GIN_DB to a file "
            "in a folder the bot may write to (in Docker: under the /data volume, the default)"
        )
        self.where = where
        self.reason = reason


class StoreClosed(StoreError):
    """The store was closed while it was opening (the bot stopped during start-up)."""
