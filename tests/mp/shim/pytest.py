"""The sliver of pytest the rules tests use, so that the same test modules run inside
the MicroPython unix port (see tests/mp/run_tests.py). Not used under CPython."""

_params = {}  # test function -> (argument names, values): MicroPython functions take no attributes


class _Mark:
    def parametrize(self, names, values):
        def deco(fn):
            _params[fn] = ([n.strip() for n in names.split(",")], values)
            return fn
        return deco

    def __getattr__(self, name):  # @pytest.mark.slow and friends: no effect here
        return lambda fn: fn


mark = _Mark()


def parameters(fn):
    return _params.get(fn)


class raises:
    def __init__(self, exc):
        self.exc = exc

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError("DID NOT RAISE %s" % self.exc.__name__)
        return issubclass(kind, self.exc)
