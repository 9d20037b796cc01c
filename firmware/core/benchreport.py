"""The board's own benchmark as the link's `bench` command answers it: the figures a
`core.loopstats.LoopStats` keeps, as one JSON-able object (see loopstats for what each is).

Loaded for an answer and given back to the heap after it (core.link's `cmd_bench`): a board
in play records its figures all the time but is asked for them seldom, so only the
recording (loopstats) stays loaded (issue 20: the heap's margin).
"""

from core.loopstats import AI_RING, HEAD, LONG_SLICE_US, RING


def series(stats, s, scale=1):
    """{"n", "p50", "p95", "max"} of the series at offset `s` of `stats` (values divided by
    `scale`), and "total"; p50 and p95 over its ring (its layout: core.loopstats)."""
    v = stats.v
    n, most, total, k = stats.head(s)
    vals = sorted(v[s + HEAD + j] for j in range(k))
    out = {"n": n}
    if k:
        out["p50"] = _num(vals[(k - 1) // 2], scale)
        out["p95"] = _num(vals[(k * 95 - 1) // 100], scale)
        out["max"] = _num(most, scale)
        out["total"] = _num(total, scale)
    return out


def _num(v, scale):
    return v if scale == 1 else round(v / scale, 2)


def _task(stats, t):
    return {"name": t.name, "period_ms": t.period_ms, "period": series(stats, t.period, 1000),
            "busy": series(stats, t.busy, 1000), "overruns": t.overruns}


def report(stats, heap=None):
    """The figures of `stats` (times in ms); `heap`: stats.heap_now()'s, if taken."""
    out = {"free_low": stats.heap_low if stats.heap_low >= 0 else None,
           "gc_seen": stats.head(stats.gc_stall)[0],
           "gc_stall_ms": series(stats, stats.gc_stall, 1000),
           "gc_quiet_ms": series(stats, stats.gc_quiet, 1000),
           "gc_looks": {"n": stats.looks,
                        "total": _num(stats.look_s * 1000000 + stats.look_us, 1000)}}
    if heap:
        out.update(heap)
    return {"event": "bench", "ring": RING, "ai_ring": AI_RING,
            "tasks": [_task(stats, t) for t in stats.tasks_],
            "reader": {"poll_ms": series(stats, stats.poll_us, 1000),
                       "poll_steps": series(stats, stats.poll_steps),
                       "uid_to_frame_ms": series(stats, stats.uid_frame, 1000)},
            "frame_out_ms": series(stats, stats.show, 1000),
            "ai": {"elapsed_ms": series(stats, stats.ai_elapsed, 1000),
                   "compute_ms": series(stats, stats.ai_compute, 1000),
                   "slices": series(stats, stats.ai_slices),
                   "outside_ms": series(stats, stats.ai_outside, 1000),
                   "gc_ms": series(stats, stats.ai_gc, 1000),
                   "long_slices": {"over_ms": LONG_SLICE_US / 1000, "n": stats.ai_long,
                                   "of": stats.ai_ticks}},
            "heap": out}
