"""Several bot processes on one database: which process shows a table, and who may act on it.

A process runs some shards of the whole bot (``GIN_SHARD_IDS`` of ``GIN_SHARD_COUNT``), and
Discord sends it the events of the guilds on those shards, plus, on shard 0, every DM. The
rules that keep the processes from stepping on each other:

- **Moves.** Any process may apply a move to any table: a slash command arrives at the
  process of the channel's guild, a DM button at shard 0's. The table service first makes
  the move on its own copy and records it with the one statement that writes a move only if
  it is the next move of the stored table (the row's update takes the row's lock and checks
  the count and the status, then commits): one round trip. If the stored table had moved
  on, or the move was refused (perhaps because our copy was behind), it is made once more
  inside ``Store.lock_table``: under the table's row lock (``SELECT … FOR UPDATE``) the
  stored move count is compared with ours, the table reloaded from the row if they differ,
  and the move checked, applied, recorded and committed. Only then is the player answered.
  Two clicks of one button, through two processes, queue on the row: the second finds the
  move made and is told so.
- **Challenges and lobbies.** Their buttons and commands come from the guild's channel, so
  they reach only the owner; only their expiry may be fired elsewhere. Each write of theirs
  is guarded by the status in the database (a challenge starts or closes only while it is
  still open), so one closed elsewhere is read again and its player told it is gone.
- **Messages.** The table's *owner* is the process whose shards include the table's guild
  (``Shards.covers``). The owner alone posts and edits the table's messages outside
  interaction answers: the public table message, showdowns, the result, and each player's
  private hand messages in DMs (turn alerts included). A process that is not the owner
  answers the interactions it received (the answer of a DM button edits that DM message, as
  Discord's answer to that click) and does nothing else on Discord for the table. So two
  processes never edit the same message in turn: the only other writer of a DM hand message
  is the answer to its own button, which the owner's next sync brings up to date.
- **News.** Every committed change is announced to the other processes (PostgreSQL
  ``NOTIFY``, see ``Store.watch``). A plain move (one that ends no hand) comes with the move
  itself, its clocks and a checksum of the state it left: a process whose copy stood just
  before makes the move itself, and keeps the result only if its checksum matches, else it
  reloads the table from the row, as it does for every other change. The owner then syncs
  the table's messages, so a DM move applied by shard 0's process shows on the public
  table at once, with the players' notes the move leaves; the mover's DM, already edited
  by the answer to their click, is left as it is. A process that neither owns the table
  nor receives DMs just drops it, and reads it again if it is ever needed.
- **Timers.** Any process that has a table loaded may fire its deadline, after claiming it
  in the database (``Store.claim_deadline``): one process wins and acts, inside the row lock
  like a move; the others wait for the news of its change, or for the claim to lapse if the
  winner died. So timers go on while an owner is down.
- **Display bookkeeping.** The message ids a table keeps in its display JSON are the owner's
  (it alone posts those messages); the turn clocks in the same JSON belong to whoever moved
  last, and are written with the move under the row lock. The owner's own saves keep the
  clocks as stored.

A killed process loses nothing acknowledged (every answer follows a commit). Its tables'
moves keep working through shard 0's process meanwhile, and their screens catch up when it
starts again (it reloads every open table and syncs the messages of the ones it owns).
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field

from bot.config import Shards
from bot.tables.model import Table

# How long a process's claim on a due deadline holds: enough to act on it, short enough that
# a process killed after claiming only delays that timer by this much.
CLAIM_SECONDS = 30.0


def _process_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True, slots=True)
class Fleet:
    """This process's place among the processes sharing one database."""

    shards: Shards
    name: str = field(default_factory=_process_name)  # who claims a deadline

    def shows(self, table: Table) -> bool:
        """Whether this process owns the table's messages: its guild is on our shards."""
        return self.shards.covers(_guild(table))

    @property
    def receives_dms(self) -> bool:
        """Shard 0 gets every DM interaction, whatever the table's guild."""
        return self.shards.covers(None)

    def keeps(self, table: Table) -> bool:
        """Whether this process needs the table in memory: it owns it, or gets its DMs."""
        return self.receives_dms or self.shows(table)


def _guild(table: Table) -> int:
    return int(table.guild_id) if table.guild_id.isdigit() else 0
