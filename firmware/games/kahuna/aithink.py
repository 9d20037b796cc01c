"""The computer player's slices as an asyncio task (games.kahuna.ai's `Player`). Nothing on
the board uses it (its solo game runs the slices from its own loop: games.kahuna.solo), so
it is not kept in ai.py, whose code a Kahuna board keeps loaded from boot (issue 20: the
heap)."""

from core.ticks import ticks_add as _ticks_add


async def think(player, obs, within_ms=3000, slice_ms=5):
    """Think about `obs` inside an asyncio loop: slices of `slice_ms`, yielding to the
    other tasks (frames, inputs, the link, the watchdog) between them; the answer comes
    within `within_ms` at the latest (the best turn found by then)."""
    import asyncio
    player.start(obs, _ticks_add(player.clock(), within_ms))
    while not player.step(slice_ms):
        await asyncio.sleep(0)
    return player.best()
