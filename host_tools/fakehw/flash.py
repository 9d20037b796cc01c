"""A virtual flash file system for the simulator: files are bytearrays in memory.

Only what the firmware uses: `open(path, mode)` with r/rb/w/wb/a/ab, read, write, flush,
close, the context manager, plus `rename` and `remove`. Runs on CPython and MicroPython.
"""


class VFile:
    def __init__(self, fs, path, mode):
        self.fs = fs
        self.path = path
        self.binary = "b" in mode
        self.writing = mode[0] in "wa"
        if mode[0] == "r":
            if path not in fs.files:
                raise OSError(2, "no such file: " + path)
            self.data = fs.files[path]
        elif mode[0] == "w":
            self.data = fs.files[path] = bytearray()
        elif mode[0] == "a":
            if path not in fs.files:
                fs.files[path] = bytearray()
            self.data = fs.files[path]
        else:
            raise ValueError("mode " + mode)
        self.pos = 0

    def read(self, n=-1):
        end = len(self.data) if n < 0 else min(len(self.data), self.pos + n)
        out = bytes(self.data[self.pos:end])
        self.pos = end
        return out if self.binary else out.decode()

    def write(self, data):
        if not self.writing:
            raise OSError(9, "not open for writing")
        if isinstance(data, str):
            data = data.encode()
        self.fs.write_bytes(self.data, data)
        return len(data)

    def flush(self):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class PowerCut(BaseException):
    """The power failed during a flash write. A BaseException, so firmware code that
    handles errors cannot swallow it: the simulator catches it and boots again."""


class VirtualFlash:
    """Files in RAM. `cut_at(n, k)`: the n-th write from now (1 = the next) stores only
    its first k bytes, then the power fails (PowerCut)."""

    def __init__(self):
        self.files = {}
        self.bytes_written = 0
        self.writes = 0
        self.cut = None  # (write number, bytes that reach the flash)

    def open(self, path, mode="r"):
        return VFile(self, path, mode)

    def cut_at(self, n, k):
        self.cut = (self.writes + n, k)

    def write_bytes(self, target, data):
        self.writes += 1
        if self.cut is not None and self.writes == self.cut[0]:
            part = data[:self.cut[1]]
            target.extend(part)
            self.bytes_written += len(part)
            self.cut = None
            raise PowerCut()
        target.extend(data)
        self.bytes_written += len(data)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(2, "no such file: " + old)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2, "no such file: " + path)
        del self.files[path]


class DiskFlash:
    """The board's flash as a folder on the host: what the firmware writes stays out of
    the heap (for memory measurements under MicroPython)."""

    def __init__(self, root):
        import os
        self.os = os
        self.root = root.rstrip("/")
        try:
            os.mkdir(self.root)
        except OSError:
            pass

    def open(self, path, mode="r"):
        return open(self.root + path, mode)

    def rename(self, old, new):
        self.os.rename(self.root + old, self.root + new)

    def remove(self, path):
        self.os.remove(self.root + path)
