"""When each of the loop's timed tasks is due next, so that the board's own player can
tell between two slices of its thinking whether anything else is to run (main.py: it then
runs its next slice in the same turn of the asyncio loop, which costs as much as a short
tick, instead of yielding). A byte waiting on the link counts as something to run, and
`answer()` serves it at once: a task the loop resumes while a command waits answers it
before its own tick, ahead of the link's task (queued behind every task already due).
"""

from core.ticks import ticks_diff, ticks_ms


class Beat:
    """`stream` (optional): the link's input, polled for a waiting byte; `serve`
    (optional): reads and answers what waits on it (main.py's `serve_link`)."""

    def __init__(self, stream=None, serve=None):
        self.due = []  # ticks_ms at which each task is due next
        self.serve = serve
        self.poller = None
        if stream is not None:
            import select
            self.poller = select.poll()
            self.poller.register(stream, select.POLLIN)
            # MicroPython's ipoll allocates no list (CPython has only poll)
            self._poll = getattr(self.poller, "ipoll", None) or self.poller.poll

    def slot(self):
        """A place for one task's due time (due now until it says otherwise)."""
        self.due.append(ticks_ms())
        return len(self.due) - 1

    def free(self):
        """True when no task is due and no byte waits on the link."""
        now = ticks_ms()
        for d in self.due:
            if ticks_diff(d, now) <= 0:
                return False
        return not self.waiting()

    def waiting(self):
        """True when a byte waits on the link (its task has yet to read it)."""
        if self.poller is not None:
            for _ in self._poll(0):
                return True
        return False

    def answer(self):
        """A byte waiting on the link is served now (`serve`), by the task that asks,
        between two of its ticks; True if one was. The link's own task is woken by the
        asyncio loop's poll, queued behind every task already due (measured on the chip:
        a frame, the inputs, a reader poll, another slice, 4-15 ms), so the loop's tasks
        ask before their tick, the board's player after each slice."""
        if self.serve is None or not self.waiting():
            return False
        self.serve()
        return True
