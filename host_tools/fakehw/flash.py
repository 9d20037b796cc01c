"""A virtual flash file system for the simulator: files are in memory, each in pages.

Only what the firmware uses: `open(path, mode)` with r/rb/w/wb/a/ab, read, write, flush,
close, the context manager, plus `rename` and `remove`. Runs on CPython and MicroPython.

A file is `Pages`: bytearrays of PAGE bytes, as a flash holds a file in pages.
One bytearray per file would do on CPython, but under MicroPython (where the simulator's
files live in the same heap as the firmware) a bytearray grows by exactly what is
appended, so every journal record asked for one free piece the size of the whole journal
and left the old one to be cut up by small objects: a long game's journal ran out of one
piece at 12 KB in a 1 MB heap that had 430 KB free (a Kami game of 17 rounds). Pages
never need a piece larger than PAGE. `files[path]` still reads like a bytearray: len,
bytes(), indexing and slicing, extend, item assignment; a test may also store a plain
bytearray there.
"""

PAGE = 256  # bytes: a flash page (the Pico's littlefs programs 256-byte pages)
RUN = 16  # pages per list: a list never holds more than RUN pointers


class Pages:
    """A file's bytes in pages of PAGE bytes, each made whole at once (a page that grew
    by its writes would cut the heap up as the file did), listed in runs of RUN pages (one
    list of every page would again grow into one large piece); the file's length is `n`."""

    def __init__(self, data=b""):
        self.runs = []
        self.n = 0
        self.extend(data)

    @property
    def pages(self):
        return [page for run in self.runs for page in run]

    def _page(self, p):
        return self.runs[p // RUN][p % RUN]

    def extend(self, data):
        i = 0
        n = len(data)
        while i < n:
            off = self.n % PAGE
            p = self.n // PAGE
            if off == 0 and p == len(self.runs) * RUN:
                self.runs.append([])
            if off == 0 and p % RUN == len(self.runs[-1]):
                self.runs[-1].append(bytearray(PAGE))
            k = min(PAGE - off, n - i)
            self._page(p)[off:off + k] = data[i:i + k]
            i += k
            self.n += k

    def __len__(self):
        return self.n

    def _bounds(self, s):
        n = self.n
        a = 0 if s.start is None else s.start
        b = n if s.stop is None else s.stop
        if a < 0:
            a = max(0, n + a)
        if b < 0:
            b = max(0, n + b)
        return min(a, n), min(b, n)

    def __getitem__(self, k):
        if isinstance(k, slice):
            if k.step not in (None, 1):
                raise ValueError("pages are read in one direction")
            a, b = self._bounds(k)
            out = bytearray()
            while a < b:
                page = self._page(a // PAGE)
                off = a % PAGE
                take = min(PAGE - off, b - a)
                out.extend(page[off:off + take])
                a += take
            return bytes(out)
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("index out of range")
        return self._page(k // PAGE)[k % PAGE]

    def __setitem__(self, k, value):
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("index out of range")
        self._page(k // PAGE)[k % PAGE] = value

    def tobytes(self):
        return self[0:self.n]

    def __bytes__(self):
        return self.tobytes()

    def __iter__(self):
        return iter(self.tobytes())

    def __eq__(self, other):
        if isinstance(other, Pages):
            other = other.tobytes()
        return self.tobytes() == bytes(other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "Pages(%r)" % (self.tobytes(),)


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
            self.data = fs.files[path] = Pages()
        elif mode[0] == "a":
            if path not in fs.files:
                fs.files[path] = Pages()
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
