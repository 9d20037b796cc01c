"""The board's file system as the game uses it (littlefs on the Pico; the simulator and
the tests pass a virtual flash with the same three methods), and the one way the game
replaces a file whole.
"""

import os


class Storage:
    """The board's file system: open, rename, remove."""

    def open(self, path, mode="r"):
        return open(path, mode)

    def rename(self, old, new):
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)


def replace(fs, path, data):
    """Write `data` (bytes or text) as `path` on `fs`: to `path.new` first, then renamed
    over `path`, so a power cut leaves the old file or the new one, never a mix."""
    tmp = path + ".new"
    with fs.open(tmp, "wb" if isinstance(data, (bytes, bytearray)) else "w") as f:
        f.write(data)
    fs.rename(tmp, path)
