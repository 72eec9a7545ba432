"""The Discord adapter's settings (DISCORD__*), composed into the bot's settings by bot/config.py."""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr, model_validator


class DiscordSettings(BaseModel):
    token: SecretStr | None = None
    guild_id: int | None = None
    sync_commands: bool = True  # sync the slash commands at start-up (to guild_id when set, else globally)
    shard_count: int | None = Field(default=None, ge=1, le=10_000)
    """Shards over all replicas (discord.py's AutoShardedClient); unset: one process, unsharded."""
    shard_ids: list[int] | None = None
    """This replica's shards, e.g. [0, 1] (DISCORD__SHARD_IDS='[0,1]'); default: all of shard_count."""

    @model_validator(mode="after")
    def _shards(self) -> DiscordSettings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("shard_ids needs shard_count (the number of shards over all replicas)")
            bad = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if bad or not self.shard_ids or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError(
                    f"shard_ids must be distinct shard numbers from 0 to {self.shard_count - 1} "
                    f"(shard_count {self.shard_count}); got {self.shard_ids}"
                )
        return self
